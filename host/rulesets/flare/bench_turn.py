"""`engine_turn_us_flare` for `turnlight bench`: the median time of one whole flare turn
through the generic session (each line parsed, applied by the rules, projected onto the
board state and journalled to a real SQLite file), in microseconds. The turns are the demo
AI's on the bundled Rift duel; the AI plans each turn before the clock starts."""

from __future__ import annotations

from host.lab.bench_session import demo_turn_us

TURNS = 200


def engine_turn(turns: int = TURNS) -> dict[str, float]:
    return {"engine_turn_us_flare": demo_turn_us("flare", turns)}
