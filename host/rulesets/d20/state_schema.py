"""What a d20 game's state may hold beyond the kinds of value a new game shows: a stored
checkpoint's game outside it is refused and replayed (host/core/state_check.py). Hit
points stay within 0 and the maximum, death saves within 0..3, exhaustion 0..6, Legendary
Resistance 0..9, an
effect's duration is one of its kinds, and each creature is the one at its own place.
Rules: d20-srd-combat.txt.
"""

from __future__ import annotations

from host.core.state_check import FIGHT, Field, StateSchema, fight_relations
from host.rulesets.d20.conditions import Effect
from host.rulesets.d20.engine import Dice, Entry, Fighter, Game

SCHEMA = StateSchema(
    {
        Game: FIGHT,
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
    fight_relations(),
)
