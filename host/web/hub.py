"""The hub between a source (a `play` session or a demo, host/web/sources.py) and the
pages open on it: the players' and the console's views, their token, and the watcher that
publishes them.

- The views: host/web/page_data.py's `gm_view`, and `player_view` from it (which never holds
  what the players must not see); the console's token is on no players' page.
- A watcher polls a cheap stamp of the session (WATCH_SECONDS) and sends the new views
  when it moved: typed commands, board presses, undo, `new` and the console's lines all
  show up within a moment. Each page gets its view whole once, then what changed.
- The console's token: kept in the game's journal (TOKEN_EVENT), so that `play --resume`
  keeps it.
- How each page's messages go out, what a page may send and how many may be open:
  host/web/sockets.py and host/web/ws_protocol.py (docs/reliability.md, "The web pages").
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import secrets as token_source
import sqlite3
import threading
import time
from typing import TYPE_CHECKING, Any

from adafruit_ticks import ticks_ms

from host.core.audience import Secrets
from host.web.board_leds import BoardLeds
from host.web.console import Console
from host.web.page_data import GM_ONLY, gm_view, player_view
from host.web.sockets import Page

if TYPE_CHECKING:
    from host.board.simulated_board import SimulatedBoard
    from host.core.session import Session
    from host.web.sources import Source

WATCH_SECONDS = 0.01  # how often the watcher looks for a change
IDLE_WATCH_SECONDS = 0.1  # how often it looks whether a page has opened
VIEW_SECONDS = 0.2  # views go out at most this often: the first of a burst at once
BOARD_SECONDS = 0.05  # how often it samples the simulated board's LEDs (board_leds.py)
TOKEN_EVENT = "web"  # the journal's event that keeps a game's console token


class Hub:
    """The live views and the sockets they go to. Each page gets its view whole once, then
    what changed (`patch`: the view's top-level keys that differ, the page merges them),
    and the simulated board's LEDs as a message of their own (`board`, host/web/board_leds.py)
    only when what they show changes."""

    def __init__(self, source: Source, token: str | None = None) -> None:
        self.source = source
        self.token = token if token is not None else kept_token(source)
        self._token_game: object = None  # the game whose journal holds the token
        # A campaign's table between fights, and the game's point it was made at.
        self._campaign: dict[str, Any] | None = None
        self._campaign_key: tuple = ()
        self.players: set[Page] = set()
        self.gms: set[Page] = set()
        self._wholes: list[str | None] = [None, None]  # the whole views, once made
        self.views: tuple[str, str] = ("", "")  # the last (player, gm) messages sent
        self._last: tuple[dict[str, Any], dict[str, Any]] | None = None
        # Views are numbered as they are built (under the source's lock): publish takes none
        # older than the last it took, so a view the watcher built before a `hide` or a
        # `health word` cannot land after the one built after it (a page opening then got
        # the exact health the console had just hidden).
        self._builds = 0
        self._published = 0
        self._stamp: tuple | None = None
        self._wake: asyncio.Future[None] | None = None
        self._board_at = 0.0
        self._view_at = -VIEW_SECONDS
        self.leds = BoardLeds()
        self.gm_console = Console(source)  # its lines, and the settings they make
        self.board = ""  # the last board message

    @property
    def secrets(self) -> Secrets:
        """What the players must not see: the session's (journalled, host/core/audience.py)."""
        return self.source.session().secrets

    # -- the views ----------------------------------------------------------------------
    def build(self) -> tuple[str, str]:
        """The whole (player, gm) views as messages, JSON text."""
        player, gm = self.views_now()
        return self._player_text({"type": "view", "view": player}), json.dumps(
            {"type": "view", "view": gm}
        )

    def views_now(self, console: bool = True) -> tuple[dict[str, Any], dict[str, Any]]:
        """The (player, gm) views as they are now (without `console`, the game master's
        lacks what only the console shows: no console is open), numbered (`Views.built`)."""
        source = self.source
        with source.lock():
            self._builds += 1
            built = self._builds
            session = source.session()
            self._keep_token(session)
            board = self._board_data(session)
            full = gm_view(
                session.ruleset,
                session.game,
                tuple(session.encounter.teams),
                self.secrets,
                source.log(),
                source.dice_lines(),
                source.odds(),
                board,
                self.gm_console.turn_timer(session),
                console=console,
            )
            full["hidden_unknown"] = sorted(
                set(self.secrets.hidden) - {f["name"] for f in full["fighters"]}
            )
            full["campaign"] = self._campaign_table(session, full["winner"])
        player = player_view(full)
        player["campaign"] = full["campaign"]
        assert not set(GM_ONLY) & set(player)
        # The console's URL is in play's log for the game master: never on the players' page.
        player["log"] = [line for line in player["log"] if self.token not in line]
        return Views((player, full), built)

    def _campaign_table(self, session: Any, winner: str | None) -> dict[str, Any] | None:
        """A campaign's table once its fight is over (host/core/campaign_stats.py), made
        again only when the game changes."""
        from host.core.campaign_stats import between_fights

        key = (getattr(session, "game_id", None), len(getattr(session, "done", ())), winner)
        if self._campaign_key != key:
            self._campaign_key = key
            self._campaign = between_fights(session) if winner is not None else None
        return self._campaign

    def _player_text(self, message: dict[str, Any]) -> str:
        text = json.dumps(message)
        if self.token in text:  # nowhere on the players' page
            text = text.replace(self.token, "(the console's token)")
        return text

    def _keep_token(self, session: Any) -> None:
        """The game's journal keeps the console's token (a game begun by `new` too), so
        that resuming it does: once the game has an action, so that a game quit before
        any is still left out of the journal as empty."""
        game = getattr(session, "game_id", None)
        if game != self._token_game and (getattr(session, "done", None) or []):
            self._token_game = game
            journal_token(session, self.token)

    def _board_data(self, session: Session) -> dict[str, Any]:
        sim = self.source.sim()
        if sim is None:
            return {"text": session.ruleset.device_grid(session.game, False)}
        return {"leds": True}  # drawn from the board's own messages

    @staticmethod
    def _pixels(sim: SimulatedBoard) -> list[list[tuple[int, int, int]]]:
        with sim.lock:
            return [list(row) for row in sim.grid()]

    # -- the watcher --------------------------------------------------------------------
    def kick(self) -> None:
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    def poll(self, loop: asyncio.AbstractEventLoop, stop: threading.Event) -> None:
        """The watcher's eyes, on a thread of its own: a look at the session's stamp every
        WATCH_SECONDS, and a wake for the watcher only when it moved (or the board's LEDs
        are due a look). A thread's sleep costs far less than the event loop waking 200
        times a second, with the session's thread waiting on the same GIL.

        It looks only when a look can send something: no page open, it rests (a page that
        opens gets its view from the watcher, kicked by the page's socket); while the view
        just sent holds the next one back (VIEW_SECONDS), it sleeps until then (or until
        the board's LEDs are due), since whatever moved meanwhile goes out then anyway."""
        seen: object = None
        board_at = 0.0
        pause = WATCH_SECONDS
        while not stop.wait(pause):
            pause = WATCH_SECONDS
            if not self.players and not self.gms:
                pause = IDLE_WATCH_SECONDS
                continue
            stamp = (self.source.stamp(), self.gm_console.settings)
            now = time.monotonic()  # the event loop's clock (loop.time()), as _view_at is
            board = self.source.sim() is not None
            due = board and now - board_at >= BOARD_SECONDS
            if due:
                board_at = now
            if stamp != seen or due:
                seen = stamp
                with contextlib.suppress(RuntimeError):  # the loop has closed
                    loop.call_soon_threadsafe(self.kick)
            held = self._view_at + VIEW_SECONDS - now
            if board:
                held = min(held, board_at + BOARD_SECONDS - now)
            pause = max(pause, held)

    async def watch(self) -> None:
        loop = asyncio.get_running_loop()
        stop = threading.Event()
        eyes = threading.Thread(target=self.poll, args=(loop, stop), daemon=True, name="web-poll")
        eyes.start()
        try:
            await self._watch(loop)
        finally:
            stop.set()

    async def _watch(self, loop: asyncio.AbstractEventLoop) -> None:
        timer: asyncio.TimerHandle | None = None
        self._wake = loop.create_future()
        while True:
            await self._wake
            # The next wake before this one's work: a kick while a view is drawn (a change
            # made meanwhile) must wake the watcher again, not find a wake already spent.
            self._wake = loop.create_future()
            if timer is not None:
                timer.cancel()
                timer = None
            if not self.players and not self.gms:
                continue
            now = loop.time()
            sim = self.source.sim()
            if sim is not None and now - self._board_at >= BOARD_SECONDS * 0.9:
                self._board_at = now
                pixels = self._pixels(sim)
                board = self.leds.sample(ticks_ms(), pixels)  # the board's own clock
                if board is not None:
                    self.publish_board(board)
            stamp = (self.source.stamp(), self.gm_console.settings)
            if stamp == self._stamp:
                continue
            if now - self._view_at < VIEW_SECONDS:  # the view after a burst's first: later
                timer = loop.call_at(self._view_at + VIEW_SECONDS, self.kick)
                continue
            self._stamp = stamp
            try:
                views = await asyncio.to_thread(self.views_now, bool(self.gms))
            except Exception as err:  # a view that cannot be drawn must not stop the server
                for page in list(self.gms):
                    page.reply(json.dumps({"type": "error", "text": str(err)}))
                continue
            if self.publish(views):  # a stamp that moved and changed nothing shown is free
                self._view_at = now

    def publish(self, views: tuple[dict[str, Any], dict[str, Any]]) -> bool:
        """Each page's outbox takes what changed (or the whole view, when the page has
        not yet had the last one); each page's own task sends it. False: nothing changed,
        or the views were built before the last taken (they are dropped)."""
        built = getattr(views, "built", None)
        if built is not None:
            if built < self._published:
                return False
            self._published = built
        player, gm = views
        old = self._last
        self._last = views
        self._wholes = [None, None]  # made when a page needs one
        sent = list(self.views)
        for n, (pages, view) in enumerate(((self.players, player), (self.gms, gm))):
            patch = patch_message(old[n] if old is not None else None, view)
            if patch is None:
                continue
            text = self._player_text(patch) if n == 0 else json.dumps(patch)
            sent[n] = text
            for page in list(pages):
                page.outbox.view(functools.partial(self.whole, n), text)
        moved = (sent[0], sent[1]) != self.views
        self.views = (sent[0], sent[1])
        return moved

    def whole(self, n: int) -> str:
        """The last view published, whole, as a message: the players' (0) or the console's."""
        made = self._wholes[n]
        if made is None:
            if self._last is None:
                return ""
            view = self._last[n]
            made = (
                self._player_text({"type": "view", "view": view})
                if n == 0
                else json.dumps({"type": "view", "view": view})
            )
            self._wholes[n] = made
        return made

    @property
    def wholes(self) -> tuple[str, str]:
        return self.whole(0), self.whole(1)

    def publish_board(self, board: dict[str, Any]) -> None:
        """The board's LEDs, to every page: what the players see on the table itself."""
        self.board = json.dumps(board)
        for page in list(self.players) + list(self.gms):
            page.outbox.board(self.board)

    def first(self, n: int) -> list[str]:
        """What a page that opens gets first: the whole view, and the board's LEDs."""
        return [text for text in (self.whole(n), self.board) if text]

    def has_console_parts(self) -> bool:
        """Whether the views last published hold the console's own parts (built only while
        a console is open)."""
        return self._last is not None and "commands" in self._last[1]

    def console(self, raw: str) -> dict[str, Any]:
        """One message from the console, and its reply (host/web/console.py)."""
        return self.gm_console.take(raw)


class Views(tuple):
    """The (player, gm) views, with the number of their build (Hub.views_now)."""

    built: int

    def __new__(cls, views: tuple[dict[str, Any], dict[str, Any]], built: int) -> Views:
        made = super().__new__(cls, views)
        made.built = built
        return made


def _changes(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """The top-level keys of `new` whose values differ from `old`'s (all, without one)."""
    if old is None:
        return dict(new)
    return {k: v for k, v in new.items() if old.get(k, _changes) != v}


def patch_message(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any] | None:
    """What changed from `old` to `new` as a patch (None: nothing): the top-level keys that
    differ (`view`), and of a list of entries as long as before (the fighters) only the
    entries that differ, by their place (`items`): a turn of 24 fighters changes two or
    three of them, and 20 pages were each sent all 24 (five times the bytes)."""
    changed = _changes(old, new)
    if not changed:
        return None
    message: dict[str, Any] = {"type": "patch", "view": changed}
    if old is None:
        return message
    items: dict[str, dict[str, Any]] = {}
    for key, now in list(changed.items()):
        was = old.get(key)
        if not (isinstance(was, list) and isinstance(now, list) and len(was) == len(now)):
            continue
        if not all(isinstance(entry, dict) for entry in now):
            continue
        differ = {
            str(i): entry
            for i, (before, entry) in enumerate(zip(was, now, strict=True))
            if before != entry
        }
        if len(differ) < len(now):
            items[key] = differ
            del changed[key]
    if items:
        message["items"] = items
    return message


def merged(view: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """`view` with a patch message applied, as the pages apply it (app.js, `patched`)."""
    whole = {**view, **message["view"]}
    for key, items in message.get("items", {}).items():
        entries = list(view[key])
        for place, entry in items.items():
            entries[int(place)] = entry
        whole[key] = entries
    return whole


def kept_token(source: Source) -> str:
    """The console's token: the one the game's journal keeps (so that a console left open
    rejoins after `play --resume`), else a new one (journalled by the Hub once the game
    has an action)."""
    session = source.session()
    journal, game = getattr(session, "journal", None), getattr(session, "game_id", None)
    if journal is not None and game is not None:
        kept = (journal.last_event(game, TOKEN_EVENT) or {}).get("token")
        if isinstance(kept, str) and 16 <= len(kept) <= 64 and kept.isascii():
            return kept
    return token_source.token_urlsafe(18)


def journal_token(session: Any, token: str) -> None:
    journal, game = getattr(session, "journal", None), getattr(session, "game_id", None)
    if journal is None or game is None or not getattr(journal, "writable", False):
        return
    if (journal.last_event(game, TOKEN_EVENT) or {}).get("token") == token:
        return
    from host.core.journal import JournalError

    # A journal that cannot take it: the token lasts as long as this server, as before.
    with contextlib.suppress(JournalError, sqlite3.Error):
        journal.append(game, TOKEN_EVENT, {"token": token})
