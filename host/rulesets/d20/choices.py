"""What a creature cannot use now, and why, of what `attack NAME TARGET`, `use NAME` and
`condition NAME` complete (Ruleset.unusable; `recover NAME` completes only what it may end).
The rules that refuse them are host/rulesets/d20/verbs.py's (`do_attack`, `_able`,
`do_condition`) and conditions.py's (`begin`); the reasons follow them, in a few words."""

from __future__ import annotations

from host.core import kit
from host.core.names import plain
from host.rulesets.d20 import conditions
from host.rulesets.d20.engine import Fighter, Game


def unusable(game: Game, words: list[str], names: list[str]) -> dict[str, str]:
    """{name as completed: why not now} for the weapon after `attack NAME TARGET` (used as
    its action: as= names another use) and the condition after `condition NAME` (one
    already on it)."""
    verb = words[0]
    f = kit.offered_to(game, words, {"attack": 4, "condition": 3, "use": 3})
    if f is None:
        return {}
    if verb == "attack":
        why = _action(game, f)
        return {name: why for name in names} if why else {}
    if verb == "use":
        return _spent(f, names)
    if not f.in_fight:
        return dict.fromkeys(names, "dead" if f.dead else "out of the fight")
    own = {plain(e.name) for e in game.effects if e.target == f.index}
    return {name: "on it already: `recover` first" for name in names if plain(name) in own}


def _action(game: Game, f: Fighter) -> str:
    """Why `f` cannot attack as its action now (verbs.py `_able`), or ""."""
    if not f.in_fight:
        return "dead" if f.dead else "out of the fight"
    if f.hp == 0:
        return "at 0 HP"
    if not game.turn_of(f):
        return "not its turn: as=reaction or as=legendary"
    if f.surprised:
        return "surprised"
    if conditions.incapacitated(game, f.index):
        return "incapacitated"
    if not f.action:
        return "action used this turn"
    return ""


def _spent(f: Fighter, names: list[str]) -> dict[str, str]:
    """Of `f`'s save-based actions, those waiting to recharge or used up (verbs.py `_ready`)."""
    out: dict[str, str] = {}
    for p in f.spec.actions:
        shown = f'"{p.name}"' if " " in p.name else p.name
        if shown not in names:
            continue
        if p.name in f.recharging:
            out[shown] = f"recharges on a d6 of {p.recharge}+"
        elif p.uses and f.used.get(p.name, 0) >= p.uses:
            out[shown] = "used up"
    return out
