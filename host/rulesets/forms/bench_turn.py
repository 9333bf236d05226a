"""`engine_turn_us_forms` for `turnlight bench`: the median time of one forms turn through
the generic session (host.core.session.Session): the line parsed, the rules applied (with the
step's closing effects and the board projection) and the action journalled to a real SQLite
file.

A forms turn is one unit's action in a combat step or social round (the text's turns all
happen at once, so each unit's part is the unit of play): the demo AI's commands for the
bundled encounter, seed after seed, until TURNS have been timed.
"""

from __future__ import annotations

from host.lab.bench_session import demo_turn_us

TURNS = 400


def engine_turn_forms() -> dict[str, float]:
    return {"engine_turn_us_forms": demo_turn_us("forms", TURNS, per_line=True)}
