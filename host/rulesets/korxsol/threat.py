"""THREAT, enforced: while a creature bears an opponent's active threat, what it attacks must
include that opponent, unless the game master says the threat does not bind it here
(`threat=apart` or `threat=unreachable`: the guide's condition needs the map).

Threat is a modifier given by a move, item or artifact (host.rulesets.korxsol.effects) that lasts
while its source is on cooldown; a collapsed bearer threatens no one. Only attacking is
bound: moving, buffs, items that help and ending the turn without attacking stay free.
"""

from __future__ import annotations

from host.rulesets.korxsol.fighter import Fighter
from host.rulesets.korxsol.game_core import GameCore
from host.rulesets.korxsol.rolls import IllegalAction

# The game master's reasons a threat does not bind this attack (docs/commands.md).
WAIVERS = {
    "apart": "stands next to none of the bearer's allies",
    "unreachable": "cannot reach the bearer with this",
}


def bearers(game: GameCore, f: Fighter) -> list[Fighter]:
    """The opponents of `f` standing with an active threat."""
    return [
        b for b in game.fighters if b.spec.team != f.spec.team and game.alive(b) and b.has("threat")
    ]


def check(game: GameCore, f: Fighter, what: str, targets: list[Fighter], waiver: str | None):
    """Refuse `f` attacking `targets` with `what` when an opponent's threat binds it and
    none of the targets bears that threat; returns the log line of a waiver used, if any
    (one of WAIVERS: the verb's grammar takes no other, host/rulesets/korxsol/language.py)."""
    binding = bearers(game, f)
    if not binding:
        if waiver is not None:
            raise IllegalAction(f"threat={waiver}: no opponent's threat binds {f.name}")
        return None
    if any(t in binding for t in targets):
        return None
    names = " or ".join(b.name for b in binding)
    if waiver is None:
        sources = ", ".join(f"{b.name}'s {_source(b)}" for b in binding)
        raise IllegalAction(
            f"{f.name} is under threat ({sources}): {what} must target {names}"
            f" (threat=apart: {f.name} stands next to none of their allies;"
            f" threat=unreachable: {f.name} cannot reach them with it)"
        )
    return f"{f.name} attacks past the threat of {names}: it {WAIVERS[waiver]} (game master)"


def _source(b: Fighter) -> str:
    return next(m.source for m in b.modifiers if m.key == "threat")
