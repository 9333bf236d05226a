"""What the acting fighter may use with a verb, for any ruleset: `help attack` in play's
terminal and the web console's offers (the moves, abilities, items or cards its grammar
names next), read from the completions both screens offer (`completions`: the generic
`effect` verb's, else the ruleset's own `Ruleset.complete`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from host.core import effects
from host.core.interface import Ruleset
from host.core.session import DICE_FROM

# The generic verbs: a fight that changes (host/core/newcomers.py, host/core/effects.py)
# and the session's dice: what they complete (templates, reasons to leave, effects' names,
# the purposes of a roll) is nobody's move.
NOT_MOVES = ("add", "remove", "effect", "dice")


def completions(ruleset: Ruleset, game: Any, words: list[str]) -> list[str]:
    """What may stand for the last of `words` (maybe ""): what the terminal's Tab and the
    web console offer alike. An `effect` line is completed by host/core/effects.py, every
    other by the ruleset, but for `dice from`'s sources, which are the session's."""
    said = [w.lower() for w in words[:2]]
    if len(words) == 3 and said == ["dice", "from"] and ruleset.language.knows("dice from"):
        return list(DICE_FROM)  # the session's, whatever the ruleset completes
    generic = effects.complete(ruleset, game, words)
    return generic if generic is not None else ruleset.complete(game, words)


@dataclass
class Choices:
    """What `who` (the acting fighter, or a player) may use with `verb`: `names` as they
    are typed (a name of several words in quotes)."""

    verb: str
    who: str
    names: list[str]

    def line(self) -> str:
        """`attack for Kaelen: Flame Slash, Rally Cry, Heavy Charge`."""
        shown = ", ".join(n.strip('"') for n in self.names)
        return f"{self.verb} for {self.who}: {shown}"


def acting_choices(
    ruleset: Ruleset, game: Any, verb: str, who: str | None = None
) -> Choices | None:
    """What the fighter whose turn it is (or `who`, a name or label) may use with `verb`:
    the completions of the word after its name (`attack Kaelen ...`), or of the verb's
    first word where it names no fighter (flare's `summon CARD`). None when nobody (or
    more than one: advance's steps) is acting and `who` is not given, or names nobody, or
    when the verb takes nothing but names and options there."""
    if verb in NOT_MOVES or not ruleset.language.knows(verb):
        return None
    try:
        fighters = ruleset.fighters(game)
    except NotImplementedError:
        return None
    if who is not None:
        named = [f for f in fighters if _plain(who) in (_plain(f.name), _plain(f.label))]
    else:
        named = [f for f in fighters if f.current and not f.out]
    if len(named) != 1:
        return None
    acting = named[0]
    everyone = {_plain(n) for f in fighters for n in (f.name, f.label) if n}
    first = completions(ruleset, game, [verb, ""])
    said = {_plain(n) for n in first}
    if _plain(acting.name) in said or _plain(acting.label) in said:
        who = acting.name if _plain(acting.name) in said else acting.label
        names = completions(ruleset, game, [verb, who, ""])
    else:
        names = first
    flags = set(ruleset.language.flags)
    names = [n for n in names if not n.endswith("=") and n not in flags]  # options
    if not names or any(_plain(n) in everyone for n in names):
        return None  # names of fighters: nothing of the fighter's own
    return Choices(verb, acting.name, list(dict.fromkeys(names)))


def _plain(name: str) -> str:
    return name.strip('"').lower()
