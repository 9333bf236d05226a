"""`web_latency_ms_p50` / `_p99` for `turnlight bench`: from a key press on the simulated
board to the change it makes in a real browser's DOM (#16).

A korxsol game runs in `play`'s session (PlayUI, tethered to the simulated board on a real
pty) with the web server on a loopback port, and Debian's headless Chromium shows the
players' page. Each sample presses the board's next-turn key (the firmware reads the key,
the event crosses the pty, the host applies and journals it, the web watcher sends the new
view, the page draws it) and takes the time the page's status line changed (the page
stamps it with Date.now(), the same wall clock as the press's). Without the browser the
figures are left out, said in one line on stderr.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any

PRESSES = 60


def web_latency(presses: int = PRESSES) -> dict[str, float | int]:
    from host.web.browser import chromium, missing

    why = missing()
    if why:
        print(f"bench: web_latency left out: {why}", file=sys.stderr)
        return {}
    from rich.console import Console

    from host.board.tethered_sim import TetheredSim
    from host.core import registry
    from host.core.journal import Journal
    from host.core.session import Session
    from host.screens.play_ui import PlayUI
    from host.web.hub import VIEW_SECONDS
    from host.web.serving import WebServer
    from host.web.sources import PlayLive

    r = registry.get("korxsol")
    path = r.example_path()
    samples: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "bench.sqlite")
        session = Session(r.parse_encounter(path.read_text(), str(path)), 7, journal)
        with TetheredSim(session, "trellis_m4") as table:
            ui = PlayUI(session, Console(file=StringIO()), tether=table.tether)
            with WebServer(PlayLive(ui, table.sim), "127.0.0.1", 0) as web:
                driver = chromium()
                try:
                    driver.get(web.player_url)
                    _wait(driver, "document.querySelectorAll('#fighters li').length > 0")
                    key = table.sim.key_for("next_turn")
                    for n in range(presses + 1):
                        # At a person's pace: views go out at most one per VIEW_SECONDS,
                        # so a press sooner after the last view waits for its turn.
                        time.sleep(VIEW_SECONDS)
                        before = driver.execute_script("return document.body.dataset.statusAt")
                        pressed = time.time() * 1000
                        table.sim.press(key)
                        changed = _wait(
                            driver,
                            "document.body.dataset.statusAt !== arguments[0]"
                            " && document.body.dataset.statusAt",
                            before,
                        )
                        if n:  # the first press (initiative) warms everything up
                            samples.append(float(changed) - pressed)
                        table.settle()
                finally:
                    driver.quit()
    samples.sort()
    p99 = samples[min(len(samples) - 1, round(0.99 * (len(samples) - 1)))]
    return {
        "web_latency_ms_p50": round(statistics.median(samples), 1),
        "web_latency_ms_p99": round(p99, 1),
    }


def _wait(driver, script: str, *args: object, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script("return " + script, *args)
        if value:
            return value
        time.sleep(0.001)
    raise RuntimeError(f"the page did not show the press in {timeout} s")


IDLE_SECONDS = 30.0  # counted, then scaled to a minute
IDLE_SETTLE_SECONDS = 1.0  # before counting: the page's first view and first LEDs


def web_idle_bytes(seconds: float = IDLE_SECONDS) -> dict[str, float | int]:
    """What one players' page receives while nothing happens: a korxsol game in `play`'s
    session, tethered to the simulated board on a real pty (its keys pulsing and blinking
    as they do), round 1 started, with the web server on a loopback port and one players'
    socket open. From IDLE_SETTLE_SECONDS after it opens (its first view and first LEDs
    have come: what opening the page costs), every byte of every message it receives
    over `seconds` is counted and scaled to a minute. The first seconds, while the
    server reads the board's patterns and tells them, are among the counted ones: scaled,
    they count twice, so the figure is an upper bound of the first minute (later minutes
    receive nothing). Also how many messages came."""
    import threading

    from rich.console import Console
    from websockets.sync.client import connect

    from host.board.tethered_sim import TetheredSim
    from host.core import registry
    from host.core.session import Session
    from host.screens.play_ui import PlayUI
    from host.web.serving import WebServer
    from host.web.sources import PlayLive

    r = registry.get("korxsol")
    path = r.example_path()
    session = Session(r.parse_encounter(path.read_text(), str(path)), 7)
    received = {"bytes": 0, "messages": 0, "counting": False}
    with TetheredSim(session, "trellis_m4") as table:
        ui = PlayUI(session, Console(file=StringIO()), tether=table.tether)
        table.press("next_turn")  # initiative: round 1, a turn pulsing
        with WebServer(PlayLive(ui, table.sim), "127.0.0.1", 0) as web:
            url = web.player_url.replace("http://", "ws://") + "ws"
            stop = threading.Event()

            def read() -> None:
                with connect(url, max_size=None) as ws:
                    while not stop.is_set():
                        try:
                            text = ws.recv(timeout=0.2)
                        except TimeoutError:
                            continue
                        if received["counting"]:
                            data = text.encode() if isinstance(text, str) else text
                            received["bytes"] += len(data)
                            received["messages"] += 1

            reader = threading.Thread(target=read, daemon=True)
            reader.start()
            time.sleep(IDLE_SETTLE_SECONDS)
            received["counting"] = True
            time.sleep(seconds)
            received["counting"] = False
            stop.set()
            reader.join(5)
    scale = 60.0 / seconds
    return {
        "web_idle_bytes_per_min": round(received["bytes"] * scale),
        "web_idle_messages_per_min": round(received["messages"] * scale, 1),
    }


VIEWERS = 20
DEMO_PACE = 0.02  # seconds after each of the demo's actions
# The players' pages, in a child process (their CPU is not the host's): N WebSockets that
# read every view until stdin closes.
_VIEWER_SCRIPT = """
import sys, threading
from websockets.sync.client import connect
url, n = sys.argv[1], int(sys.argv[2])
def view():
    try:
        with connect(url) as ws:
            while True:
                ws.recv()
    except Exception:
        pass
for _ in range(n):
    threading.Thread(target=view, daemon=True).start()
sys.stdin.read()
"""


def web_viewers_cpu(viewers: int = VIEWERS, pace: float = DEMO_PACE) -> dict[str, float | int]:
    """The host's CPU (user + system of this process, every thread: the session, the web
    server and its watcher) through a whole korxsol demo played at `pace` seconds an
    action, laptop only, with `viewers` players' pages open (each a WebSocket reading every
    view, from a child process), and the same demo with none open."""
    from host.core import registry
    from host.core.session import Session

    r = registry.get("korxsol")
    path = r.example_path()
    return _viewers_cpu(
        lambda: Session(r.parse_encounter(path.read_text(), str(path)), 7), viewers, pace, ""
    )


def web_viewers_cpu_24(viewers: int = VIEWERS, pace: float = DEMO_PACE) -> dict[str, float | int]:
    """`web_viewers_cpu` through a demo of 24 fighters (the big-table issue: stones' Mossy
    Ford and 18 Wisps, host/lab/web_pictures.py `big_table`):
    `web_no_viewers_cpu_pct_24`, `web_viewers_cpu_pct_24`, and what the 20 pages add,
    `web_viewers_added_pct_24`."""
    from host.lab.web_pictures import big_table

    figures = _viewers_cpu(lambda: big_table(24, 7), viewers, pace, "_24")
    added = figures["web_viewers_cpu_pct_24"] - figures["web_no_viewers_cpu_pct_24"]
    figures["web_viewers_added_pct_24"] = round(added, 1)
    return figures


def _viewers_cpu(
    new_session: Callable[[], Any], viewers: int, pace: float, suffix: str
) -> dict[str, float | int]:
    import resource
    import subprocess
    import threading

    from host.web.serving import WebServer
    from host.web.sources import DemoLive

    figures: dict[str, float | int] = {}
    for n in (0, viewers):
        session = new_session()
        lock = threading.RLock()
        live = DemoLive(session, lock, lambda: None)
        with WebServer(live, "127.0.0.1", 0) as web:
            child = None
            if n:
                url = web.player_url.replace("http://", "ws://") + "ws"
                child = subprocess.Popen(
                    [sys.executable, "-c", _VIEWER_SCRIPT, url, str(n)], stdin=subprocess.PIPE
                )
                deadline = time.monotonic() + 20
                while len(web.hub.players) < n:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"only {len(web.hub.players)} of {n} pages opened")
                    time.sleep(0.01)
            try:
                before = resource.getrusage(resource.RUSAGE_SELF)
                started = time.monotonic()
                _demo(session, live, lock, pace)
                time.sleep(0.2)  # the last views go out
                wall = time.monotonic() - started
                after = resource.getrusage(resource.RUSAGE_SELF)
            finally:
                if child is not None:
                    assert child.stdin is not None
                    child.stdin.close()
                    child.wait(10)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        key = "web_viewers_cpu_pct" if n else "web_no_viewers_cpu_pct"
        figures[key + suffix] = round(100 * cpu / wall, 1)
    return figures


def _demo(session, live, lock, pace: float) -> None:
    """The demo's AI plays the game to its end, an action every `pace` seconds."""
    ruleset = session.ruleset

    def act(line: str) -> None:
        if not line:
            return
        with lock:
            for said in session.execute(line):
                live.say(said)
        time.sleep(pace)

    act(ruleset.start_command)
    for _ in range(200):
        if session.over:
            return
        for line in ruleset.plan_turn(session.game):
            act(line)
            if session.over:
                return


E2E_SAMPLES = 100


def board_e2e_with_pages(
    viewers: int = VIEWERS, samples: int = E2E_SAMPLES
) -> dict[str, float | int]:
    """Does the board get slower with pages open? A korxsol game in `play`'s session,
    tethered to the simulated board on a real pty, with the web server up: each sample
    presses the board's next-turn key and waits until the host has applied and journalled
    it and the board shows the host's new state (TetheredSim.press). Once with no page
    open, once with `viewers` players' pages (from a child process)."""
    import subprocess

    from rich.console import Console

    from host.board.tethered_sim import TetheredSim
    from host.core import registry
    from host.core.journal import Journal
    from host.core.session import Session
    from host.screens.play_ui import PlayUI
    from host.web.serving import WebServer
    from host.web.sources import PlayLive

    r = registry.get("korxsol")
    path = r.example_path()
    figures: dict[str, float | int] = {}
    for n in (0, viewers):
        times: list[float] = []
        with tempfile.TemporaryDirectory() as tmp:
            journal = Journal(Path(tmp) / "bench.sqlite")
            session = Session(r.parse_encounter(path.read_text(), str(path)), 7, journal)
            with TetheredSim(session, "trellis_m4") as table:
                ui = PlayUI(session, Console(file=StringIO()), tether=table.tether)
                with WebServer(PlayLive(ui, table.sim), "127.0.0.1", 0) as web:
                    child = None
                    if n:
                        url = web.player_url.replace("http://", "ws://") + "ws"
                        child = subprocess.Popen(
                            [sys.executable, "-c", _VIEWER_SCRIPT, url, str(n)],
                            stdin=subprocess.PIPE,
                        )
                        deadline = time.monotonic() + 20
                        while len(web.hub.players) < n:
                            if time.monotonic() > deadline:
                                raise RuntimeError(f"only {len(web.hub.players)} pages opened")
                            time.sleep(0.01)
                    try:
                        table.press("next_turn")  # initiative: round 1
                        for _ in range(samples):
                            start = time.perf_counter()
                            table.press("next_turn")
                            times.append((time.perf_counter() - start) * 1000)
                    finally:
                        if child is not None:
                            assert child.stdin is not None
                            child.stdin.close()
                            child.wait(10)
        times.sort()
        suffix = f"{n}_pages"
        figures[f"board_e2e_ms_p50_{suffix}"] = round(statistics.median(times), 2)
        figures[f"board_e2e_ms_p99_{suffix}"] = round(
            times[min(len(times) - 1, round(0.99 * (len(times) - 1)))], 2
        )
    return figures
