"""The turn-order machine: ordered slots, the turn unit, phases (or steps) and rounds.

Positions run through `GameState.order` (the host sets it: shared.roster.set_order);
out-of-play slots are skipped. Who takes a turn is the descriptor's turn unit (its turn
flags, docs/state-codec.md): one slot (the default); a group, the consecutive positions
that share a team or an order key (a player's characters), all active at once; or, in
steps, every in-play slot at once in each step (a phase) of the round, where those still
to act in the step are the active slots without F_ACTED. `state.turn` is the position of
the unit's first slot (`state.active`). Passing the last position (or the last step) ends
the round and starts the next one. start_round runs the rules between two rounds, and,
where the descriptor asks (SKIPPED_COOLDOWNS), an out-of-play slot's cooldown phase still
passes when its skipped turn does.

What happens at the two ends of a slot's turn (in steps: as the round starts and ends) is
here too, the rules the state's descriptor states (GameState.rules, shared/descriptor.py):
per counter and per mark, what ticks as its owner's turn starts and ends, so every
ruleset's timing is data and the board runs it alone exactly as the host does. At turn
start, in this order: the allowance refills; marks of one turn clear; draining counters cost
actions or skip the turn; marks that cost an action to clear take it; spending counters
drain the allowance one for one. At turn end: the cooldown phase (what was used this turn
goes on cooldown, the rest steps one off: shared/cooldowns.py); counters step down or clear;
marks clear.
"""

from shared import descriptor  # its rule bits, as attributes: no global for each
from shared.compat import Problem
from shared.limits import MAX_ACTIONS, MAX_COOLDOWNS, NO_SLOT
from shared.state import F_ACTED, F_ACTIVE, F_OUT, MARK0

# The turn unit is bits 4..5 of the descriptor's turn flags (shared/descriptor_pack.py
# names them): & 48 is the unit; 0 one slot, 16 a team, 32 an order key, 48 steps. They are
# written as numbers here: a name costs the board's heap (and the engine's) a qstr.


class TurnError(Problem):
    """A turn-order request that the current state cannot honour (a code and its numbers,
    worded on the host: shared/words.py)."""


def _next_position(state, after):
    """The first in-play position after `after`, or -1 if none is left in this round."""
    for pos in range(after + 1, state.count):
        if state.slots[state.order[pos]].in_play():
            return pos
    return -1


def span(state, pos):
    """The position after the last one of the unit that starts at `pos`: pos + 1 for one
    slot, the end of the order in steps, else past the positions that share pos's key."""
    flags = state.rules.flags & 48
    if flags == 48:  # steps: every slot
        return state.count
    end = pos + 1
    if flags:
        team = flags == 16  # else the order key
        slot = state.slots[state.order[pos]]
        key = slot.team if team else slot.order_key
        while end < state.count:
            slot = state.slots[state.order[end]]
            if (slot.team if team else slot.order_key) != key:
                break
            end += 1
    return end


def start_round(state):
    """Begin the next round (the first one if none has started) at the first in-play slot,
    after the rules of the round that ended and of the one starting (below). Mid-round,
    end_turn is the way on: it runs the active turn's end first."""
    first = _next_position(state, -1)
    if first < 0:
        raise TurnError(1)
    rules = state.rules
    # The rules between two rounds (descriptor version 2; shared/descriptor_pack.py names
    # them, written as numbers here: a name costs the board's and the engine's heap a
    # qstr). First the ended round's, unless this is the first, on every slot: counters
    # ROUND_CLEAR (128) clear and ROUND_STEP_DOWN (64) step one off, marks ROUND_CLEAR (16)
    # clear; then the new round's, on every in-play slot: counters ROUND_FILL (32) fill to
    # their caps, marks ROUND_SET (8) are set, the allowance refills (ROUND_REFILL, 8 of
    # the turn flags).
    clear = F_ACTED | F_ACTIVE | (marks_with(rules, 16) if state.round else 0)
    marks = marks_with(rules, 8)
    for i in range(state.count):
        slot = state.slots[i]
        counters = slot.counters
        playing = slot.in_play()
        for k in range(rules.counters):
            rule = rules.counter_rules[k]
            if rule & 32 and playing:
                counters[k] = rules.caps[k]
            elif not state.round:
                pass
            elif rule & 128:
                counters[k] = 0
            elif rule & 64 and counters[k]:
                counters[k] -= 1
        slot.flags &= ~clear
        if playing:
            slot.flags |= marks
            if rules.flags & 8:
                slot.actions = slot.actions_max if slot.actions_max <= 7 else 7  # MAX_ACTIONS
    state.round += 1
    _begin_turn(state, first)


def _begin_turn(state, pos):
    state.turn = pos
    state.phase = 0
    flags = state.rules.flags & 48  # not 0: a unit of several slots
    for i in range(pos, span(state, pos)):
        slot = state.slots[state.order[i]]
        if slot.in_play():
            slot.flags |= F_ACTIVE
            phase = state.phase
            if turn_start(state, slot) and flags:
                # A skipped slot of a unit of several has done its turn; the rest play on.
                slot.flags |= F_ACTED
                state.phase = phase
    state.touch()


def end_turn(state):
    """Finish the running unit's turn (each active slot's Cooldown Phase and clean-ups) and
    start the next unit's, wrapping to a new round after the last; in steps, go on to the
    next step, and past the last one to a new round. Returns the new active slot."""
    if state.active == NO_SLOT:
        raise TurnError(2)
    if _next_position(state, -1) < 0:
        raise TurnError(1)
    ending = state.turn
    if state.rules.flags & 48 == 48 and state.phase + 1 < state.phase_count:  # steps
        state.phase += 1  # the next step: every active slot has to act again
        for i in range(state.count):
            state.slots[i].flags &= ~F_ACTED
        state.touch()
        return state.active
    end = span(state, ending)
    for i in range(10):  # the details were this turn's (the host fills the next one's)
        state.detail[i] = 0
    for i in range(ending, end):
        slot = state.slots[state.order[i]]
        if i == ending or slot.flags & F_ACTIVE:
            turn_end(state, slot)
            slot.flags = (slot.flags & ~F_ACTIVE) | F_ACTED
    pos = _next_position(state, end - 1)
    if pos < 0:
        start_round(state)
    else:
        _begin_turn(state, pos)
    if state.rules.flags & descriptor.SKIPPED_COOLDOWNS:
        # The out-of-play slots between the turn that ended and the new one lost their
        # turns, but their moves and items keep stepping off cooldown as those turns pass.
        pos = (ending + 1) % state.count
        while pos != state.turn:
            slot = state.slots[state.order[pos]]
            if slot.flags & F_OUT:
                cooldown_phase(slot)
                state.touch()
            pos = (pos + 1) % state.count
    return state.active


def slot_done(state, index):
    """Slot `index`, active and not yet done, has acted (F_ACTED): in a unit of several,
    the others play on until none is left to act, and then the unit ends (end_turn)."""
    slot = state.slots[index]
    if slot.flags & (F_ACTIVE | F_ACTED) != F_ACTIVE:
        raise TurnError(3, index)
    slot.flags |= F_ACTED
    state.touch()
    for i in range(state.turn, span(state, state.turn)):
        if state.slots[state.order[i]].flags & (F_ACTIVE | F_ACTED | F_OUT) == F_ACTIVE:
            return state.active
    return end_turn(state)


def advance_phase(state):
    """Move to the turn's next phase; past the last phase the turn ends. In steps a phase
    is a step: the same as end_turn."""
    if state.active == NO_SLOT:
        raise TurnError(2)
    if state.rules.flags & 48 != 48 and state.phase + 1 < state.phase_count:  # not steps
        state.phase += 1
        state.touch()
    else:
        end_turn(state)
    return state.phase


# -- the two ends of a slot's turn ---------------------------------------------------


def marks_with(rules, rule):
    """The Slot.flags bits of every mark whose rule has any bit of `rule`."""
    bits = 0
    for i in range(rules.marks):
        if rules.mark_rules[i] & rule:
            bits |= MARK0 << i
    return bits


def turn_start(state, slot):
    """Start `slot`'s turn by the rules. A skipped turn (a draining counter at or above the
    allowance) leaves no actions, jumps to the last phase and returns True."""
    rules = state.rules
    counters = slot.counters
    if rules.flags & descriptor.REFILL:
        slot.actions = slot.actions_max if slot.actions_max <= MAX_ACTIONS else MAX_ACTIONS
    # The marks that clear at the turn's start, one by one: marks_with would be one call
    # level more on the board's deepest path (a new round's first turn, under a press).
    for i in range(rules.marks):
        if rules.mark_rules[i] & descriptor.M_CLEAR_AT_START:
            slot.flags &= ~(MARK0 << i)
    for i in range(rules.counters):
        if rules.counter_rules[i] & descriptor.C_DRAIN and counters[i]:
            if counters[i] >= slot.actions:
                slot.flags |= MARK0 << rules.counter_marks[i]
                slot.actions = 0
                state.phase = state.phase_count - 1
                return True  # skipped: nothing else costs an action
            slot.actions -= counters[i]
    for i in range(rules.marks):
        if rules.mark_rules[i] & descriptor.M_GET_UP and slot.flags & MARK0 << i:
            slot.flags &= ~(MARK0 << i)
            if slot.actions:
                slot.actions -= 1
    for i in range(rules.counters):
        spent = counters[i] if counters[i] < slot.actions else slot.actions
        if rules.counter_rules[i] & descriptor.C_SPEND and not slot.flags & rules.guards[i] * MARK0:
            slot.actions -= spent
            counters[i] -= spent
    return False


def turn_end(state, slot):
    """End `slot`'s turn by the rules: its cooldown phase and the clean-ups."""
    rules = state.rules
    counters = slot.counters
    if rules.flags & descriptor.COOLDOWN_PHASE:
        cooldown_phase(slot)
    for i in range(rules.counters):
        rule = rules.counter_rules[i]
        if rule & descriptor.C_CLEAR_AT_END:
            counters[i] = 0
        elif rule & descriptor.C_CLEAR_IF_SKIPPED and slot.flags & MARK0 << rules.counter_marks[i]:
            counters[i] = 0
        elif rule & descriptor.C_STEP_DOWN and counters[i]:
            counters[i] -= 1
    slot.flags &= ~marks_with(rules, descriptor.M_CLEAR_AT_END | descriptor.M_CLEAR_AT_START)


def cooldown_phase(slot):
    """The owner's Cooldown Phase: what was used this turn goes on cooldown, and what was
    already on cooldown steps one off (a timer that reaches 0 frees its place)."""
    for i in range(MAX_COOLDOWNS):
        if slot.cd_id[i] == 0:
            continue
        bit = 1 << i
        if slot.cd_pending & bit:
            slot.cd_pending &= ~bit
        elif slot.cd_left[i] > 1:
            slot.cd_left[i] -= 1
        else:
            slot.cd_id[i] = 0
            slot.cd_left[i] = 0
