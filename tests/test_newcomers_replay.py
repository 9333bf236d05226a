"""Games where fighters join and leave at random moments, between the demo AI's turns and
the game master's undos and redos, replay to the very same game: from the session's own
history, and from the journal after a resume (host/core/session.py replays both). A fixed
handful of seeds per game, so a failure names the seed that shows it."""

from __future__ import annotations

import json
import random

import pytest
from demo_games import replayed
from newcomer_games import JOINING, SCENES, seen, session

from host.core.interface import IllegalAction
from host.core.journal import Journal
from host.core.session import Session, resume

SEEDS = (1, 2, 3)


def shuffle_the_fight(s: Session, rng: random.Random, steps: int) -> int:
    """`steps` moves: a turn of the demo AI, a newcomer from the template, someone leaving,
    an undo or a redo; refusals (a full board, the fighter whose turn it is) are skipped.
    Returns how many fighters joined or left (undone ones included)."""
    scene = SCENES[s.ruleset.id]
    joined = left = 0
    for _ in range(steps):
        if s.over:
            break
        move = rng.choice(("turn", "turn", "add", "remove", "undo", "redo"))
        try:
            if move == "turn":
                if s.ruleset.start_command and not s.ruleset.started(s.game):
                    s.execute(s.ruleset.start_command)
                for line in s.ruleset.plan_turn(s.game)[:3]:
                    s.execute(line)
            elif move == "add":
                s.execute(f"add {scene.template} as N{joined}")
                joined += 1
            elif move == "remove":
                present = [
                    n for n in s.ruleset.fighter_names(s.game) if n not in s.ruleset.gone(s.game)
                ]
                s.execute(f"remove {rng.choice(present)} {rng.choice(('fled', 'dismissed'))}")
                left += 1
            elif move == "undo" and s.done:
                s.undo(1)
            elif move == "redo" and s.undone:
                s.redo(1)
        except IllegalAction:
            continue
    return joined + left


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ruleset_id", JOINING)
def test_comings_and_goings_replay_to_the_same_game(ruleset_id: str, seed: int, tmp_path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    s = session(ruleset_id, seed, journal)
    assert shuffle_the_fight(s, random.Random(seed), 40) > 0
    assert json.dumps(s.ruleset.snapshot(s.game), sort_keys=True, default=str) == replayed(
        s, s.done
    )
    journal.close()
    journal = Journal(tmp_path / "j.sqlite", write=False)
    try:
        back = resume(journal)
    finally:
        journal.close()
    assert seen(back) == seen(s)
