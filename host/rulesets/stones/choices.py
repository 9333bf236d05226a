"""What a character cannot use now, and why, of the abilities `ability NAME`, `fuse NAME`
and `break NAME` complete (Ruleset.unusable). The rules that refuse them are
host/rulesets/stones/engine.py's (`_may`, `_payment`, `_fuse`, `_ability`, `_break`);
the reasons follow them, in a few words."""

from __future__ import annotations

from host.core.errors import IllegalAction
from host.rulesets.stones import engine
from host.rulesets.stones.encounter_schema import Ability
from host.rulesets.stones.engine import Game

VERBS = ("ability", "fuse", "break")
ACTION_OF = {"ability": "act", "fuse": "fuse"}  # the activation's action each takes


def unusable(game: Game, words: list[str]) -> dict[str, str]:
    """{name as completed: why not now} for the word after `VERB NAME`."""
    verb = words[0]
    if len(words) != 3 or verb not in VERBS:
        return {}
    try:
        i = game.char(words[1])
    except IllegalAction:
        return {}
    whole = _whole(game, i, verb)
    out = {}
    for ab in game.ch(i).abilities:
        why = whole or _ability(game, i, verb, ab)
        if why:
            out[f'"{ab.name}"' if " " in ab.name else ab.name] = why
    return out


def _whole(game: Game, i: int, verb: str) -> str:
    """Why character i can take no `verb` now (engine.py `_may`), or ""."""
    c = game.ch(i)
    if game.winner is not None:
        return "the game is over"
    if c.player != game.player:
        return f"{game.enc.players[c.player].name}'s character"
    if verb == "break":
        return ""
    if not game.standing(i):
        return "incapacitated"
    if game.end_step:
        return "the turn is ending"
    if any(engine._status(game, s).stun for s in game.statuses[i]):
        return "stunned"
    if game.active != i:
        return "activated this turn" if i in game.activated else ""
    if ACTION_OF[verb] in game.done:
        return "fused this activation" if verb == "fuse" else "acted this activation"
    return ""


def _ability(game: Game, i: int, verb: str, ab: Ability) -> str:
    fused = any(f.ability == ab for f in game.fused[i])
    if verb == "break":
        return "" if fused else "not fused"
    if verb == "ability" and ab.fuse:
        return "a [Fuse] ability: use `fuse`"
    if verb == "fuse" and not ab.fuse:
        return "not a [Fuse] ability: use `ability`"
    if fused:
        return "fused already"
    if engine._cheapest(game.hands[game.player], ab.element, ab.cost) is None:
        return f"cannot pay {ab.cost} {ab.element}"
    return ""
