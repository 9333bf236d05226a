"""Flare through the simulated board (a real pty, the board's own code): the host sends
flare's descriptor; the board shows whose turn it is with the actions left, the scores,
the tokens as counters and who may call a Flare now as a mark; its next-turn key ends the
turn, and refuses while actions are left."""

from __future__ import annotations

import pytest
from flare_fixtures import duel, teams
from waiting import wait_for

from firmware import pages
from host.board.tethered_sim import TetheredSim
from host.core.interface import IllegalAction
from host.rulesets.flare import device
from shared import roster
from shared.descriptor_pack import encoded, names


def test_flare_plays_through_the_simulated_board() -> None:
    session = duel(("2h . . . .",))
    with TetheredSim(session) as table:
        table.settle()
        board = table.sim.app.state
        assert board.ruleset == device.BOARD_ID and encoded(board.rules) == device.descriptor()
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


def _turn_pages(table: TetheredSim, presses: int) -> list[int]:
    """Press the page key `presses` times; the pages the board showed after each."""
    app = table.sim.app
    seen = []
    for _ in range(presses):
        before = app.page
        table.sim.press(table.sim.key_for("page"))
        assert wait_for(lambda before=before: app.page != before)
        seen.append(app.page)
    return seen


def test_the_token_grid_shows_on_the_pico_owner_as_hue_rank_as_brightness() -> None:
    """flare-summoning-turn.txt:9 (the grid of tokens, each with an owner and a rank); issue
    13: the board shows the grid on boards with enough keys"""
    session = duel(("2h . . . .",))
    with TetheredSim(session, board="pico_matrix") as table:
        table.execute("place c3")  # Ann's common at c3: row 3, column c
        table.settle()
        board = table.sim.app.state
        assert (board.grid_w, board.grid_h) == (5, 5)
        assert board.grid[0] == roster.grid_cell(1, 1)  # Bo's heroic at a1
        assert board.grid[2 * 5 + 2] == roster.grid_cell(0, 0)
        assert sum(1 for c in board.grid if c) == 2
        assert pages.GRID in _turn_pages(table, pages.PAGE_COUNT)  # the page key reaches it
        table.sim.set_page("grid")

        def shown() -> bool:
            rows = table.sim.grid()
            heroic, common = rows[0][0], rows[2][2]
            lit = [(r, c) for r in range(7) for c in range(8) if any(rows[r][c])]
            return (
                lit == [(0, 0), (2, 2)]
                and heroic[0] > heroic[1] > heroic[2]  # Bo's orange
                and common[2] > common[1] > common[0]  # Ann's blue
                and sum(heroic) > 2 * sum(common)  # heroic brighter than common
            )

        assert wait_for(shown)


def test_the_macropad_has_too_few_keys_for_the_grid_page() -> None:
    session = duel(("2h . . . .",))
    with TetheredSim(session, board="macropad") as table:
        assert table.sim.app.state.grid_w == 5
        assert pages.GRID not in _turn_pages(table, 2 * pages.PAGE_COUNT)
