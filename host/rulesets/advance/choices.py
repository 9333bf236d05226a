"""What an adventurer or enemy cannot use now, and why, of what its verbs complete: the
abilities and items after `attack NAME`, `assist NAME`, `equip NAME`, `store NAME` and
`break NAME`, the Support abilities after `coop NAME ALLY` (Ruleset.unusable; the rules
that refuse them are host/rulesets/advance/verbs.py's)."""

from __future__ import annotations

from host.core.errors import IllegalAction
from host.core.names import plain
from host.rulesets.advance.encounter_schema import Ability, Item
from host.rulesets.advance.engine import STEPS, Death, Fighter, Game, Hit
from host.rulesets.advance.verbs import ANSWERS

# The kind of ability each verb uses (advance-late-combat-round.txt: an Attack names an
# Attack type Ability or an equipped weapon, the Assist Action an Assist type Ability or
# Item, a Cooperative Attack a Support type Ability).
KIND_OF = {"attack": "attack", "assist": "assist", "coop": "support"}
# What to type instead for an ability of another kind.
USE_WITH = {
    "attack": "an attack: use `attack`",
    "assist": "an assist: use `assist`",
    "support": "a support: with= on an attack, or `coop`",
}


def unusable(game: Game, words: list[str]) -> dict[str, str]:
    """{name as completed: why not now} for the last word of `words`."""
    verb = words[0]
    at = 4 if verb == "coop" else 3
    if len(words) != at or verb not in (*KIND_OF, "equip", "store", "break"):
        return {}
    try:
        f = game.fighter(words[1])
    except IllegalAction:
        return {}
    whole = _pending(game, f, verb) or (_whole(game, f) if verb != "break" else "")
    out: dict[str, str] = {}
    for ab in f.spec.abilities:
        why = whole or _ability(game, f, verb, ab)
        if why:
            out[_typed(ab.name)] = why
    for item in f.owned.values():
        why = whole or _item(f, verb, item)
        if why:
            out[_typed(item.name)] = why
    return out


def _pending(game: Game, f: Fighter, verb: str) -> str:
    """Why nothing of `verb` is taken now: the fight is over, or a hit or a Death check
    waits for its answer (verbs.py `apply`, ANSWERS); a weapon breaks only for a Death
    check of the fighter's own not yet rolled (`do_break`)."""
    if game.over is not None:
        return "the fight is over"
    p = game.pending
    if verb == "break":
        mine = isinstance(p, Death) and p.who == f.index and p.roll is None
        return "" if mine else "no Death check to cancel"
    if p is not None and verb not in ANSWERS[type(p)]:
        return "a hit waits for its answer" if isinstance(p, Hit) else "a Death check waits"
    if verb == "coop" and not any(
        a.spec.side == f.spec.side and a.in_combat and a is not f for a in game.fighters
    ):
        return "no ally left in the fight"  # (verbs.py `_ally`)
    return ""


def _whole(game: Game, f: Fighter) -> str:
    """Why `f` takes no action now (engine.py `can_act_now`), in a few words, or ""."""
    if not game.can_act_now(f):
        return ""
    if not f.in_combat:
        return "dead" if f.status == "dead" else "out of the fight"
    if f.helpless:
        return "Helpless"
    if STEPS[game.step] == "E":
        return "no extra action now" if f.extra > 0 else "no extra action"
    if f.acted:
        return "acted this round"
    return "not its step"


def _ability(game: Game, f: Fighter, verb: str, ab: Ability) -> str:
    kind = KIND_OF.get(verb)
    if kind is None:
        return "an ability, not an item"
    if ab.kind != kind:
        return USE_WITH[ab.kind]
    part = game.locked(f).get(plain(ab.name))
    if part:
        return f"locked: next to the damaged {part}"
    if verb != "coop" and not f.full_power and ab.rebound > f.willpower:
        return f"Rebound {ab.rebound}, Willpower {f.willpower}"
    return ""


def _weapon(verb: str, item: Item, place: str) -> str:
    """Why `item`, at `place`, cannot be attacked with (`attack`, equipped) or equipped
    (`equip`, from the bag), or ""."""
    if not item.weapon:
        return "not a weapon"
    if verb == "attack":
        return {"equipped": "", "bag": "in the bag: `equip` it first"}.get(
            place, f"in the {place}, not equipped"
        )
    return {"bag": "", "equipped": "equipped already"}.get(
        place, f"in the {place}: equip takes it from the bag"
    )


def _item(f: Fighter, verb: str, item: Item) -> str:
    place = f.places.get(item.name, "")
    if verb in ("attack", "equip"):
        return _weapon(verb, item, place)
    if verb == "assist":
        if not (item.stamina or item.willpower):
            return "a weapon: use `attack`" if item.weapon else "restores nothing"
        return "" if place == "hand" else "in the bag: `store` takes it out"
    if verb == "break":
        return "" if item.weapon and place == "equipped" else "not an equipped weapon"
    if verb == "coop":
        return "not a Support ability"
    return ""  # store: any item


def _typed(name: str) -> str:
    return f'"{name}"' if " " in name else name
