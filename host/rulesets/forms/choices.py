"""What a unit cannot use now, and why, of the Forms `form UNIT` and `gain UNIT` complete
and the checks `check UNIT` does (Ruleset.unusable). The rules that refuse them are
host/rulesets/forms/engine.py's (`_do_form`, `_do_gain`, `_do_check`, `_may_act`); the
reasons follow them, in a few words."""

from __future__ import annotations

from host.core.interface import IllegalAction
from host.rulesets.forms.encounter_schema import Form
from host.rulesets.forms.engine import Game


def unusable(game: Game, words: list[str], names: list[str]) -> dict[str, str]:
    """{name as completed: why not now} for the word after `form UNIT`, `gain UNIT` or
    `check UNIT` (an attribute or a check of the area)."""
    if len(words) != 3 or words[0] not in ("form", "gain", "check"):
        return {}
    try:
        i = game.unit(words[1])
    except IllegalAction:
        return {}
    if words[0] == "check":
        whole = _check(game, i)
        return {name: whole for name in names} if whole else {}
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


def _check(game: Game, i: int) -> str:
    """Why unit i makes no check now (engine.py `_do_check`), or ""."""
    if game.mode != "social":
        return "checks belong to social rounds"
    if game.combined is not None:
        return "the sprung trap's round first: `roll`"
    if game.units[i].down:
        return "down"
    return ""


def _gain(game: Game, i: int, f: Form) -> str:
    if f.name in game.units[i].known:
        return "known already"
    if game.mode != "social":
        return "between social rounds"
    if game.combined is not None:
        return "the sprung trap's round first: `roll`"
    if game.checks:
        return "checks still to roll"
    return ""


def _typed(name: str) -> str:
    return f'"{name}"' if " " in name else name
