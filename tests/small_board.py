"""A board with fewer slots than a fight has fighters, for the tests of fighters past the
board's slots (`Ruleset.off_board`). The board has MAX_SLOTS (shared/limits.py) and a
fight MOST_FIGHTERS (host/core/newcomers.py), both 24 today, so only a d20 group of several
creatures reaches past the board in a real game; these tests give the host the board of 8
slots the code was first written for. The host reads the board's capacity at call time in
three places (host/core/kit.py, host/core/newcomers.py, host/rulesets/korxsol/table.py):
`small_board` sets it there. The board (firmware, codec) keeps its own MAX_SLOTS and is
simply sent a state of fewer slots and its count of those off it."""

from __future__ import annotations

import pytest

from host.core import kit, newcomers
from host.rulesets.korxsol import table

SLOTS = 8  # the board the off-board tests play on


def small_board(monkeypatch: pytest.MonkeyPatch, slots: int = SLOTS) -> int:
    """The host's board capacity made `slots` for the rest of the test: returns it."""
    for module in (kit, newcomers, table):
        monkeypatch.setattr(module, "MAX_SLOTS", slots)
    return slots
