"""The names of descriptor version 2's turn units and round rules live in
shared/descriptor_pack.py (the host's); the board's modules keep private copies, which cost
its heap nothing (a public module constant costs it a name). Here they must agree."""

from __future__ import annotations

from shared import descriptor_pack as names
from shared import events, timing, turns


def test_the_boards_private_copies_of_the_turn_units_agree_with_the_names() -> None:
    assert turns._UNITS == events._UNITS == names.UNIT_STEP
    assert turns._TEAM == names.UNIT_TEAM and turns._STEP == names.UNIT_STEP
    assert names.UNIT_SLOT == 0 and names.UNIT_KEY == 32


def test_the_boards_private_copies_of_the_round_rules_agree_with_the_names() -> None:
    assert timing._ROUND_REFILL == names.ROUND_REFILL
    assert timing._C_ROUND_FILL == names.C_ROUND_FILL
    assert timing._C_ROUND_STEP_DOWN == names.C_ROUND_STEP_DOWN
    assert timing._C_ROUND_CLEAR == names.C_ROUND_CLEAR
    assert timing._M_ROUND_SET == names.M_ROUND_SET
    assert timing._M_ROUND_CLEAR == names.M_ROUND_CLEAR
