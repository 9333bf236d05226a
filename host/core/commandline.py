"""The shape every ruleset's command language shares: one action per line, the same in
`turnlight run` scripts, the `play` prompt and the journal.

    attack Kaelen "Flame Slash" Orrin sol=power cornered=Orrin

A line is words (shell quoting) followed by `key=value` options; `#` starts a comment. A
ruleset's `Language` names its verbs (with their usage) and the session verbs it takes on
top of undo, redo and new, which every game has. A line is at most MAX_LINE characters:
shell quoting takes time that grows with the square of a word's length (a word of 1 MB
took 19 s), and no command needs more.
"""

from __future__ import annotations

import difflib
import shlex
from dataclasses import dataclass, field

from host.core.errors import IllegalAction

MAX_LINE = 1_000  # characters in one command line (`run` scripts, the prompt, the board)

# The session verbs of every game: the session handles them, not the rules.
SESSION_VERBS: dict[str, tuple[str, str]] = {
    "undo": ("[N]", "take back the last N actions (default 1)"),
    "redo": ("[N]", "put back N undone actions"),
    "new": ("", "start the next game of this session with the same encounter"),
}

# The session verbs of a game that asks for its rolls (Ruleset.asks_for_rolls): an action
# declared while the dice come from the board or the table waits for its roll.
WANTED_VERBS: dict[str, tuple[str, str]] = {
    "roll": ("", "the engine rolls the roll the waiting action wants"),
    "cancel": ("", "drop the action that waits for a roll"),
    "dice from": ("board|engine|entered", "where the next actions' dice come from"),
}


@dataclass(frozen=True)
class Command:
    verb: str
    args: list[str] = field(default_factory=list)
    opts: dict[str, str] = field(default_factory=dict)
    text: str = ""
    usage: str = field(default="", compare=False)  # `verb ARGS`, for the errors

    def arg(self, i: int, what: str) -> str:
        if i >= len(self.args):
            raise IllegalAction(
                f"{self.verb}: {what} is missing (usage: {self.usage or self.verb})"
            )
        return self.args[i]

    def int_arg(self, i: int, default: int, low: int, high: int, what: str) -> int:
        if i >= len(self.args):
            return default
        return whole_number(self.args[i], low, high, what)

    def int_opt(self, key: str, low: int, high: int) -> int:
        return whole_number(self.opts[key], low, high, key)

    def list_opt(self, key: str) -> list[str]:
        value = self.opts.get(key, "")
        return [v for v in value.split(",") if v]


def without_comment(line: str) -> str:
    """The line without its `#` comment and the spaces before it, for saying what an action
    is: the `#` that starts a comment as `Language.parse` reads the line (outside quotes;
    shlex's POSIX rules: a backslash escapes outside single quotes). A line without one is
    given back as it is."""
    quote = ""
    escaped = False
    end = 0  # just after the last character that is not a plain space
    for i, ch in enumerate(line):
        if escaped:
            escaped = False
        elif ch == "\\" and quote != "'":
            escaped = True
        elif quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return line[:end]
        elif ch.isspace():
            continue
        end = i + 1
    return line


def whole_number(text: str, low: int, high: int, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise IllegalAction(f"{what} must be a whole number, not {text!r}") from None
    if not low <= value <= high:
        raise IllegalAction(f"{what} must be {low}..{high}, not {value}")
    return value


def _max_words(usage: str) -> int | None:
    """How many plain words a usage line takes after its verb, or None for 'any number'
    (an ellipsis); options (x=y) do not count."""
    if "..." in usage:
        return None
    return sum(1 for part in usage.split() if "=" not in part and part != "[options]")


class Language:
    """A ruleset's verbs: `verbs` are the game's actions, `session_verbs` what the session
    does around the game (undo, redo and new are always there). Each maps a verb to
    (its arguments, what it does). `flags` are options written as a bare word. `asides`
    are session verbs that only inform (korxsol's `odds`): the play UI shows what they say
    beside the view, not in the game's log."""

    def __init__(
        self,
        verbs: dict[str, tuple[str, str]],
        session_verbs: dict[str, tuple[str, str]] | None = None,
        flags: tuple[str, ...] = (),
        asides: tuple[str, ...] = (),
        wanted: bool = False,
    ) -> None:
        self.verbs = dict(verbs)
        self.session_verbs = dict(session_verbs or {})
        for verb, entry in SESSION_VERBS.items():
            self.session_verbs.setdefault(verb, entry)
        if wanted:  # `roll` and `cancel`: the game asks for its rolls (host/core/session.py)
            for verb, entry in WANTED_VERBS.items():
                if verb not in self.verbs:  # a game verb of that name stays the game's
                    self.session_verbs.setdefault(verb, entry)
        self.flags = flags
        self.asides = asides

    def knows(self, verb: str) -> bool:
        return verb in self.verbs or verb in self.session_verbs

    def _entry(self, verb: str) -> tuple[str, str]:
        return self.verbs.get(verb) or self.session_verbs.get(verb) or ("", "")

    def usage(self, verb: str) -> str:
        return f"{verb} {self._entry(verb)[0]}".strip()

    def unknown_verb(self, word: str, more: tuple[str, ...] = ()) -> str:
        """`unknown command 'intiative': did you mean initiative? (known: ...)`; `more` are
        commands the caller adds (play's help, table, quit)."""
        known = list(self.verbs) + [v for v in self.session_verbs if " " not in v] + list(more)
        close = difflib.get_close_matches(word.lower(), known, n=1)
        guess = f": did you mean {close[0]}?" if close else ""
        return f"unknown command {word!r}{guess} (known: {', '.join(known)})"

    def parse(self, line: str, max_length: int | None = MAX_LINE) -> Command | None:
        """One line to a Command, or None for a blank or comment line. A line longer than
        `max_length` is refused (None: no limit, for lines the journal already holds)."""
        if max_length is not None and len(line) > max_length:
            raise IllegalAction(
                f"the line is {len(line):,} characters long; a command is at most {max_length:,}"
            )
        try:
            words = shlex.split(line, comments=True)
        except ValueError as err:
            raise IllegalAction(f"cannot read the line: {err}") from None
        if not words:
            return None
        verb = words[0].lower()
        if not self.knows(verb):
            raise IllegalAction(self.unknown_verb(words[0]))
        args: list[str] = []
        opts: dict[str, str] = {}
        for word in words[1:]:
            if "=" in word:
                key, _, value = word.partition("=")
                opts[key.lower()] = value
            elif word.lower() in self.flags:
                opts[word.lower()] = ""
            else:
                args.append(word)
        # A verb of two words (`dice clear`) takes what its own usage says.
        named = verb
        if args and self.knows(f"{verb} {args[0].lower()}"):
            named = f"{verb} {args[0].lower()}"
        most = _max_words(self._entry(named)[0])
        if named != verb and most is not None:
            most += 1
        if most is not None and len(args) > most:
            extra = " ".join(args[most:])
            raise IllegalAction(f"{named}: unexpected {extra!r} (usage: {self.usage(named)})")
        return Command(verb, args, opts, line.strip(), self.usage(verb))
