"""The turn-order machine: ordered slots, the active turn, phases and rounds.

Positions run through `GameState.order`; out-of-play slots are skipped; passing the last
position wraps to a new round. The timing rules in `shared.timing` run at each turn's ends.
"""

from shared import timing
from shared.limits import NO_SLOT
from shared.state import F_ACTED, F_ACTIVE


class TurnError(ValueError):
    """A turn-order request that the current state cannot honour."""


def set_order(state, slot_indexes, reasons=None):
    """Set the turn order from a sequence holding every slot index once. A turn that is
    running stays with its slot, wherever the new order puts it."""
    n = state.count
    if len(slot_indexes) != n:
        raise TurnError("the order names %d slots, the table has %d" % (len(slot_indexes), n))
    seen = 0
    for i in range(n):
        index = slot_indexes[i]
        if not 0 <= index < n or seen & (1 << index):
            raise TurnError("the order must name each slot 0..%d exactly once" % (n - 1))
        seen |= 1 << index
    active = state.active
    for i in range(n):
        state.order[i] = slot_indexes[i]
        state.order_reason[i] = reasons[i] if reasons is not None else 0
        if state.order[i] == active:
            state.turn = i
    state.touch()


def _next_position(state, after):
    """The first in-play position after `after`, or -1 if none is left in this round."""
    for pos in range(after + 1, state.count):
        if state.slots[state.order[pos]].in_play():
            return pos
    return -1


def start_round(state):
    """Begin the next round (the first one if none has started) at the first in-play slot.
    Mid-round, end_turn is the way on: it runs the active turn's end first."""
    first = _next_position(state, -1)
    if first < 0:
        raise TurnError("no slot is in play")
    for i in range(state.count):
        state.slots[i].flags &= ~(F_ACTED | F_ACTIVE)
    state.round += 1
    _begin_turn(state, first)


def _begin_turn(state, pos):
    state.turn = pos
    state.phase = 0
    slot = state.slots[state.order[pos]]
    slot.flags |= F_ACTIVE
    timing.turn_start(state, slot)
    state.touch()


def end_turn(state):
    """Finish the active turn (its Cooldown Phase and clean-ups) and start the next one,
    wrapping to a new round after the last in-play slot. Returns the new active slot."""
    if state.active == NO_SLOT:
        raise TurnError("no turn is running: start a round first")
    if _next_position(state, -1) < 0:
        raise TurnError("no slot is in play")
    slot = state.slots[state.active]
    timing.turn_end(state, slot)
    slot.flags = (slot.flags & ~F_ACTIVE) | F_ACTED
    pos = _next_position(state, state.turn)
    if pos < 0:
        start_round(state)
    else:
        _begin_turn(state, pos)
    return state.active


def advance_phase(state):
    """Move to the turn's next phase; past the last phase the turn ends."""
    if state.active == NO_SLOT:
        raise TurnError("no turn is running: start a round first")
    if state.phase + 1 < state.phase_count:
        state.phase += 1
        state.touch()
    else:
        end_turn(state)
    return state.phase
