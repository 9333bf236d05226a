"""A simple opponent for `turnlight demo`: it plays whole turns in the command language.

Each turn it gets up, struggles or crushes when grappled, heals when low, unleashes a
charge, otherwise picks the ready move with the best exact expected damage against the
weakest enemy still standing (the weakest bearing a threat, when one binds it), or a buff
or debuff when no attack is ready, then ends.
"""

from __future__ import annotations

from host.rulesets.korxsol import exact_odds, threat
from host.rulesets.korxsol.device import F_FROZEN, F_GRAPPLED
from host.rulesets.korxsol.engine import Fighter, Game
from host.rulesets.korxsol.language import Command


def _q(name: str) -> str:
    return f'"{name}"' if " " in name else name


def plan_turn(game: Game) -> list[str]:
    """The commands for the active fighter's whole turn (the last one is `end`)."""
    f = game.active
    if f is None:
        return []
    me = _q(f.spec.label)
    s = game.slot(f)
    lines: list[str] = []
    if s.flags & F_FROZEN:
        return ["end"]
    if s.flags & F_GRAPPLED:
        return ([f"struggle {me}"] if s.actions else []) + ["end"]
    bound = threat.bearers(game, f)  # an opponent's threat: attack it first
    if f.grappling != 255:
        if not bound or game.fighters[f.grappling] in bound:
            return [f"crush {me}", "end"]
        lines.append(f"release {me}")
    enemies = [e for e in game.fighters if e.spec.team != f.spec.team and game.alive(e)]
    if not enemies:
        return ["end"]
    target = min(bound or enemies, key=lambda e: (game.slot(e).health, e.index))
    if s.health * 5 < s.health_max * 2:
        heal = _heal_action(game, f, me)
        if heal:
            lines.append(heal)
    if f.charging is not None:
        return lines + [f"attack {me} {_q(f.charging.name)} {_q(target.spec.label)}", "end"]
    best = None
    for move in f.spec.moves:
        if not game.ready(f, "move", move.name):
            continue
        if move.is_attack:
            tgt = [target] + [e for e in enemies if e is not target][: move.effects.targets - 1]
            cmd = Command("odds", [f.spec.label, move.name, target.spec.label])
            o, _ = exact_odds.for_move(game, cmd)
            value = float(o.hit * (o.expected_damage + 1))
            if move.effects.charge:
                value /= 2
            names = " ".join(_q(t.spec.label) for t in tgt)
        elif move.type == "debuff":
            value, names = 0.6, _q(target.spec.label)
        elif move.effects.bless:
            hurt = [a for a in game.fighters if a.spec.team == f.spec.team and game.alive(a)]
            worst = min(hurt, key=lambda a: game.slot(a).health - game.slot(a).health_max)
            value = 0.5 if game.slot(worst).health < game.slot(worst).health_max else 0.1
            names = _q(worst.spec.label) if worst is not f else ""
        else:
            value, names = 0.4, ""
        if best is None or value > best[0]:
            best = (value, f"attack {me} {_q(move.name)} {names}".strip())
    if best:
        lines.append(best[1])
    return lines + ["end"]


def _heal_action(game: Game, f: Fighter, me: str) -> str | None:
    s = game.slot(f)
    for item in f.spec.items:
        if item in f.hand and item.effects.heal and not item.effects.strikes and s.actions:
            if game.ready(f, "item", item.name):
                return f"item {me} {_q(item.name)}"
    for art in f.spec.artifacts:
        ready = game.ready(f, "artifact", art.name)
        if art.kind == "active" and art.effects.heal and not art.effects.strikes and ready:
            return f"artifact {me} {_q(art.name)}"
    return None
