"""The shared turn machine's other turn units (issue #10, point 3) play through the host and
the simulated board: two rulesets made only for the tests (tests/tiny_units.py), a group
turn and simultaneous steps, whose board projection is the shared GameState moved by
shared.turns. The board carries no code of theirs: it shows every active slot of the turn,
its next-turn key ends the unit (or, on a selected player of it, says that player is done),
and untethered it plays the same turns by the descriptor alone.

Rules: speaking-stones-turn-order.txt:64 (the teams' turns alternate; once everyone has
had a turn the round ends), forms-turns-rounds-encounters.txt:26 (all turns of a round
happen at once), forms-turns-rounds-encounters.txt:47 (a combat round in numbered steps),
advance-late-combat-round.txt:29 (one action a round).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from boardfakes import Rig
from tiny_units import AIMED, TINY_STEPS, TINY_TEAMS

from firmware import pages
from host.board.tethered_sim import TetheredSim
from host.core import encounter_files, registry
from host.core.interface import IllegalAction
from host.core.session import Session
from shared import roster
from shared.state import F_ACTED, F_ACTIVE, GameState, mark_bit


@pytest.fixture(autouse=True)
def units() -> Iterator[None]:
    registry.register(TINY_TEAMS)
    registry.register(TINY_STEPS)
    yield
    registry.unregister(TINY_TEAMS.id)
    registry.unregister(TINY_STEPS.id)


def _session(ruleset: str) -> Session:
    rules = TINY_TEAMS if ruleset == "tiny_teams" else TINY_STEPS
    return Session(encounter_files.load(rules.example_path()), 1, None)


def _active(state: GameState) -> list[str]:
    return [state.slots[i].label for i in range(state.count) if state.slots[i].flags & F_ACTIVE]


def _done(state: GameState) -> list[str]:
    return [state.slots[i].label for i in range(state.count) if state.slots[i].flags & F_ACTED]


def test_a_teams_players_take_their_turn_together_through_the_simulated_board() -> None:
    s = _session("tiny_teams")
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        # Red's players, Ann and Di, are active at once: the board shows both.
        assert _active(board) == ["Ann", "Di"] and bytes(board.order[:4]) == bytes((0, 3, 1, 2))
        table.execute("dice coin 1")
        table.execute("hit Ann Bo")  # Ann's one hit: she is done, Di still has to act
        table.settle()
        assert _active(board) == ["Ann", "Di"] and _done(board) == ["Ann"]
        assert board.slots[1].counters[0] == 1 and board.slots[0].actions == 0
        # Di selected (turn position 1) and next turn: the board says Di is done, and with
        # every Red player done, Blue's players take their turn.
        table.press("pos1")
        assert any("Di is done" in line for line in table.press("next_turn"))
        assert _active(board) == ["Bo", "Cy"] and s.game.team == 1
        # Next turn with nothing selected ends the whole team's turn: Red's again, round
        # 2, each player's allowance refilled as its turn starts.
        assert any("Blue ends its turn" in line for line in table.press("next_turn"))
        assert _active(board) == ["Ann", "Di"] and board.round == 2
        assert board.slots[0].actions == 1 and board.slots[3].actions == 1


def test_a_player_not_in_the_turn_cannot_be_done_from_the_board() -> None:
    s = _session("tiny_teams")
    with TetheredSim(s) as table:
        table.settle()
        table.press("pos2")  # Bo, of Blue, in Red's turn: next turn ends Red's turn instead
        assert any("Red ends its turn" in line for line in table.press("next_turn"))
        with pytest.raises(IllegalAction, match="Bo is not one still to act"):
            table.execute("done Bo")  # Bo is active now: done once, then not again
            table.execute("done Bo")


def test_every_player_acts_at_once_in_each_step_through_the_simulated_board() -> None:
    s = _session("tiny_steps")
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        assert _active(board) == ["Ann", "Bo", "Cy", "Di"] and board.phase == 0
        table.execute("aim Ann")
        with pytest.raises(IllegalAction, match="in the hit step"):
            table.execute("hit Bo Ann")
        table.settle()
        assert board.slots[0].flags & mark_bit(AIMED) and _done(board) == ["Ann"]
        # Next turn ends the aim step for everyone: the hit step, everyone to act again.
        table.press("next_turn")
        assert board.phase == 1 and _done(board) == [] and board.round == 1
        table.execute("dice coin 1")
        table.execute("hit Ann Cy")
        with pytest.raises(IllegalAction, match="Bo has not aimed"):
            table.execute("hit Bo Ann")
        table.settle()
        assert board.slots[2].counters[0] == 1 and board.slots[0].actions == 0
        # Past the last step, the round: aims clear, the allowance refills.
        table.press("next_turn")
        assert board.round == 2 and board.phase == 0
        assert not board.slots[0].flags & mark_bit(AIMED) and board.slots[0].actions == 1


def test_the_step_ends_once_every_player_in_it_is_done() -> None:
    s = _session("tiny_steps")
    for name in ("Ann", "Bo", "Cy"):
        s.execute(f"aim {name}")
    assert s.game.state.phase == 0
    s.execute("done Di")
    assert s.game.state.phase == 1 and _done(s.game.state) == []


def _untethered(s: Session) -> Rig:
    """A board that took the game's state and descriptor, then lost its host."""
    rig = Rig()
    roster.copy_state(rig.app.state, s.game.state)
    rig.run(2)
    return rig


def test_untethered_the_boards_next_turn_key_follows_the_team_turn() -> None:
    s = _session("tiny_teams")
    rig = _untethered(s)
    state = rig.app.state
    rig.tap("pos1")  # Di
    rig.tap("next_turn")
    assert _active(state) == ["Ann", "Di"] and _done(state) == ["Di"]
    rig.tap("next_turn")
    assert _active(state) == ["Bo", "Cy"]
    # The same presses on the host's rules reach the same turn.
    s.execute("done Di")
    s.execute("end")
    assert _active(s.game.state) == _active(state) and s.game.state.round == state.round


def test_untethered_the_boards_next_turn_key_steps_through_the_round() -> None:
    s = _session("tiny_steps")
    rig = _untethered(s)
    state = rig.app.state
    rig.tap("next_turn")
    assert state.phase == 1 and _active(state) == ["Ann", "Bo", "Cy", "Di"]
    rig.tap("next_turn")
    assert state.round == 2 and state.phase == 0


def test_the_board_shows_every_active_slot_of_the_turn_pulsing() -> None:
    s = _session("tiny_teams")
    state = s.game.state
    canvas = pages.Canvas(8, 4)
    now = 1000  # the bright moment of the fast pulse
    pages.render_page(canvas, pages.INITIATIVE, state, 255, False, now)
    level = [max(canvas.frame[pos * 3 : pos * 3 + 3]) for pos in range(4)]
    # Positions 0 and 1 (Ann, Di) pulse at full; Bo and Cy wait at the middle level.
    assert level[0] == level[1] > level[2] and level[2] == level[3] > 0
