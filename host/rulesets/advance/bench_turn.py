"""`engine_turn_us_advance` for `turnlight bench`: the median time of one whole turn of
advance through the generic session (host.core.session.Session): the line parsed, the rules
applied, the board state projected and the action committed to a real SQLite journal.

A turn is one character's action as the demo AI plays it (an attack with its Hit check and
the target's answer, an assist, ...) with every answer it leads to (a Death check, the
Willpower spent on it); the `next` between steps is not timed. Games of the bundled
encounter follow each other (seeds 1, 2, ...) until TURNS turns are timed.
"""

from __future__ import annotations

import statistics
import time

from host.lab.bench_session import games_on_a_journal
from host.rulesets.advance import ai

TURNS = 300


def engine_turn() -> dict[str, float]:
    samples: list[float] = []
    with games_on_a_journal("advance") as current:
        while len(samples) < TURNS:
            session = current()
            plan = ai.plan_turn(session.game)
            if plan == ["next"]:
                session.execute("next")
                continue
            t0 = time.perf_counter_ns()
            for line in plan:
                session.execute(line)
            while session.game.pending is not None:
                for line in ai.plan_turn(session.game):
                    session.execute(line)
            samples.append((time.perf_counter_ns() - t0) / 1000)
    return {"engine_turn_us_advance": round(statistics.median(samples), 1)}
