"""The pf2 initiative order and the two ends of a turn (pf2-combat.txt [1]-[5], [13], [14],
[19], [21], [25]): one roll for each creature or group, adversaries before characters on a
tie; at the start of a turn the readied action lost, the recovery check, the actions and
the reaction back less slowed and stunned, one more when quickened; at its end persistent
damage and its flat check, and frightened falling by 1. (Effects of the host's `effect`
verb end at the turn's ends too, in the host's effect book: [4](a), [5](a), [23], [24].)
Delay's moves in the order are delay.py's.
"""

from __future__ import annotations

import re

from host.core import kit
from host.core.interface import IllegalAction
from host.core.names import plain
from host.rulesets.pf2 import delay, harm
from host.rulesets.pf2.encounter_schema import Creature
from host.rulesets.pf2.engine import ACTIONS, Entry, Fighter, Game, fighter

# The first line of a turn begun by start_turn (and a return from Delay).
TURN_LINE = re.compile(r"round \d+, -?\d+: .*'s turn")


def roll_initiative(game: Game, named: dict[int, int] | None = None) -> list[str]:
    """[1][2]: one d20 + the initiative modifier for each creature, one for each group
    (`named`: the modifier of another check the GM names, by a creature's index)."""
    named = named or {}
    lines: list[str] = []
    units = kit.units(game.fighters)
    rolled: list[tuple[int, int, list[Fighter]]] = []
    for place, unit in enumerate(units):
        first = unit[0]
        face = game.dice.draw("initiative", first.index, (20,))[0]
        mod = named.get(first.index, first.spec.initiative)
        total = face + mod
        names = ", ".join(f.name for f in unit)
        lines.append(f"{names}: initiative d20 {face} {mod:+d} = {total}")
        for f in unit:
            f.initiative = total
        rolled.append((total, place, unit))
    # [2] highest first; on a tie an adversary before a character, else the file's order
    # (the players' and the game master's call, made by writing it so)
    rolled.sort(key=lambda r: (-r[0], r[2][0].spec.kind == "character", r[1]))
    game.order = [Entry(total, [f.index for f in unit]) for total, _, unit in rolled]
    for a, b in zip(rolled, rolled[1:], strict=False):
        if a[0] == b[0]:
            lines.append(
                f"tie at {a[0]}: {a[2][0].name} before {b[2][0].name}"
                + (
                    " (an adversary first) [2]"
                    if a[2][0].spec.kind != b[2][0].spec.kind
                    else " (the file's order) [2]"
                )
            )
    return lines


def regain(game: Game, f: Fighter) -> list[str]:
    """[4](c) [19]: 3 actions, 1 more when quickened, less slowed; stunned takes actions
    first (and counts toward slowed) until its value is spent; none while unconscious,
    paralyzed or stunned still."""
    lines: list[str] = []
    f.reaction = True
    f.attacks = 0
    base = ACTIONS + (1 if "quickened" in f.marks else 0)
    slowed = f.values.get("slowed", 0)
    stunned = f.values.get("stunned", 0)
    lost = slowed
    if stunned:
        took = min(stunned, base)
        lost = max(took, slowed)
        left = stunned - took
        if left:
            f.values["stunned"] = left
        else:
            del f.values["stunned"]
        lines.append(f"{f.name} is stunned {stunned}: {took} action(s) lost, stunned {left} [19]")
    f.actions_max = max(0, base - lost)
    if any(m in f.marks for m in ("unconscious", "paralyzed")) or f.values.get("stunned"):
        f.actions_max = 0
        f.reaction = not ("unconscious" in f.marks or f.values.get("stunned"))
    f.actions = f.actions_max
    if f.actions_max != ACTIONS:
        why = []
        if "quickened" in f.marks:
            why.append("quickened +1")
        if slowed:
            why.append(f"slowed {slowed}")
        lines.append(
            f"{f.name} has {f.actions_max} action(s) this turn"
            + (f" ({', '.join(why)})" if why else "")
        )
    return lines


def start_turn(game: Game) -> list[str]:
    """The entry at `game.at` begins its turn [4]."""
    e = game.entry()
    assert e is not None
    names = ", ".join(game.fighters[i].name for i in e.members if game.fighters[i].in_fight)
    lines = [f"round {game.round}, {e.total}: {names}'s turn"]
    for i in e.members:
        f = game.fighters[i]
        if not f.in_fight:
            continue
        if f.readied:  # [21] until the start of its next turn
            lines.append(f"{f.name}'s readied action was not taken and is lost [21]")
            f.readied, f.readied_step = "", -1
        if f.dying:  # [4](b) [14]
            lines += harm.recovery_check(game, f)
            if f.dying and f.hero > 0 and f.in_fight:
                lines.append(f"(`hero {f.label}` spends all its Hero Points: no longer dying [26])")
        if f.in_fight:
            lines += regain(game, f)
    return lines


def end_turn(game: Game, e: Entry | None = None) -> list[str]:
    """[5](b)-(c) as `e`'s turn ends (by default the current entry's)."""
    e = e or game.entry()
    assert e is not None
    lines: list[str] = []
    for i in e.members:
        f = game.fighters[i]
        if not f.in_fight:
            continue
        lines += harm.persistent(game, f)  # (b) [25]
        if f.in_fight and f.values.get("frightened"):  # (c) [19]
            f.values["frightened"] -= 1
            v = f.values["frightened"]
            if not v:
                del f.values["frightened"]
            lines.append(f"{f.name}'s frightened falls to {v} [19]")
        f.actions = 0
    return lines


def advance(game: Game) -> list[str]:
    """End this turn and start the next entry's that has anyone in the fight."""
    lines = end_turn(game)
    lines += move_on(game, game.at + 1)
    return lines + start_turn(game)


def move_on(game: Game, pos: int) -> list[str]:
    """Find the next entry to take a turn from position `pos` on (a new round past the
    last), bringing back a Delay that lasted a whole round at its place (delay.py)."""
    lines: list[str] = []
    for _ in range(2 * (len(game.order) + len(game.delayed)) + 2):
        if pos >= len(game.order):
            game.round += 1
            pos = 0
        lines += delay.lost_turns(game, pos)
        if pos < len(game.order) and takes_a_turn(game, game.order[pos]):
            game.at = pos
            return lines
        pos += 1
    game.at = 0
    return lines


def takes_a_turn(game: Game, e: Entry) -> bool:
    return any(game.fighters[i].in_fight for i in e.members)


def join(game: Game, spec: Creature) -> list[str]:
    """A creature joins the fight under way (the host's `add`): before initiative it rolls
    with the rest; after, it rolls now and takes its place by its total, after the entries
    it ties with; a place this round has passed comes next round."""
    index = len(game.fighters)
    if any(plain(g.name) == plain(spec.name) or g.label == spec.label for g in game.fighters):
        raise IllegalAction(f"{spec.name} ({spec.label}) names a creature already in the fight")
    f = fighter(spec, index)
    game.fighters.append(f)
    if not game.started:
        return [f"{f.name} joins the fight"]
    face = game.dice.draw("initiative", index, (20,))[0]
    total = face + spec.initiative
    f.initiative = total
    at = next((n for n, e in enumerate(game.order) if e.total < total), len(game.order))
    game.order.insert(at, Entry(total, [index]))
    if at <= game.at:
        game.at += 1
    return [f"{f.name} joins the fight: initiative d20 {face} {spec.initiative:+d} = {total}"]
