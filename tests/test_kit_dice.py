"""The kit's dice (host/core/kit.py): every ruleset takes an action's rolls in one order, the
record's when replaying, else the roll given to the waiting action, else the engine's,
and refuses what does not fit in one line. The session names who rolls a wanted roll from
the ruleset's fighter_names."""

from __future__ import annotations

from collections import deque

import pytest
from advance_fixtures import session as advance_session
from advance_fixtures import start_round

from host.core import kit
from host.core.interface import IllegalAction, RollWanted, Supplied, WantedRoll


class Cup(kit.Dice):
    """The least a ruleset's dice object holds: the rolls given, and how many are taken."""

    def __init__(self, given: list[Supplied] | None = None) -> None:
        self.supplied = given
        self.supplied_at = 0


HIT = WantedRoll("hit", 2, 1, who=3)


def engine() -> kit.Rolled:
    return kit.Rolled((6, 6), "engine")


def test_a_replayed_roll_is_the_record_s_whatever_was_given_or_the_engine_rolls() -> None:
    cup = Cup([("hit", (1, 1), "board")])
    record = [["hit", [2, 3], "entered"]]
    rolled = cup.take_roll(HIT, record, engine)
    assert (rolled.faces, rolled.source) == ((2, 3), "entered")
    assert record == [] and cup.supplied_at == 0  # the roll given is left for the action


def test_a_roll_given_to_the_waiting_action_comes_before_the_engine_s() -> None:
    cup = Cup([("hit", (1, 2), "board")])
    rolled = cup.take_roll(HIT, None, engine)
    assert rolled == kit.Rolled((1, 2), "board", kit.WANTED, "hit", 3)
    with pytest.raises(RollWanted) as wanted:
        cup.take_roll(HIT, None, engine)  # the second roll of the action: none given yet
    assert wanted.value.wanted == HIT


def test_without_rolls_given_the_engine_rolls() -> None:
    assert Cup().take_roll(HIT, None, engine) == kit.Rolled((6, 6), "engine")


def test_a_new_action_takes_the_rolls_given_from_the_first() -> None:
    cup = Cup([("hit", (1, 2), "board")])
    cup.take_roll(HIT, None, engine)
    cup.new_action()
    assert cup.take_roll(HIT, None, engine).faces == (1, 2)


@pytest.mark.parametrize(
    "given, said",
    [
        (("power", (1, 2), "board"), "the board power roll of 2 dice does not fit this hit roll"),
        (("hit", (1, 2, 3), "entered"), "the entered hit roll of 3 dice does not fit this hit"),
    ],
)
def test_a_roll_given_of_another_purpose_or_count_is_refused_in_one_line(
    given: Supplied, said: str
) -> None:
    with pytest.raises(IllegalAction) as refused:
        Cup([given]).take_roll(HIT, None, engine)
    assert str(refused.value).startswith(said) and "\n" not in str(refused.value)


@pytest.mark.parametrize(
    "record, said",
    [
        ([], "the journal holds no hit roll for this action"),
        ([["power", [1, 2], "engine"]], "the journal's power roll of 2 dice does not fit this hit"),
        (deque([["hit", [1], "engine"]]), "the journal's hit roll of 1 dice does not fit this hit"),
    ],
)
def test_a_record_that_does_not_fit_the_action_is_refused_in_one_line(record, said) -> None:
    with pytest.raises(IllegalAction) as refused:
        Cup().take_roll(HIT, record, engine)
    assert str(refused.value).startswith(said) and "\n" not in str(refused.value)


def test_a_record_of_another_roller_is_refused_where_the_record_keeps_who() -> None:
    class Named(Cup):
        def read_record(self, entry: dict) -> kit.Rolled:
            return kit.Rolled(tuple(entry["faces"]), entry["source"], who=entry["who"])

    with pytest.raises(IllegalAction, match="does not fit this hit roll"):
        Named().take_roll(HIT, [{"faces": [1, 2], "source": "engine", "who": 0}], engine)


def test_the_session_names_who_rolls_the_wanted_roll_from_the_ruleset() -> None:
    s = advance_session()
    start_round(s)
    s.dice_from = "entered"
    s.execute("attack Ayla Cleave Snag")
    assert s.pending is not None and s.pending.wanted is not None
    wanted = s.pending.wanted
    assert wanted.who_name == s.ruleset.fighter_names(s.game)[wanted.who] == "Ayla"
