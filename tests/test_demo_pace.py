"""`turnlight demo --pace SECONDS` plays at a watchable speed, the grid redrawn in place on a
terminal, in colour (issue #15). Driven through a real pseudo-terminal of 80x24."""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time

import pytest

from host import cli
from host.screens.paced_screen import UP_AND_CLEAR

REDRAW = re.compile(re.escape(UP_AND_CLEAR).replace(r"\{\}", r"(\d+)"))


def demo_on_a_terminal(*args: str) -> tuple[str, float]:
    """The demo's output on an 80x24 pty, and how long it took."""
    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    started = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-m", "host.cli", "demo", "--seed", "4", *args],
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        env={**env, "TERM": "xterm-256color"},
    )
    os.close(follower)
    chunks = []
    deadline = started + 120  # a demo that hangs without closing the pty fails, not stalls
    try:
        while True:
            left = deadline - time.monotonic()
            assert left > 0, "the demo did not finish within 120 s"
            if not select.select([leader], [], [], min(left, 1.0))[0]:
                continue
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the child closed the pty
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        if child.poll() is None and time.monotonic() >= deadline:
            child.kill()
    assert child.wait(timeout=max(1.0, deadline - time.monotonic())) == 0
    os.close(leader)
    return b"".join(chunks).decode(), time.monotonic() - started


def test_a_paced_demo_redraws_the_grid_in_place_in_colour_at_its_pace() -> None:
    out, took = demo_on_a_terminal("--pace", "0.02")
    redraws = [int(n) for n in REDRAW.findall(out)]
    assert len(redraws) > 20  # a frame after every action, each over the last
    assert all(n <= 23 for n in redraws)  # a frame fits the 24 lines, the cursor's too
    assert "\x1b[38;2;" in out  # truecolor LEDs
    assert took >= len(redraws) * 0.02
    assert out.rstrip().splitlines()[-1].startswith("winner:")
    frames = out.split("\x1b[")
    assert any("board, " in f and " page:" in f for f in frames)


def test_an_unpaced_demo_never_moves_the_cursor_back() -> None:
    out, _ = demo_on_a_terminal("--no-board")  # the device view: lighter than a board
    assert REDRAW.search(out) is None
    assert "\x1b[48;2;" in out  # in colour all the same


def test_a_paced_demo_piped_prints_each_frame_after_the_last(capsys, monkeypatch) -> None:
    waits: list[float] = []
    monkeypatch.setattr(time, "sleep", waits.append)
    assert cli.main(["demo", "--seed", "4", "--pace", "0.5", "--no-board"]) == 0
    out = capsys.readouterr().out
    assert REDRAW.search(out) is None and "\x1b[" not in out  # not a terminal: no escapes
    assert len(waits) > 20 and set(waits) == {0.5}
    assert out.count("KOR/9|") == len(waits)  # the device view after every action
    assert out.rstrip().splitlines()[-1].startswith("winner:")


def test_a_negative_pace_is_one_line(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["demo", "--pace", "-1"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "turnlight demo: error: argument --pace: a time must be 0 or more seconds, not -1"
    )
