"""What happens at the two ends of a turn and of a round: the rules the state's descriptor
states.

The descriptor (GameState.rules, shared/descriptor.py) says, per counter and per mark, what
ticks as its owner's turn starts and ends, and as a round starts and ends; the routines
here run them (shared/turns.py calls them), so every ruleset's
timing is data and the board runs it alone exactly as the host does. At turn start, in this
order: the allowance refills; marks of one turn clear; draining counters cost actions or
skip the turn; marks that cost an action to clear take it; spending counters drain the
allowance one for one. At turn end: the cooldown phase (what was used this turn goes on
cooldown, the rest steps one off: shared/cooldowns.py); counters step down or clear; marks
clear. The rules between two rounds are shared.turns.start_round's (as the next round
starts).
"""

from shared import descriptor  # its rule bits, as attributes: no global for each
from shared.limits import MAX_ACTIONS, MAX_COOLDOWNS
from shared.state import MARK0


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
    slot.flags &= ~marks_with(rules, descriptor.M_CLEAR_AT_START)
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
