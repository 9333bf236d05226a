"""The d20 initiative order and the two ends of a turn (d20-srd-combat.txt [1]-[7], [15],
[26]-[28]): rolling initiative once for each creature or group and breaking ties as the
encounter's `ties` option says, the lair's place on count 20, and what happens as a turn
ends (saves against effects, effects that run out, surprise over) and as the next one
starts (reactions, actions and movement back, legendary actions regained, readied actions
lost, a used action with a recharge rolled for, a dying character's death save).
"""

from __future__ import annotations

import re

from host.core import kit
from host.core.interface import IllegalAction
from host.core.names import plain
from host.rulesets.d20 import conditions, harm
from host.rulesets.d20.encounter_schema import Creature
from host.rulesets.d20.engine import Entry, Fighter, Game, arrives

LAIR_COUNT = 20  # [28]


def roll_initiative(game: Game, surprised: set[int]) -> list[str]:
    """[1][2][3]: one d20 for each creature, one for each group of identical creatures."""
    lines: list[str] = []
    for f in game.fighters:
        if f.in_fight:
            f.surprised = f.index in surprised
    units = kit.units(game.fighters)
    rolled: list[tuple[int, list[Fighter]]] = []
    for unit in units:
        first = unit[0]
        face = game.dice.draw("initiative", first.index, (20,))[0]
        total = face + first.spec.initiative
        names = ", ".join(f.name for f in unit)
        lines.append(f"{names}: initiative d20 {face} {first.spec.initiative:+d} = {total}")
        for f in unit:
            f.initiative = total
        rolled.append((total, unit))
    game.order = _ordered(game, rolled, lines)
    for f in game.fighters:
        if f.surprised:
            lines.append(f"{f.name} is surprised: no move or action on its first turn [1]")
    return lines


def _ordered(game: Game, rolled: list[tuple[int, list[Fighter]]], lines: list[str]) -> list[Entry]:
    """Entries from the highest total down; ties as the `ties` option says: `gm`, the
    file's order (the game master and the players decide by writing it so); `roll`, a d20
    for each tied entry, again among those still tied; `dex`, the higher Dexterity modifier
    first, then the file's order."""
    by_total: dict[int, list[list[Fighter]]] = {}
    for total, unit in rolled:
        by_total.setdefault(total, []).append(unit)
    entries: list[Entry] = []
    for total in sorted(by_total, reverse=True):
        tied = by_total[total]
        if len(tied) > 1:
            tied = _break_tie(game, tied, lines)
        for place, unit in enumerate(tied):
            entries.append(Entry(total, (-total, 0, place), [f.index for f in unit]))
    owners = [f for f in game.fighters if f.spec.lair is not None and f.in_fight]
    for place, owner in enumerate(owners):  # each lair, in the file's order, on count 20
        entries.append(Entry(LAIR_COUNT, (-LAIR_COUNT, 1, place), [], owner.index))
    entries.sort(key=lambda e: e.rank)
    return entries


def _break_tie(game: Game, tied: list[list[Fighter]], lines: list[str]) -> list[list[Fighter]]:
    names = " and ".join(u[0].name for u in tied)
    rule = game.options.ties
    if rule == "dex":
        lines.append(f"tie between {names}: the higher Dexterity goes first")
        return sorted(tied, key=lambda u: -u[0].spec.dex)
    if rule == "gm":
        lines.append(f"tie between {names}: in the encounter's order (the GM's and players' call)")
        return tied
    return _roll_off(game, tied, lines, 0)


def _roll_off(
    game: Game, tied: list[list[Fighter]], lines: list[str], depth: int
) -> list[list[Fighter]]:
    """[3]'s optional roll-off: a d20 for each tied entry, the highest first; those that
    tie again roll again among themselves (never with the ones they beat or lost to)."""
    if len(tied) <= 1 or depth >= 100:  # (100 ties in a row: the file's order)
        return tied
    faces = [game.dice.draw("tie", u[0].index, (20,))[0] for u in tied]
    said = ", ".join(f"{u[0].name} {face}" for u, face in zip(tied, faces, strict=True))
    lines.append(f"tie roll-off: {said}")
    out: list[list[Fighter]] = []
    for face in sorted(set(faces), reverse=True):
        again = [u for u, f in zip(tied, faces, strict=True) if f == face]
        out += _roll_off(game, again, lines, depth + 1)
    return out


# The first line of a turn begun by start_turn: an entry's, or a lair's on count 20.
TURN_LINE = re.compile(r"round \d+, -?\d+: .*'s turn|initiative count 20: ")


def start_turn(game: Game) -> list[str]:
    """The entry at `game.at` begins its turn [5][7][15][26][27]."""
    e = game.entry()
    assert e is not None
    game.legendary_now = []
    lines: list[str] = []  # (what ends as a turn starts: the host's effect book)
    if e.lair_of >= 0:
        game.lair_used = False
        owner = game.fighters[e.lair_of]
        return lines + [f"initiative count 20: {owner.name}'s lair may act (`lair`)"]
    # A group's turn names those still in the fight (its dead and fled take no part).
    names = ", ".join(game.fighters[i].name for i in e.members if game.fighters[i].in_fight)
    lines.append(f"round {game.round}, {e.total}: {names}'s turn")
    for i in e.members:
        f = game.fighters[i]
        f.reaction = True
        f.action = f.bonus = True
        f.movement = f.spec.speed
        if f.readied:
            lines.append(f"{f.name}'s readied action was not taken and is lost")
            f.readied = ""
        f.legendary_left = f.spec.legendary
        lines += recharge(game, f)
        if f.dying and f.spec.kind == "character":
            lines += harm.death_save(game, f)
        elif f.in_fight and conditions.incapacitated(game, i):
            lines.append(f"{f.name} is incapacitated: its turn comes, with no action [6]")
    return lines


def recharge(game: Game, f: Fighter) -> list[str]:
    """An action marked "Recharge N-6" that was used comes back on a d6 of N or more,
    rolled as the creature's turn starts [4] (the SRD's stat blocks)."""
    lines: list[str] = []
    if not f.in_fight:
        return lines
    for name in list(f.recharging):
        power = next(p for p in f.spec.actions if p.name == name)
        face = game.dice.draw("recharge", f.index, (6,))[0]
        if face >= power.recharge:
            f.recharging.remove(name)
            lines.append(f"{f.name}'s {name} recharges: d6 {face} (needs {power.recharge}+)")
        else:
            lines.append(
                f"{f.name}'s {name} does not recharge: d6 {face} (needs {power.recharge}+)"
            )
    return lines


def end_turn(game: Game) -> list[str]:
    """The current entry's turn ends: effects that end now, saves against `save` effects,
    surprise over [1][26]."""
    e = game.entry()
    assert e is not None
    lines: list[str] = []
    for effect in conditions.saves_at_turn_end(game, e):
        f = game.fighters[effect.target]
        if not f.in_fight or effect not in game.effects:
            continue
        ok, line = harm.saving_throw(game, f, effect.save, effect.dc)
        lines.append(line)
        if ok:
            lines.append(conditions.end(game, effect, ""))
    for i in e.members:
        game.fighters[i].surprised = False
    return lines


def advance(game: Game) -> list[str]:
    """End this turn and start the next entry's that has anyone in the fight (a lair, while
    its owner is); past the last, a new round."""
    lines = end_turn(game)
    for _ in range(len(game.order) + 1):
        game.at += 1
        if game.at >= len(game.order):
            game.at = 0
            game.round += 1
        if game.order[game.at].lair_of >= 0:  # count 20 comes, a lair acting on it or not
            lines += conditions.count_20(game)
        if takes_a_turn(game, game.order[game.at]):
            break
    return lines + start_turn(game)


def takes_a_turn(game: Game, e: Entry) -> bool:
    """[6]: anyone still in the fight keeps its turn, dying or incapacitated; the dead and
    the fled do not."""
    if e.lair_of >= 0:
        return game.fighters[e.lair_of].in_fight
    return any(game.fighters[i].in_fight for i in e.members)


def join(game: Game, spec: Creature) -> list[str]:
    """A creature joins the fight under way (the host's `add`, from a `[[template]]` or a
    stat line read as the file's creatures are): before initiative it rolls with the rest;
    after, it rolls its own initiative now and takes its place in the order by its total,
    after the entries it ties with; a place this round has passed comes next round."""
    index = len(game.fighters)
    if any(plain(g.name) == plain(spec.name) or g.label == spec.label for g in game.fighters):
        raise IllegalAction(f"{spec.name} ({spec.label}) names a creature already in the fight")
    f = Fighter(spec, index, spec.hp)
    f.movement = spec.speed
    f.legendary_left = spec.legendary
    game.fighters.append(f)
    arrives(game, f)
    conditions.lasting(game, index)
    if not game.started:
        return [f"{f.name} joins the fight"]
    face = game.dice.draw("initiative", index, (20,))[0]
    total = face + spec.initiative
    f.initiative = total
    place = 1 + max((e.rank[2] for e in game.order if e.total == total and e.members), default=-1)
    entry = Entry(total, (-total, 0, place), [index])
    at = next((n for n, e in enumerate(game.order) if e.rank > entry.rank), len(game.order))
    game.order.insert(at, entry)
    if at <= game.at:
        game.at += 1
    return [f"{f.name} joins the fight: initiative d20 {face} {spec.initiative:+d} = {total}"]
