"""The effects' figure for `turnlight bench`: what one turn boundary costs the effect book
(host/core/effects.py) with 20 effects in play, in microseconds (docs/benchmarks.md)."""

from __future__ import annotations

import copy
import statistics
import time

from host.core import effects, registry
from host.core.session import Session

SAMPLES = 300
# Four of each duration (none, rounds, until=end, until=start, save=end), on four fighters.
KINDS = ("", "rounds=50", "until=end", "until=start", "save=end")


def effect_tick() -> dict[str, float]:
    """A korxsol game with 20 effects on: its next `end` applied and projected (not timed),
    then `effects.tick`, which reads the turn, derives the moments passed and ticks every
    effect. Median of SAMPLES boundaries, each from the same game copied."""
    ruleset = registry.get("korxsol")
    path = ruleset.example_path()
    session = Session(ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path)), 1)
    session.execute("initiative")
    names = ruleset.fighter_names(session.game)
    for n, kind in enumerate(KINDS):
        for name in names[:4]:
            session.execute(f"effect {name} Effect{n} {kind}".strip())
    assert len(effects.in_play(session.game)) == 20
    end = ruleset.language.parse("end")
    assert end is not None
    samples = []
    for _ in range(SAMPLES):
        game = copy.deepcopy(session.game)
        ruleset.apply(game, end)
        ruleset.project(game)
        t0 = time.perf_counter_ns()
        effects.tick(ruleset, game)
        samples.append((time.perf_counter_ns() - t0) / 1000)
    return {"effect_tick_us": round(statistics.median(samples), 1)}


MEASUREMENTS = (effect_tick,)
