"""Flare through the simulated board (a real pty, the board's own code): the host sends
flare's descriptor; the board shows whose turn it is with the actions left, the scores,
the tokens as counters and who may call a Flare now as a mark; its next-turn key ends the
turn, and refuses while actions are left."""

from __future__ import annotations

import pytest
from flare_fixtures import duel, teams

from host.flare import device
from host.ruleset import IllegalAction
from host.tethered_sim import TetheredSim
from shared.descriptor_pack import encoded, names


def test_flare_plays_through_the_simulated_board() -> None:
    session = duel(("2h . . . .",))
    with TetheredSim(session) as table:
        table.settle()
        board = table.sim.app.state
        assert board.ruleset == device.BOARD_ID and encoded(board.rules) == device.DESCRIPTOR
        assert names(encoded(board.rules))["counters"] == [
            "supply",
            "tokens",
            "upgraded",
            "legends",
        ]
        assert names(encoded(board.rules))["marks"] == ["flare", "control"]
        # Ann's turn, two actions; Bo is a heroic ahead: she may call a Flare.
        assert board.active == 0 and board.slots[0].actions == 2
        assert board.slots[0].flags & device.F_FLARE
        table.execute("place c3")
        table.settle()
        assert board.slots[0].actions == 1 and board.slots[0].counters[device.ON_GRID] == 1
        assert not board.slots[0].flags & device.F_FLARE  # an action came first
        # The next-turn key is `end`: refused while an action is left, nothing changes.
        with pytest.raises(IllegalAction, match="refused"):
            table.press("next_turn")
        table.settle()
        assert session.game.player == "Ann" and board.slots[0].actions == 1
        table.execute("place d3")
        assert any("Ann ends the turn" in line for line in table.press("next_turn"))
        table.settle()
        assert board.active == 1 and board.slots[1].actions == 2
        assert board.slots[1].counters[device.UPGRADED] == 1
        # Bo's Flare would need Ann ahead; his turn, then hers with a Flare and its point.
        table.execute("place e5")
        table.execute("place e4")
        table.press("next_turn")
        table.execute("flare flash")
        table.settle()
        assert list(board.scores[:2]) == [0, 1] and board.slots[0].actions == 3


def test_the_board_keys_flare_has_no_use_for_are_refused() -> None:
    session = duel()
    with TetheredSim(session) as table:
        table.settle()
        with pytest.raises(IllegalAction, match="refused"):
            table.press("counter_up")
        table.settle()
        assert table.sim.app.state.slots[0].counters[device.SUPPLY] == 8


def test_in_team_play_the_board_shows_who_holds_control_and_the_teams_scores() -> None:
    session = teams(("1c 2c . . .",))
    with TetheredSim(session) as table:
        table.settle()
        board = table.sim.app.state
        assert board.team_count == 2 and [board.slots[i].team for i in range(4)] == [0, 1, 0, 1]
        table.execute("summon plain at=b1")
        table.execute("pass wyrm")
        table.settle()
        assert board.slots[2].flags & device.F_CONTROL and board.active == 0
        table.execute("place e5")
        table.press("next_turn")
        table.execute("place e4")  # Bo
        table.execute("place d4")
        table.press("next_turn")
        table.execute("place a3")  # Cy: her own turn, her own control
        table.execute("place a4")
        table.press("next_turn")
        table.settle()
        assert not any(board.slots[i].flags & device.F_CONTROL for i in range(4))
        assert list(board.scores[:2]) == session.game.team_scores()
