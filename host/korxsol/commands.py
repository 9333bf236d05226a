"""The command language: one action per line, shared by `turnlight run`, `play` and the
journal. docs/commands.md is its reference; keep the two in step.

    attack Kaelen "Flame Slash" Orrin sol=power cornered=Orrin

A line is words (shell quoting) followed by `key=value` options; `#` starts a comment.
"""

from __future__ import annotations

import difflib
import shlex
from dataclasses import dataclass, field

from host.korxsol.rolls import IllegalAction

# verb -> (arguments, what it does); the help text of `play` and docs/commands.md use it.
VERBS: dict[str, tuple[str, str]] = {
    "initiative": ("", "everyone rolls AGILITY for the turn order; round 1 starts"),
    "order": ("NAME NAME ...", "the game master sets the turn order by hand; round 1 starts"),
    "move": ("NAME [SPACES] [fall=F:T]", "spend 1 AP per space moved"),
    "attack": ("NAME MOVE [TARGET ...] [options]", "use a combat move (one per turn)"),
    "item": ("NAME ITEM [TARGET ...] [options]", "use an item for 1 AP"),
    "artifact": ("NAME ARTIFACT [TARGET ...] [options]", "activate an active artifact (no AP)"),
    "struggle": ("NAME", "grappled: spend 1 AP, flip POWER chance tokens to break free"),
    "release": ("NAME", "let go of the creature you are grappling (free)"),
    "pivot": ("NAME [fall=F:T]", "turn the creature you grapple to another space (free)"),
    "crush": ("NAME [sol=power]", "grappling: your combat is a POWER_Roll of un-blockable damage"),
    "end": ("[NAME]", "end the active turn: its Cooldown Phase, then the next turn"),
    "adjust": (
        "NAME WHAT +N|-N",
        "the game master's correction of frost, burn, fear, kor, armor, sol or ap",
    ),
}
# Session commands: handled around the game, not by it.
SESSION_VERBS: dict[str, tuple[str, str]] = {
    "dice": ("PURPOSE FACE ...", "enter physical dice for the next roll of PURPOSE"),
    "dice clear": ("", "drop every entered roll still waiting"),
    "undo": ("[N]", "take back the last N actions (default 1)"),
    "redo": ("[N]", "put back N undone actions"),
    "odds": (
        "NAME MOVE|ITEM|ARTIFACT TARGET [TARGET ...] [options]",
        "exact chance to hit and damage distribution",
    ),
    "new": ("", "start the next game of this session with the same encounter"),
}


def _max_words(usage: str) -> int | None:
    """How many plain words a usage line takes after its verb, or None for 'any number'
    (an ellipsis); options (x=y) do not count."""
    if "..." in usage:
        return None
    return sum(1 for part in usage.split() if "=" not in part and part != "[options]")


@dataclass(frozen=True)
class Command:
    verb: str
    args: list[str] = field(default_factory=list)
    opts: dict[str, str] = field(default_factory=dict)
    text: str = ""

    def arg(self, i: int, what: str) -> str:
        if i >= len(self.args):
            raise IllegalAction(f"{self.verb}: {what} is missing (usage: {usage(self.verb)})")
        return self.args[i]

    def int_arg(self, i: int, default: int, low: int, high: int, what: str) -> int:
        if i >= len(self.args):
            return default
        return _int(self.args[i], low, high, what)

    def int_opt(self, key: str, low: int, high: int) -> int:
        return _int(self.opts[key], low, high, key)

    def list_opt(self, key: str) -> list[str]:
        value = self.opts.get(key, "")
        return [v for v in value.split(",") if v]


def _int(text: str, low: int, high: int, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise IllegalAction(f"{what} must be a whole number, not {text!r}") from None
    if not low <= value <= high:
        raise IllegalAction(f"{what} must be {low}..{high}, not {value}")
    return value


def usage(verb: str) -> str:
    args, _ = VERBS.get(verb) or SESSION_VERBS.get(verb, ("", ""))
    return f"{verb} {args}".strip()


def unknown_verb(word: str, more: tuple[str, ...] = ()) -> str:
    """`unknown command 'intiative': did you mean initiative? (known: ...)`; `more` are
    commands the caller adds (play's help, table, quit)."""
    known = list(VERBS) + [v for v in SESSION_VERBS if " " not in v] + list(more)
    close = difflib.get_close_matches(word.lower(), known, n=1)
    guess = f": did you mean {close[0]}?" if close else ""
    return f"unknown command {word!r}{guess} (known: {', '.join(known)})"


def parse(line: str) -> Command | None:
    """One line to a Command, or None for a blank or comment line."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError as err:
        raise IllegalAction(f"cannot read the line: {err}") from None
    if not words:
        return None
    verb = words[0].lower()
    if verb not in VERBS and verb not in SESSION_VERBS:
        raise IllegalAction(unknown_verb(words[0]))
    args: list[str] = []
    opts: dict[str, str] = {}
    for word in words[1:]:
        if "=" in word:
            key, _, value = word.partition("=")
            opts[key.lower()] = value
        elif word.lower() in ("fulldraw", "reroll"):
            opts[word.lower()] = ""
        else:
            args.append(word)
    most = _max_words((VERBS.get(verb) or SESSION_VERBS.get(verb) or ("", ""))[0])
    if most is not None and len(args) > most and not (verb == "dice" and args[:1] == ["clear"]):
        extra = " ".join(args[most:])
        raise IllegalAction(f"{verb}: unexpected {extra!r} (usage: {usage(verb)})")
    return Command(verb, args, opts, line.strip())
