"""Names for any ruleset: what a name may hold, how one is shown on a terminal, and names
typed at the prompt: a misspelt one gets a suggestion, and one of
several words typed without quotes is read as one name where that is unambiguous.

    attack Kaelen Flame Slsh Orrin  ->  unknown move 'Flame Slsh'; did you mean 'Flame Slash'?
    attack Kaelen Flame Slash Orrin ->  read as  attack Kaelen "Flame Slash" Orrin

A ruleset reads the name its verb's grammar declares of several words (korxsol: the move,
item or artifact after the character) with `Command.take_name` (host/core/commandline.py),
which calls `take_name` here and then refuses the words left over; it calls `suggest` where
a single word must be one of a list (a character). What counts as the same name (case,
spaces, punctuation) is the ruleset's `norm`.

No name may hold a control character: an escape code in one (`Kae\x1b]0;pwned\x07`) set a
terminal's title and cleared its screen when the name was printed. An encounter holding
one is refused where it is read (`control_character`); and `printable` shows any text a
person handed turnlight with its control characters spelt out, for every printer.
"""

from __future__ import annotations

import difflib
import re
import shlex
from collections.abc import Callable, Sequence

from host.core.errors import IllegalAction

Norm = Callable[[str], str]

# C0 and C1 control characters and DEL (Unicode's "Cc"), but for tab, and newline where a
# text may hold lines.
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_CONTROL_BUT_NEWLINE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def control_character(text: str) -> str | None:
    """The first control character in `text` as U+XXXX (tab is not one here), or None."""
    found = _CONTROL.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def printable(text: str, lines: bool = True) -> str:
    """`text` with every control character but tab (and newline, if `lines`) spelt out as
    \\xNN, so that printing it never sends a terminal an escape code."""
    pattern = _CONTROL_BUT_NEWLINE if lines else _CONTROL
    return pattern.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


# difflib's ratio: 'Flame Slsh' is 0.95 of 'Flame Slash', 'Kaelan' 0.83 of 'Kaelen';
# 'Fireball' is 0.62 of 'Rally', a move nobody meant.
CLOSE_ENOUGH = 0.75


def plain(name: str) -> str:
    """The default sameness: case and runs of spaces do not matter."""
    return " ".join(name.lower().split())


def closest(word: str, known: Sequence[str], norm: Norm = plain) -> tuple[str, float] | None:
    """The known name `word` is most likely a misspelling of, with how close it is, or None
    when none is close enough."""
    best: tuple[str, float] | None = None
    typed = norm(word)
    for name in known:
        ratio = difflib.SequenceMatcher(None, typed, norm(name)).ratio()
        if ratio >= CLOSE_ENOUGH and (best is None or ratio > best[1]):
            best = (name, ratio)
    return best


def suggest(what: str, word: str, known: Sequence[str], norm: Norm = plain) -> None:
    """Raise `unknown WHAT 'word'; did you mean 'Name'?` when `word` is not a known name but
    is close to one; return when it is known, or close to none (the caller's rules then say
    what is wrong in their own words)."""
    if any(norm(word) == norm(name) for name in known):
        return
    found = closest(word, known, norm)
    if found is not None:
        raise IllegalAction(f"unknown {what} {word!r}; did you mean {found[0]!r}?")


def quoted_words(line: str, flags: Sequence[str] = ()) -> list[bool]:
    """For each plain word of a command line after its verb (not a `key=value` option or a
    flag, as host/core/commandline.py reads them), whether it was typed in quotes."""
    try:
        lexer = shlex.shlex(line, posix=False)
    except ValueError:
        return []
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        tokens = list(lexer)[1:]
    except ValueError:  # an open quote: the parser has refused the line already
        return []
    return [
        t[:1] in "\"'" and t[:1] != ""
        for t in tokens
        if "=" not in t and t.strip("\"'").lower() not in flags
    ]


def take_name(
    words: list[str],
    at: int,
    known: Sequence[str],
    what: str,
    quoted: bool = False,
    norm: Norm = plain,
) -> list[str]:
    """`words` with the name that starts at `at` made one word. A name typed in quotes is
    taken as it is; one typed without them takes as many words as spell a known name, when
    only one count of words does. Raises IllegalAction when more than one does (the quotes
    are suggested) or when no name is spelt but one is close (it is suggested). Returns
    `words` unchanged when nothing there is close to a name."""
    if at >= len(words):
        return words
    by_norm = {norm(name): name for name in known}
    longest = max((len(name.split()) for name in known), default=1)
    rest = words[at : at + longest]
    if quoted or " " in words[at]:
        counts = [1]
    else:
        counts = list(range(1, len(rest) + 1))
    spelt = [n for n in counts if norm(" ".join(rest[:n])) in by_norm]
    if len(spelt) == 1:
        n = spelt[0]
        if n == 1:
            return words
        return words[:at] + [" ".join(rest[:n])] + words[at + n :]
    if len(spelt) > 1:
        readings = ", ".join(repr(by_norm[norm(" ".join(rest[:n]))]) for n in spelt)
        longest_reading = by_norm[norm(" ".join(rest[: spelt[-1]]))]
        raise IllegalAction(
            f"{' '.join(rest[: spelt[-1]])!r} reads as more than one {what} ({readings}):"
            f' put the one you mean in quotes, as in "{longest_reading}"'
        )
    guesses = [
        (typed, found)
        for n in counts
        for typed in [" ".join(rest[:n])]
        for found in [closest(typed, known, norm)]
        if found is not None
    ]
    if guesses:
        typed, (name, _) = max(guesses, key=lambda guess: guess[1][1])
        raise IllegalAction(f"unknown {what} {typed!r}; did you mean {name!r}?")
    return words
