"""The moments effects tick at, for any ruleset and any turn unit, read from the board's
projection of a game (`Ruleset.state`): who is taking the turn, and the turns and rounds an
action passed from one view to the next.

A `TurnView` is what the turn machine (shared/turns.py) says of a game at one moment: the
round, the position in the order of the running unit's first slot (`state.turn`), the
names of the unit's fighters (every position of its span, `shared.turns.span`: one slot,
a team, an order key, or in steps the whole order, whose turn is the round), the order by
name, and who is out of play. Fighters are named by `Ruleset.fighter_names`, never by
slot: a fighter may join mid-fight and the slots move.

`moments(before, after)` is the list of what happened between two views, in order:

- `("end", name, real)` for each fighter of the unit that was running (real: in play; a
  fighter out of play in that unit, or passed over by the order, has its turn *as if* it
  came, so "until the start of Vex's next turn" ends when that turn would have come);
- `("start", name, False)` and `("end", name, False)` for each fighter the order passed
  over (out of play, skipped), at its place in the order;
- `("round", n)` as round n begins;
- `("turn", round, position)` as a unit's turn begins, then `("start", name, real)` for
  each of its fighters.

Between two views of the same round and position nothing happened. A ruleset that runs
several units' turns inside one action says which (`Ruleset.passed_turns`, points of
(round, position)): they are taken in order between the two views, named by the later
view's order (one fighter at each: the fighter at that position).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared.state import F_OUT
from shared.turns import span

# ("end" | "start", name, real) | ("round", n) | ("turn", round, position)
Moment = tuple[Any, ...]


@dataclass
class TurnView:
    """A game's turn as the effects read it (see the module's docstring)."""

    round: int
    turn: int
    unit: tuple[str, ...]  # the running unit's fighters, in order (empty before round 1)
    order: tuple[str, ...]  # every fighter by its position in the order
    out: tuple[str, ...]  # the fighters out of play
    unit_end: int = 0  # the position after the unit's last

    def point(self) -> tuple[int, int]:
        return (self.round, self.turn)

    def in_turn(self, name: str) -> bool:
        """Whether `name` is taking its turn now (in steps: whether a round is running)."""
        return self.round > 0 and name in self.unit


def view(ruleset: Any, game: Any) -> TurnView:
    """The turn of `game` as its ruleset projects it now."""
    state = ruleset.state(game)
    names = list(ruleset.fighter_names(game))
    count = state.count

    def name(slot: int) -> str:
        return names[slot] if slot < len(names) else state.slots[slot].label

    order = tuple(name(state.order[p]) for p in range(count))
    out = tuple(sorted(name(i) for i in range(count) if state.slots[i].flags & F_OUT))
    if state.round == 0 or count == 0 or not 0 <= state.turn < count:
        return TurnView(state.round, state.turn, (), order, out, state.turn)
    end = span(state, state.turn)
    return TurnView(state.round, state.turn, order[state.turn : end], order, out, end)


def moments(
    before: TurnView, after: TurnView, passed: Sequence[tuple[int, int]] = ()
) -> list[Moment]:
    """What happened between two views of a game, in order (the module's docstring)."""
    if before.point() == after.point() and not passed:
        return []
    if after.round == 0:
        return []  # (a game taken back before its first round: nothing ticks)
    out: list[Moment] = []
    views = [_between(after, point) for point in passed] + [after]
    last = before
    for nxt in views:
        if nxt.point() != last.point():
            out += _step(last, nxt)
            last = nxt
    return out


def _between(after: TurnView, point: tuple[int, int]) -> TurnView:
    """A view of a turn a ruleset passed inside one action: the fighter at its position in
    the later view's order."""
    rnd, pos = point
    unit = after.order[pos : pos + 1] if pos >= 0 else ()
    return TurnView(rnd, pos, unit, after.order, after.out, pos + 1)


def _step(before: TurnView, after: TurnView) -> list[Moment]:
    out: list[Moment] = []
    if before.round > 0:
        out += [("end", n, n not in before.out) for n in before.unit]
        if after.round == before.round:
            out += _passed(before.order[before.unit_end : after.turn])
        else:
            out += _passed(before.order[before.unit_end :])
    first = before.round + 1 if after.round != before.round else after.round
    for rnd in range(first, after.round):  # whole rounds passed inside one action
        out.append(("round", rnd))
        out += _passed(after.order)
    if after.round != before.round:
        out.append(("round", after.round))
        out += _passed(after.order[: after.turn])
    out.append(("turn", after.round, after.turn))
    out += [("start", n, n not in after.out) for n in after.unit]
    return out


def _passed(names: Sequence[str]) -> list[Moment]:
    """The turns of fighters the order passed over: each as if it came and went."""
    out: list[Moment] = []
    for n in names:
        out += [("start", n, False), ("end", n, False)]
    return out
