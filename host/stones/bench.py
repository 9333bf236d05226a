"""`engine_turn_us_stones` for `turnlight bench`: the median time of one whole stones turn
through the generic session (host.session.Session): each line parsed, checked and applied
by the rules, the board state projected, and the action committed to a journal in a real
SQLite file. The demo AI plans each turn before the clock starts; games of the bundled
encounter restart, with the next seed, when one is won."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from host import encounters
from host.journal import Journal
from host.session import Session
from host.stones.ruleset import RULESET

TURNS = 200


def engine_turn() -> dict[str, float]:
    enc = encounters.load(RULESET.example_path(), RULESET.id)
    samples: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "bench.sqlite")
        seed = 1
        session = Session(enc, seed, journal)
        while len(samples) < TURNS:
            if session.over:
                seed += 1
                session = session.next_game()
            lines = RULESET.plan_turn(session.game)
            t0 = time.perf_counter_ns()
            for line in lines:
                session.execute(line)
                if session.over:
                    break
            samples.append((time.perf_counter_ns() - t0) / 1000)
        journal.close()
    return {"engine_turn_us_stones": round(statistics.median(samples), 1)}
