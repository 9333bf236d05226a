"""Every d20 duration ends exactly once under undo, redo and resume (d20-srd-combat.txt [26]
with issue #29's "exactly once"): random fights of the bundled encounter, the demo AI's
actions mixed with effects of every duration kind and with undos and redos, end in the same
game, the same effects running and the same lines said of each one's end, as the same
actions replayed once from the start in a fresh session and in one resumed from the
journal."""

from __future__ import annotations

import json
import random

import pytest

from host.core.journal import Journal
from host.core.session import Session, resume
from host.rulesets.d20 import encounter_schema
from host.rulesets.d20.ruleset import RULESET

DURATIONS = ("rounds=1", "rounds=3", "until=end", "until=start by={src}", "save=wis:12", "")


def _enc() -> encounter_schema.Encounter:
    path = encounter_schema.example_path()
    return RULESET.parse_encounter(path.read_text(), str(path))


def _ends(s: Session) -> list[str]:
    """What was said of every effect's end, action by action (from the kept history)."""
    fresh = Session(_enc(), s.seed)
    said: list[str] = []
    for entry in s.done:
        said += [x for x in fresh.execute(entry.text) if "is no longer" in x]
    return said


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_effects_end_once_whatever_the_undos_redos_and_resumes(seed: int, tmp_path) -> None:
    rng = random.Random(seed)
    journal = Journal(tmp_path / "j.sqlite")
    s = Session(_enc(), seed, journal)
    s.execute("initiative")
    for step in range(160):
        if s.over:
            break
        alive = [f for f in s.game.fighters if f.in_fight]
        roll = rng.random()
        if roll < 0.25 and alive:
            who = rng.choice(alive)
            src = rng.choice(alive)
            duration = rng.choice(DURATIONS).format(src=src.label)
            s.execute(f"condition {who.label} mark{step} {duration}".strip())
        elif roll < 0.32 and s.done:
            s.undo(rng.randint(1, min(4, len(s.done))))
        elif roll < 0.38 and s.undone:
            s.redo(rng.randint(1, len(s.undone)))
        else:
            for line in RULESET.plan_turn(s.game)[:1]:
                s.execute(line)
    final = json.dumps(RULESET.snapshot(s.game), sort_keys=True)
    fresh = Session(_enc(), seed)
    for entry in s.done:
        fresh.execute(entry.text)
    assert json.dumps(RULESET.snapshot(fresh.game), sort_keys=True) == final
    back = resume(journal)
    assert json.dumps(RULESET.snapshot(back.game), sort_keys=True) == final
    marks = [x for x in _ends(s) if "mark" in x]  # each mark is put on once: ends once
    assert len(marks) == len(set(marks)), f"an effect ended twice: {marks}"
