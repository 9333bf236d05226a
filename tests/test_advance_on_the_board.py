"""Advance through the simulated board on a real pty (as tests/test_tiny_on_the_board.py does
for the tiny ruleset): the host describes the game, the board shows the step A to E, who is
Advance and Late, who has acted, Stamina, Willpower and the damaged parts; its next-turn key
steps the round, and its roll key makes the Death check."""

from __future__ import annotations

import time

import pytest
from advance_fixtures import PASS, session, text

from host.advance import device
from host.ruleset import IllegalAction
from host.tethered_sim import TetheredSim
from shared.descriptor_pack import encoded, names
from shared.state import F_ACTED


def test_advance_plays_through_the_simulated_board() -> None:
    s = session(text(("stamina = 14", "stamina = 1")), seed=3)
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        assert board.ruleset == device.BOARD_ID
        described = names(encoded(board.rules))
        assert described["counters"] == ["will", "parts", "extra"]
        assert described["marks"] == ["advance", "late", "fullpwr", "helpless", "support"]
        assert described["phases"] == list(device.PHASE_NAMES)
        assert described["health"] == "Stamina"
        # The next-turn key rolls step A's initiative (the engine's dice, seeded): step B.
        lines = table.press("next_turn")
        assert any("the Initiative check is on" in line for line in lines)
        assert board.phase == 1 and board.round == 1
        for f in s.game.fighters[:3]:
            mark = device.F_ADVANCE if f.advance else device.F_LATE
            assert board.slots[f.index].flags & mark
        while s.game.step != 2:  # to step C: the Advance adventurers are done, Late ones not
            table.press("next_turn")
        assert board.phase == 2
        for f in s.game.fighters[:3]:
            assert bool(board.slots[f.index].flags & F_ACTED) == f.advance
        # Grub's hit takes Ayla past 0 Stamina: Body Damage to her Right Arm.
        table.execute(PASS)
        table.execute("dice d6 2")
        table.execute("attack Grub Spear Ayla evade=no")
        table.settle()
        ayla = board.slots[0]
        assert ayla.health == 0 and ayla.counters[device.PARTS] == 1
        assert ayla.counters[device.WILLPOWER] == 6
        assert board.order[board.turn] == 0  # the turn points at who owes the Death check
        # The roll key rolls one D6: the Death check that waits is made with it.
        lines = table.press("roll")
        face = board.roll.faces[0]
        assert board.roll.count == 1 and 1 <= face <= 6
        assert f"board: Ayla's Death check: {face} vs 1 damaged parts" in lines
        assert s.done[-1].text == "death Ayl" and s.done[-1].rolls == [["death", [face], "board"]]
        # Two dice (the add-die key) wait as the next check's 2D6, and the next check uses them.
        table.sim.press(table.sim.key_for("add_die"))  # the board's own: no event
        deadline = time.monotonic() + 10
        while table.sim.app.dice_count != 2 and time.monotonic() < deadline:
            time.sleep(0.005)
        lines = table.press("roll")
        faces = tuple(board.roll.faces[:2])
        assert lines == [f"board: board check roll waiting: {faces[0]} {faces[1]}"]
        table.execute("attack Snag 'Hand Axe' Bren evade=no")
        assert s.done[-1].rolls[0] == ["check", list(faces), "board"]
        # Counters are the rules' to count; the key is refused and nothing changes.
        with pytest.raises(IllegalAction, match="refused"):
            table.press("counter_up")
        table.settle()
        assert board.slots[0].counters[device.WILLPOWER] == s.game.fighters[0].willpower
