"""What a forms game's state may hold beyond the kinds of value a new game shows: a stored
checkpoint's game outside it is refused and replayed (host/core/state_check.py). The game
is in a social round, in combat or over; combat has eight steps (0 outside combat); rounds
start at 1. Rules: forms-turns-rounds-encounters.txt.
"""

from __future__ import annotations

from collections import deque

from host.core.state_check import Field, StateSchema
from host.rulesets.forms.engine import Game

SCHEMA = StateSchema(
    {
        Game: {
            "mode": Field((str,), one_of=("social", "combat", "over")),
            "step": Field((int,), low=0, high=8),
            "round": Field((int,), low=1),
            "actions": Field((int,), low=0),
            "combined": Field((tuple, None)),
            "replaying": Field((deque, None)),
            "winner": Field((int, None)),
        },
    },
)
