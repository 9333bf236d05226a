"""What a pf2 game's state may hold beyond the kinds of value a new game shows: a stored
checkpoint's game outside it is refused and replayed (host/core/state_check.py). Hit
points stay within 0 and the maximum, dying within 0..4, actions within 0..4, and each
creature is the one at its own place. Rules: pf2-combat.txt.
"""

from __future__ import annotations

from typing import Any

from host.core.state_check import Field, StateSchema, each_at_its_index
from host.rulesets.pf2.engine import Delayed, Dice, Fighter, Game


def _relations(game: Any) -> str | None:
    found = each_at_its_index("fighters")(game)
    if found:
        return found
    for f in game.fighters:
        if f.hp > f.spec.hp:
            return f"{f.name} has {f.hp} HP, over its maximum {f.spec.hp}"
        if f.actions > f.actions_max:
            return f"{f.name} has {f.actions} actions left of {f.actions_max}"
    if game.order and not 0 <= game.at < len(game.order):
        return f"the turn is at place {game.at} of an order of {len(game.order)}"
    return None


SCHEMA = StateSchema(
    {
        Game: {
            "round": Field((int,), low=0),
            "at": Field((int,), low=0),
            "actions": Field((int,), low=0),
            "over": Field((str, None)),
        },
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
    _relations,
)
