"""Waiting in tests for something another thread or process does (a simulated board, a
link over a pty): poll a condition until it holds or the time is up."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Whether `condition()` held within `seconds` (polled every 5 ms)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return False
