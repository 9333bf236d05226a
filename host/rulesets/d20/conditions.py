"""Conditions and other named effects on a creature, and when they end (d20-srd-combat.txt
[23]-[26]): the one place that keeps d20's durations, so that moving them onto the
generic effects of host/core/effects.py, once it is there, changes this module alone.

A duration is one of:
- none: until removed (`recover`), or until the concentration it depends on ends;
- `rounds=N` [26]: N rounds from the point in the order where it began, ending as the turn
  at that point starts N rounds later (the option `rounds_end = "end"`: as it ends);
- `until=start` of a creature's next turn [26]: as that creature's turn would start, even
  when it is out of the fight or its entry is gone: the point in the order is kept, not the
  creature;
- `until=end` of a creature's next turn [26]: at the end of that creature's next turn, and
  begun during that very turn, at the end of its following one;
- `save=ABILITY:DC` [26]: the target saves at the end of each of its own turns (from the
  turn it is in, if it is its own), and the effect ends on a success.

A game is replayed from its actions, so an effect ends exactly once under undo, redo and
resume: the point it ends at is fixed when it begins.
"""

from __future__ import annotations

from dataclasses import dataclass

from host.core.interface import IllegalAction
from host.rulesets.d20.encounter_schema import CONDITION_NAMES
from host.rulesets.d20.engine import Entry, Game

# [24]: these include incapacitated.
INCAPACITATING = ("incapacitated", "paralyzed", "petrified", "stunned", "unconscious")
DURATIONS = ("none", "rounds", "start", "end", "save")


@dataclass
class Effect:
    name: str
    target: int
    source: int = -1  # who caused it (-1: nobody in the fight)
    kind: str = "none"  # one of DURATIONS
    at: tuple[int, int, int, int] = (0, 0, 0, 0)  # rounds, start: (round, *rank) it ends at
    of: int = -1  # end: whose turn's end counts
    ends_left: int = 0  # end: that creature's turn ends still to pass
    save: str = ""  # save: the ability and the DC
    dc: int = 0
    concentration: int = -1  # the creature whose concentration it depends on (-1: none)
    rounds: int = 0  # rounds=N as given (what `outlasting` counts from)
    began: int = 0  # the round it began


def on(game: Game, index: int) -> list[str]:
    """The names of the conditions and effects on a creature, in the order they began, with
    those its state implies: unconscious and prone at 0 HP [13], exhaustion's level."""
    f = game.fighters[index]
    names = [e.name for e in game.effects if e.target == index]
    if f.in_fight and f.hp == 0:
        for implied in ("unconscious", "prone"):
            if implied not in names:
                names.append(implied)
    if f.exhaustion:
        names.append(f"exhaustion {f.exhaustion}")
    return names


def has(game: Game, index: int, name: str) -> bool:
    return name in on(game, index)


def incapacitated(game: Game, index: int) -> bool:
    """[6][24]: neither actions nor reactions."""
    names = on(game, index)
    return any(n in INCAPACITATING for n in names)


def begin(game: Game, effect: Effect, entry: Entry | None) -> str:
    """Put an effect on (its duration fixed now, from the turn in progress `entry`); the
    line that says so."""
    target = game.fighters[effect.target]
    effect.began = game.round
    now = game.now()
    if effect.kind == "rounds":
        effect.at = (now[0] + effect.rounds, *now[1:])
    elif effect.kind == "start":
        source = game.entry_of(effect.of)
        if source is None:
            raise IllegalAction(f"{game.fighters[effect.of].name} has no place in the order")
        # Its next turn: this round's, if its place is still to come, else next round's.
        later = source.rank > now[1:]
        effect.at = (now[0] + (0 if later else 1), *source.rank)
    elif effect.kind == "end":
        of = game.fighters[effect.of]
        if not of.in_fight:
            raise IllegalAction(f"{of.name} is out of the fight: its turn never ends")
        # Begun during its turn (whose end is still to come, even once a legendary action
        # has closed it): its next turn is the following one.
        during = entry is not None and effect.of in entry.members
        effect.ends_left = 2 if during else 1
    game.effects.append(effect)
    return f"{target.name} is {effect.name}{_until(game, effect)}"


def _until(game: Game, e: Effect) -> str:
    if e.kind == "rounds":
        return f" for {e.rounds} round{'s' if e.rounds != 1 else ''}"
    if e.kind == "start":
        return f" until the start of {game.fighters[e.of].name}'s next turn"
    if e.kind == "end":
        nxt = "next" if e.ends_left == 1 else "following"
        return f" until the end of {game.fighters[e.of].name}'s {nxt} turn"
    if e.kind == "save":
        return f" until it saves ({e.save.upper()} DC {e.dc}) at the end of its turn"
    if e.concentration >= 0:
        return f" while {game.fighters[e.concentration].name} concentrates"
    return ""


def end(game: Game, effect: Effect, why: str) -> str:
    game.effects.remove(effect)
    return f"{game.fighters[effect.target].name} is no longer {effect.name}{why}"


def remove(game: Game, index: int, name: str) -> list[str]:
    """End the effect named `name` on a creature (the first one, if it has it twice)."""
    for e in game.effects:
        if e.target == index and e.name == name:
            return [end(game, e, "")]
    f = game.fighters[index]
    if f.hp == 0 and name in ("unconscious", "prone") and f.in_fight:
        raise IllegalAction(f"{f.name} is {name} at 0 HP: healing ends it")
    now = ", ".join(on(game, index)) or "nothing"
    raise IllegalAction(f"{f.name} is not {name} (it is: {now})")


def at_turn_start(game: Game) -> list[str]:
    """Effects that end as the turn now starting begins: `rounds` and `until=start`."""
    now = game.now()
    due = [
        e
        for e in game.effects
        if (e.kind == "start" or (e.kind == "rounds" and game.options.rounds_end == "start"))
        and now >= e.at
    ]
    return [end(game, e, "") for e in due]


def at_turn_end(game: Game, entry: Entry) -> tuple[list[str], list[Effect]]:
    """Effects that end as `entry`'s turn ends: `until=end` ones whose count runs out, and
    `rounds` ones (option rounds_end = "end"); and the `save` ones whose save comes now,
    for the caller to roll (turns.py rolls them)."""
    now = game.now()
    lines_due: list[Effect] = []
    saves: list[Effect] = []
    for e in list(game.effects):
        if e.kind == "end" and e.of in entry.members:
            e.ends_left -= 1
            if e.ends_left <= 0:
                lines_due.append(e)
        elif e.kind == "rounds" and game.options.rounds_end == "end" and now >= e.at:
            lines_due.append(e)
        elif e.kind == "save" and e.target in entry.members:
            saves.append(e)
    return [end(game, e, "") for e in lines_due], saves


def concentration_over(game: Game, caster: int) -> list[str]:
    """[20][21][22]: the effects that depend on a creature's concentration end with it."""
    f = game.fighters[caster]
    if not f.concentration:
        return []
    spell = f.concentration
    f.concentration = ""
    lines = [f"{f.name}'s concentration on {spell} ends"]
    for e in [e for e in game.effects if e.concentration == caster]:
        lines.append(end(game, e, f" ({spell} is over)"))
    return lines


def outlasting(game: Game) -> list[str]:
    """[29]: the effects still running as the fight ends, with what is left of each."""
    lines = []
    for e in game.effects:
        who = game.fighters[e.target].name
        if e.kind == "rounds":
            left = e.at[0] - game.round
            lines.append(f"{e.name} on {who}: {left} round{'s' if left != 1 else ''} left")
        else:
            lines.append(f"{e.name} on {who}{_until(game, e) or ' until removed'}")
    return lines


def condition_name(word: str) -> str:
    """A condition's name as typed; any other name is an effect of the table's own."""
    key = " ".join(word.lower().split())
    if not key:
        raise IllegalAction("an effect needs a name")
    return key


def known_conditions() -> tuple[str, ...]:
    return CONDITION_NAMES
