"""Delay (pf2-combat.txt [22]), kept apart: a creature leaves the initiative order as its
turn begins, takes then the harm of its turn's end, and comes back at the end of another
creature's turn, right after it for good; a Delay that lasts a whole round loses its turn,
and the creature acts at its old place the next round.

The host's effect book reads turns from the board's order (host/core/effect_clock.py),
which has no moment for "left the order" or "came back": device.py shows a delayed
creature after everyone else, so that its return right after the creature whose turn
just ended is seen as that turn's end and its own start; its leaving is told to the clock
by the moments of its turn (`Game.moments`, `Ruleset.turn_moments`: the delayer's end,
as [22] wants, and the next entry's start). This module is the one place that reports them.
"""

from __future__ import annotations

from host.core.interface import IllegalAction
from host.rulesets.pf2 import harm
from host.rulesets.pf2.engine import Delayed, Entry, Fighter, Game


def whose(game: Game) -> str:
    e = game.entry()
    return (
        "nobody's" if e is None else " and ".join(game.fighters[i].name for i in e.members) + "'s"
    )


def delay(game: Game, f: Fighter) -> list[str]:
    """`f` Delays: its whole entry leaves the order (a group Delays together)."""
    e = game.entry()
    if e is None or f.index not in e.members:
        raise IllegalAction(
            f"{f.name} may Delay only as its own turn begins [22]: it is {whose(game)} turn"
        )
    members = [game.fighters[i] for i in e.members]
    if any(m.actions < m.actions_max or m.attacks for m in members):
        raise IllegalAction(f"{f.name} has acted this turn: Delay comes before any action [22]")
    if sum(1 for x in game.order if any(game.fighters[i].in_fight for i in x.members)) < 2:
        raise IllegalAction(f"{f.name} is the only one left in the order: nobody to Delay for")
    lines = [f"{', '.join(m.name for m in members)} Delays: out of the order until it returns [22]"]
    for m in members:  # the harm of its turn's end happens now [22]
        lines += harm.persistent(game, m)
    lines.append(
        "(its turn's end comes now for its effects, helpful or not: `effect` puts back"
        " a harmful one [22])"
    )
    after = game.order[game.at - 1].members[0] if game.at > 0 else -1
    game.order.pop(game.at)
    game.delayed.append(Delayed(e, game.round, after))
    return lines


def moments(game: Game, left: Entry, was: int, pos: int) -> list[tuple[str, str]] | None:
    """[22] the turn moments of a Delay for the effect clock: the delayer's turn ends, the
    entries the order passed over (out of the fight) are passed, the next one starts. The
    board's order shows the delayer last, so read alone it would see that turn end twice,
    or not at all (the next entry standing where the delayer stood). Past the round's
    end, the order alone reads it right: None."""
    if game.round != was:
        return None
    said = [("end", game.fighters[i].name) for i in left.members]
    for e in game.order[pos : game.at]:
        said += [("passed", game.fighters[i].name) for i in e.members]
    entry = game.entry()
    if entry is not None:
        said += [("start", game.fighters[i].name) for i in entry.members]
    return said


def back(game: Game, f: Fighter) -> list[str]:
    """`f` returns at the end of the current turn: it goes right after that creature, for
    good, and takes its turn now with the actions it had (its turn's start is past)."""
    d = next((d for d in game.delayed if f.index in d.entry.members), None)
    if d is None:
        raise IllegalAction(f"{f.name} is not delaying (`delay {f.label}` as its turn begins)")
    e = game.entry()
    assert e is not None
    name = ", ".join(game.fighters[i].name for i in e.members)
    game.delayed.remove(d)
    game.order.insert(game.at + 1, d.entry)
    game.at += 1
    who = ", ".join(game.fighters[i].name for i in d.entry.members)
    return [
        f"round {game.round}, {d.entry.total}: {who}'s turn: back from Delay after {name}'s,"
        f" its place in the order from now on [22]"
    ]


def lost_turns(game: Game, pos: int) -> list[str]:
    """As the order reaches position `pos` of a later round than a Delay began, a creature
    delayed from that place has lost its delayed turn and acts there again [22]."""
    lines: list[str] = []
    firsts = [e.members[0] for e in game.order]
    for d in list(game.delayed):
        if d.since >= game.round:
            continue
        after = d.after if d.after in firsts else -1
        before = game.order[pos - 1].members[0] if pos > 0 else -1
        if after != before:
            continue
        game.delayed.remove(d)
        game.order.insert(pos, d.entry)
        firsts.insert(pos, d.entry.members[0])
        who = ", ".join(game.fighters[i].name for i in d.entry.members)
        lines.append(f"{who} delayed a whole round: that turn is lost; it acts at its place [22]")
    return lines


def can_react(game: Game, f: Fighter) -> bool:
    """[22]: no reactions while delayed."""
    return not game.is_delayed(f)


def entries(game: Game) -> list[Entry]:
    """The delayed entries, in the order they left."""
    return [d.entry for d in game.delayed]
