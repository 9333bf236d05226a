"""What a fighter cannot use now, and why, of the moves, items and artifacts its verbs
complete (`attack NAME`, `item NAME`, `artifact NAME`: Ruleset.unusable). The rules that
refuse them are host/rulesets/korxsol/combat.py's and game_core.py's (`_need_turn`); the
reasons follow them in their order, in a few words."""

from __future__ import annotations

from host.core.plurals import plural
from host.rulesets.korxsol.device import F_FROZEN, F_GRAPPLED
from host.rulesets.korxsol.fighter import Fighter
from host.rulesets.korxsol.game_core import GameCore
from host.rulesets.korxsol.model import Effects
from host.rulesets.korxsol.rolls import IllegalAction
from shared import cooldowns
from shared.limits import MAX_COOLDOWNS, NO_SLOT

VERBS = ("attack", "item", "artifact")


def unusable(game: GameCore, words: list[str]) -> dict[str, str]:
    """{name as completed: why not now} for the word after `VERB NAME`."""
    if len(words) != 3 or words[0] not in VERBS:
        return {}
    try:
        f = game.fighter(words[1])
    except IllegalAction:
        return {}
    whole = _whole(game, f)
    out: dict[str, str] = {}
    if words[0] == "attack":
        for move in f.spec.moves:
            out[_typed(move.name)] = whole or _move(game, f, move.name, move.effects)
    elif words[0] == "item":
        for item in f.hand:
            why = _cooling(game, f, "item", item.name) or _hands(game, f, item.effects)
            if not why and game.slot(f).actions < 1:
                why = "no AP left"  # an item costs 1 action point
            out[_typed(item.name)] = whole or why
    else:
        for art in f.spec.artifacts:
            why = "passive: always on" if art.kind != "active" else ""
            why = why or _cooling(game, f, "artifact", art.name) or _hands(game, f, art.effects)
            out[_typed(art.name)] = whole or why
    return {name: why for name, why in out.items() if why}


def _whole(game: GameCore, f: Fighter) -> str:
    """Why `f` can use nothing now (game_core.py `_need_turn`), or ""."""
    if not game.started:
        return "the fight has not started"
    if not game.alive(f):
        return "collapsed"
    if game.active is not f:
        return "not its turn"
    if game.slot(f).flags & F_FROZEN:
        return "frozen"
    if game.state.phase > 0:
        return "Action Phase over"
    return ""


def _move(game: GameCore, f: Fighter, name: str, fx: Effects) -> str:
    if f.combat_used:
        return "combat move used this turn"
    unleashing = f.charging is not None and f.charging.name == name
    if f.charging is not None and not unleashing:
        return f"charging {f.charging.name}"
    if not unleashing and not game.ready(f, "move", name):
        left = cooldowns.remaining(game.slot(f), game.timer(f, "move", name))
        return f"on cooldown {plural(left, 'turn')}"
    if game.slot(f).flags & F_GRAPPLED and not fx.release:
        return "grappled: no release"
    if f.grappling != NO_SLOT:
        return "grappling: crush or release"
    return ""


def _cooling(game: GameCore, f: Fighter, kind: str, name: str) -> str:
    if game.ready(f, kind, name):
        return ""
    slot = game.slot(f)
    timer = game.timer(f, kind, name)
    left = plural(cooldowns.remaining(slot, timer), "turn")
    index = next(i for i in range(MAX_COOLDOWNS) if slot.cd_id[i] == timer)
    if slot.cd_pending & (1 << index):
        return "used this turn"
    return f"on cooldown {left}"


def _hands(game: GameCore, f: Fighter, fx: Effects) -> str:
    """Items and artifacts are out of reach while grappling, and while grappled unless
    they release (combat.py `_need_hands`)."""
    if f.grappling != NO_SLOT:
        return "grappling"
    if game.slot(f).flags & F_GRAPPLED and not fx.release:
        return "grappled: no release"
    return ""


def _typed(name: str) -> str:
    return f'"{name}"' if " " in name else name
