"""`engine_turn_us_advance` for `turnlight bench`: the median time of one whole turn of
advance through the generic session (host.core.session.Session): the line parsed, the rules
applied, the board state projected and the action committed to a real SQLite journal.

A turn is one character's action as the demo AI plays it (an attack with its Hit check and
the target's answer, an assist, ...) with every answer it leads to (a Death check, the
Willpower spent on it); the `next` between steps is not timed. Games of the bundled
encounter follow each other (seeds 1, 2, ...) until TURNS turns are timed.
"""

from __future__ import annotations

from typing import Any

from host.lab.bench_session import timed_turns_us
from host.rulesets.advance import ai

TURNS = 300


def engine_turn() -> dict[str, float]:
    return {"engine_turn_us_advance": timed_turns_us("advance", TURNS, _not_next, _turn)}


def _not_next(session: Any) -> bool:
    """A step's `next` is played, not timed."""
    if ai.plan_turn(session.game) == ["next"]:
        session.execute("next")
        return False
    return True


def _turn(session: Any) -> None:
    for line in ai.plan_turn(session.game):
        session.execute(line)
    while session.game.pending is not None:
        for line in ai.plan_turn(session.game):
            session.execute(line)
