"""A simple player for `turnlight demo --ruleset d20`: one command at a time.

Before the fight it rolls initiative. On the lair's count 20 the lair acts on the foe with
the most hit points. On a creature's turn each one of its entry who can act (standing, not
incapacitated, not surprised) heals a dying ally if it has healing, else stands up if
prone, else uses a save-based action that does damage and is ready (a breath, on up to
three foes), else makes its multiattack, else attacks, each at the foe with the fewest hit
points (a monster's foes include the dying: it finishes them no more than a table would, so
it takes the standing first). Before `next`
a legendary creature not taking this turn spends one legendary action on an attack with
its last attack (a stat line lists the lighter one last).
"""

from __future__ import annotations

from host.core import kit
from host.core.names import plain
from host.rulesets.d20 import conditions
from host.rulesets.d20.engine import Fighter, Game

_q = kit.quoted


def plan_turn(game: Game) -> list[str]:
    """The next command: one at a time, so each sees what the one before did."""
    move, e = kit.opening(game)
    if move is not None:
        return move
    if e.lair_of >= 0:
        owner = game.fighters[e.lair_of]
        foes = _foes(game, owner)
        if foes and not game.lair_used:
            target = max(foes, key=lambda f: (f.hp, -f.index))
            return [f"lair {owner.label} {target.label}"]
        return ["next"]
    if not game.legendary_now:
        for i in e.members:
            f = game.fighters[i]
            if f.action and _can_act(game, f):
                command = _turn(game, f)
                if command:
                    return [command]
        for f in game.fighters:
            if f.spec.legendary and f.index not in e.members and f.legendary_left:
                if f.spec.attacks and _can_act(game, f) and _foes(game, f):
                    tail = f.spec.attacks[-1].name  # its last attack: the lighter one
                    return [f"attack {f.label} {_target(game, f).label} {_q(tail)} as=legendary"]
    return ["next"]


def _can_act(game: Game, f: Fighter) -> bool:
    if not f.in_fight or f.hp == 0 or f.surprised:
        return False
    return not conditions.incapacitated(game, f.index)


def _foes(game: Game, f: Fighter) -> list[Fighter]:
    return [g for g in game.fighters if g.spec.team != f.spec.team and not g.down]


def _target(game: Game, f: Fighter) -> Fighter:
    return min(_foes(game, f), key=lambda g: (g.hp, g.index))


def _turn(game: Game, f: Fighter) -> str:
    if f.spec.healing is not None:
        dying = [g for g in game.fighters if g.spec.team == f.spec.team and g.dying]
        if dying:
            return f"heal {dying[0].label} {f.spec.healing.text()} by={f.label}"
    prone = "prone" in [x.name for x in game.effects if x.target == f.index]
    if prone and f.movement >= f.spec.speed // 2:
        return f"stand {f.label}"
    foes = _foes(game, f)
    for p in f.spec.actions:
        ready = p.name not in f.recharging and (not p.uses or f.used.get(p.name, 0) < p.uses)
        if foes and p.save and p.damage and ready:
            targets = ",".join(g.label for g in sorted(foes, key=lambda g: (g.hp, g.index))[:3])
            return f"use {f.label} {_q(p.name)} {targets}"
    if foes and any(plain(a.name) in f.spec.multiattack for a in f.spec.attacks):
        return f"multiattack {f.label} {_target(game, f).label}"
    if foes and f.spec.attacks:
        weapon = f.spec.attacks[0]
        return f"attack {f.label} {_target(game, f).label} {_q(weapon.name)}"
    return ""
