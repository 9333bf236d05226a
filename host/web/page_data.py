"""The web pages' view data, as JSON-ready dicts, for any ruleset.

`gm_view` is everything `turnlight play` shows (the ruleset's headline, its live table,
whoever takes turns with their health, statuses and cooldowns, the dice, the log, odds,
scores and the board's LEDs) plus the game master's settings. `player_view` is made from
it by leaving out what the players must not see, so it is never sent to them at all:

- a hidden fighter (`hide NAME` until `reveal NAME`): its entry, its last roll's faces,
  every log and dice line that names it (its full name or its board label, as a word), a
  headline or score line that names it (the scores fall back to each team's total) and
  the board's LED mirror (it shows every slot) while any fighter is hidden;
- the health of the fighters not on the players' team (`players TEAM`, the encounter's
  first team by default), as `health number|word|bar|none`: the number, a word (unhurt,
  hurt, bloodied, down), a bar rounded to a tenth, or nothing.

Only the game master's view carries the ruleset's own live table, the odds and the
commands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from host.core.interface import Fighter, Ruleset
from shared import dice as shared_dice
from shared.descriptor_pack import encoded, names
from shared.host_only import d100_value
from shared.words import KIND_NAMES

HEALTH_MODES = ("number", "word", "bar", "none")
BOARD_HIDDEN = "the board's mirror is off while a fighter is hidden"
LOG_LINES = 12  # the last events the pages show


@dataclass
class Secrets:
    """What the game master keeps from the players: hidden fighters (by full name) and
    how the other teams' health shows."""

    hidden: set[str] = field(default_factory=set)
    health: str = "number"
    players: str | None = None  # the players' team; None: the encounter's first


def fighter_json(f: Fighter, hidden: bool = False) -> dict[str, Any]:
    return {
        "name": f.name,
        "label": f.label,
        "team": f.team,
        "health": f.health,
        "health_max": f.health_max,
        "statuses": list(f.statuses),
        "cooldowns": list(f.cooldowns),
        "current": f.current,
        "out": f.out,
        "hidden": hidden,
    }


def dice_json(ruleset: Ruleset, game: Any, lines: list[str]) -> dict[str, Any]:
    """The last roll as the board shows it (its faces, each a success or not as the board
    colours it) and the lines of the last command's rolls."""
    state = ruleset.state(game)
    roll = state.roll
    faces: list[dict[str, Any]] = []
    kind = roll.kind
    if kind:
        mask = state.rules.success_mask
        for i in range(roll.count):
            face = roll.faces[i]
            scoring = kind in (
                shared_dice.KIND_ACTION_D3,
                shared_dice.KIND_ACTION_D6,
                shared_dice.KIND_D10,
                shared_dice.KIND_CHANCE,
            )
            success = shared_dice.face_succeeds(kind, face, mask) if scoring else None
            shown = ("heads" if face else "tails") if kind == shared_dice.KIND_CHANCE else face
            faces.append({"face": shown, "success": success})
    who = roll.who if kind and roll.who < state.count else None
    result: dict[str, Any] = {
        "who": state.slots[who].label if who is not None else "",  # the roller's board label
        "kind": KIND_NAMES[kind] if kind < len(KIND_NAMES) else "",
        "faces": faces,
        "successes": roll.successes if kind else None,
        "lines": list(lines),
    }
    if kind == shared_dice.KIND_D100 and roll.count >= 2:
        result["value"] = d100_value(roll.faces[0], roll.faces[1])
    return result


def gm_view(
    ruleset: Ruleset,
    game: Any,
    teams: tuple[str, ...],
    secrets: Secrets,
    log: list[str],
    dice_lines: list[str],
    odds: list[str],
    board: dict[str, Any],
) -> dict[str, Any]:
    """The whole view: what `play` shows, and the settings."""
    state = ruleset.state(game)
    words = names(encoded(state.rules))
    fighters = ruleset.fighters(game)
    title, status = ruleset.headline(game)
    phases = words["phases"]
    live = ruleset.live_roster(game)
    players = secrets.players if secrets.players in teams else (teams[0] if teams else "")
    return {
        "ruleset": ruleset.id,
        "title": title,
        "status": status,
        "round": state.round,
        "phase": phases[state.phase] if state.phase_count > 1 and state.phase < len(phases) else "",
        "health_name": words["health"],
        "teams": list(teams),
        "team_scores": [
            {"team": t, "score": state.scores[i]}
            for i, t in enumerate(teams)
            if i < len(state.scores)
        ],
        "fighters": [fighter_json(f, f.name in secrets.hidden) for f in fighters],
        "dice": dice_json(ruleset, game, dice_lines),
        "log": log[-LOG_LINES:],
        "scores": ruleset.score_line(game),
        "winner": ruleset.winner(game),
        "board": board,
        # the game master's alone
        "table": {
            "headers": live.headers,
            "rows": [{"cells": r.cells, "note": r.note, "current": r.current} for r in live.rows],
        },
        "odds": list(odds),
        "settings": {
            "hidden": sorted(secrets.hidden),
            "health": secrets.health,
            "players": players,
        },
        "commands": {
            "verbs": list(ruleset.language.verbs),
            "prefill": _prefills(ruleset, game, fighters),
            "session_verbs": [v for v in ruleset.language.session_verbs if " " not in v],
            "next_turn": list(ruleset.next_turn_commands),
        },
    }


GM_ONLY = ("table", "odds", "settings", "commands")


def _prefills(ruleset: Ruleset, game: Any, fighters: list[Fighter]) -> dict[str, str]:
    """What each verb's button starts the console's line with: the verb, and the active
    fighter's name where the verb's usage needs a first word and the ruleset completes the
    active fighter's name there."""
    active = next((f for f in fighters if f.current), None)
    lines = {}
    for verb in ruleset.language.verbs:
        line = verb + " "
        usage = ruleset.language.usage(verb).split()
        needs_one = len(usage) > 1 and not usage[1].startswith("[")
        if active is not None and needs_one:
            offered = ruleset.complete(game, [verb, ""])
            for name in (active.name, f'"{active.name}"', active.label):
                if name and name in offered:
                    line += name + " "
                    break
        lines[verb] = line
    return lines


def health_word(health: int, most: int) -> str:
    if health <= 0:
        return "down"
    if health >= most:
        return "unhurt"
    return "hurt" if health * 2 > most else "bloodied"


def _mentions(text: str, words: list[str]) -> bool:
    return any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text, re.IGNORECASE) for w in words)


def player_view(full: dict[str, Any]) -> dict[str, Any]:
    """The players' view: `full` (a gm_view) less everything they must not see."""
    settings = full["settings"]
    hidden = set(settings["hidden"])
    mode = settings["health"]
    players = settings["players"]
    secret_words: list[str] = []
    fighters = []
    for f in full["fighters"]:
        if f["name"] in hidden:
            secret_words += [f["name"]] + ([f["label"]] if f["label"] else [])
            continue
        shown = {k: f[k] for k in ("name", "team", "statuses", "cooldowns", "current", "out")}
        health, most = f["health"], f["health_max"]
        if health is not None and most:
            if f["team"] == players or mode == "number":
                shown["health"] = {"text": f"{health}/{most}", "bar": health / most}
            elif mode == "word":
                shown["health"] = {"text": health_word(health, most)}
            elif mode == "bar":
                shown["health"] = {"bar": round(10 * health / most) / 10}
        fighters.append(shown)

    def visible(lines: list[str]) -> list[str]:
        return [line for line in lines if not _mentions(line, secret_words)]

    status = full["status"]
    if secret_words and _mentions(status, secret_words):
        status = ""
    title = full["title"] if not _mentions(full["title"], secret_words) else ""
    scores = full["scores"]
    if secret_words and _mentions(scores, secret_words):
        scores = " · ".join(f"{s['team']} {s['score']}" for s in full["team_scores"])
    dice = {k: v for k, v in full["dice"].items() if k != "who"}
    dice["lines"] = visible(dice["lines"])
    if full["dice"]["who"] and full["dice"]["who"] in secret_words:  # a hidden fighter's roll
        dice.update(kind="", faces=[], successes=None)
        dice.pop("value", None)
    board = full["board"] if not hidden else {"note": BOARD_HIDDEN}
    return {
        "ruleset": full["ruleset"],
        "title": title,
        "status": status,
        "round": full["round"],
        "phase": full["phase"],
        "health_name": full["health_name"],
        "fighters": fighters,
        "dice": dice,
        "log": visible(full["log"]),
        "scores": scores,
        "winner": full["winner"],
        "board": board,
    }
