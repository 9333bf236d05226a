"""Fighters who join and leave on the simulated board (a real pty, the real firmware): the
board gets a slot for each newcomer with the next snapshot and greys the one who left; it
holds at most MAX_SLOTS (shared/limits.py), so a newcomer past them is refused in one line
and the game, board and all, goes on (docs/commands.md, "Fighters who join and leave")."""

from __future__ import annotations

import pytest
from newcomer_games import session

from host.board.tethered_sim import TetheredSim
from host.core.interface import IllegalAction
from shared.limits import MAX_SLOTS
from shared.state import F_ACTIVE, F_OUT


def test_korxsol_newcomers_reach_the_board_and_one_past_its_slots_is_refused() -> None:
    s = session("korxsol")
    with TetheredSim(s) as table:
        board = table.sim.app.state
        table.press("next_turn")  # the board's next-turn key rolls initiative: round 1
        before = board.count
        for n in range(MAX_SLOTS - before):
            table.execute(f"add Ashling as Q{n}")
        table.settle()
        assert board.count == MAX_SLOTS
        labels = [board.slots[i].label for i in range(board.count)]
        assert labels[before:] == [f"Q{n}" for n in range(MAX_SLOTS - before)]
        with pytest.raises(IllegalAction, match="slots are all taken"):
            table.execute("add Ashling as Late")
        # The newcomer placed last takes the next turn (it sits right after the current).
        table.press("next_turn")
        active = [
            board.slots[i].label for i in range(board.count) if board.slots[i].flags & F_ACTIVE
        ]
        assert active == [f"Q{MAX_SLOTS - before - 1}"]
        table.execute("remove Q0 fled")
        table.settle()
        assert board.slots[before].flags & F_OUT
        for _ in range(MAX_SLOTS):  # the game goes on through the board, past the refusal
            table.press("next_turn")
        assert s.ruleset.fighter_names(s.game)[before] == "Q0"


def test_stones_a_newcomer_reaches_the_board_as_its_players_character() -> None:
    s = session("stones")
    with TetheredSim(s) as table:
        board = table.sim.app.state
        player = s.game.player_name
        before = board.count
        table.execute(f"add Tamsin player={player} class=warrior hp=15 atk=5 crt=10 move=3 range=1")
        table.settle()
        slot = board.slots[before]
        assert board.count == before + 1 and slot.label == "Tam"
        assert slot.flags & F_ACTIVE and slot.health == 15  # its player's turn: it may act
