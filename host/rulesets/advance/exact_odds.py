"""The exact chance of advance's 2D6 checks: a Hit check before it is rolled, and the
Evasion a waiting hit allows (counted over the 36 faces, not sampled)."""

from __future__ import annotations

from host.rulesets.advance.encounter_schema import Options
from host.rulesets.advance.engine import Game, Hit


def chance(difficulty: int, options: Options) -> float:
    """The chance a 2D6 check succeeds: a Critical always does, a Fumble never."""
    wins = 0
    for a in range(1, 7):
        for b in range(1, 7):
            total = a + b
            if total >= options.critical or (total > options.fumble and total >= difficulty):
                wins += 1
    return wins / 36


def hit_line(game: Game, who: str, what: str) -> list[str]:
    """The Hit check's difficulty and chance for `attack WHO WHAT ...` ([] if it names no
    attack)."""
    try:
        f = game.fighter(who)
    except ValueError:
        return []
    ability = game.ability(f, what)
    item = game.item(f, what)
    specialty = ability.specialty if ability else item.specialty if item else ""
    if not specialty:
        return []
    d = game.options.check_base + game.distance(f, specialty)
    return [f"odds: Hit check on <{specialty}>, difficulty {d}: {chance(d, game.options):.0%}"]


def evasion_line(game: Game) -> list[str]:
    from host.rulesets.advance.verbs import evasion_difficulty

    hit = game.pending
    if not isinstance(hit, Hit):
        return []
    f = game.fighters[hit.target]
    d = evasion_difficulty(game, f, hit)
    return [f"odds: {f.name}'s Evasion, difficulty {d}: {chance(d, game.options):.0%}"]
