"""`engine_turn_us_d20` for `turnlight bench`: the median time of one whole turn of d20
through the generic session (host.core.session.Session): each line parsed, the rules
applied, the board state projected and the action committed to a real SQLite journal.

A turn is everything the demo AI plays on one entry's turn (its creatures' attacks with
their rolls and damage, a heal, a lair action, a legendary action) and the `next` that
ends it, with its death saves and saves against effects. Games of the bundled encounter
follow each other (seeds 1, 2, ...) until TURNS turns are timed; `initiative` is not timed.
"""

from __future__ import annotations

from host.lab.bench_session import initiative_turns_us

TURNS = 300


def engine_turn_d20() -> dict[str, float]:
    return {"engine_turn_us_d20": initiative_turns_us("d20", TURNS)}
