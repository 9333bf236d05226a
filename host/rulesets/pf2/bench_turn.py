"""`engine_turn_us_pf2` for `turnlight bench`: the median time of one whole turn of pf2
through the generic session (host.core.session.Session): each line parsed, the rules
applied, the board state projected and the action committed to a real SQLite journal.

A turn is everything the demo AI plays on one entry's turn (its Strikes with their rolls
and damage, a Stand, a Stride, Hero Points) and the `next` that ends it, with its
persistent damage and recovery checks. Games of the bundled encounter follow each other
(seeds 1, 2, ...) until TURNS turns are timed; `initiative` is not timed.
"""

from __future__ import annotations

import statistics
import time

from host.lab.bench_session import games_on_a_journal
from host.rulesets.pf2 import ai

TURNS = 300


def engine_turn_pf2() -> dict[str, float]:
    samples: list[float] = []
    with games_on_a_journal("pf2") as current:
        while len(samples) < TURNS:
            session = current()
            if not session.game.started:
                session.execute("initiative")
                continue
            t0 = time.perf_counter_ns()
            while True:
                plan = ai.plan_turn(session.game)
                if not plan:
                    break
                session.execute(plan[0])
                if plan[0] == "next" or session.over:
                    break
            samples.append((time.perf_counter_ns() - t0) / 1000)
    return {"engine_turn_us_pf2": round(statistics.median(samples), 1)}
