"""Properties of the korxsol session over random play: no command crashes the engine (it
either applies or is refused with IllegalAction), and undo to any depth then redo returns
exactly to each earlier state."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from host.core.session import Session
from host.rulesets.korxsol import ai, encounter_schema
from host.rulesets.korxsol.rolls import IllegalAction
from shared import codec
from shared.state import F_OUT

ENC = encounter_schema.load(encounter_schema.example_path())
NAMES = ["Kae", "Vex", "Orn", "Brm", "Nobody"]
MOVES = [m.name for s in ENC.solighters for m in s.moves] + ["Nothing"]
VERBS = ["move", "attack", "item", "artifact", "struggle", "release", "crush", "end", "ai"]


def _state(s: Session):
    return json.dumps(s.game.snapshot(), sort_keys=True), codec.encode(s.game.state)


command = st.tuples(
    st.sampled_from(VERBS),
    st.sampled_from(NAMES),
    st.sampled_from(MOVES + ["Tonic", "Whetstone", "Ember Charm"]),
    st.lists(st.sampled_from(NAMES), max_size=2),
)


def _line(verb, name, thing, targets):
    if verb in ("move", "struggle", "release", "crush"):
        return f"{verb} {name}"
    if verb == "end":
        return "end"
    return f'{verb} {name} "{thing}" ' + " ".join(targets)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(1, 10_000), commands=st.lists(command, min_size=5, max_size=40))
def test_random_play_never_crashes_and_undo_redo_are_exact(seed, commands):
    s = Session(ENC, seed)
    s.execute("initiative")
    states = [_state(s)]
    for verb, name, thing, targets in commands:
        if s.game.winner is not None:
            break
        lines = ai.plan_turn(s.game) if verb == "ai" else [_line(verb, name, thing, targets)]
        for line in lines:
            before = _state(s)
            try:
                s.execute(line)
            except IllegalAction as err:
                assert "\n" not in str(err)
                assert _state(s) == before
                continue
            states.append(_state(s))
            if s.game.winner is not None:
                break
    depth = len(states) - 1
    for back in range(1, depth + 1):
        s.execute("undo")
        assert _state(s) == states[depth - back]
    if depth:
        s.execute(f"redo {depth}")
    assert _state(s) == states[-1]


_OWN = st.fixed_dictionaries(
    {
        "kor": st.integers(1, 255),
        "actions": st.integers(0, 6),
        "power": st.integers(0, 7),
        "resistance": st.integers(0, 7),
        "armor": st.integers(0, 7),
        "agility": st.integers(0, 7),
        "weapon": st.sampled_from(["sword", "axe", "bow"]),
    }
)
_PASSIVE = st.dictionaries(
    st.sampled_from(["power", "resistance", "armor", "agility", "actions", "kor", "sol"]),
    st.integers(-9, 9),
    min_size=1,
)


@settings(max_examples=200, deadline=None)
@given(own=_OWN, passive=_PASSIVE)
def test_any_encounter_the_parser_accepts_builds_a_game_within_the_limits(own, passive):
    # korxsol-players-guide.txt, ARTIFACTS (Passive): a passive artifact changes attributes
    # and traits for the whole game, so the file is checked on the sums: an accepted file
    # never fails later, a refused one says FILE:LINE in one line.
    from korxsol_fixtures import toml

    from host.rulesets.korxsol.engine import Game

    ash = dict(own, name="Ash", artifacts=["Charm"])
    charm = {"name": "Charm", "kind": "passive", "passive": passive}
    text = toml([ash, {"name": "Bo", "team": "B"}], (), (), [charm])
    try:
        enc = encounter_schema.parse(text, "test.toml")
    except encounter_schema.EncounterError as err:
        assert str(err).startswith("test.toml:") and "\n" not in str(err)
        return
    game = Game(enc)
    f = game.fighter("Ash")
    s = game.slot(f)
    assert s.health == s.health_max >= 1 and 1 <= s.actions_max <= 7
    assert f.sol >= 0 and f.armor >= 0
    assert all(game.attribute(f, a) >= 0 for a in ("power", "resistance", "agility"))
    s2 = Session(enc, 1)
    s2.execute("order Ash Bo")
    for _ in range(3):
        s2.execute("end")
    assert not s2.game.slot(s2.game.fighter("Ash")).flags & F_OUT  # standing: KOR >= 1
