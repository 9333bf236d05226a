"""What the acting fighter may use with a verb, for any ruleset, and what it may not use now
and why: `help attack` in play's terminal, its Tab completion and the web console's offers
(the moves, abilities, items or cards its grammar names next), read from the completions
both screens offer (`offers`: the generic `effect` verb's, else the ruleset's own
`Ruleset.complete`, ordered by `Ruleset.unusable`: what can be used now first, the rest
after it, each with its reason)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from host.core import effects
from host.core.errors import IllegalAction
from host.core.interface import Fighter, Ruleset
from host.core.session import DICE_FROM

# The generic verbs: a fight that changes (host/core/newcomers.py, host/core/effects.py)
# and the session's dice: what they complete (templates, reasons to leave, effects' names,
# the purposes of a roll) is nobody's move.
NOT_MOVES = ("add", "remove", "effect", "dice")


@dataclass(frozen=True)
class Offer:
    """One completion: `name` as it is typed, and why the rules refuse it now ("" when
    they do not)."""

    name: str
    reason: str = ""


def offers(ruleset: Ruleset, game: Any, words: list[str]) -> list[Offer]:
    """What may stand for the last of `words` (maybe ""), what can be used now first and
    then the rest with the reason each cannot (`Ruleset.unusable`), each part in the
    ruleset's order: what the terminal's Tab and the web console offer alike. An `effect`
    line is completed by host/core/effects.py, every other by the ruleset, but for
    `dice from`'s sources, which are the session's."""
    said = [w.lower() for w in words[:2]]
    if len(words) == 3 and said == ["dice", "from"] and ruleset.language.knows("dice from"):
        return [Offer(n) for n in DICE_FROM]  # the session's, whatever the ruleset completes
    generic = effects.complete(ruleset, game, words)
    if generic is not None:
        return [Offer(n) for n in generic]
    names = ruleset.complete(game, words)
    try:
        marked = ruleset.unusable(game, words, names) if names else {}
    except IllegalAction:
        marked = {}  # (a line the rules cannot read yet: nothing to mark)
    reasons = {_plain(n): why for n, why in marked.items() if why}
    now = [Offer(n) for n in names if _plain(n) not in reasons]
    return now + [Offer(n, reasons[_plain(n)]) for n in names if _plain(n) in reasons]


def completions(ruleset: Ruleset, game: Any, words: list[str]) -> list[str]:
    """The names of `offers`, in its order: what can be used now first."""
    return [o.name for o in offers(ruleset, game, words)]


@dataclass
class Choices:
    """What `who` (the acting fighter, or a player) may use with `verb`: `names` as they
    are typed (a name of several words in quotes), what can be used now first; `reasons`
    holds why each of the others cannot, by its name."""

    verb: str
    who: str
    names: list[str]
    reasons: dict[str, str] = field(default_factory=dict)
    said: list[str] = field(default_factory=list)  # the words a choice follows on its line

    @property
    def usable(self) -> list[str]:
        return [n for n in self.names if n not in self.reasons]

    def line(self) -> str:
        """`attack for Kaelen: Flame Slash, Rally Cry; not now: Heavy Charge (on cooldown 2
        turns)`; where nothing can be used for one reason, `attack for Orrin: not now (not
        its turn): Rock Smash, Iron Grip`."""
        why = set(self.reasons.values())
        if not self.usable and len(why) == 1:  # one reason for all: said once (not its turn)
            names = ", ".join(_plain_case(n) for n in self.names)
            return f"{self.verb} for {self.who}: not now ({why.pop()}): {names}"
        shown = ", ".join(_plain_case(n) for n in self.usable) or "nothing now"
        marked = [f"{_plain_case(n)} ({self.reasons[n]})" for n in self.names if n in self.reasons]
        rest = f"; not now: {', '.join(marked)}" if marked else ""
        return f"{self.verb} for {self.who}: {shown}{rest}"


def acting_choices(
    ruleset: Ruleset, game: Any, verb: str, who: str | None = None
) -> Choices | None:
    """What the fighter whose turn it is (or `who`, a name or label) may use with `verb`:
    the completions of the word after its name (`attack Kaelen ...`), or after its name
    and a fighter it names (d20's `attack NAME TARGET WEAPON`), or of the verb's first
    word where it names no fighter (flare's `summon CARD`). None when nobody (or more than
    one: advance's steps, `acting_all`) is acting and `who` is not given, or names nobody,
    or when the verb takes nothing but names and options there."""
    found = _choosing(ruleset, game, verb, who)
    if found is None:
        return None
    fighters, named = found
    if len(named) != 1:
        return None
    return _choices(ruleset, game, verb, named[0], fighters)


def acting_all(ruleset: Ruleset, game: Any, verb: str, who: str | None = None) -> list[Choices]:
    """`acting_choices` for each fighter taking its turn now (a player's characters, a
    step's units), or for `who`: one Choices a fighter, once where the verb names none;
    those with something usable now first."""
    found = _choosing(ruleset, game, verb, who)
    if found is None:
        return []
    fighters, named = found
    out: list[Choices] = []
    for acting in named:
        choices = _choices(ruleset, game, verb, acting, fighters)
        if choices is not None:
            out.append(choices)
            if not _names_fighter(ruleset, game, verb, acting):
                break  # (flare's `summon CARD`: the same offer for each)
    return sorted(out, key=lambda c: not c.usable)  # who can use one now first


def _choosing(
    ruleset: Ruleset, game: Any, verb: str, who: str | None
) -> tuple[list[Fighter], list[Fighter]] | None:
    """(every fighter, those `who` names or those acting now), or None where `verb` is
    nobody's move."""
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
    return fighters, named


def _names_fighter(ruleset: Ruleset, game: Any, verb: str, acting: Fighter) -> bool:
    said = {_plain(n) for n in completions(ruleset, game, [verb, ""])}
    return _plain(acting.name) in said or _plain(acting.label) in said


def _choices(
    ruleset: Ruleset, game: Any, verb: str, acting: Fighter, fighters: list[Fighter]
) -> Choices | None:
    everyone = {_plain(n) for f in fighters for n in (f.name, f.label) if n}
    first = completions(ruleset, game, [verb, ""])
    said = {_plain(n) for n in first}
    if _plain(acting.name) in said or _plain(acting.label) in said:
        name = acting.name if _plain(acting.name) in said else acting.label
        words = [verb, name, ""]
    else:
        words = [verb, ""]
    found = _moves(ruleset, game, words)
    if found and all(_plain(o.name) in everyone for o in found) and len(words) == 3:
        # A fighter named next (a target, an ally): the moves come after it, if any.
        other = next((o.name for o in found if _plain(o.name) != _plain(words[1])), None)
        found = _moves(ruleset, game, [*words[:2], other, ""]) if other else []
        words = [*words[:2], other or "", ""]
    if not found or any(_plain(o.name) in everyone for o in found):
        return None  # names of fighters: nothing of the fighter's own
    kept = list({o.name: o for o in found}.values())
    reasons = {o.name: o.reason for o in kept if o.reason}
    return Choices(verb, acting.name, [o.name for o in kept], reasons, words[:-1])


def _moves(ruleset: Ruleset, game: Any, words: list[str]) -> list[Offer]:
    flags = set(ruleset.language.flags)
    found = offers(ruleset, game, words)
    return [o for o in found if not o.name.endswith("=") and o.name not in flags]  # options


def _plain(name: str) -> str:
    return name.strip('"').lower()


def _plain_case(name: str) -> str:
    return name.strip('"')
