"""Knockback: how far a hit throws a creature, and what it costs when the path is blocked.

There is no map in the engine: the game master says what the thrown creature would hit
(nothing, a creature, an obstruction, the edge of the map, a drop, water) and these rules
give the damage. What the game master says (`kb=`, `fall=`) is read here too.
"""

from __future__ import annotations

from host.core import numbers
from host.core.errors import IllegalAction

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


def fall_heights(text: str) -> tuple[int, int]:
    parts = text.split(":")
    heights = [numbers.whole_or_none(x, signed=True) for x in parts]
    if len(parts) != 2 or None in heights:
        raise IllegalAction(f"fall={text!r}: give the heights as FROM:TO, e.g. fall=4:1")
    return heights[0] or 0, heights[1] or 0


def drop_onto(text: str) -> tuple[int, int, bool]:
    """`fall=F:T` or `fall=F:T:water`: the heights of a drop, and whether it lands in water."""
    parts = text.split(":")
    if len(parts) == 3 and parts[2] == "water":
        return (*fall_heights(parts[0] + ":" + parts[1]), True)
    if len(parts) != 2:
        raise IllegalAction(
            f"fall={text!r}: give the heights as FROM:TO, e.g. fall=4:1 (fall=4:1:water onto water)"
        )
    return (*fall_heights(text), False)


def parse_kb(spec: str) -> tuple:
    """kb=TARGET:clear | TARGET:creature:NAME | TARGET:wall | TARGET:out | TARGET:fall:F:T |
    TARGET:water -- what a knocked-back creature would run into (the map is the GM's)."""
    parts = spec.split(":")
    if len(parts) < 2 or parts[1] not in OUTCOMES:
        raise IllegalAction(
            f"kb={spec!r}: write TARGET:WHAT with WHAT one of {', '.join(OUTCOMES)}"
        )
    kind = parts[1]
    if kind == "creature":
        if len(parts) != 3:
            raise IllegalAction(f"kb={spec!r}: write TARGET:creature:NAME")
        return (parts[0], kind, parts[2])
    if kind == "fall":
        if len(parts) != 4:
            raise IllegalAction(f"kb={spec!r}: write TARGET:fall:FROM:TO")
        a, b = fall_heights(parts[2] + ":" + parts[3])
        return (parts[0], kind, a, b)
    if len(parts) != 2:
        raise IllegalAction(f"kb={spec!r}: {kind} takes no more parts")
    return (parts[0], kind)
