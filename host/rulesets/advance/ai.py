"""A simple player for `turnlight demo --ruleset advance`: one command at a time.

It answers what waits first (a hit: evade while it has Willpower to spare; a Death check:
roll it, spend what saves it), steps on when nobody may act, declares a Boss's Full Power
as soon as it may, lets a Helpless Boss <Yell>, heals an ally low on Stamina with an Assist
when it can, and otherwise attacks the weakest foe with its strongest usable attack, an
ability it can pay the Rebound of or an equipped weapon, with its own support abilities
while it keeps 2 Willpower.
"""

from __future__ import annotations

from host.core.names import plain
from host.rulesets.advance.engine import Death, Fighter, Game, Hit


def _q(name: str) -> str:
    return f'"{name}"' if " " in name else name


def plan_turn(game: Game) -> list[str]:
    if game.over is not None:
        return []
    p = game.pending
    if isinstance(p, Hit):
        t = game.fighters[p.target]
        return [f"{'evade' if t.willpower >= 3 else 'take'} {t.spec.label}"]
    if isinstance(p, Death):
        f = game.fighters[p.who]
        if p.roll is None:
            return [f"death {f.spec.label}"]
        need = len(f.damaged) - p.roll + (0 if game.options.death_tie == "survive" else 1)
        return [f"spend {f.spec.label} {need if need <= f.willpower else 0}"]
    for f in game.fighters:
        if f.spec.boss and f.in_combat and not f.full_power and not f.helpless:
            if f.willpower * 2 < f.spec.willpower:
                return [f"fullpower {f.spec.label}"]
        if f.spec.boss and f.helpless and not f.yelled and game.step > 0:
            return [f"yell {f.spec.label}"]
    acting = game.acting_now()
    if not acting:
        return ["next"]
    return [_action(game, acting[0])]


def _action(game: Game, f: Fighter) -> str:
    me = _q(f.spec.label)
    locked = game.locked(f)
    allies = [a for a in game.fighters if a.spec.side == f.spec.side and a.in_combat]
    low = min(allies, key=lambda a: a.stamina * 100 // a.spec.stamina)
    if low.stamina * 3 < low.spec.stamina:
        for ab in f.spec.abilities:
            if ab.kind == "assist" and ab.stamina and plain(ab.name) not in locked:
                if f.full_power or ab.rebound < f.willpower:
                    return f"assist {me} {_q(ab.name)} {_q(low.spec.label)}"
        for name, item in f.owned.items():
            if item.stamina and f.places[name] == "hand":
                return f"assist {me} {_q(name)} {_q(low.spec.label)}"
    foes = [e for e in game.fighters if e.spec.side != f.spec.side and e.in_combat]
    if not foes:
        return f"wait {me}"
    target = min(foes, key=lambda e: (e.helpless, e.stamina, e.index))
    options: list[tuple[int, str]] = []
    for ab in f.spec.abilities:
        if ab.kind != "attack" or plain(ab.name) in locked:
            continue
        cost = 0 if f.full_power else ab.rebound
        if cost < f.willpower or cost == 0:
            options.append((ab.damage, ab.name))
    for name, item in f.owned.items():
        if item.weapon and f.places[name] == "equipped":
            options.append((item.damage, name))
    if not options:
        for name, item in f.owned.items():
            if item.weapon and f.places[name] == "bag":
                return f"equip {me} {_q(name)}"
        return f"wait {me}"
    _, best = max(options)
    chosen = game.ability(f, best)
    spent = 0 if chosen is None or f.full_power else chosen.rebound
    joined: list[str] = []
    for ab in f.spec.abilities:  # its own supports, while it keeps 2 Willpower
        if ab.kind == "support" and plain(ab.name) not in locked:
            cost = 0 if f.full_power else ab.rebound
            if len(joined) < (f.spec.assists if f.spec.boss else 1):
                if f.willpower - spent - cost >= 2:
                    joined.append(ab.name)
                    spent += cost
    evade = "yes" if target.willpower >= 3 else "no"
    with_ = f" with={','.join(_q(n) for n in joined)}" if joined else ""
    return f"attack {me} {_q(best)} {_q(target.spec.label)}{with_} evade={evade}"
