"""`engine_turn_us_flare` for `turnlight bench`: the median time of one whole flare turn
through the generic session (each line parsed, applied by the rules, projected onto the
board state and journalled to a real SQLite file), in microseconds. The turns are the demo
AI's on the bundled Rift duel; the AI plans each turn before the clock starts."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from host import encounters
from host.journal import Journal
from host.session import Session

TURNS = 200


def engine_turn(turns: int = TURNS) -> dict[str, float]:
    from host.flare.ruleset import RULESET

    enc = encounters.load(RULESET.example_path())
    samples: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "bench.sqlite")
        seed = 1
        session = Session(enc, seed, journal)
        while len(samples) < turns:
            if session.over:
                seed += 1
                session = Session(enc, seed, journal)
            plan = RULESET.plan_turn(session.game)
            t0 = time.perf_counter_ns()
            for line in plan:
                session.execute(line)
            samples.append((time.perf_counter_ns() - t0) / 1000)
        journal.close()
    return {"engine_turn_us_flare": round(statistics.median(samples), 1)}
