"""The web pages' sockets against careless and hostile clients (#27): a page that stops
reading, a page that sends what it should not, too many pages, a token that is not ASCII,
a console's socket opened from another site. The real server (uvicorn on a loopback port)
and real sockets where the transport is the point; Starlette's test client where only the
app's answer is. How fast is `turnlight bench`'s (host/lab/bench_web_load.py), not this."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from waiting import WAIT, until
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from host.core import registry
from host.core.session import Session
from host.lab.bench_web_load import frame_head, handshake
from host.web import sockets
from host.web.hub import Hub
from host.web.routes import STALE_CODE, make_app
from host.web.serving import WebServer
from host.web.sockets import Outbox
from host.web.sources import DemoLive

TOKEN = "the-token"


def _live() -> tuple[DemoLive, threading.RLock]:
    r = registry.get("korxsol")
    path = r.example_path()
    lock = threading.RLock()
    return DemoLive(
        Session(r.parse_encounter(path.read_text(), str(path)), 3), lock, lambda: None
    ), lock


@contextmanager
def served() -> Iterator[tuple[WebServer, DemoLive, threading.RLock]]:
    live, lock = _live()
    with WebServer(live, "127.0.0.1", 0) as web:
        yield web, live, lock


def ws_url(web: WebServer, path: str = "/ws") -> str:
    return f"ws://127.0.0.1:{web.port}{path}"


def never_reading(web: WebServer) -> socket.socket:
    """A players' socket that reads nothing after its handshake, with a receive buffer of
    4 KB: a phone that left the Wi-Fi, as TCP sees it."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", web.port))
    handshake(sock, "127.0.0.1", web.port, "/ws")
    return sock


def changes(live: DemoLive, lock: threading.RLock, count: int, first: int = 0) -> None:
    """`count` changes to the demo's log (numbered from `first`), each a line of 20 KB:
    views of ~250 KB (at most ten a second go out), more in all than a socket's buffers
    hold."""
    for n in range(first, first + count):
        with lock:
            live.say(f"change {n} " + "." * 20000)
        time.sleep(0.01)


def closed_code(ws: Any) -> int:
    """Read until the server closes `ws`; the code it closed with."""
    deadline = time.monotonic() + WAIT
    try:
        while time.monotonic() < deadline:
            ws.recv(timeout=deadline - time.monotonic())
    except ConnectionClosed as closed:
        assert closed.rcvd is not None, "closed without a close frame"
        return closed.rcvd.code
    raise AssertionError("the server did not close the socket")


# -- one page must not stall the table --------------------------------------------------------


def test_a_page_that_never_reads_does_not_hold_the_other_pages_or_the_console(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # On a busy machine the changes can take longer than the stall that drops a page; the
    # drop has its own test, and here the stuck page must stay connected to the end.
    monkeypatch.setattr(sockets, "STALL_SECONDS", 10 * WAIT)
    with served() as (web, live, lock), connect(ws_url(web), max_size=None) as reader:
        stuck = never_reading(web)
        seen: set[int] = set()  # every change the page that reads was shown, in any message

        def read() -> None:  # the page that reads takes every view as it comes
            with contextlib.suppress(ConnectionClosed, TimeoutError):
                while True:
                    message = reader.recv(timeout=10 * WAIT)
                    # Views and patches show the log; the LEDs' own messages show none.
                    seen.update(int(n) for n in re.findall(r"change (\d+) ", str(message)))

        try:
            until(lambda: len(web.hub.players) == 2, "both pages open")
            port = stuck.getsockname()[1]
            stuck_page = next(p for p in web.hub.players if p.ws.client.port == port)
            reader_page = next(p for p in web.hub.players if p is not stuck_page)
            threading.Thread(target=read, daemon=True).start()
            # Changes until the page that never reads takes no more: its socket's buffers,
            # and the kernel's, are full (a slow machine's fewer, merged views take longer).
            made, deadline = 0, time.monotonic() + WAIT
            while True:
                before = (stuck_page.sent, reader_page.sent)
                changes(live, lock, 50, made)
                made += 50
                if stuck_page.sent == before[0] and reader_page.sent > before[1]:
                    break
                assert time.monotonic() < deadline, "the page that never reads kept taking"
            stuck_at = stuck_page.sent
            changes(live, lock, 20, made)
            # The last change reaches the page that reads...
            until(lambda: made + 19 in seen, "the last change at the reader")
            # ...and the console answers, while the other page has not taken what it was sent.
            gm_path = f"/ws/gm?token={web.hub.token}"
            with connect(ws_url(web, gm_path), max_size=None) as gm:
                gm.send(json.dumps({"line": "help"}))
                while json.loads(gm.recv(timeout=WAIT))["type"] != "reply":
                    pass
            assert stuck_page.sent == stuck_at < reader_page.sent
        finally:
            stuck.close()


def test_a_change_made_while_the_watcher_draws_a_view_reaches_the_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue #36 item 7: the watcher's wake for a change that came while it drew the view
    before was lost, and the pages showed the game one change behind until the next."""
    with served() as (web, live, lock), connect(ws_url(web), max_size=None) as page:
        kicked, armed, drawn = threading.Event(), threading.Event(), threading.Event()
        kick, log = web.hub.kick, live.log

        def kick_seen() -> None:
            kick()
            kicked.set()

        def log_with_a_change() -> list[str]:  # drawing a view: a change comes meanwhile
            lines = log()
            if armed.is_set() and not drawn.is_set():
                drawn.set()
                kicked.clear()
                live.say("change 2, while the view of change 1 is drawn")
                assert kicked.wait(WAIT), "the watcher was not woken for change 2"
            return lines

        monkeypatch.setattr(web.hub, "kick", kick_seen)
        monkeypatch.setattr(live, "log", log_with_a_change)
        shown = ""
        deadline = time.monotonic() + WAIT
        while '"view"' not in shown:  # the page's first, whole view
            shown = page.recv(timeout=deadline - time.monotonic())
        armed.set()
        with lock:
            live.say("change 1")
        while "change 2" not in shown:
            left = deadline - time.monotonic()
            assert left > 0, f"not within {WAIT} s: change 2 on the page"
            with contextlib.suppress(TimeoutError):
                shown = page.recv(timeout=min(left, 1.0))
        assert drawn.is_set()


def test_a_page_that_takes_nothing_for_a_while_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sockets, "STALL_SECONDS", 1.0)
    with served() as (web, live, lock):
        stuck = never_reading(web)
        try:
            until(lambda: len(web.hub.players) == 1, "the page open")
            # Changes until its buffers are full and it stalls (views go out at most
            # VIEW_SECONDS apart, so filling them takes a while).
            made, deadline = 0, time.monotonic() + WAIT
            while web.hub.players:
                assert time.monotonic() < deadline, f"not within {WAIT} s: the page dropped"
                changes(live, lock, 50, made)
                made += 50
            stuck.settimeout(WAIT)  # and its connection ends: what it holds, then the end
            with contextlib.suppress(ConnectionResetError):
                while stuck.recv(65536):
                    pass
        finally:
            stuck.close()


def test_a_page_that_never_reads_does_not_hold_up_the_server_s_stop() -> None:
    """`quit` with a phone gone from the Wi-Fi: uvicorn's stop waits for every connection
    to close, and a graceful close never ends for a page that reads nothing."""
    waited: list[str] = []

    class Heard(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            waited.append(record.getMessage())

    heard = Heard(logging.ERROR)
    try:
        with served() as (web, live, lock):
            # Once the server has set up its logging, which replaces the handlers.
            logging.getLogger("uvicorn.error").addHandler(heard)
            stuck = never_reading(web)
            until(lambda: len(web.hub.players) == 1, "the page open")
            changes(live, lock, 200)
        stuck.close()
    finally:
        logging.getLogger("uvicorn.error").removeHandler(heard)
    assert not [line for line in waited if "graceful shutdown exceeded" in line]


def test_a_slow_page_gets_only_the_latest_view_and_every_reply_in_order() -> None:
    async def drained(box: Outbox) -> list[str]:
        return [await box.next() for _ in range(len(box))]

    box = Outbox()
    box.view("view 1")
    box.view("view 2")
    box.message("reply 1")
    box.view("view 3")
    box.view("view 4")
    box.message("reply 2")
    assert asyncio.run(drained(box)) == ["view 2", "reply 1", "view 4", "reply 2"]


def test_a_page_gets_what_changed_when_it_has_every_view_before_else_the_whole_view() -> None:
    """Issue #28 item 12: a patch applies only to the view before it."""

    async def drained(box: Outbox) -> list[str]:
        return [await box.next() for _ in range(len(box))]

    box = Outbox()
    box.view("whole 1", "patch 1")
    assert asyncio.run(drained(box)) == ["whole 1"]  # a page's first view is whole
    box.view("whole 2", "patch 2")
    assert asyncio.run(drained(box)) == ["patch 2"]
    box.view("whole 3", "patch 3")
    box.view("whole 4", "patch 4")  # patch 3 was never sent: patch 4 would not apply
    box.board("leds 1")
    box.board("leds 2")  # the board's latest only
    assert sorted(asyncio.run(drained(box))) == ["leds 2", "whole 4"]


def test_a_message_longer_than_a_few_kilobytes_closes_its_socket() -> None:
    """Refused from the frame's header (1009), before its payload is read; in fragments
    too, from the header of the fragment that would pass the limit."""
    with served() as (web, _, _):
        gm_path = f"/ws/gm?token={web.hub.token}"
        with connect(ws_url(web, gm_path), max_size=None) as gm:
            gm.send(json.dumps({"line": "x" * 3000}))  # under the limit: refused in one line
            while (answer := json.loads(gm.recv(timeout=WAIT)))["type"] != "reply":
                pass
            assert not answer["ok"] and "at most 400 characters" in answer["text"]
        fragments = (frame_head(0x1, 1024, fin=False) + b"x" * 1024) + 3 * (
            frame_head(0x0, 1024, fin=False) + b"x" * 1024
        )
        for path, sent in (
            (gm_path, frame_head(0x1, sockets.MAX_MESSAGE + 1)),
            (gm_path, fragments + frame_head(0x0, 1)),
            ("/ws", frame_head(0x1, 15_000_000)),
        ):
            with socket.create_connection(("127.0.0.1", web.port)) as sock:
                handshake(sock, "127.0.0.1", web.port, path)
                sock.sendall(sent)
                assert close_code(sock) == 1009, path


def close_code(sock: socket.socket) -> int:
    """Read a server's frames off a raw socket up to its close frame: the close's code."""
    sock.settimeout(WAIT)
    stream = sock.makefile("rb")
    while True:
        first, second = stream.read(2)
        length = second & 0x7F
        if length >= 126:
            length = int.from_bytes(stream.read(2 if length == 126 else 8), "big")
        payload = stream.read(length)
        if first & 0x0F == 0x8:
            return int.from_bytes(payload[:2], "big")


def test_a_players_page_is_read_only_to_close_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The players' page sends nothing: whatever comes on its socket closes it (1008)."""
    monkeypatch.setattr(sockets, "HOLD_SECONDS", 0.1)
    with served() as (web, _, _), connect(ws_url(web), max_size=None) as player:
        json.loads(player.recv(timeout=WAIT))  # its first view
        player.send(json.dumps({"line": "initiative"}))
        assert closed_code(player) == 1008
        assert web.hub.source.session().done == []


@pytest.mark.parametrize(
    ("limit", "path"), [("MAX_PLAYERS", "/ws"), ("MAX_CONSOLES", f"/ws/gm?token={TOKEN}")]
)
def test_a_page_over_the_limit_is_told_so_in_one_line(
    limit: str, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sockets, limit, 2)
    live, _ = _live()
    with TestClient(make_app(Hub(live, TOKEN))) as client:
        with client.websocket_connect(path) as first, client.websocket_connect(path) as second:
            assert first.receive_json()["type"] == second.receive_json()["type"] == "view"
            with client.websocket_connect(path) as third:
                notice = third.receive_json()
                assert notice["type"] == "notice"
                assert "\n" not in notice["text"] and "2 " in notice["text"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    third.receive_json()
                assert closed.value.code == 1013
        with client.websocket_connect(path) as again:  # one closed: room again
            assert again.receive_json()["type"] == "view"


# -- the console's token and origin -----------------------------------------------------------


def test_a_token_that_is_not_ascii_is_refused_like_a_wrong_one() -> None:
    live, _ = _live()
    with TestClient(make_app(Hub(live, TOKEN))) as client:
        for token in ("%C3%A9t%C3%A9", "%E2%82%AC" * 10, "%FF%FE"):
            assert client.get(f"/gm?token={token}").status_code == 403
            with client.websocket_connect(f"/ws/gm?token={token}") as ws:
                assert ws.receive_json()["type"] == "stale"  # told why, in one line
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == STALE_CODE


def test_the_console_s_page_tells_the_browser_to_send_no_referrer() -> None:
    """Its URL holds the token: a link followed from it, or a file it loads, must not carry
    the URL away in a Referer header."""
    live, _ = _live()
    with TestClient(make_app(Hub(live, TOKEN))) as client:
        assert client.get(f"/gm?token={TOKEN}").headers["referrer-policy"] == "no-referrer"
        assert client.get("/gm?token=wrong").headers["referrer-policy"] == "no-referrer"


def test_the_console_s_socket_opens_only_from_its_own_page() -> None:
    """A browser names the page that opens a socket (Origin): another site's page, even
    with the token, is refused; the console's own page (same host and port) opens it."""
    live, _ = _live()
    path = f"/ws/gm?token={TOKEN}"
    with TestClient(make_app(Hub(live, TOKEN))) as client:
        for origin in ("http://evil.example", "http://testserver.evil.example", "null"):
            with (
                pytest.raises(WebSocketDisconnect),
                client.websocket_connect(path, headers={"origin": origin}) as ws,
            ):
                ws.receive_json()
        with client.websocket_connect(path, headers={"origin": "http://testserver"}) as ws:
            assert ws.receive_json()["type"] == "view"
