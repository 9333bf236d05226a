"""What a unit cannot use now, and why, of the Forms `form UNIT` and `gain UNIT` complete
(Ruleset.unusable). The rules that refuse them are host/rulesets/forms/engine.py's
(`_do_form`, `_do_gain`, `_may_act`); the reasons follow them, in a few words."""

from __future__ import annotations

from host.core.interface import IllegalAction
from host.rulesets.forms.encounter_schema import Form
from host.rulesets.forms.engine import Game


def unusable(game: Game, words: list[str]) -> dict[str, str]:
    """{name as completed: why not now} for the word after `form UNIT` or `gain UNIT`."""
    if len(words) != 3 or words[0] not in ("form", "gain"):
        return {}
    try:
        i = game.unit(words[1])
    except IllegalAction:
        return {}
    why = _declare if words[0] == "form" else _gain
    out = {_typed(f.name): why(game, i, f) for f in game.encounter.forms}
    return {name: reason for name, reason in out.items() if reason}


def _declare(game: Game, i: int, f: Form) -> str:
    u = game.units[i]
    if f.name not in u.known:
        return "not known"
    if u.down:
        return "down"
    if u.form:
        return f"{u.form} declared this round"
    if game.mode == "social":
        if not f.social:
            return f"a combat Form (step {f.step})"
        if game.checks_made or game.combined is not None:
            return "checks made this round"
        return ""
    if f.social:
        return "an Active Form: social rounds"
    if f.step != game.step:
        return f"declared at step {f.step}"
    try:
        game._may_act(i)
    except IllegalAction:
        return "not its part of this step"
    return ""


def _gain(game: Game, i: int, f: Form) -> str:
    if f.name in game.units[i].known:
        return "known already"
    if game.mode != "social":
        return "between social rounds"
    return ""


def _typed(name: str) -> str:
    return f'"{name}"' if " " in name else name
