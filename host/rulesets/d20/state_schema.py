"""What a d20 game's state may hold beyond the kinds of value a new game shows: a stored
checkpoint's game outside it is refused and replayed (host/core/state_check.py). Hit
points stay within 0 and the maximum, death saves within 0..3, exhaustion 0..6, Legendary
Resistance 0..9, an
effect's duration is one of its kinds, and each creature is the one at its own place.
Rules: d20-srd-combat.txt.
"""

from __future__ import annotations

from typing import Any

from host.core.state_check import Field, StateSchema, each_at_its_index
from host.rulesets.d20.conditions import Effect
from host.rulesets.d20.engine import Dice, Entry, Fighter, Game


def _relations(game: Any) -> str | None:
    found = each_at_its_index("fighters")(game)
    if found:
        return found
    for f in game.fighters:
        if f.hp > f.spec.hp:
            return f"{f.name} has {f.hp} HP, over its maximum {f.spec.hp}"
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
        Dice: {"_replay": Field((list, None))},
        Fighter: {
            "hp": Field((int,), low=0),
            "temp": Field((int,), low=0),
            "successes": Field((int,), low=0, high=3),
            "failures": Field((int,), low=0, high=4),
            "exhaustion": Field((int,), low=0, high=6),
            "movement": Field((int,), low=0),
            "legendary_left": Field((int,), low=0, high=15),
            "initiative": Field((int, None)),
            "legendary_resistance": Field((int,), low=0, high=9),
        },
        Entry: {"lair_of": Field((int,), low=-1)},
        Effect: {
            "kind": Field((str,), one_of=("none", "save")),
            "target": Field((int,), low=0),
        },
    },
    _relations,
)
