"""The leak check (issue #27, docs/reliability.md "What each audience gets"): a demo game of
any ruleset played with the game master hiding and revealing fighters and changing how
health shows at random, every message to the players' page and every state sent to the
board checked against what is hidden at that moment.

One game is `leak_check(rng)`: the ruleset, the seed, the moves and the settings all come
from `rng`, so a failure replays from it. Each step is one of: a line of the ruleset's AI
(typed at `play`, odds asked first where the game has them), a board press of next turn,
or a console setting (`hide`, `reveal`, `health`, `players`). After every step:

- the players' message (`Hub.build`, what `/ws` sends, its first view included) names no
  hidden fighter by name or board label, says nothing of something hidden, carries none of
  the odds the game master was shown, and shows no exact health of a fighter whose health
  the players see as a word, a bar or nothing: no number in a health phrase of a line
  that names one (`health_told`: by the ruleset's `health_words`, the numbers right after
  a health word or where a phrase's "#" stands ("# left"), and any change or fraction
  "15 -> 8", "12/16" whatever its words; every number outside the names where the
  ruleset declares no words), and none on its health;
- the board's state (the tether's, which the link encodes into every snapshot) shows no
  hidden fighter: its slot is dark (no label, no team light, no health, no marks, not the
  one whose turn it is) and no roll is said to be its.

Registered as the fuzz target `secrets` (`make fuzz`); tests/test_leak_check.py plays a
game of every ruleset with a fixed seed on each `make test`.
"""

from __future__ import annotations

import json
import random
import re
from io import StringIO
from typing import Any

from host.board.tether import Tether
from host.core import registry
from host.core.audience import HEALTH_MODES
from host.core.interface import IllegalAction
from host.core.session import Session
from host.lab.fuzz import target
from host.screens.play_ui import PlayUI
from host.web.hub import Hub
from host.web.sources import PlayLive
from shared import codec
from shared.limits import NO_SLOT
from shared.state import F_ACTIVE, GameState

TOKEN = "leak-check-token"


class Leak(AssertionError):
    """What the players' page or the board showed that it must not, in one line."""


def leak_check(rng: random.Random, steps: int = 60, ruleset: str | None = None) -> int:
    """One game of `ruleset` (else one picked by `rng`) for `steps` steps, each checked;
    raises Leak at the first leak. Returns the checks made."""
    from rich.console import Console

    r = registry.get(ruleset or rng.choice(sorted(registry.ids())))
    path = r.example_path()
    session = Session(r.parse_encounter(path.read_text(), str(path)), rng.randrange(1000))
    tether = Tether(session, "loop://")  # never started: its state is what it would send
    ui = PlayUI(session, Console(file=StringIO(), width=100), "leak check", tether=tether)
    hub = Hub(PlayLive(ui), TOKEN)
    checks = 0
    if r.start_command:
        _step(ui, r.start_command)
    for _ in range(steps):
        session = ui.session
        if session.over:
            break
        odds = _move(rng, ui, hub)
        checks += _check(hub, tether, odds)
    return checks


def _move(rng: random.Random, ui: PlayUI, hub: Hub) -> list[str]:
    """One random step; the odds the game master was shown on the way."""
    session = ui.session
    r = session.ruleset
    names = [f.name for f in r.fighters(session.game)]
    pick = rng.random()
    if pick < 0.35:
        verb = rng.choice(("hide", "hide", "reveal", "health", "players"))
        if verb == "health":
            hub.console(json.dumps({"line": f"health {rng.choice(HEALTH_MODES)}"}))
        elif verb == "players":
            team = rng.choice(list(session.encounter.teams))
            hub.console(json.dumps({"line": f'players "{team}"'}))
        elif names:
            hub.console(json.dumps({"line": f'{verb} "{rng.choice(names)}"'}))
        return []
    plan = r.plan_turn(session.game) if r.winner(session.game) is None else []
    odds: list[str] = []
    for line in plan[: rng.randint(1, max(1, len(plan)))]:
        odds += r.odds_preview(session.game) + r.before(session.game, line)
        if "odds" in r.language.asides and line.split()[0] == "attack":
            _step(ui, "odds " + line.split(None, 1)[1])
            odds += ui.odds_lines
        _step(ui, line)
    return odds


def _step(ui: PlayUI, line: str) -> None:
    try:
        ui.run_line(line)
    except IllegalAction:
        pass


def _names(text: str, words: set[str]) -> set[str]:
    """Those of `words` (names and labels, of one or more words each) `text` names."""
    return {w for w in words if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text, re.I)}


def health_told(
    line: str, names: list[str], health_words: tuple[str, ...], changes: bool = True
) -> list[str]:
    """The numbers of a players' `line` that would tell a fighter's exact health, the
    digits of `names` (every fighter's name and label: a name is a name) left out. Found
    here apart from host/core/audience.py, which masks them, so a mistake there shows: the
    numbers after a health word ("HP 15", "KOR (12", "HP: 5") or where the "#" of a
    phrase is ("# left": "4 left"), and every change or fraction ("15 -> 8", "12/16")
    whatever its words. A 0 stays (health 0 is "down", which every mode shows). No words:
    every number. `changes` False: a roll's line, whose "->" is a result (korxsol's
    "initiative Orrin 1 3 -> 1", stones' "d100 5 0 -> 50"), not a change of health."""
    for name in sorted(names, key=len, reverse=True):
        line = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", line, flags=re.I)
    if not health_words:
        return re.findall(r"\d+", line)
    told = [
        n
        for chain in re.findall(r"\d+(?:\s*(?:->|/)\s*\d+)+" if changes else r"\d+/\d+", line)
        for n in re.findall(r"\d+", chain)
    ]
    for word in health_words:
        if "#" in word:  # a phrase, its health where the "#" is
            before, after = (re.escape(part) for part in word.split("#", 1))
            told += re.findall(rf"{before}(?<!\d)(\d+){after}", line)
        else:
            told += re.findall(rf"(?<!\w){re.escape(word)}:?\s*\(?\s*(\d+)", line)
    return [n for n in told if int(n)]


def _check(hub: Hub, tether: Tether, odds: list[str]) -> int:
    session = hub.source.session()
    check_players_message(hub.build()[0], session, odds)
    r = session.ruleset
    hidden = [f for f in r.fighters(session.game) if f.name in session.secrets.hidden]
    check_board(tether._state, hidden, session)
    board = GameState()  # the board must be able to take it: the snapshot decodes
    board.rules = tether._state.rules
    codec.decode(codec.encode(tether._state), board)
    return 1


def check_players_message(text: str, session: Session, odds: list[str]) -> None:
    """Raise Leak if `text`, a message to the players' page, shows what the session's
    secrets keep from them now (or any of `odds`, the game master's)."""
    r = session.ruleset
    secrets = session.secrets
    fighters = r.fighters(session.game)
    teams = list(session.encounter.teams)
    public = {t.lower() for t in teams}  # a team's name is no secret (a side of one: flare)
    hidden = [f for f in fighters if f.name in secrets.hidden]
    secret = {w for f in hidden for w in (f.name, f.label) if w and w.lower() not in public}
    players = secrets.players if secrets.players in teams else teams[0]
    inexact = (
        set()
        if secrets.health == "number"
        else {f.name for f in fighters if f.team != players and f.health_max}
    )
    told_of = [f for f in fighters if f.name in inexact]
    inexact_words = {w for f in told_of for w in (f.name, f.label) if w and w.lower() not in public}
    cast = [w for f in fighters for w in (f.name, f.label) if w]
    message = json.loads(text)
    if message.get("type") == "board":  # the LEDs: colours and timings, nothing else
        if any(not re.fullmatch(r"[0-9a-f/,\-]*", str(led)) for led in message["leds"]):
            raise Leak(f"the players' page got board LEDs that are not colours: {text[:80]!r}")
        return
    if message.get("type") not in ("view", "patch"):
        raise Leak(f"the players' page got a message that is not a view: {text[:80]!r}")
    # A patch holds what changed; what it leaves out, the page had already (and was checked).
    view = {"phase": "", "fighters": [], **message["view"]}

    def lines_of(value: Any) -> list[str]:
        found: list[str] = []
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for v in value.values():
                found += lines_of(v)
        elif isinstance(value, list):
            for v in value:
                found += lines_of(v)
        return found

    rolls = set(lines_of(view.get("dice")))  # (a roll's "->" is its result)
    for line in lines_of(view):
        if _names(line, secret):
            raise Leak(f"the players' page names a hidden fighter: {line!r}")
        if "hidden" in line.lower():
            raise Leak(f"the players' page says something is hidden: {line!r}")
        if line in odds and line.strip():
            raise Leak(f"the players' page shows the game master's odds: {line!r}")
        named = _names(line, inexact_words)
        told = health_told(line, cast, r.health_words, line not in rolls) if named else []
        if told:
            raise Leak(f"the players' page shows the health of {sorted(named)} ({told}): {line!r}")
    current = [f for f in fighters if f.current]
    if current and all(f.name in secrets.hidden for f in current):  # to the players, a pause
        if view["phase"] or any(f["current"] for f in view["fighters"]):
            raise Leak(f"the players' page shows a hidden fighter's turn: {view['phase']!r}")
    for f in view["fighters"]:
        health = f.get("health")
        if f["name"] in inexact and health is not None and "text" in health:
            if re.search(r"\d", health["text"]):
                raise Leak(f"the players' page shows {f['name']}'s health: {health}")
        if f["name"] in inexact and health is not None and "bar" in health:
            if secrets.health != "bar" or health["bar"] * 10 != round(health["bar"] * 10):
                raise Leak(f"the players' page shows {f['name']}'s exact health bar: {health}")


def check_board(state: GameState, hidden: list, session: Session) -> None:
    """Raise Leak if a board state shows any of `hidden` (Fighters)."""
    r = session.ruleset
    labels = {f.label for f in hidden if f.label}
    names = r.fighter_names(session.game)
    slots = {i for i, name in enumerate(names) if name in {f.name for f in hidden}}
    for i in range(state.count):
        slot = state.slots[i]
        if slot.label in labels:
            raise Leak(f"the board shows hidden {slot.label!r} in slot {i}")
        if i in slots and (slot.health or slot.health_max or slot.flags & F_ACTIVE):
            raise Leak(f"the board lights hidden slot {i} (flags {slot.flags})")
    secrets = session.secrets
    teams = list(session.game.teams)
    players = teams.index(secrets.players_team(teams)) if teams else 0
    true = r.state(session.game)
    for i in range(state.count):
        slot, was = state.slots[i], true.slots[i]
        if secrets.health == "number" or i in slots or slot.team == players or not was.health_max:
            continue
        h, most = max(0, was.health), was.health_max
        wanted = {  # what the players' page shows, as the board must be sent it
            "word": (0 if h == 0 else 3 if h >= most else 2 if 2 * h > most else 1, 3),
            "bar": (round(10 * min(h, most) / most), 10),
            "none": (0, 0),
        }[secrets.health]
        if (slot.health, slot.health_max) != wanted:
            raise Leak(
                f"the board is sent {slot.label!r}'s health as {slot.health}/{slot.health_max}"
                f" ({h}/{most}) while the players see it as {secrets.health!r}"
            )
    if state.roll.kind and state.roll.who in slots:
        raise Leak(f"the board shows a roll of hidden slot {state.roll.who}")
    if state.want.count and state.want.who in slots and state.want.who != NO_SLOT:
        raise Leak(f"the board waits for a roll of hidden slot {state.want.who}")


@target("secrets")
def fuzz_secrets(rng: random.Random) -> None:
    """A game of a random ruleset, random hide/reveal and health settings: nothing hidden
    reaches the players' page or the board."""
    leak_check(rng, steps=rng.randint(10, 80))
