"""The turn-order machine: ordered slots, the active turn, phases and rounds.

Positions run through `GameState.order` (the host sets it: shared.roster.set_order);
out-of-play slots are skipped; passing the last
position wraps to a new round. The timing rules in `shared.timing` run at each turn's ends,
and, where the descriptor asks (SKIPPED_COOLDOWNS), an out-of-play slot's cooldown phase
still passes when its skipped turn does.
"""

from shared import timing
from shared.descriptor import SKIPPED_COOLDOWNS
from shared.limits import NO_SLOT
from shared.state import F_ACTED, F_ACTIVE, F_OUT


class TurnError(ValueError):
    """A turn-order request that the current state cannot honour."""


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
    ending = state.turn
    pos = _next_position(state, ending)
    if pos < 0:
        start_round(state)
    else:
        _begin_turn(state, pos)
    if state.rules.flags & SKIPPED_COOLDOWNS:
        # The out-of-play slots between the turn that ended and the new one lost their
        # turns, but their moves and items keep stepping off cooldown as those turns pass.
        pos = (ending + 1) % state.count
        while pos != state.turn:
            slot = state.slots[state.order[pos]]
            if slot.flags & F_OUT:
                timing.cooldown_phase(slot)
                state.touch()
            pos = (pos + 1) % state.count
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
