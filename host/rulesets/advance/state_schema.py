"""What an advance game's state may hold beyond the kinds of value a new game shows: a
stored checkpoint's game outside it is refused and replayed (host/core/state_check.py).
The round's step is one of A to E; a fighter is in, dead, fled or left (`remove`), and
each fighter is the one at its own place. Rules: advance-late-combat-round.txt.
"""

from __future__ import annotations

from host.core.state_check import Field, StateSchema, each_at_its_index
from host.rulesets.advance.engine import STEPS, Death, Dice, Fighter, Game, Hit

SCHEMA = StateSchema(
    {
        Game: {
            "step": Field((int,), low=0, high=len(STEPS) - 1),
            "round": Field((int,), low=1),
            "actions": Field((int,), low=0),
            "over": Field((str, None)),
            "pending": Field((Death, Hit, None)),
        },
        Dice: {"_replay": Field((list, None))},
        Fighter: {
            "status": Field((str,), one_of=("in", "dead", "fled", "left")),
            "extra": Field((int,), low=0),
            "advance": Field((bool, None)),
            "joins": Field((int,), low=0),
        },
    },
    each_at_its_index("fighters"),
)
