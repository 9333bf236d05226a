"""Any die in a wanted roll (issue #30 §1): a ruleset's WantedRoll names each plain die's
faces (`sides`: a d20 with advantage is (20, 20), 2d6 + 1d8 is (6, 6, 8)); the session says
it in dice words, checks each face entered against its own die (one line naming the die),
rolls it itself with `roll`, and the board's state carries it (GameState.want) with each
die's faces. The ruleset is tests/dice_ruleset.py: tug with plain dice."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from dice_ruleset import ADVANTAGE, HEAVE, ROPE, RULESET

from host.board.tether import _set_want
from host.core import registry
from host.core.interface import IllegalAction, WantedRoll
from host.core.session import Session, dice_words, roll_words, wanted_problem
from shared import codec, dice, roster
from shared.state import GameState


@pytest.fixture(autouse=True)
def tug20() -> Iterator[None]:
    registry.register(RULESET)
    yield
    registry.unregister(RULESET.id)


def session(dice_from: str = "entered") -> Session:
    return Session(RULESET.parse_encounter(ROPE, "rope.toml"), 1, None, dice_from=dice_from)


def test_plain_dice_are_said_by_count_and_faces_in_order() -> None:
    assert dice_words((20,)) == "1d20"
    assert dice_words(ADVANTAGE) == "2d20"
    assert dice_words(HEAVE) == "2d6+1d8"
    wanted = WantedRoll("attack", 2, dice.KIND_DN, 0, "Ria", 1, ADVANTAGE)
    assert roll_words(wanted) == "Ria's attack roll (2d20)"


def test_a_pull_waits_for_a_d20_with_advantage_and_takes_two_faces() -> None:
    s = session()
    lines = s.execute("pull Ann")
    assert lines == ["pull Ann: waits for Ann's pull roll (2d20)"]
    assert s.pending is not None and s.pending.wanted is not None
    assert s.pending.wanted.sides == ADVANTAGE
    lines = s.execute("dice 17 4")
    assert "Ann pulls 17 4 (entered): +1" in lines
    assert s.game.ground == [1, 0]


def test_an_entered_face_past_its_die_is_refused_in_one_line_naming_the_die() -> None:
    s = session()
    s.execute("pull Ann")
    with pytest.raises(IllegalAction) as refused:
        s.execute("dice 17 21")
    assert str(refused.value) == (
        "Ann's pull roll (2d20): die 2 is a d20, and 21 is not one of its faces (1..20)"
    )
    assert "\n" not in str(refused.value)
    assert s.pending is not None and s.pending.supplied == []  # nothing changed


def test_each_face_of_a_roll_of_two_kinds_is_checked_against_its_own_die() -> None:
    s = session()
    s.execute("heave Ann")
    with pytest.raises(IllegalAction, match="die 2 is a d6, and 7 is not"):
        s.execute("dice 6 7 8")  # a 7 on a d6; the d8's 8 would do
    lines = s.execute("dice 6 6 8")
    assert "Ann heaves 6 6 8 (entered): +1" in lines


def test_the_engine_rolls_the_wanted_plain_dice_within_their_faces() -> None:
    s = session()
    s.execute("heave Ann")
    s.execute("roll")
    faces = s.game.used[0][0]
    assert len(faces) == 3 and all(1 <= f <= n for f, n in zip(faces, HEAVE, strict=True))


def test_the_board_state_carries_the_wanted_dice_each_with_its_faces() -> None:
    s = session()
    s.execute("heave Ann")
    state = GameState()
    roster.copy_state(state, s.ruleset.state(s.game))
    _set_want(state, s)
    assert (state.want.kind, state.want.count) == (dice.KIND_DN, 3)
    assert list(state.want.sides[:3]) == [6, 6, 8]
    back = GameState()
    codec.decode(codec.encode(state), back)
    assert list(back.want.sides[:3]) == [6, 6, 8] and back.want.purpose == 2


def test_a_wanted_roll_the_board_cannot_make_is_refused_in_one_line() -> None:
    four_kinds = WantedRoll("odd", 4, dice.KIND_DN, sides=(4, 6, 8, 10))
    assert "more than 3 kinds of die" in wanted_problem(four_kinds)
    assert "faces for 1" in wanted_problem(WantedRoll("odd", 2, dice.KIND_DN, sides=(20,)))
    assert "2..100 faces" in wanted_problem(WantedRoll("odd", 1, dice.KIND_DN, sides=(101,)))
    assert wanted_problem(WantedRoll("hit", 1, dice.KIND_DN, sides=(100,))) == ""
