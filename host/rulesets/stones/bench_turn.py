"""`engine_turn_us_stones` for `turnlight bench`: the median time of one whole stones turn
through the generic session (host.core.session.Session): each line parsed, checked and applied
by the rules, the board state projected, and the action committed to a journal in a real
SQLite file. The demo AI plans each turn before the clock starts; games of the bundled
encounter restart, with the next seed, when one is won."""

from __future__ import annotations

import statistics
import time

from host.lab.bench_session import games_on_a_journal

TURNS = 200


def engine_turn() -> dict[str, float]:
    samples: list[float] = []
    with games_on_a_journal("stones") as current:
        while len(samples) < TURNS:
            session = current()
            lines = session.ruleset.plan_turn(session.game)
            t0 = time.perf_counter_ns()
            for line in lines:
                session.execute(line)
                if session.over:
                    break
            samples.append((time.perf_counter_ns() - t0) / 1000)
    return {"engine_turn_us_stones": round(statistics.median(samples), 1)}
