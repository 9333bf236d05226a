"""The web pages' view data, as JSON-ready dicts, for any ruleset, for each audience.

`gm_view` is everything `turnlight play` shows (the ruleset's headline, its live table,
whoever takes turns with their health, statuses and cooldowns, the dice, the log, odds,
scores and the board's LEDs) plus the game master's settings (the session's `Secrets`,
host/core/audience.py). `player_view` is made from it by leaving out what the players
must not see, so it is never sent to them at all:

- a hidden fighter (`hide NAME` until `reveal NAME`): its entry, its last roll's faces,
  every log, dice, status and cooldown line that names it (each line says which fighters
  it names: audience.Line), a headline that names it, a score line naming it (each
  team's total instead, less a side named after it), and the ruleset's text drawing of
  the board (the simulated board's LEDs stay: the board itself shows hidden fighters
  dark). Its turn shows as a pause the game master keeps (PAUSE), nobody marked and no
  phase;
- the exact health of the fighters not on the players' team (`players TEAM`, the
  encounter's first team by default), as `health number|word|bar|none`: the number, a
  word (unhurt, hurt, bloodied, down), a bar rounded to a tenth, or nothing; a line that
  names such a fighter shows its numbers masked ("…"), and a score line naming one
  falls back to each team's total;
- the game master's own lines (the odds said before an attack): never.

Only the game master's view carries the ruleset's own live table, the odds and the
commands.
"""

from __future__ import annotations

import threading
from typing import Any

from host.core import effects
from host.core.audience import Secrets, for_players, health_word, named
from host.core.interface import Fighter, Ruleset
from host.core.verb_choices import acting_choices, completions
from shared import dice as shared_dice
from shared.descriptor_pack import encoded, names
from shared.host_only import d100_value
from shared.words import KIND_NAMES

PAUSE = "a pause: the game master's move"
LOG_LINES = 12  # the last events the pages show
# The players' wording of each line, kept while the cast and the secrets stay the same:
# a view is built up to five times a second and its lines (the log's, each fighter's
# statuses) are mostly the last view's; telling each again (a search for every fighter's
# name and label) was most of a view of 24 fighters.
_WORDED: dict[tuple[Any, ...], str | None] = {}
_WORDED_FOR: list[tuple[Any, ...]] = [()]
_WORDED_LOCK = threading.Lock()
WORDED_MOST = 2048  # lines kept before the memo starts over


def fighter_json(f: Fighter, hidden: bool = False) -> dict[str, Any]:
    return {
        "effects": [_text_of(e) for e in getattr(f, "effects", None) or ()],
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


def _text_of(effect: Any) -> str:
    """An effect as a line: the text itself, or what the object says it is."""
    if isinstance(effect, str):
        return effect
    for name in ("text", "label", "name"):
        value = getattr(effect, name, None)
        if isinstance(value, str) and value:
            return value
    return str(effect)


def score_text(line: str) -> str:
    """The ruleset's score line without its own "scores:": the pages head it already."""
    head, colon, rest = line.partition(":")
    return rest.strip() if colon and head.strip().lower() in ("score", "scores") else line


def upcoming(ruleset: Ruleset, game: Any, fighters: list[Fighter]) -> list[str]:
    """The fighters whose turns come next, in order from the turn after this one (none
    before the first round): neither taking their turn now nor out of play."""
    state = ruleset.state(game)
    if state.round == 0 or not state.count:
        return []
    by_label = {f.label: f for f in fighters if f.label}
    names: list[str] = []
    for step in range(1, state.count + 1):
        slot = state.slots[state.order[(state.turn + step) % state.count]]
        f = by_label.get(slot.label)
        if f is not None and not f.current and not f.out and f.name not in names:
            names.append(f.name)
    return names


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
    timer: dict[str, Any] | None = None,
    console: bool = True,
) -> dict[str, Any]:
    """The whole view: what `play` shows, and the settings. `timer`: the turn timer the
    game master runs (its start, in ms of the epoch, and its limit in seconds, if any).
    Without `console` (no console open), the console's own parts (GM_PARTS) are left out:
    the players' view, made from this one, is the same."""
    state = ruleset.state(game)
    words = names(encoded(state.rules))
    fighters = effects.fighters(ruleset, game)  # each one's effects from the host's book
    title, status = ruleset.headline(game)
    phases = words["phases"]
    players = secrets.players_team(teams)
    view = {
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
        "upcoming": (following := upcoming(ruleset, game, fighters)),
        "next_up": following[0] if following else "",
        "timer": timer,
        "dice": dice_json(ruleset, game, dice_lines),
        "log": log[-LOG_LINES:],
        "scores": score_text(ruleset.score_line(game)),
        "winner": ruleset.winner(game),
        "board": board,
        # the game master's alone
        "settings": {
            "hidden": sorted(secrets.hidden),
            "health": secrets.health,
            "players": players,
        },
    }
    if not console:
        return view
    live = ruleset.live_roster(game)
    view.update(
        table={
            "headers": live.headers,
            "rows": [{"cells": r.cells, "note": r.note, "current": r.current} for r in live.rows],
        },
        odds=list(odds),
        notes=ruleset.encounter_notes(game),
        commands={
            "verbs": list(ruleset.language.verbs),
            "prefill": _prefills(ruleset, game, fighters),
            "session_verbs": [v for v in ruleset.language.session_verbs if " " not in v],
            "next_turn": list(ruleset.next_turn_commands),
            "bare": [v for v in ruleset.language.session_verbs if _bare(ruleset, v)],
            "fighters": _fighter_commands(ruleset, game, fighters),
        },
    )
    return view


GM_ONLY = ("table", "odds", "notes", "settings", "commands", "upcoming")
GM_PARTS = ("table", "odds", "notes", "commands")  # built only while a console is open


def _bare(ruleset: Ruleset, verb: str) -> bool:
    """A verb that takes nothing (or nothing it needs): its button runs it."""
    return all(word.startswith("[") for word in ruleset.language.usage(verb).split()[1:])


def _fighter_commands(ruleset: Ruleset, game: Any, fighters: list[Fighter]) -> dict[str, Any]:
    """What the console offers on each fighter's card: the word that names it, and the
    verbs whose first word is a fighter and that name it now (what the ruleset completes
    there: a ruleset that knows a verb applies only in some states offers it only then,
    d20's `recover` to a creature that bears something to end). `verbs` are the game's own
    (its language's, less `add` and `remove`), what the card shows; `more` the rest (the
    session's `effect`, `remove`, ...), behind the card's "more". For whoever takes the
    turn, `moves`: what it picks after its name with a verb (an attack's moves, an item),
    the moves `help VERB` lists in play's terminal (host/core/verb_choices.py), where they
    are its own: a list the same for every fighter (d20's conditions, korxsol's terrains)
    is the verb's, offered as the line's completions once the verb is tapped. Its moves
    that can be used now come first; where some cannot, `reasons` says why of each
    ({move: why})."""
    language = ruleset.language
    verbs_here = [*language.verbs, *(v for v in language.session_verbs if " " not in v)]
    offered = {verb: set(completions(ruleset, game, [verb, ""])) for verb in verbs_here}
    own_verbs = {v for v in language.verbs if v not in ("add", "remove")}
    result: dict[str, Any] = {}
    for f in fighters:
        verbs: list[str] = []
        more: list[str] = []
        word = ""
        for verb, words in offered.items():
            usage = language.usage(verb).split()
            if len(usage) < 2 or usage[1].startswith("["):
                continue  # the name is optional: the verb stands alone
            mine = next((w for w in (f.name, f'"{f.name}"', f.label) if w and w in words), "")
            if mine:
                (verbs if verb in own_verbs else more).append(verb)
                word = word or mine
        moves = []
        if f.current and word:
            for verb in verbs:
                usage = language.usage(verb).split()
                if len(usage) < 3 or usage[2].startswith("[") or usage[2] == usage[1]:
                    continue  # nothing the fighter picks after its name
                if not _its_own(ruleset, game, verb, f, fighters, offered[verb]):
                    continue
                choices = acting_choices(ruleset, game, verb, f.name)
                if choices is not None:
                    group: dict[str, Any] = {"verb": verb, "moves": choices.names}
                    if choices.reasons:
                        group["reasons"] = choices.reasons
                    moves.append(group)
        result[f.name] = {"word": word, "verbs": verbs, "more": more, "moves": moves}
    return result


def _its_own(
    ruleset: Ruleset, game: Any, verb: str, f: Fighter, fighters: list[Fighter], named: set[str]
) -> bool:
    """Whether what `f` picks right after its name with the verb is its own, a move a tap
    puts on the line: not fighters (a target comes first: d20's `attack NAME TARGET
    WEAPON`, whose line the completions lead through), and not what every other fighter
    in play the verb names (`named`: its first word's completions) is offered alike (the
    verb's list: conditions, abilities, terrains)."""

    def word(x: Fighter) -> str:
        return next((w for w in (x.name, f'"{x.name}"', x.label) if w and w in named), "")

    mine = completions(ruleset, game, [verb, word(f), ""])
    everyone = {n.strip('"').lower() for x in fighters for n in (x.name, x.label) if n}
    if any(n.strip('"').lower() in everyone for n in mine):
        return False
    others = [o for o in fighters if o.name != f.name and not o.out and word(o)]
    return not others or any(  # (as sets: what can be used now comes first for each)
        set(completions(ruleset, game, [verb, word(o), ""])) != set(mine) for o in others
    )


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


def player_view(full: dict[str, Any]) -> dict[str, Any]:
    """The players' view: `full` (a gm_view) less everything they must not see. Every text
    goes through its players' wording (host/core/audience.py `for_players`)."""
    with _WORDED_LOCK:  # one view at a time keeps the memo's lines to its own secrets
        return _player_view(full)


def _player_view(full: dict[str, Any]) -> dict[str, Any]:
    settings = full["settings"]
    secrets = Secrets(set(settings["hidden"]), settings["health"], settings["players"])
    hidden = secrets.hidden
    cast = [(f["name"], f["label"], f["team"]) for f in full["fighters"]]
    exact = secrets.exact_for(cast, full["teams"])

    context = (tuple(cast), frozenset(hidden), frozenset(exact), secrets.health)
    if _WORDED_FOR[0] != context or len(_WORDED) > WORDED_MOST:
        _WORDED.clear()
        _WORDED_FOR[0] = context

    def visible(lines: list[str]) -> list[str]:
        said = []
        for line in lines:
            key = _line_key(line)
            if key not in _WORDED:
                _WORDED[key] = next(iter(for_players([line], cast, secrets, full["teams"])), None)
            worded = _WORDED[key]
            if worded is not None:
                said.append(worded)
        return said

    def one(text: str) -> str:
        return next(iter(visible([text])), "") if text else ""

    fighters = []
    # The turn of hidden fighters alone (a turn may be several fighters')
    turn = [f["name"] for f in full["fighters"] if f["current"]]
    paused = bool(turn) and all(name in hidden for name in turn)
    for f in full["fighters"]:
        if f["name"] in hidden:
            continue
        shown = {k: f[k] for k in ("name", "team", "current", "out")}
        shown["statuses"] = visible(f["statuses"])
        shown["effects"] = visible(f["effects"])
        shown["cooldowns"] = visible(f["cooldowns"])
        health, most = f["health"], f["health_max"]
        if health is not None and most:
            if f["name"] in exact:
                shown["health"] = {"text": f"{health}/{most}", "bar": health / most}
            elif secrets.health == "word":
                shown["health"] = {"text": health_word(health, most)}
            elif secrets.health == "bar":
                shown["health"] = {"bar": round(10 * health / most) / 10}
        fighters.append(shown)
    scores = full["scores"]
    names = named(scores, cast)
    if names - exact or names & hidden:  # a line of fighters' scores: each team's total
        # (less a side named after a hidden fighter: a player who is a side, flare's duel)
        scores = " · ".join(
            f"{s['team']} {s['score']}"
            for s in full["team_scores"]
            if not named(s["team"], cast) & hidden
        )
    following = [name for name in full["upcoming"] if name not in hidden]
    dice = {k: v for k, v in full["dice"].items() if k != "who"}
    dice["lines"] = visible(dice["lines"])
    roller = {name for name, label, _ in cast if label and label == full["dice"]["who"]}
    if roller & hidden:  # a hidden fighter's roll
        dice.update(kind="", faces=[], successes=None)
        dice.pop("value", None)
    # What the board shows: the simulated board's LEDs are the players' (the tether sends
    # it a state with hidden fighters dark). The ruleset's text drawing of the game shows
    # everyone's exact health: only while nothing is kept from the players.
    whole = not hidden and secrets.health == "number"
    board = full["board"] if whole or "leds" in full["board"] else {}
    return {
        "ruleset": full["ruleset"],
        "title": one(full["title"]),
        # A hidden fighter's turn is, to the players, a pause the game master keeps.
        "status": PAUSE if paused else one(full["status"]),
        "round": full["round"],
        "phase": "" if paused else full["phase"],
        "health_name": full["health_name"],
        "fighters": fighters,
        # Who comes next among those the players see: a hidden fighter is never next.
        "next_up": following[0] if following and not paused else "",
        "timer": None if paused else full["timer"],
        "dice": dice,
        "log": visible(full["log"]),
        "scores": scores,
        "winner": full["winner"],
        "board": board,
    }


def _line_key(line: str) -> tuple[Any, ...]:
    """A line as what its players' wording depends on: its text and, for a Line
    (host/core/audience.py), what its writer said of it."""
    return (
        str(line),
        type(line).__name__,
        getattr(line, "about", None),
        getattr(line, "numbers", None),
        getattr(line, "audience", None),
        getattr(line, "players", None),
        getattr(line, "spans_given", None),
    )
