"""The names of descriptor version 2's turn units and round rules live in
shared/descriptor_pack.py (the host's). The board's modules (shared/turns.py,
shared/events.py, firmware/app.py) write them as numbers, each with its name beside it: a
name would cost the board's heap a global or a qstr. Here the names must keep those numbers
(docs/state-codec.md); tests/engine/test_turn_units.py plays each rule by its name."""

from __future__ import annotations

import inspect

from shared import descriptor_pack as names
from shared import events, turns


def test_the_turn_units_keep_the_numbers_the_board_writes() -> None:
    assert (names.UNIT_SLOT, names.UNIT_TEAM, names.UNIT_KEY, names.UNIT_STEP) == (0, 16, 32, 48)
    assert "flags & 48" in inspect.getsource(turns) and "flags & 48" in inspect.getsource(events)


def test_the_round_rules_keep_the_numbers_the_board_writes() -> None:
    assert names.ROUND_REFILL == 8
    assert (names.C_ROUND_FILL, names.C_ROUND_STEP_DOWN, names.C_ROUND_CLEAR) == (32, 64, 128)
    assert (names.M_ROUND_SET, names.M_ROUND_CLEAR) == (8, 16)
    source = inspect.getsource(turns.start_round)
    for said in (
        "ROUND_CLEAR (128)",
        "ROUND_STEP_DOWN (64)",
        "ROUND_CLEAR (16)",
        "ROUND_FILL (32)",
    ):
        assert said in source
