"""Conditions and other named effects on a creature, and when they end (d20-srd-combat.txt
[23]-[26]): the one place where d20 keeps them.

The durations that end at a point of the order go through the host's effect book
(host/core/effects.py), which ends each exactly once under undo, redo and resume, from
the turns the board's projection shows (device.py):
- `rounds=N` [26]: N rounds from the point in the order where it began, ending as the turn
  at that point starts N rounds later;
- `until=start` of a creature's next turn [26]: as that creature's turn would start, even
  when it is out of the fight (its place in the order still passes);
- `until=end` of a creature's next turn [26]: at the end of that creature's next turn, and
  begun during that very turn, at the end of its following one.
Three kinds are d20's own, kept here (`Effect`), because its rules decide their end:
- `rounds=N` begun on a lair's count 20 [26][28] (`count`): the book's clock does not see
  that count (device.py shows it the last creature's turn still), so d20 ends it as the
  order reaches count 20 N rounds later (turns.advance);
- `save=ABILITY:DC` [26]: the target rolls the save at the end of each of its own turns
  (turns.py; the book's save asks the game master instead) and the effect ends on a
  success;
- none: until removed (`recover`).
Any of them may depend on a creature's concentration (`by=NAME concentration`): it ends
with that concentration [20]-[22] (`Link`).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from host.core import effects as book
from host.core.interface import EFFECT_BOOK, IllegalAction
from host.core.names import plain
from host.rulesets.d20.encounter_schema import CONDITION_NAMES
from host.rulesets.d20.engine import Entry, Game

# [24]: these include incapacitated.
INCAPACITATING = ("incapacitated", "paralyzed", "petrified", "stunned", "unconscious")
DURATIONS = ("none", "rounds", "start", "end", "save", "count")
BOOK_KINDS = ("rounds", "start", "end")  # the durations the host's effect book keeps


@dataclass
class Effect:
    """One of d20's own effects: until removed (`none`) or until a save (`save`)."""

    name: str
    target: int
    source: int = -1  # who caused it (-1: nobody in the fight)
    kind: str = "none"  # none | save | count (rounds begun on a lair's count 20)
    save: str = ""  # save: the ability and the DC
    dc: int = 0
    rounds: int = 0  # count: the round at whose count 20 it ends
    of: int = -1  # (the book keeps whose turn)


@dataclass
class Link:
    """An effect (on `target`, named `name`) that ends with `caster`'s concentration."""

    target: int
    name: str
    caster: int


def _ruleset() -> Any:
    """d20's Ruleset, which the effect book asks for the fighters' names. Found through the
    registry: ruleset.py imports this module, so importing it back would make a circle."""
    from host.core import registry

    return registry.get("d20")


def _booked(game: Game, index: int) -> list[book.Effect]:
    name = game.fighters[index].name
    return [e for e in book.in_play(game) if e.target == name]


def on(game: Game, index: int, booked: bool = True) -> list[str]:
    """The names of the conditions and effects on a creature, d20's own then the book's,
    with those its state implies: unconscious and prone at 0 HP [13], exhaustion's level.
    Without `booked`, the book's are left out: the views' words, where the host adds the
    book's effects with their durations (host/core/effects.py) and they would show twice."""
    f = game.fighters[index]
    names = [e.name for e in game.effects if e.target == index]
    in_book = [e.name for e in _booked(game, index)]
    names += in_book if booked else []
    if f.in_fight and f.hp == 0:
        for implied in ("unconscious", "prone"):
            if implied not in names and implied not in in_book:
                names.append(implied)
    if f.exhaustion:
        names.append(f"exhaustion {f.exhaustion}")
    return names


def lasting(game: Game, index: int) -> None:
    """The conditions a creature brings from a campaign's last fight [29] (its stat line's
    `conditions`, host/rulesets/d20/campaign.py): on it until removed."""
    f = game.fighters[index]
    game.effects += [Effect(name, index) for name in f.spec.conditions]


def incapacitated(game: Game, index: int) -> bool:
    """[6][24]: neither actions nor reactions."""
    return any(n in INCAPACITATING for n in on(game, index))


def begin(
    game: Game, effect: Effect, entry: Entry | None, kind: str = "", rounds: int = 0, of: int = -1
) -> list[str]:
    """Put an effect on: `kind` one of BOOK_KINDS goes to the host's effect book (`rounds`,
    `of` whose turn), else `effect` is d20's own; the lines that say so."""
    target = game.fighters[effect.target]
    mine = [e.name for e in game.effects if e.target == effect.target]
    if plain(effect.name) in [plain(n) for n in mine]:
        raise IllegalAction(f"{target.name} is already {effect.name}: `recover` it first")
    if kind == "rounds" and entry is not None and entry.lair_of >= 0:
        # Begun on a lair's count 20, which the book's clock does not see (it stays on the
        # last creature's turn): d20 ends it at count 20 `rounds` rounds on [26][28].
        effect.kind, effect.rounds = "count", game.round + rounds
        game.effects.append(effect)
        return [f"{target.name} is {effect.name}{_until(game, effect)}"]
    if kind in BOOK_KINDS:
        whose = game.fighters[of].name if of >= 0 else ""
        if kind == "end" and of >= 0 and not game.fighters[of].in_fight:
            raise IllegalAction(f"{whose} is out of the fight: its turn never ends")
        duration = book.Duration(kind, rounds, whose)
        return [str(x) for x in book.add(_ruleset(), game, target.name, effect.name, duration)]
    game.effects.append(effect)
    return [f"{target.name} is {effect.name}{_until(game, effect)}"]


def link(game: Game, target: int, name: str, caster: int) -> None:
    """The effect `name` on `target` ends with `caster`'s concentration."""
    game.links = [x for x in game.links if (x.target, x.name) != (target, name)]
    game.links.append(Link(target, name, caster))


def _until(game: Game, e: Effect) -> str:
    if e.kind == "save":
        return f" until it saves ({e.save.upper()} DC {e.dc}) at the end of its turn"
    if e.kind == "count":
        left = e.rounds - game.round
        return f" until count 20 of round {e.rounds} ({left} round{'s' if left != 1 else ''})"
    return ""


def count_20(game: Game) -> list[str]:
    """[26][28]: the order reaches count 20 (a lair's entry, acting or not): the effects
    begun on it that many rounds ago end."""
    due = [e for e in game.effects if e.kind == "count" and e.rounds <= game.round]
    return [end(game, e, " (its rounds are up on count 20)") for e in due]


def end(game: Game, effect: Effect, why: str) -> str:
    game.effects.remove(effect)
    return f"{game.fighters[effect.target].name} is no longer {effect.name}{why}"


def remove(game: Game, index: int, name: str) -> list[str]:
    """End the effect named `name` on a creature."""
    for e in game.effects:
        if e.target == index and plain(e.name) == plain(name):
            return [end(game, e, "")]
    for b in _booked(game, index):
        if plain(b.name) == plain(name):
            return [str(x) for x in book.take_off(_ruleset(), game, b.target, b.name)]
    f = game.fighters[index]
    if f.hp == 0 and name in ("unconscious", "prone") and f.in_fight:
        raise IllegalAction(f"{f.name} is {name} at 0 HP: healing ends it")
    now = ", ".join(on(game, index)) or "nothing"
    raise IllegalAction(f"{f.name} is not {name} (it is: {now})")


def settle(game: Game) -> list[str]:
    """[22][24] for the conditions the host's `effect` verb puts on, which reach no d20
    code as they begin: before each of d20's actions, an unconscious one begun since the
    last drops its creature prone, and a concentrating creature that is incapacitated
    stops concentrating."""
    lines: list[str] = []
    for b in book.in_play(game):
        if b.name == "unconscious" and b.since > game.settled_at:
            f = next((f for f in game.fighters if f.name == b.target), None)
            if f is not None and f.in_fight and "prone" not in on(game, f.index):
                lines += begin(game, Effect("prone", f.index), None)
                lines[-1] += " (unconscious)"
    for f in game.fighters:
        if f.concentration and incapacitated(game, f.index):
            lines += concentration_over(game, f.index)
    kept = getattr(game, EFFECT_BOOK, None)  # (none yet: nothing the host's verb put on)
    if isinstance(kept, book.EffectBook):
        # (what this action puts on is d20's own doing, its `since` one past the count)
        game.settled_at = kept.actions + 1
    return lines


def saves_at_turn_end(game: Game, entry: Entry) -> list[Effect]:
    """The `save` effects whose save comes as `entry`'s turn ends (turns.py rolls them)."""
    return [e for e in game.effects if e.kind == "save" and e.target in entry.members]


def concentration_over(game: Game, caster: int) -> list[str]:
    """[20][21][22]: the effects that depend on a creature's concentration end with it."""
    f = game.fighters[caster]
    if not f.concentration:
        return []
    spell = f.concentration
    f.concentration = ""
    lines = [f"{f.name}'s concentration on {spell} ends"]
    for x in [x for x in game.links if x.caster == caster]:
        game.links.remove(x)
        for e in [e for e in game.effects if e.target == x.target and e.name == x.name]:
            lines.append(end(game, e, f" ({spell} is over)"))
        for b in _booked(game, x.target):
            if b.name == x.name:
                lines += [str(y) for y in book.take_off(_ruleset(), game, b.target, b.name)]
    return lines


def outlasting(game: Game) -> list[str]:
    """[29]: the effects still running as the fight ends, with what is left of each."""
    lines = []
    for e in game.effects:
        lines.append(f"{e.name} on {game.fighters[e.target].name}{_until(game, e)}")
    for b in book.in_play(game):
        if b.kind == "rounds" and not b.of:
            left = b.due_round - game.round
            lines.append(f"{b.name} on {b.target}: {left} round{'s' if left != 1 else ''} left")
        else:
            lines.append(f"{b.name} on {b.target} ({book.shown(b, None, book.of_game(game))})")
    return lines


def condition_name(word: str) -> str:
    """A condition's name as typed; any other name is an effect of the table's own."""
    key = " ".join(word.lower().split())
    if not key:
        raise IllegalAction("an effect needs a name")
    close = difflib.get_close_matches(key, CONDITION_NAMES, 1, 0.8)
    if close and close[0] != key:  # a typo would be an effect without the condition's rules
        raise IllegalAction(f"{key!r} is not a condition: did you mean {close[0]!r}?")
    return key


def known_conditions() -> tuple[str, ...]:
    return CONDITION_NAMES
