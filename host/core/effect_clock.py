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

- `("end", name, real)` for each fighter of the unit that was running (real: in play at
  its end; whoever counts turns counts only the end of a turn it saw start);
- `("passed", name, round)` for each fighter out of play whose turn the order passed over
  in that round (or who stood out of play in the unit that begins): its turn counts *as
  if* it came and went, so "until the start of Vex's next turn" ends when that turn
  would have come though Vex is out of the fight. Whoever counts turns counts one such
  turn a round at most (an order sorted again mid-round may pass a fighter twice);
- `("round", n)` as round n begins;
- `("turn", round, position)` as a unit's turn begins, then `("start", name, round)` for
  each of its fighters in play.

Between two views of the same round and position nothing happened. A ruleset that runs
several units' turns inside one action says which (`Ruleset.passed_turns`, points of
(round, position)): they are taken in order between the two views, named by the later
view's order (one fighter at each: the fighter at that position).

That is the clock of a ruleset that reports nothing: the turn pointer is the turn. A
ruleset whose turns stop and come back (a held action, an interrupt, a readied action,
pf2's Delay) reports its turn moments instead (`Ruleset.turn_moments`: TURN_MOMENTS), and
`reported(before, after, said)` makes them the moments above, with four more:

- `("suspend", name)`: its turn stops before its end (held, interrupted, delaying); nothing
  is counted, and its end is still to come;
- `("resume", name)`: its stopped turn goes on (no new start);
- `("leave", name)`: it steps out of the order (pf2 Delay [22]): no turn of it is counted
  or passed over until it rejoins, and what waits for its turns waits on (it has not left
  the fight); a running turn of it is suspended;
- `("rejoin", name)`: it is back in the order; the turn it takes there is reported as a
  start or a resume.

A reported start is preceded by `("turn", round, position)` (its position in the later
view's order, for `rounds=N`); a round the views show begun that no reported
`("round", n)` said is put before the first start (else after the rest).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared.state import F_OUT
from shared.turns import span

# ("end" | "start", name, real) | ("round", n) | ("turn", round, position), and from a
# ruleset's report ("suspend" | "resume" | "leave" | "rejoin", name)
Moment = tuple[Any, ...]
# What `Ruleset.turn_moments` reports, each with a fighter's name (`Ruleset.fighter_names`),
# but "round" with the round's number.
TURN_MOMENTS = ("start", "end", "suspend", "resume", "leave", "rejoin", "passed", "round")


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
    names = ruleset.fighter_names(game)
    count = state.count
    slots = state.slots
    # Each slot's name (its label past the named fighters), made once: a view is made
    # after every action, replayed ones too.
    known = len(names)
    named = (
        names
        if known >= count
        else [names[i] if i < known else slots[i].label for i in range(count)]
    )
    order = tuple([named[slot] for slot in state.order[:count]])
    out = tuple(sorted([named[i] for i in range(count) if slots[i].flags & F_OUT]))
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
    same_round = after.round == before.round
    if before.round > 0:
        out += [("end", n, n not in before.out) for n in before.unit]
        skipped = before.order[before.unit_end : after.turn if same_round else None]
        out += _passed(skipped, before.round, set(before.out) | set(after.out))
    first = before.round + 1 if not same_round else after.round
    for rnd in range(first, after.round):  # whole rounds passed inside one action
        out.append(("round", rnd))
        out += _passed(after.order, rnd, None)
    if not same_round:
        out.append(("round", after.round))
        out += _passed(after.order[: after.turn], after.round, set(after.out))
    out.append(("turn", after.round, after.turn))
    out += _passed(after.unit, after.round, set(after.out))
    out += [("start", n, after.round) for n in after.unit if n not in after.out]
    return out


def _passed(names: Sequence[str], rnd: int, out_of_play: set[str] | None) -> list[Moment]:
    """The turns of round `rnd` the order passed over: of the fighters out of play among
    `names` (None: of all of them, a round an action ran through whole)."""
    return [("passed", n, rnd) for n in names if out_of_play is None or n in out_of_play]


def reported(before: TurnView, after: TurnView, said: Sequence[tuple[str, Any]]) -> list[Moment]:
    """The moments of a ruleset's report of one action (`Ruleset.turn_moments`), in the
    clock's words (the module's docstring); ValueError for a moment it does not know."""
    out: list[Moment] = []
    rnd = before.round
    rounds_said = any(kind == "round" for kind, _ in said)
    for kind, who in said:
        if kind not in TURN_MOMENTS:
            raise ValueError(f"no turn moment {kind!r} ({', '.join(TURN_MOMENTS)})")
        if kind == "start" and not rounds_said and rnd < after.round:
            out += [("round", n) for n in range(rnd + 1, after.round + 1)]
            rnd = after.round
        if kind == "round":
            rnd = int(who)
            out.append(("round", rnd))
        elif kind == "start":
            pos = after.order.index(who) if who in after.order else after.turn
            out += [("turn", rnd, pos), ("start", who, rnd)]
        elif kind == "end":
            out.append(("end", who, who not in after.out))
        elif kind == "passed":
            out.append(("passed", who, rnd))
        else:
            out.append((kind, who))
    if not rounds_said and rnd < after.round:
        out += [("round", n) for n in range(rnd + 1, after.round + 1)]
    return out
