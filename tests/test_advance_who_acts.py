"""Advance: who may act in a round, where the refusals got it wrong (issue 37, item 11): a
character who joined after the round's Initiative Check, and one freed from Helpless before
it acted (the choice and the lines behind it: docs/rulesets/advance.md)."""

from __future__ import annotations

import pytest
from advance_fixtures import play, session, start_round, text, to_step, who

from host.core.interface import IllegalAction

OGRE = "add Ogre team=Enemies stamina=9 willpower=5 specialties=Claws"


def test_a_character_who_joins_mid_round_acts_from_the_next_initiative_check() -> None:
    # advance-late-combat-round.txt:7-15 and 19 (the round's order is made at step A)
    s = session()
    start_round(s)
    play(s, OGRE)
    to_step(s, "C")
    with pytest.raises(IllegalAction) as err:
        play(s, "wait Ogre")
    assert str(err.value) == "Ogre joined after round 1's Initiative Check: it acts from round 2's"
    assert "already acted" not in str(err.value)
    assert s.ruleset.roster(s.game).rows[-1][-1] == "joins in round 2"
    to_step(s, "E")
    play(s, "next")
    start_round(s)
    to_step(s, "C")
    assert play(s, "wait Ogre") == ["Ogre takes no action"]


def test_a_character_freed_from_helpless_before_acting_takes_its_action() -> None:
    # advance-late-combat-round.txt:161 (Done while Helpless; Willpower 1 frees it) and 29
    # (one action a round): freed in its own Advance step, Bren still has its action.
    s = session(
        text(
            ("stamina = 11\nwillpower = 6", "stamina = 11\nwillpower = 2"),  # Bren
            ("stamina = 5\nrebound = 1", "stamina = 5\nwillpower = 1\nrebound = 1"),  # Mend
        )
    )
    start_round(s)
    play(s, "assist Bren Habit")  # its Rebound leaves Bren Helpless
    to_step(s, "E")
    play(s, "next")
    start_round(s)  # Bren: Advance, and Helpless, so done
    assert s.ruleset.state(s.game).slots[1].flags & 2  # F_ACTED: always done while Helpless
    assert "Bren is no longer Helpless" in play(s, "assist Cyra Mend Bren")
    assert not s.ruleset.state(s.game).slots[1].flags & 2
    assert play(s, "wait Bren") == ["Bren takes no action"]
    assert who(s, "Bren").acted
    with pytest.raises(IllegalAction, match="Bren has already acted this round"):
        play(s, "wait Bren")


def test_a_character_freed_from_helpless_after_its_step_waits_for_the_next_round() -> None:
    # advance-late-combat-round.txt:23 (Advance acts in step B, Late in step D)
    s = session(
        text(
            ("stamina = 11\nwillpower = 6", "stamina = 11\nwillpower = 2"),
            ("stamina = 5\nrebound = 1", "stamina = 5\nwillpower = 1\nrebound = 1"),
        )
    )
    start_round(s)
    play(s, "assist Bren Habit")
    to_step(s, "E")
    play(s, "next")
    start_round(s, late=("Cyra",))  # Bren Advance, Cyra Late: Bren is freed in step D
    to_step(s, "D")
    play(s, "assist Cyra Mend Bren")
    with pytest.raises(IllegalAction, match="Advance, acting in step B"):
        play(s, "wait Bren")
