"""What a pf2 game's state may hold beyond the kinds of value a new game shows: a stored
checkpoint's game outside it is refused and replayed (host/core/state_check.py). Hit
points stay within 0 and the maximum, dying within 0..4, actions within 0..4, and each
creature is the one at its own place. Rules: pf2-combat.txt.
"""

from __future__ import annotations

from typing import Any

from host.core.state_check import FIGHT, Field, StateSchema, fight_relations
from host.rulesets.pf2.engine import Delayed, Dice, Fighter, Game


def _actions(f: Any) -> str | None:
    if f.actions > f.actions_max:
        return f"{f.name} has {f.actions} actions left of {f.actions_max}"
    return None


SCHEMA = StateSchema(
    {
        Game: FIGHT,
        Dice: {"_replay": Field((list, None)), "degree": Field((int,), low=-1, high=3)},
        Fighter: {
            "hp": Field((int,), low=0),
            "temp": Field((int,), low=0),
            "dying": Field((int,), low=0, high=4),
            "wounded": Field((int,), low=0),
            "actions": Field((int,), low=0, high=4),
            "actions_max": Field((int,), low=0, high=4),
            "attacks": Field((int,), low=0),
            "hero": Field((int,), low=0, high=3),
            "readied_step": Field((int,), low=-1, high=2),
            "initiative": Field((int, None)),
        },
        Delayed: {"since": Field((int,), low=1), "after": Field((int,), low=-1)},
    },
    fight_relations(_actions),
)
