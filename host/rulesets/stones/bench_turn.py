"""`engine_turn_us_stones` for `turnlight bench`: the median time of one whole stones turn
through the generic session (host.core.session.Session): each line parsed, checked and applied
by the rules, the board state projected, and the action committed to a journal in a real
SQLite file. The demo AI plans each turn before the clock starts; games of the bundled
encounter restart, with the next seed, when one is won."""

from __future__ import annotations

from host.lab.bench_session import demo_turn_us

TURNS = 200


def engine_turn() -> dict[str, float]:
    return {"engine_turn_us_stones": demo_turn_us("stones", TURNS)}
