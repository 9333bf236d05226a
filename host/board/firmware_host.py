"""What the host and the tests use of the board's firmware that the board itself never
runs: the pages' names and the App's `settle`. They live here, not in firmware/, because a
board compiles every module it imports and keeps its code in the heap (docs/memory.md).
"""

from __future__ import annotations

from typing import Any

# firmware.pages' page numbers, by name, in order (INITIATIVE = 0 ... GRID = 6).
PAGE_NAMES = ("initiative", "cooldowns", "counters", "marks", "dice", "scores", "grid")


def settle(app: Any, now_ms: int) -> None:
    """End every timed overlay of a firmware App (menu, setting, roll tumble, problem
    flash) at now_ms: for pictures and tests that render at a chosen moment."""
    app._spot_new_roll(now_ms)
    app.menu_until = now_ms
    app.overlay_until = now_ms
    app.animate_until = now_ms
    app.flash_until = now_ms
    app.dirty = True
