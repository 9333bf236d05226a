"""`engine_turn_us_flare` for `turnlight bench`: the median time of one whole flare turn
through the generic session (each line parsed, applied by the rules, projected onto the
board state and journalled to a real SQLite file), in microseconds. The turns are the demo
AI's on the bundled Rift duel; the AI plans each turn before the clock starts."""

from __future__ import annotations

import statistics
import time

from host.lab.bench_session import games_on_a_journal

TURNS = 200


def engine_turn(turns: int = TURNS) -> dict[str, float]:
    samples: list[float] = []
    with games_on_a_journal("flare") as current:
        while len(samples) < turns:
            session = current()
            plan = session.ruleset.plan_turn(session.game)
            t0 = time.perf_counter_ns()
            for line in plan:
                session.execute(line)
            samples.append((time.perf_counter_ns() - t0) / 1000)
    return {"engine_turn_us_flare": round(statistics.median(samples), 1)}
