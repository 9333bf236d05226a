"""Waiting in tests for something another thread or process does (a simulated board, a
link over a pty, a server, a subprocess): poll a condition until it holds or the time is up.

The time only bounds a hang: on a busy 2-core machine what takes milliseconds can take
seconds, so a wait returns as soon as its condition holds and gives up only after WAIT.
What a test measures is the event it waits for, never how long it took."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

WAIT = 60.0  # seconds: bounds a hang only; every wait returns as soon as it holds


def wait_for(condition: Callable[[], object], seconds: float = WAIT) -> bool:
    """Whether `condition()` held within `seconds` (polled every 5 ms)."""
    deadline = time.monotonic() + seconds
    while True:
        if condition():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.005)


def until(condition: Callable[[], object], what: str, seconds: float = WAIT) -> None:
    """Wait for `condition()` to hold; fails saying `what` it waited for, after `seconds`."""
    if not wait_for(condition, seconds):
        raise AssertionError(f"not within {seconds:g} s: {what}")


def frame_seen(sim: Any, holds: Callable[[list[Any]], bool]) -> Callable[[], bool]:
    """From now on, whether any frame the simulated board `sim` shows satisfies `holds`:
    a frame shown for a moment (a strobe, a fill while a key is held) counts even when a
    later one replaced it before the test looked. Checks the frame shown now too."""
    seen = [holds(sim.pixels())]
    shown = sim._shown

    def watching(wire: bytes) -> None:
        shown(wire)
        if not seen[0] and holds(sim.pixels()):
            seen[0] = True

    sim._shown = watching
    return lambda: seen[0]
