"""What a creature cannot use now, and why, of what `strike NAME TARGET`, `retch NAME`
and `condition NAME` complete (Ruleset.unusable). The rules that refuse them are verbs.py's
(`can_act`, `spend`); the reasons follow them, in a few words."""

from __future__ import annotations

from host.core import kit
from host.rulesets.pf2.engine import Game
from host.rulesets.pf2.verbs import can_act


def unusable(game: Game, words: list[str], names: list[str]) -> dict[str, str]:
    """{name as completed: why not now} for the weapon after `strike NAME TARGET` (as one
    of its actions: `reaction` names another use) and the condition after `condition NAME`
    (a creature out of the fight)."""
    verb = words[0]
    f = kit.offered_to(game, words, {"strike": 4, "condition": 3, "retch": 3})
    if f is None:
        return {}
    if verb == "retch":
        why = "not sickened" if not f.values.get("sickened") else can_act(game, f)
        if not why and f.actions < 1:
            why = "no actions left"
        return dict.fromkeys(names, why) if why else {}
    if verb == "strike":
        why = can_act(game, f)
        if why.startswith("it is "):
            why = "not its turn: `reaction`"
        elif not why and f.actions < 1:
            why = "no actions left"
        return dict.fromkeys(names, why) if why else {}
    if not f.in_fight:
        return dict.fromkeys(names, "dead" if f.dead else "out of the fight")
    return {}
