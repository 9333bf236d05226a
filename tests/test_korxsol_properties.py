"""Properties of the korxsol session over random play: no command crashes the engine (it
either applies or is refused with IllegalAction), and undo to any depth then redo returns
exactly to each earlier state."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from host.korxsol import ai, encounter
from host.korxsol.rolls import IllegalAction
from host.korxsol.session import Session
from shared import codec

ENC = encounter.load(encounter.example_path())
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
