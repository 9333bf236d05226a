"""The game master's console lines: what `/ws/gm` receives ({"line": ...} or
{"complete": ...}, checked in one line), the console's own verbs and settings (CONSOLE_VERBS:
hide, reveal, health, players, timer; the turn timer they set), and handing any other line
to the source as if typed at `play`'s prompt (the same code, the same one-line errors)."""

from __future__ import annotations

import json
import shlex
import time
from typing import TYPE_CHECKING, Any

from host.core import numbers
from host.core.audience import HEALTH_MODES, Secrets
from host.core.interface import IllegalAction
from host.core.verb_choices import completions

if TYPE_CHECKING:
    from host.web.sources import Source

MAX_LINE = 400  # characters in one console line
MAX_COMPLETIONS = 40
CONSOLE_VERBS = {
    "hide": "hide NAME: keep a fighter off the players' page until `reveal NAME`",
    "reveal": "reveal NAME: show a hidden fighter again",
    "health": "health number|word|bar|none: how the other teams' health shows to players",
    "players": "players TEAM: the players' own team (its health always shows as a number)",
    "timer": "timer on|off|SECONDS: a turn timer on both pages, from each turn's start"
    " (SECONDS: it counts down from that many); off hides it",
}


class Console:
    """The console's lines for one source, and the settings they make: the turn timer and
    a count that moves with every change of a setting (part of the watcher's stamp)."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.timer: dict[str, Any] | None = None  # {"since": epoch ms, "limit": s or None}
        self.settings = 0  # moves with every change of the secrets
        self._turn: object = None

    def turn_timer(self, session: Any) -> dict[str, Any] | None:
        """The turn timer, started again whenever the turn (or the round) moves."""
        ruleset = session.ruleset
        state = ruleset.state(session.game)
        turn = (id(session), state.round, state.turn, state.phase)
        if self.timer is not None and turn != self._turn:
            self.timer = dict(self.timer, since=int(time.time() * 1000))
        self._turn = turn
        return self.timer

    def take(self, raw: str) -> dict[str, Any]:
        """One message from the console: {"line": "..."} run like a typed line, or
        {"complete": "..."}, a line being typed. Returns the reply: {"type": "reply",
        "ok": bool, "text": "..."}, or {"type": "completions", "line": ..., "items": [...]}
        (whole lines, each the typed line with its last word completed)."""
        try:
            key, line = _line_of(raw)
            if key == "complete":
                return {"type": "completions", "line": line, "items": self.complete(line)}
            text = self._line(line.strip())
        except IllegalAction as err:
            return {"type": "reply", "ok": False, "text": f"refused: {err}"}
        return {"type": "reply", "ok": True, "text": text}

    def complete(self, line: str) -> list[str]:
        """The typed line's completions: a verb for its first word, else what play's
        terminal completes there (the acting fighter's moves after its name, say)."""
        head, _, last = line.rpartition(" ")
        with self.source.lock():
            session = self.source.session()
            ruleset = session.ruleset
            if not head.strip():
                language = ruleset.language
                words = [*language.verbs, *language.session_verbs, *CONSOLE_VERBS]
                words += ["help", "scores", "table"]
                found = [w for w in dict.fromkeys(words) if w.startswith(last.lower())]
            else:
                try:
                    words = shlex.split(head)
                except ValueError:
                    return []
                offered = completions(ruleset, session.game, [*words, last])
                found = [w for w in offered if w.lower().startswith(last.lower())]
        prefix = head + " " if head else ""
        return [prefix + w + ("" if w.endswith("=") else " ") for w in found[:MAX_COMPLETIONS]]

    def _line(self, line: str) -> str:
        try:
            words = shlex.split(line, comments=True)
        except ValueError as err:
            raise IllegalAction(f"cannot read the line: {err}") from None
        if not words:
            return ""
        verb = words[0].lower()
        if verb == "timer":
            text = self._set_timer(words[1:])
            self.settings += 1
            return text
        if verb in CONSOLE_VERBS:
            text = self._setting(verb, words[1:])
            self.settings += 1
            return text
        if verb in ("quit", "exit"):
            raise IllegalAction("`quit` ends the session at the terminal, not here")
        said = self.source.text(line)
        if said is not None:
            if [word.lower() for word in line.split()] == ["help"]:  # and the console's own
                verbs = "\n".join(CONSOLE_VERBS.values())
                return f"{said}\nthe console's own:\n{verbs}"
            return said
        return "\n".join(self.source.run(line))

    def _set_timer(self, args: list[str]) -> str:
        usage = CONSOLE_VERBS["timer"].split(":")[0]
        if len(args) != 1:
            raise IllegalAction(f"usage: {usage}")
        word = args[0].lower()
        if word == "off":
            self.timer = None
            return "the turn timer is off"
        if word == "on":
            limit = None
        elif (seconds := numbers.whole_or_none(word)) is not None and 1 <= seconds <= 24 * 3600:
            limit = seconds
        else:
            raise IllegalAction(f"usage: {usage} (SECONDS from 1 to 86400), not {args[0]!r}")
        self.timer = {"since": int(time.time() * 1000), "limit": limit}
        if limit is None:
            return "the turn timer counts each turn's time"
        return f"the turn timer counts down {limit} s from each turn's start"

    def _setting(self, verb: str, args: list[str]) -> str:
        usage = CONSOLE_VERBS[verb].split(":")[0]
        with self.source.lock():
            session = self.source.session()
            fighters = [f.name for f in session.ruleset.fighters(session.game)]
            teams = list(session.encounter.teams)
            now = Secrets.from_json(session.secrets.to_json())  # changed as a copy
        if verb == "health":
            if len(args) != 1 or args[0].lower() not in HEALTH_MODES:
                raise IllegalAction(f"usage: {usage}")
            now.health = args[0].lower()
            said = f"the other teams' health shows as: {now.health}"
        elif not args:
            raise IllegalAction(f"usage: {usage}")
        elif verb == "players":
            now.players = _one_of(" ".join(args), teams, "team")
            said = f"the players' team: {now.players}"
        else:
            name = _one_of(" ".join(args), fighters, "fighter")
            if verb == "hide":
                now.hidden.add(name)
                said = f"{name} is hidden from the players' page until `reveal {name}`"
            elif name not in now.hidden:
                raise IllegalAction(f"{name} is not hidden")
            else:
                now.hidden.discard(name)
                said = f"{name} shows on the players' page again"
        with self.source.lock():  # the views read the secrets under it
            self.source.session().set_secrets(now)
        self.source.follow()  # the board shows what the players' page shows
        return said


def _one_of(wanted: str, choices: list[str], what: str) -> str:
    for choice in choices:
        if choice.lower() == wanted.lower():
            return choice
    raise IllegalAction(f"no {what} {wanted!r}: one of {', '.join(choices)}")


def _line_of(raw: str) -> tuple[str, str]:
    """The console message's kind ("line" or "complete") and its line, checked as the
    prompt would take it."""
    if len(raw) > MAX_LINE + 100:
        raise IllegalAction(f"a console message is at most {MAX_LINE} characters")
    try:
        message = json.loads(raw)
    except ValueError:
        raise IllegalAction('a console message is JSON: {"line": "..."}') from None
    if not isinstance(message, dict) or set(message) not in ({"line"}, {"complete"}):
        raise IllegalAction('a console message is JSON: {"line": "..."}')
    key = next(iter(message))
    line = message[key]
    if not isinstance(line, str):
        raise IllegalAction("the line must be text")
    if len(line) > MAX_LINE:
        raise IllegalAction(f"a line is at most {MAX_LINE} characters")
    if any(ord(ch) < 32 for ch in line):
        raise IllegalAction("a line is one line of printable text")
    return key, line
