"""The pages' sockets on the server's side: what waits to go out to each page, how it is
sent, and how many pages may be open. What a view holds is the Hub's (host/web/hub.py).

- Every page has an Outbox of its own and a task that sends it, so a page never waits
  for another: the latest view only (a newer view replaces one not yet sent; a page that
  had every view before gets only what changed), the board's latest LEDs, and, for the
  console, its replies and errors in order between views (at most MAX_REPLIES waiting).
- A players' socket is read only to see it close: a message on it closes it (1008),
  HOLD_SECONDS later.
- A page whose socket takes nothing for STALL_SECONDS (a phone that left the Wi-Fi, a
  page that stopped reading) is dropped; it reconnects, and gets the latest view.
- At most MAX_PLAYERS players' pages and MAX_CONSOLES consoles: one more is accepted,
  told why in one line (`{"type": "notice", ...}`) and closed (1013, try again later).
- MAX_MESSAGE: the bytes of one message from any page, enforced by the WebSocket
  protocol (host/web/ws_protocol.py) before the message is read.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

MAX_PLAYERS = 64
MAX_CONSOLES = 4
MAX_MESSAGE = 4096  # the console's lines are at most 400 characters; the players send none
MAX_REPLIES = 32
STALL_SECONDS = 10.0
HOLD_SECONDS = 5.0  # before a players' page that sent something is closed
FULL = 1013  # close code: try again later
FULL_NOTICE = "{count} {what} are open, as many as this table allows: close one to open this"


class Outbox:
    """One page's messages not yet sent, in order. A view replaces the view waiting last, so
    a page that reads slowly gets the latest one and nothing piles up: a view comes as a
    patch (what changed since the view before) when the page has had every view before
    it, else whole. The board's LEDs wait in a slot of their own, the latest only."""

    def __init__(self) -> None:
        self._waiting: deque[tuple[bool, str]] = deque()  # (is it a view, text)
        self._board: str | None = None
        self._had_view = False
        self._ready = asyncio.Event()

    def view(self, whole: str | Callable[[], str], patch: str | None = None) -> None:
        """The next view: `whole` (or what makes it, called only when this page needs
        it), and `patch`, what changed since the view before."""
        if self._waiting and self._waiting[-1][0]:
            text = whole if isinstance(whole, str) else whole()
            self._waiting[-1] = (True, text)  # the patch it replaces was never sent
        elif patch and self._had_view:
            self._waiting.append((True, patch))
        else:
            self._waiting.append((True, whole if isinstance(whole, str) else whole()))
        self._had_view = True
        self._ready.set()

    def board(self, text: str) -> None:
        self._board = text
        self._ready.set()

    def message(self, text: str) -> bool:
        """A message that is not a view (a reply, an error); False when too many wait."""
        if sum(not view for view, _ in self._waiting) >= MAX_REPLIES:
            return False
        self._waiting.append((False, text))
        self._ready.set()
        return True

    def __len__(self) -> int:
        return len(self._waiting) + (self._board is not None)

    async def next(self) -> str:
        while not self._waiting and self._board is None:
            self._ready.clear()
            await self._ready.wait()
        if self._waiting:
            return self._waiting.popleft()[1]
        text, self._board = self._board, None
        assert text is not None
        return text


class Page:
    """One open page: its socket and its outbox."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.outbox = Outbox()
        self.sent = 0
        self.behind = False  # more replies waiting than MAX_REPLIES: it is dropped

    def reply(self, text: str) -> None:
        if not self.outbox.message(text):
            self.behind = True  # the sender, still busy with what waits, sees it next

    async def deliver(self) -> None:
        """Send the outbox until the socket fails, stalls or falls behind."""
        loop = asyncio.get_running_loop()
        me = asyncio.current_task()
        assert me is not None
        while True:
            text = await self.outbox.next()
            if self.behind:
                return
            # A timer, not wait_for: that wraps every send in a task of its own.
            stalled = loop.call_later(STALL_SECONDS, me.cancel)
            try:
                await self.ws.send_text(text)
            finally:
                stalled.cancel()
            self.sent += 1


Listen = Callable[[Page], Coroutine[None, None, tuple[int, str] | None]]


async def attend(
    ws: WebSocket, pages: set[Page], most: int, what: str, first: list[str], listen: Listen
) -> None:
    """Serve one page from its handshake to its end: `listen` reads it (returning the
    close code and reason it earned, or None when it went away) while its outbox is sent;
    whichever ends first ends the page. `pages` is where it is counted, `most` how many
    of `what` may be open at once."""
    if len(pages) >= most:
        await ws.accept()
        notice = FULL_NOTICE.format(count=most, what=what)
        await ws.send_text(json.dumps({"type": "notice", "text": notice}))
        await ws.close(FULL, f"{most} {what} are open")
        return
    page = Page(ws)
    # Before any await: a newer view published meanwhile replaces the whole one.
    for text in first:
        if text.startswith('{"type": "board"'):
            page.outbox.board(text)
        else:
            page.outbox.view(text)
    pages.add(page)  # counted before the handshake's await: the limit holds
    tasks: list[asyncio.Task] = []
    ending: tuple[int, str] | None = None
    try:
        await ws.accept()
        tasks = [asyncio.create_task(page.deliver()), asyncio.create_task(listen(page))]
        for task in tasks:
            task.add_done_callback(_settled)
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        sender, listener = tasks
        if listener in done:
            ending = listener.result()
        else:
            ending = (1008, "this page took nothing for too long: reload it")
    finally:
        pages.discard(page)
        for task in tasks:
            task.cancel()
    if ending is not None:
        with contextlib.suppress(Exception):
            await ws.close(*ending)
    # Not in `finally`: when the page itself is cancelled, waiting would be cancelled too.
    # Here, the server that stops finds no task of the page still pending.
    await asyncio.wait(tasks)


async def read_to_close(page: Page) -> tuple[int, str] | None:
    """A players' page is read only to see it close: it sends nothing, so whatever comes
    closes it (1008), HOLD_SECONDS later. Meanwhile nothing more is read from it: its TCP
    window fills, and a client that floods waits instead of connecting again at once."""
    if (await page.ws.receive())["type"] == "websocket.disconnect":
        return None
    await asyncio.sleep(HOLD_SECONDS)
    return 1008, "the players' page sends nothing"


def _settled(task: asyncio.Task) -> None:
    if not task.cancelled():
        task.exception()  # a socket gone mid-send ends its sender with an error: expected
