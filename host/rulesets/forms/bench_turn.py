"""`engine_turn_us_forms` for `turnlight bench`: the median time of one forms turn through
the generic session (host.core.session.Session): the line parsed, the rules applied (with the
step's closing effects and the board projection) and the action journalled to a real SQLite
file.

A forms turn is one unit's action in a combat step or social round (the text's turns all
happen at once, so each unit's part is the unit of play): the demo AI's commands for the
bundled encounter, seed after seed, until TURNS have been timed.
"""

from __future__ import annotations

import statistics
import time

TURNS = 400


def engine_turn_forms() -> dict[str, float]:
    from host.lab.bench_session import games_on_a_journal

    samples: list[float] = []
    with games_on_a_journal("forms") as current:
        while len(samples) < TURNS:
            session = current()
            for line in session.ruleset.plan_turn(session.game):
                t0 = time.perf_counter_ns()
                session.execute(line)
                samples.append((time.perf_counter_ns() - t0) / 1000)
                if session.over or len(samples) >= TURNS:
                    break
    return {"engine_turn_us_forms": round(statistics.median(samples), 1)}
