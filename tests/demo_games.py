"""Games played by each ruleset's demo AI for the checkpoint tests (tests/test_checkpoints.py
and tests/test_stored_checkpoints.py), and the two views of a game they compare."""

from __future__ import annotations

import json
import random
from typing import Any

from host.core.interface import IllegalAction
from host.core.session import Session


def play(session: Session, rng: random.Random, actions: int, undo_rate: float = 0.0) -> None:
    """About `actions` actions of the ruleset's demo AI (fewer if the game ends), with an
    undo of 1 to 3 (and half the time a redo) at `undo_rate` of the turns."""
    ruleset = session.ruleset
    if ruleset.start_command and not session.done:
        session.execute(ruleset.start_command)
    while len(session.done) < actions and not session.over:
        before = len(session.done)
        if undo_rate and session.done and rng.random() < undo_rate:
            session.undo(rng.randint(1, min(3, len(session.done))))
            if rng.random() < 0.5:
                session.redo(1)
            continue
        for line in ruleset.plan_turn(session.game):
            try:
                session.execute(line)
            except IllegalAction:
                break
            if session.over or rng.random() < 0.1:
                break
        if len(session.done) == before:
            break


def seen(session: Session) -> str:
    """The session's game as it stands."""
    return json.dumps(session.ruleset.snapshot(session.game), sort_keys=True, default=str)


def replayed(session: Session, entries: list[Any]) -> str:
    """The session's game replayed from its start through `entries`, with no checkpoint."""
    ruleset = session.ruleset
    game = ruleset.new_game(session.encounter, session.seed)
    ruleset.project(game)
    for entry in entries:
        ruleset.replay(game, session._parse(entry.text), entry.rolls)
        ruleset.project(game)
    return json.dumps(ruleset.snapshot(game), sort_keys=True, default=str)
