"""A simple player for `turnlight demo --ruleset pf2`: one command at a time.

Before the fight it rolls initiative. On its turn each creature of the entry that can act
spends all its Hero Points if it is dying and has some, stands up if prone, else Strikes
the foe with the fewest hit points twice (its first Strike; the second with an agile one
if it has one), Strides with its third action, and ends the turn with `next`.
"""

from __future__ import annotations

from host.core import kit
from host.rulesets.pf2 import checks
from host.rulesets.pf2.engine import Fighter, Game
from host.rulesets.pf2.verbs import can_act

_q = kit.quoted


def plan_turn(game: Game) -> list[str]:
    """The next command: one at a time, so each sees what the one before did."""
    move, e = kit.opening(game)
    if move is not None:
        return move
    for i in e.members:
        f = game.fighters[i]
        if f.dying and f.hero > 0:
            return [f"hero {f.label}"]
        if not can_act(game, f) and f.actions > 0:
            command = _turn(game, f)
            if command:
                return [command]
    return ["next"]


def _foes(game: Game, f: Fighter) -> list[Fighter]:
    return [g for g in game.fighters if g.spec.team != f.spec.team and not g.down]


def _turn(game: Game, f: Fighter) -> str:
    if "prone" in f.marks:
        return f"stand {f.label}"
    foes = _foes(game, f)
    if not foes or not f.spec.strikes:
        return ""
    if f.attacks >= 2:  # a third attack at -10 is seldom worth it: it Strides instead
        held = any(m in f.marks for m in checks.IMMOBILIZED)  # [19] no move action
        return f"act {f.label} Stride" if f.actions and not held else ""
    target = min(foes, key=lambda g: (g.hp, g.index))
    weapon = f.spec.strikes[0]
    agile = [s for s in f.spec.strikes if s.agile]
    if f.attacks and agile:
        weapon = agile[0]
    return f"strike {f.label} {target.label} {_q(weapon.name)}"
