"""Effects end exactly once (issue #29, item 4): random games of every registered ruleset,
driven by its demo AI, with random effects, undos, redos and resumes from the journal (from
a stored checkpoint, as after a kill -9); each effect's end is checked against a reference
computed from the final history alone (host/lab/fuzz_effects.py). The same inputs on every
`make test` (tests/conftest.py); `make fuzz` plays many more (its target `effects`)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host.core import registry
from host.core.session import Session
from host.lab import fuzz_effects

GAMES = 6  # per ruleset: a game of 40 steps takes about 0.1 to 0.5 s (all: ~10 s)
STEPS = 40


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_undo_redo_and_resume_never_end_an_effect_twice_revive_one_or_skip_one(
    ruleset_id: str,
) -> None:
    @settings(
        max_examples=GAMES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        database=None,
        derandomize=True,
    )
    @given(st.randoms(use_true_random=False))
    def ends_as_the_history_says(rng: random.Random) -> None:
        fuzz_effects.random_game(rng, ruleset_id, STEPS)

    ends_as_the_history_says()


def test_the_reference_sees_an_effect_the_book_lost(tmp_path) -> None:
    """The check can fail: a book that forgot an ended effect disagrees with the history."""
    session = fuzz_effects.random_game(random.Random(1), "korxsol", STEPS, tmp_path)
    book = fuzz_effects.effects.book_of(session.ruleset, session.game)
    assert book.ended, "the game ended no effect"
    book.ended.pop()
    journal = fuzz_effects.Journal(tmp_path / "fuzz.sqlite")
    assert session.game_id is not None
    with pytest.raises(AssertionError, match="ended"):
        fuzz_effects.check(session, journal, session.game_id)
    journal.close()


def test_the_reference_times_a_held_turn_by_the_ruleset_s_reported_moments(tmp_path) -> None:
    """docs/effects.md "Turns that stop and come back": a ruleset that reports its turn
    moments is timed by them in the reference too, not by the turn pointer. Cards' Ruth
    holds her turn and acts later (tests/plugin/turnlight_cards/RULES.md [7][8]): her
    `until=end` ends as that one turn ends, in the book and in the reference alike."""
    cards = registry.get("cards")
    example = cards.example_path()
    encounter = cards.parse_encounter(example.read_text(encoding="utf-8"), str(example))
    journal = fuzz_effects.Journal(tmp_path / "held.sqlite")
    s = Session(encounter, 1, journal, dice_from="entered")
    deal = ["draw AS", "draw 3S", "draw 4S", "draw 5S"]  # Ruth, Doc, Cole, the guns
    for line in ["deal", *deal, "effect Ruth Aim until=end"]:
        s.execute(line)
    while s.pending is None:  # Ruth's turn, put on in it, ends; then the others' to round 2
        s.execute("end")
    for line in ["draw KS", "draw 6S", "draw 7S", "draw 8S", "hold", "act Ruth"]:
        s.execute(line)  # round 2: Ruth first, holds (her turn stops), acts (it goes on)
    assert [e.name for e in fuzz_effects.effects.in_play(s.game)] == ["Aim"]
    s.execute("end")
    ended = [(e.effect.name, e.at) for e in fuzz_effects.effects.book_of(cards, s.game).ended]
    assert ended == [("Aim", len(s.done))], ended
    assert s.game_id is not None
    puts = fuzz_effects.reference(cards, s, s.done)
    assert [(p.name, p.ended) for p in puts] == [("Aim", len(s.done))]
    fuzz_effects.check(s, journal, s.game_id)
    journal.close()
