"""The shape every ruleset's command language shares, and the grammar each verb declares:
one action per line, the same in `turnlight run` scripts, the `play` prompt and the journal.

    attack Kaelen "Flame Slash" Orrin sol=power cornered=Orrin

A line is words (shell quoting) followed by `key=value` options; `#` starts a comment. A
ruleset's `Language` declares each of its verbs as a `Verb`: its words (placeholders, which
may be left out, which repeat, which are names that may be typed in several words) and its
options (each `key=` with the value it takes, and the flags written alone), with what it
does. The usage `help` and the errors show is made from that declaration, and
`Language.parse` checks every line against it, for every ruleset, before the rules see the
line: an option the verb does not take, an option's value of the wrong kind and words past
those the verb takes are refused in one line. Where a verb's words hold a name of several
words, how many words it takes depends on the game: the ruleset reads that name with
`Command.take_name` (host/core/names.py), which refuses the words left over, before the
rules read the command.

The session verbs undo, redo, new and effect (with `effect end` and `effect save`) are
every game's; a game that asks for its rolls
(`wanted=True`) has roll, cancel, dice, draw and dice from too. A line is at most MAX_LINE
characters: shell quoting takes time that grows with the square of a word's length (a word
of 1 MB took 19 s), and no command needs more.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from host.core import names, numbers
from host.core.errors import IllegalAction

MAX_LINE = 1_000  # characters in one command line (`run` scripts, the prompt, the board)
# A usage lists its options up to this many; past it, `[options]` (help notes list them).
MOST_OPTIONS_SHOWN = 4


@dataclass(frozen=True)
class Word:
    """One word of a verb's line: its placeholder as the usage shows it (`NAME`, `+N|-N`),
    whether it may be left out, whether more of the same may follow (`TARGET ...`), and
    whether it is a name that may be typed in several words without quotes."""

    text: str
    optional: bool = False
    repeats: bool = False
    several: bool = False

    def shown(self) -> str:
        text = self.text + (" ..." if self.repeats else "")
        return f"[{text}]" if self.optional else text


@dataclass(frozen=True)
class Option:
    """An option a verb takes: `key=VALUE`, VALUE as the usage shows it, or, with no value, a
    flag written alone (`fulldraw`). Where the grammar can tell, the value is checked:
    `choices` are the words it must be one of (the usage shows `yes|no`), `number` the
    range of a whole number (a top of None: the rules know it). `alone`: an option with a
    value that may also be written alone (`reroll`, `reroll=2`); `required`: the verb needs
    it."""

    key: str
    value: str = ""
    choices: tuple[str, ...] = ()
    number: tuple[int, int | None] | None = None
    alone: bool = False
    required: bool = False

    @property
    def flag(self) -> bool:
        """Written alone, never with a value."""
        return not self.value and not self.choices

    @property
    def named(self) -> str:
        """`key=`, or `key` for a flag: how an error lists it."""
        return self.key if self.flag else f"{self.key}="

    def shown(self) -> str:
        if self.flag:
            return self.key
        value = self.value or "|".join(self.choices)
        return f"{self.key}[={value}]" if self.alone else f"{self.key}={value}"

    def check(self, verb: str, value: str | None) -> None:
        """Refuse `value` (None: the option written alone) where it is not of this option's
        kind."""
        if value is None:
            if not (self.flag or self.alone):
                raise IllegalAction(f"{verb}: {self.key} takes a value: {self.shown()}")
            return
        if self.flag:
            raise IllegalAction(f"{verb}: {self.key} is written alone, not {self.key}={value}")
        if self.choices and value not in self.choices:
            raise IllegalAction(f"{verb}: {self.key}= takes {_either(self.choices)}, not {value!r}")
        if self.number is not None:
            low, high = self.number
            whole_number(value, low, high, f"{verb}: {self.key}=")


def _either(choices: Sequence[str]) -> str:
    """`yes or no`, `a, b or c`."""
    if len(choices) < 3:
        return " or ".join(choices)
    return ", ".join(choices[:-1]) + " or " + choices[-1]


# A word of a usage: `NAME`, `[NAME]`, `NAME ...` or `[NAME ...]`.
_WORD = re.compile(r"\[([^\[\]\s]+(?: \.\.\.)?)\]|([^\[\]\s]+(?: \.\.\.)?)")


@dataclass(frozen=True)
class Verb:
    """A verb's grammar and what it does (`help`). `words` as the usage shows them: `NAME`
    a placeholder, `[NAME]` one that may be left out, `NAME ...` one that more of the same
    may follow (the last); `several` names the placeholders that are names of several words
    (read by `Command.take_name`: none may follow a word left out or repeated); `options`
    what the verb takes after its words."""

    words: str
    help: str
    options: tuple[Option, ...] = ()
    several: tuple[str, ...] = ()
    slots: tuple[Word, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        slots = []
        for m in _WORD.finditer(self.words):
            inside = m.group(1) or m.group(2)
            text = inside.removesuffix(" ...")
            slots.append(Word(text, m.group(1) is not None, text != inside, text in self.several))
        object.__setattr__(self, "slots", tuple(slots))
        if " ".join(w.shown() for w in slots) != self.words:
            raise ValueError(
                f"{self.words!r}: write the words as NAME, [NAME], NAME ... or [NAME ...]"
            )
        if any(w.repeats for w in slots[:-1]):
            raise ValueError(f"{self.words!r}: only the last word repeats")
        for name in self.several:
            at = [w.text for w in slots].index(name)  # (ValueError: no such word)
            if any(w.optional or w.repeats for w in slots[:at]):
                raise ValueError(f"{self.words!r}: {name} follows a word left out or repeated")
        keys = [o.key for o in self.options]
        if len(set(keys)) != len(keys):
            raise ValueError(f"{self.words!r}: an option declared twice ({', '.join(keys)})")

    def shown(self) -> str:
        """Its words and options as the usage shows them after the verb."""
        parts = [self.words] if self.words else []
        parts += [o.shown() for o in self.options if o.required]
        optional = [o for o in self.options if not o.required]
        if len(self.options) > MOST_OPTIONS_SHOWN:
            parts.append("[options]")
        else:
            parts += [f"[{o.shown()}]" for o in optional]
        return " ".join(parts)

    def most_words(self) -> int | None:
        """How many words it takes at most, or None for any number."""
        if any(w.repeats for w in self.slots):
            return None
        return len(self.slots)

    def option(self, key: str) -> Option | None:
        return next((o for o in self.options if o.key == key), None)

    def unknown_option(self, verb: str, key: str) -> str:
        """`attack: unknown option 'rnage' (did you mean range=? options: range=, pay=)`."""
        if not self.options:
            return f"{verb}: unknown option {key!r} (it takes none)"
        by_key = {o.key: o for o in self.options}
        close = difflib.get_close_matches(key, list(by_key), n=1)
        guess = f"did you mean {by_key[close[0]].named}? " if close else ""
        listed = ", ".join(o.named for o in self.options)
        return f"{verb}: unknown option {key!r} ({guess}options: {listed})"


# The session verbs of every game: the session handles them, not the rules.
SESSION_VERBS: dict[str, Verb] = {
    "undo": Verb("[N]", "take back the last N actions (default 1)"),
    "redo": Verb("[N]", "put back N undone actions"),
    "new": Verb("", "start the next game of this session with the same encounter"),
    # Effects of any name, with durations that end on their own (host/core/effects.py).
    "effect": Verb(
        "TARGET NAME",
        "put effect NAME on fighter TARGET: for rounds=N (with of=FIGHTER counted on its"
        " turns), until=end|start of the target's next turn (or of=FIGHTER's), until a"
        " save=end the game master answers, or"
        " (no duration) until taken off; stacks=N and note=TEXT are kept with it",
        (
            Option("rounds", "N", number=(1, 10_000)),
            Option("until", choices=("end", "start")),
            Option("of", "FIGHTER"),
            Option("save", choices=("end",)),
            Option("stacks", "N", number=(1, 999)),
            Option("note", "TEXT"),
        ),
        several=("TARGET",),
    ),
    "effect end": Verb("TARGET NAME", "take effect NAME off fighter TARGET", several=("TARGET",)),
    "effect save": Verb(
        "TARGET NAME yes|no",
        "answer a save=end effect's question: yes, it ends; no, it stays",
        several=("TARGET",),
    ),
}

# The session verbs of a game that asks for its rolls (Ruleset.asks_for_rolls): an action
# declared while the dice come from the board or the table waits for its roll, and these
# give it (host/core/session.py, "wanted rolls"). A ruleset's own verb of the same name
# stays its own (forms' `roll UNIT`, korxsol's `dice PURPOSE FACE ...`).
WANTED_VERBS: dict[str, Verb] = {
    "roll": Verb("", "the engine rolls the roll the waiting action wants"),
    "cancel": Verb("", "drop the action that waits for a roll"),
    "dice": Verb(
        "[PURPOSE] FACE ...",
        "while an action waits for its roll: its faces, rolled at the table (PURPOSE: the"
        " roll's purpose or kind of dice, if named)",
    ),
    "draw": Verb(
        "CARD ...",
        "while an action waits for a draw: the cards dealt at the table (KS, 10H, Joker)",
    ),
    "dice from": Verb("board|engine|entered|smart", "where the next actions' dice come from"),
}


@dataclass(frozen=True)
class Command:
    """One line read: its verb, its words (`args`) and its options (`opts`: a flag written
    alone is ""). `grammar` is the verb's declaration (None for a command made in code),
    `first` the words of `args` that belong to the verb (1 for `dice from`), `quoted`
    which words were typed in quotes (for a verb with a name of several words), and
    `journalled` whether the line comes from the journal: it was accepted once, so today's
    grammar does not refuse it again (a game replays as it was played)."""

    verb: str
    args: list[str] = field(default_factory=list)
    opts: dict[str, str] = field(default_factory=dict)
    text: str = ""
    usage: str = field(default="", compare=False)  # `verb ARGS`, for the errors
    grammar: Verb | None = field(default=None, compare=False, repr=False)
    first: int = field(default=0, compare=False, repr=False)
    quoted: tuple[bool, ...] = field(default=(), compare=False, repr=False)
    journalled: bool = field(default=False, compare=False, repr=False)

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

    def take_name(self, known: Sequence[str], what: str, norm: names.Norm = names.plain) -> Command:
        """This command with the name of several words its grammar declares (`several`)
        made one word as `names.take_name` reads it among `known` (IllegalAction where the
        words are ambiguous or a name is misspelt), and its words then counted: a word no
        word of the grammar takes is refused, before any rule has read the command. A
        command with no such name, or made in code, comes back as it is."""
        grammar = self.grammar
        at = next((i for i, w in enumerate(grammar.slots) if w.several), None) if grammar else None
        if at is None:
            return self
        at += self.first
        quoted = list(self.quoted)
        args = names.take_name(self.args, at, known, what, at < len(quoted) and quoted[at], norm)
        cmd = self
        if args != self.args:
            taken = len(self.args) - len(args)  # the words joined to the first
            quoted[at + 1 : at + 1 + taken] = []
            cmd = dataclasses.replace(self, args=args, quoted=tuple(quoted))
        cmd.check_words()
        return cmd

    def check_words(self) -> None:
        """Refuse the words past those its grammar takes (`end: unexpected 'now' (usage:
        end)`); a journalled line was accepted once, and is not refused again."""
        most = self.grammar.most_words() if self.grammar is not None else None
        if most is None or self.journalled or len(self.args) <= self.first + most:
            return
        verb = " ".join([self.verb, *self.args[: self.first]]).lower()
        extra = " ".join(self.args[self.first + most :])
        hint = ""
        assert self.grammar is not None
        last = self.grammar.slots[-1] if self.grammar.slots else None
        if last is not None and "NAME" in last.text:  # `add Warden as Warden Two`
            whole = " ".join(self.args[self.first + most - 1 :])
            hint = f'a name of several words goes in quotes: "{whole}"; '
        raise IllegalAction(f"{verb}: unexpected {extra!r} ({hint}usage: {self.usage})")


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


def whole_number(text: str, low: int, high: int | None, what: str) -> int:
    """`text` as a whole number low..high (high None: at least low), read by
    host/core/numbers.py (ASCII digits, a sign allowed); else IllegalAction in one line."""
    return numbers.whole(text, what, low, high, signed=True)


# The verbs of a fight that changes (host/core/newcomers.py) in a game whose language has
# none: what that game cannot do, said as such rather than as a command nobody knows.
NOT_MID_FIGHT = {
    "add": "add: this game takes no newcomers mid-fight (its fighters are the encounter's)",
    "remove": "remove: in this game no fighter leaves mid-fight (its fighters stay to the end)",
}


class Language:
    """A ruleset's verbs, each declared as a `Verb`: `verbs` are the game's actions,
    `session_verbs` what the session does around the game (undo, redo and new are always
    there; with `wanted`, the game asks for its rolls, and roll, cancel, dice and dice from
    are there too). `grammar` holds every declaration; `verbs` and `session_verbs` map each
    verb to (its usage after the verb, what it does), for help. `flags` are the options any
    verb writes as a bare word. `asides` are session verbs that only inform (korxsol's
    `odds`): the play UI shows what they say beside the view, not in the game's log."""

    def __init__(
        self,
        verbs: Mapping[str, Verb],
        session_verbs: Mapping[str, Verb] | None = None,
        asides: tuple[str, ...] = (),
        wanted: bool = False,
    ) -> None:
        session = dict(session_verbs or {})
        for verb, declared in SESSION_VERBS.items():
            session.setdefault(verb, declared)
        if wanted:
            for verb, declared in WANTED_VERBS.items():
                if verb not in verbs:  # a game verb of that name stays the game's
                    session.setdefault(verb, declared)
        self.grammar: dict[str, Verb] = {**verbs}
        for verb, declared in session.items():
            self.grammar.setdefault(verb, declared)  # a game verb of that name stays the game's
        self.verbs = {verb: (v.shown(), v.help) for verb, v in verbs.items()}
        self.session_verbs = {verb: (v.shown(), v.help) for verb, v in session.items()}
        self.flags = tuple(
            dict.fromkeys(
                o.key for v in self.grammar.values() for o in v.options if o.flag or o.alone
            )
        )
        # The bare words read as flags after each first word. A verb with words that repeat
        # (`ready NAME TRIGGER ...`: free text) reads only its own (and those of its verbs of
        # two words): another verb's flag is a plain word of its text there (`ready LIR shoot
        # when it goes far`, where `far` is attack's). Any other verb reads every verb's
        # flags, so one written to the wrong verb is refused naming it (`end spare`).
        own: dict[str, list[str]] = {}
        free: set[str] = set()
        for named, v in self.grammar.items():
            first = named.split(" ", 1)[0]
            own.setdefault(first, []).extend(o.key for o in v.options if o.flag or o.alone)
            if any(w.repeats for w in v.slots):
                free.add(first)
        self._flags = {
            first: tuple(dict.fromkeys(keys)) if first in free else self.flags
            for first, keys in own.items()
        }
        self.asides = asides
        # Made once: every line parsed carries its verb's usage (for the errors).
        self._usage = {verb: f"{verb} {v.shown()}".strip() for verb, v in self.grammar.items()}

    def knows(self, verb: str) -> bool:
        return verb in self.grammar

    def usage(self, verb: str) -> str:
        return self._usage.get(verb, verb)

    def unknown_verb(self, word: str, more: tuple[str, ...] = ()) -> str:
        """`unknown command 'intiative': did you mean initiative? (known: ...)`; `more` are
        commands the caller adds (play's help, table, quit)."""
        known = list(self.verbs) + [v for v in self.session_verbs if " " not in v] + list(more)
        if word.lower() in NOT_MID_FIGHT and word.lower() not in known:
            return NOT_MID_FIGHT[word.lower()]
        close = difflib.get_close_matches(word.lower(), known, n=1)
        guess = f": did you mean {close[0]}?" if close else ""
        return f"unknown command {word!r}{guess} (known: {', '.join(known)})"

    def parse(self, line: str, max_length: int | None = MAX_LINE) -> Command | None:
        """One line to a Command, or None for a blank or comment line; IllegalAction (one
        line) for a line its verb's grammar refuses. A line longer than `max_length` is
        refused. None: a line the journal holds, accepted once: neither today's limit nor
        today's grammar refuses it."""
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
        given: list[tuple[str, str | None]] = []  # (key, value; None: written alone)
        flags = self._flags.get(verb, ())
        for word in words[1:]:
            if "=" in word:
                key, _, value = word.partition("=")
                opts[key.lower()] = value
                given.append((key.lower(), value))
            elif word.lower() in flags:
                opts[word.lower()] = ""
                given.append((word.lower(), None))
            else:
                args.append(word)
        # A verb of two words (`dice clear`) takes what its own grammar says.
        named, first = verb, 0
        if args and self.knows(f"{verb} {args[0].lower()}"):
            named, first = f"{verb} {args[0].lower()}", 1
        grammar = self.grammar[named]
        several = any(w.several for w in grammar.slots)
        cmd = Command(
            verb,
            args,
            opts,
            line.strip(),
            self.usage(named),
            grammar,
            first,
            tuple(names.quoted_words(line, flags)) if several else (),
            max_length is None,
        )
        if max_length is None:
            return cmd
        for key, written in given:
            option = grammar.option(key)
            if option is None:
                raise IllegalAction(grammar.unknown_option(named, key))
            option.check(named, written)
        for option in grammar.options:
            if option.required and option.key not in opts:
                raise IllegalAction(f"{named}: {option.shown()} is missing (usage: {cmd.usage})")
        if not several:  # (else the count waits for the name to be read: take_name)
            cmd.check_words()
        return cmd
