"""Knockback: how far a hit throws a creature, and what it costs when the path is blocked.

There is no map in the engine: the game master says what the thrown creature would hit
(nothing, a creature, an obstruction, the edge of the map, a drop, water) and these rules
give the damage.
"""

from __future__ import annotations

# DISTANCE[attacker weight][target weight] in spaces, weights 1 (feather) .. 5 (super).
DISTANCE = {
    5: {1: 4, 2: 3, 3: 2, 4: 1, 5: 1},
    4: {1: 3, 2: 2, 3: 1, 4: 1, 5: 1},
    3: {1: 2, 2: 1, 3: 1, 4: 1, 5: 0},
    2: {1: 1, 2: 1, 3: 1, 4: 0, 5: 0},
    1: {1: 1, 2: 1, 3: 0, 4: 0, 5: 0},
}
OBSTRUCTION_DAMAGE = 2
OUTCOMES = ("clear", "creature", "wall", "out", "fall", "water")


def distance(attacker_weight: int, target_weight: int) -> int:
    return DISTANCE[attacker_weight][min(5, max(1, target_weight))]


def fall_damage(from_height: int, to_height: int) -> int:
    """Un-blockable damage for a drop: the heights strictly between the two tiles."""
    return max(0, from_height - to_height - 1)
