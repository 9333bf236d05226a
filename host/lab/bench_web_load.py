"""The web pages under load, for `turnlight bench` (#27): one page must not stall the table.

- `web_slow_client_stall_ms`: the p99 delay of a change reaching 19 players' pages that
  read while a 20th never reads (a phone that left the Wi-Fi mid-game).
- `web_gm_reply_ms_quiet` / `web_gm_reply_ms_flood`: the game master's console's median
  reply to a line, alone, then while 50 players' sockets send as fast as they can.
- `web_rss_growth_mib`: how much the server's process grows after 40 sockets each send
  a 15 MB message and close.

The server is the real one (uvicorn on a loopback port); every client is a real socket in
a child process (`python -m host.lab.bench_web_load ROLE ...`, the roles below), so the
clients' work is not the server's. For the memory figure the server runs in a child
process of its own, so that nothing of the bench is counted. Clocks: `time.monotonic()`
is the system's CLOCK_MONOTONIC on Linux, the same in every process.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

READERS = 19  # pages that read, beside the one that never does
CHANGES = 300
PACE = 0.02  # seconds between changes
LINE = 1_300  # characters in each change's log line: a view of ~16 KB, as a long fight's
FLOODERS = 50
REPLIES = 40
REPLY_PACE = 0.25  # seconds between the console's lines: 10 s of flood, two HOLD_SECONDS
HOGS = 40
HOG_BYTES = 15_000_000
MIB = 1024 * 1024
MARK = re.compile(rb"bench-change (\d+)")


# -- the clients (each a role of this module run in a child process) --------------------------


def upgrade(host: str, port: int, path: str) -> bytes:
    """A WebSocket opening handshake's request."""
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


def handshake(sock: socket.socket, host: str, port: int, path: str) -> None:
    """A WebSocket opening handshake on a connected socket, read byte by byte so that
    nothing the server sends after it is taken off the socket."""
    sock.sendall(upgrade(host, port, path))
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        byte = sock.recv(1)
        if not byte:
            raise ConnectionError("the server closed the handshake")
        head += byte
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(head.split(b"\r\n")[0].decode(errors="replace"))


def frame_head(opcode: int, length: int, fin: bool = True) -> bytes:
    """A client frame's header, masked with the key 0 (the payload goes as it is)."""
    first = bytes([(0x80 if fin else 0) | opcode])
    if length < 126:
        return first + bytes([0x80 | length]) + b"\0\0\0\0"
    if length < 1 << 16:
        return first + b"\xfe" + length.to_bytes(2, "big") + b"\0\0\0\0"
    return first + b"\xff" + length.to_bytes(8, "big") + b"\0\0\0\0"


def readers(url: str, count: int, stuck: int) -> None:
    """`count` pages that read every message and note when each change first reached them
    (the highest `bench-change N` in a message), and `stuck` that never read a byte after
    their handshake (a receive buffer of 4 KB: a phone gone from the Wi-Fi). When stdin
    closes: one JSON list per reader of [change, monotonic time]."""
    from urllib.parse import urlsplit

    from websockets.sync.client import connect

    where = urlsplit(url)
    host, port = where.hostname or "127.0.0.1", where.port or 80
    seen: list[list[tuple[int, float]]] = [[] for _ in range(count)]
    held = []
    for _ in range(stuck):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect((host, port))
        handshake(sock, host, port, where.path)
        held.append(sock)

    def read(mine: list[tuple[int, float]]) -> None:
        last = -1
        try:
            with connect(url, max_size=None) as ws:
                while True:
                    message = ws.recv(decode=False)
                    marks = MARK.findall(message)
                    if marks and int(marks[-1]) > last:
                        last = int(marks[-1])
                        mine.append((last, time.monotonic()))
        except Exception:
            pass

    for mine in seen:
        threading.Thread(target=read, args=(mine,), daemon=True).start()
    sys.stdin.read()
    print(json.dumps(seen), flush=True)
    os._exit(0)  # the readers' threads are blocked in recv


def flood(host: str, port: int, count: int) -> None:
    """`count` players' sockets sending small text frames as fast as they can, each
    reading (and dropping) what the server sends, and connecting again whenever the
    server closes it. Runs until stdin closes; prints how many connections it made."""
    chunk = (frame_head(0x1, 2) + b"hi") * 8192
    opened = 0

    async def drain(reader: asyncio.StreamReader) -> None:
        while await reader.read(65536):
            pass

    async def one() -> None:
        nonlocal opened
        while True:
            try:
                reader, writer = await asyncio.open_connection(host, port)
            except OSError:
                await asyncio.sleep(0.01)
                continue
            opened += 1
            try:
                writer.write(upgrade(host, port, "/ws"))
                await reader.readuntil(b"\r\n\r\n")
                draining = asyncio.create_task(drain(reader))
                try:
                    while not draining.done():
                        writer.write(chunk)
                        await writer.drain()
                finally:
                    draining.cancel()
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                pass
            finally:
                writer.close()

    async def main() -> None:
        tasks = [asyncio.create_task(one()) for _ in range(count)]
        await asyncio.to_thread(sys.stdin.read)
        for task in tasks:
            task.cancel()

    asyncio.run(main())
    print(opened, flush=True)


def console(url: str, replies: int, pace: float, budget: float) -> None:
    """The game master's console: `replies` lines (initiative, then undo, in turn), each
    sent `pace` seconds after the last one's reply came; prints the milliseconds of each
    reply as JSON. Stops after `budget` seconds."""
    from websockets.sync.client import connect

    times: list[float] = []
    deadline = time.monotonic() + budget
    try:
        with connect(url, max_size=None, open_timeout=budget) as ws:
            for n in range(replies):
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                started = time.monotonic()
                ws.send(json.dumps({"line": "undo" if n % 2 else "initiative"}))
                while json.loads(ws.recv(timeout=left))["type"] != "reply":
                    pass
                times.append((time.monotonic() - started) * 1000)
                time.sleep(pace)
    except TimeoutError:  # no reply (or no console) within the budget: counted as it
        times.append(budget * 1000)
    print(json.dumps(times), flush=True)


def hog(host: str, port: int, count: int, size: int) -> None:
    """`count` players' sockets at once, each sending a `size`-byte text message (half of
    them as one frame, half as 64 KB fragments) as far as the server lets it, then
    closing."""
    block = b"x" * 65536

    def one(n: int) -> None:
        with contextlib.suppress(OSError), socket.create_connection((host, port)) as sock:
            handshake(sock, host, port, "/ws")
            sent = 0
            if n % 2:
                sock.sendall(frame_head(0x1, size))
            while sent < size:
                part = block[: min(len(block), size - sent)]
                if not n % 2:
                    last = sent + len(part) >= size
                    sock.sendall(frame_head(0x0 if sent else 0x1, len(part), fin=last))
                sock.sendall(part)
                sent += len(part)

    threads = [threading.Thread(target=one, args=(n,)) for n in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def serve() -> None:
    """A web server for a korxsol demo's session, for the memory figure: prints its port,
    then answers each line on stdin with the number of pages open; ends when stdin closes."""
    from host.web.serving import WebServer

    live, _ = _demo_live()
    with WebServer(live, "127.0.0.1", 0) as web:
        print(web.port, flush=True)
        for _ in sys.stdin:
            print(len(web.hub.players) + len(web.hub.gms), flush=True)


# -- the figures ------------------------------------------------------------------------------


def _demo_live() -> tuple[Any, threading.RLock]:
    from host.core import registry
    from host.core.session import Session
    from host.web.sources import DemoLive

    r = registry.get("korxsol")
    path = r.example_path()
    session = Session(r.parse_encounter(path.read_text(), str(path)), 7)
    lock = threading.RLock()
    return DemoLive(session, lock, lambda: None), lock


def _child(*args: str, **kw: Any) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "host.lab.bench_web_load", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        **kw,
    )


def _wait_for_pages(hub: Any, count: int, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while len(hub.players) < count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {len(hub.players)} of {count} pages opened")
        time.sleep(0.01)


def _p99(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(0.99 * (len(values) - 1)))]


def slow_client_stall(
    count: int = READERS, changes: int = CHANGES, pace: float = PACE
) -> dict[str, float | int]:
    """`changes` changes to a demo's log, one every `pace` seconds, with `count` reading
    pages and one that never reads. For each change, the time from the server's sending
    of the first view that holds it (the Hub's publish: views go out at most one per
    VIEW_SECONDS, merging what came meanwhile) until every reading page had it or a later
    one: what the silent page could add. Also the time from the change itself, which
    includes that merging wait. A change that never reached one counts until the end."""
    from host.web.serving import WebServer

    live, lock = _demo_live()
    with WebServer(live, "127.0.0.1", 0) as web:
        hub = web.hub
        sent: list[tuple[float, int]] = []  # (when a view was published, its newest change)
        publish = hub.publish

        def noted(views: Any) -> bool:
            moved = publish(views)
            found = MARK.findall("\n".join(views[0].get("log", [])[-1:]).encode())
            sent.append((time.monotonic(), int(found[-1]) if found else -1))
            return moved

        hub.publish = noted  # type: ignore[method-assign]
        url = web.player_url.replace("http://", "ws://") + "ws"
        child = _child("readers", url, str(count), "1")
        try:
            _wait_for_pages(hub, count + 1)
            made: list[float] = []
            pad = "·" * LINE
            for n in range(changes):
                with lock:
                    made.append(time.monotonic())
                    live.say(f"bench-change {n} {pad}")
                time.sleep(pace)
            time.sleep(1.0)  # the last change's way to the pages
            ended = time.monotonic()
            out, _ = child.communicate("", timeout=60)
        finally:
            child.kill()
    seen = json.loads(out)
    stalls, delays = [], []
    for n, at in enumerate(made):
        out_at = next((t for t, newest in sent if newest >= n), ended)
        worst = 0.0
        for reader in seen:
            first = next((t for change, t in reader if change >= n), ended)
            worst = max(worst, first - at)
        delays.append(worst * 1000)
        stalls.append(max(0.0, worst - (out_at - at)) * 1000)
    return {
        "web_slow_client_stall_ms": round(_p99(stalls), 1),
        "web_change_to_pages_ms_p99": round(_p99(delays), 1),
    }


def gm_reply_under_flood(
    flooders: int = FLOODERS, replies: int = REPLIES
) -> dict[str, float | int]:
    """The console's reply to lines of korxsol's `play` session (one every REPLY_PACE
    seconds): half of `replies` alone, then `replies` with `flooders` players' sockets
    flooding the server (after one second of it)."""
    from io import StringIO

    from rich.console import Console

    from host.core import registry
    from host.core.session import Session
    from host.screens.play_ui import PlayUI
    from host.web.serving import WebServer
    from host.web.sources import PlayLive

    r = registry.get("korxsol")
    path = r.example_path()
    session = Session(r.parse_encounter(path.read_text(), str(path)), 7)
    ui = PlayUI(session, Console(file=StringIO(), width=100), "no board")
    figures: dict[str, float | int] = {}
    with WebServer(PlayLive(ui), "127.0.0.1", 0) as web:
        gm_url = web.gm_url.replace("http://", "ws://").replace("/gm?", "/ws/gm?")

        def replies_ms(count: int, budget: float) -> list[float]:
            done = _child("console", gm_url, str(count), str(REPLY_PACE), str(budget))
            out, _ = done.communicate("", timeout=budget + 30)
            return json.loads(out)

        figures["web_gm_reply_ms_quiet"] = round(statistics.median(replies_ms(replies // 2, 30)), 1)
        flooding = _child("flood", web.host, str(web.port), str(flooders))
        try:
            time.sleep(1.0)
            figures["web_gm_reply_ms_flood"] = round(statistics.median(replies_ms(replies, 60)), 1)
        finally:
            try:
                out, _ = flooding.communicate("", timeout=30)
                print(f"bench: the flood opened {out.strip()} connections", file=sys.stderr)
            finally:
                flooding.kill()
    return figures


def _rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def rss_growth(hogs: int = HOGS, size: int = HOG_BYTES) -> dict[str, float | int]:
    """The server (its own process) after a page has opened and closed, then after `hogs`
    sockets at once each sent a `size`-byte message and closed: its resident memory's
    growth, once no page is open any more."""
    if not os.path.exists(f"/proc/{os.getpid()}/status"):
        print("bench: web_rss_growth_mib left out: no /proc on this system", file=sys.stderr)
        return {}
    from websockets.sync.client import connect

    server = _child("serve")
    assert server.stdin is not None and server.stdout is not None
    try:
        port = int(server.stdout.readline())

        def quiet() -> None:
            deadline = time.monotonic() + 30
            while True:
                server.stdin.write("pages\n")  # type: ignore[union-attr]
                server.stdin.flush()  # type: ignore[union-attr]
                if int(server.stdout.readline()) == 0:  # type: ignore[union-attr]
                    return
                if time.monotonic() > deadline:
                    raise RuntimeError("the server's pages did not close")
                time.sleep(0.1)

        for _ in range(3):  # the first pages warm the server up
            with connect(f"ws://127.0.0.1:{port}/ws") as ws:
                ws.recv(timeout=10)
        quiet()
        before = _rss_mib(server.pid)
        hog("127.0.0.1", port, hogs, size)
        quiet()
        time.sleep(1.0)
        after = _rss_mib(server.pid)
    finally:
        if server.stdin is not None:
            server.stdin.close()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    print(f"bench: the server's memory went from {before:.0f} to {after:.0f} MiB", file=sys.stderr)
    return {"web_rss_growth_mib": round(after - before, 1)}


MEASUREMENTS = (slow_client_stall, gm_reply_under_flood, rss_growth)
TARGETS: dict[str, tuple[str, float]] = {
    "web_slow_client_stall_ms": ("<=", 100),
    "web_gm_reply_ms_flood": ("<=", 100),
    "web_rss_growth_mib": ("<=", 20),
}


def main(argv: list[str]) -> None:
    role, *args = argv
    if role == "readers":
        readers(args[0], int(args[1]), int(args[2]))
    elif role == "flood":
        flood(args[0], int(args[1]), int(args[2]))
    elif role == "console":
        console(args[0], int(args[1]), float(args[2]), float(args[3]))
    elif role == "serve":
        serve()
    else:
        raise SystemExit(f"bench_web_load: no role {role!r}: readers, flood, console or serve")


if __name__ == "__main__":
    main(sys.argv[1:])
