"""The other half of the ruleset seam (issue #10): a ruleset written only for the tests
(tests/tiny_ruleset.py) plays through the simulated board, whose firmware and shared/
carry no ruleset code. The host sends the board the game's descriptor; the board then shows
its counter and takes its presses."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tiny_ruleset import EXAMPLE, TINY, descriptor

from host.board.tethered_sim import TetheredSim
from host.core import encounter_files, registry
from host.core.interface import IllegalAction
from host.core.session import Session
from shared.descriptor_pack import encoded, names


@pytest.fixture(autouse=True)
def tiny() -> Iterator[None]:
    registry.register(TINY)
    yield
    registry.unregister(TINY.id)


def test_a_ruleset_made_for_the_tests_plays_through_the_simulated_board() -> None:
    session = Session(encounter_files.load(EXAMPLE), 1, None)
    with TetheredSim(session) as table:
        table.settle()
        board = table.sim.app.state
        assert board.ruleset == TINY.board_id and encoded(board.rules) == descriptor(TINY.board_id)
        assert names(encoded(board.rules))["counters"] == ["hits"]
        # A hit typed on the laptop shows as Bo's counter on the board.
        table.execute("dice coin 1")
        table.execute("hit Bo")
        table.settle()
        assert board.slots[1].counters[0] == 1 and board.slots[1].health == 1
        # The board's next-turn key is tiny's `end`: Blue's turn.
        assert any("Red ends its turn" in line for line in table.press("next_turn"))
        assert session.game.team == 1
        # Its chance key flips the coin of the next hit: heads or tails, Blue's hit uses it.
        table.press("chance")
        flipped = session.game.waiting["coin"][0]
        assert flipped[1] == "board" and flipped[0][0] == board.roll.faces[0]
        lines = table.execute("hit Ann")
        assert lines[0].startswith("heads" if flipped[0][0] else "tails")
        table.settle()
        assert board.slots[0].counters[0] == session.game.taken[0]


def test_its_board_press_it_has_no_use_for_is_refused_and_changes_nothing() -> None:
    session = Session(encounter_files.load(EXAMPLE), 1, None)
    with TetheredSim(session) as table:
        table.settle()
        with pytest.raises(IllegalAction, match="refused"):
            table.press("counter_up")  # tiny's hits are the rules' to count
        table.settle()  # the board holds the host's state again
        assert table.sim.app.state.slots[0].counters[0] == 0
        assert session.game.taken == [0, 0, 0]
