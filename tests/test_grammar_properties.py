"""Every verb of every ruleset, against its declared grammar (issue #25): a line of the verb
with an option no verb takes (`zzq=1`), or with a word past those the grammar takes where it
fixes their count, is refused in one line and changes nothing: the game's snapshot, the
actions done and the action waiting are as they were. The lines are made from the grammar
itself, their words drawn from what the ruleset completes there and the game's names, in
games its demo AI has played a few actions into. The built-in rulesets (host.core.registry)
and the tests' own (tests/tiny_ruleset.py, tests/tiny_units.py) are all played.

A line may be refused for a reason of the rules (not this character's turn, say): that is
fine if the refusal is one line and nothing changed, and if the same line without the
option or the word is refused too; else the refusal must name what was added."""

from __future__ import annotations

import json
import random
import shlex
from collections.abc import Iterator

import pytest
from demo_games import play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiny_ruleset import TINY
from tiny_units import TINY_STEPS, TINY_TEAMS

from host.core import registry
from host.core.interface import IllegalAction, Ruleset
from host.core.session import Session

TESTS_OWN = (TINY, TINY_TEAMS, TINY_STEPS)
EXTRA = "zzq"  # a word and an option key no ruleset knows


@pytest.fixture(scope="module", autouse=True)
def tests_own_rulesets() -> Iterator[None]:
    for ruleset in TESTS_OWN:
        registry.register(ruleset)
    yield
    for ruleset in TESTS_OWN:
        registry.unregister(ruleset.id)


# Every ruleset: the built-in ones the registry lists, and the tests' own.
IDS = list(dict.fromkeys([*registry.ids(), *(r.id for r in TESTS_OWN)]))


def test_the_property_plays_every_registered_ruleset() -> None:
    assert set(registry.ids()) <= set(IDS) and len(IDS) >= 8


def session_of(ruleset: Ruleset, seed: int, actions: int) -> Session:
    path = ruleset.example_path()
    enc = ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path))
    s = Session(enc, seed)
    play(s, random.Random(seed), actions)
    return s


def state(s: Session) -> tuple[str, int, str | None]:
    snapshot = json.dumps(s.ruleset.snapshot(s.game), sort_keys=True, default=str)
    return snapshot, len(s.done), None if s.pending is None else s.pending.text


def candidates(s: Session, words: list[str], placeholder: str) -> list[str]:
    """Words that look right at the end of `words`: what the ruleset completes there, the
    placeholder's own listed words (`ground|water`), the game's names, small numbers."""
    offered = [w for w in s.ruleset.complete(s.game, [*words, ""]) if "=" not in w]
    listed = [w for w in placeholder.split("|") if w.islower() or w[:1] in "+-"]
    listed = [w.replace("N", "1") for w in listed]
    names = list(s.ruleset.summary(s.game).get("team_of", {}))
    return offered + listed + [shlex.quote(n) for n in names] + ["1", "2", "a1", "b2"]


@st.composite
def a_line(draw: st.DrawFn, s: Session) -> tuple[str, bool]:
    """A line the demo AI would play next (one the rules take, as a rule), or a line of any
    of the ruleset's verbs made from its grammar: every word filled (a repeated one once),
    its required options given; and whether the grammar fixes how many words it takes."""
    language = s.ruleset.language
    planned = [] if s.over else s.ruleset.plan_turn(s.game)[:1]
    if planned and draw(st.booleans(), label="the AI's line"):
        cmd = language.parse(planned[0])
        assert cmd is not None and cmd.grammar is not None
        return planned[0], cmd.grammar.most_words() is not None
    verb = draw(st.sampled_from(sorted(language.grammar)))
    declared = language.grammar[verb]
    words = verb.split()
    for slot in declared.slots:
        words.append(draw(st.sampled_from(candidates(s, words, slot.text))))
    for option in declared.options:
        if option.required:
            value = option.choices[0] if option.choices else draw(st.sampled_from(["a1", "b2"]))
            words.append(f"{option.key}={value}")
    return " ".join(words), declared.most_words() is not None


@pytest.mark.parametrize("ruleset_id", IDS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_unknown_option_or_a_word_too_many_is_refused_in_one_line_changing_nothing(
    ruleset_id: str, data: st.DataObject
) -> None:
    ruleset = registry.get(ruleset_id)
    seed = data.draw(st.integers(1, 3), label="seed")
    s = session_of(ruleset, seed, data.draw(st.integers(0, 12), label="actions"))
    line, fixed = data.draw(a_line(s), label="line")
    added = data.draw(st.sampled_from([f"{EXTRA}=1", EXTRA] if fixed else [f"{EXTRA}=1"]))
    before = state(s)
    with pytest.raises(IllegalAction) as err:
        s.execute(f"{line} {added}")
    said = str(err.value)
    assert "\n" not in said
    assert state(s) == before, said
    if EXTRA not in said:  # refused for a reason of the rules: without it, refused too
        with pytest.raises(IllegalAction):
            s.execute(line)


@pytest.mark.parametrize("ruleset_id", IDS)
def test_every_verb_refuses_an_unknown_option_naming_it_before_the_rules_see_it(
    ruleset_id: str,
) -> None:
    language = registry.get(ruleset_id).language
    for verb, declared in language.grammar.items():
        words = [verb] + [slot.text for slot in declared.slots]
        with pytest.raises(IllegalAction) as err:
            language.parse(" ".join(words) + f" {EXTRA}=1")
        assert f"{verb}: unknown option '{EXTRA}'" in str(err.value), verb
        assert "\n" not in str(err.value)
