"""What happens at the two ends of a turn: the rules the state's descriptor states.

The descriptor (GameState.rules, shared/descriptor.py) says, per counter and per mark, what
ticks as its owner's turn starts and ends; one routine here runs them, so every ruleset's
timing is data and the board runs it alone exactly as the host does. At turn start, in this
order: the allowance refills; marks of one turn clear; draining counters cost actions or
skip the turn; marks that cost an action to clear take it; spending counters drain the
allowance one for one. At turn end: the cooldown phase (what was used this turn goes on
cooldown, the rest steps one off: shared/cooldowns.py); counters step down or clear; marks
clear.
"""

from shared.descriptor import (
    C_CLEAR_AT_END,
    C_CLEAR_IF_SKIPPED,
    C_DRAIN,
    C_SPEND,
    C_STEP_DOWN,
    COOLDOWN_PHASE,
    M_CLEAR_AT_END,
    M_CLEAR_AT_START,
    M_GET_UP,
    REFILL,
)
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
    allowance) leaves no actions and jumps to the last phase."""
    rules = state.rules
    counters = slot.counters
    if rules.flags & REFILL:
        slot.actions = slot.actions_max if slot.actions_max <= MAX_ACTIONS else MAX_ACTIONS
    slot.flags &= ~marks_with(rules, M_CLEAR_AT_START)
    for i in range(rules.counters):
        if rules.counter_rules[i] & C_DRAIN and counters[i]:
            if counters[i] >= slot.actions:
                slot.flags |= MARK0 << rules.counter_marks[i]
                slot.actions = 0
                state.phase = state.phase_count - 1
                return  # skipped: nothing else costs an action
            slot.actions -= counters[i]
    for i in range(rules.marks):
        if rules.mark_rules[i] & M_GET_UP and slot.flags & MARK0 << i:
            slot.flags &= ~(MARK0 << i)
            if slot.actions:
                slot.actions -= 1
    for i in range(rules.counters):
        spent = counters[i] if counters[i] < slot.actions else slot.actions
        if rules.counter_rules[i] & C_SPEND and not slot.flags & rules.guards[i] * MARK0:
            slot.actions -= spent
            counters[i] -= spent


def turn_end(state, slot):
    """End `slot`'s turn by the rules: its cooldown phase and the clean-ups."""
    rules = state.rules
    counters = slot.counters
    if rules.flags & COOLDOWN_PHASE:
        cooldown_phase(slot)
    for i in range(rules.counters):
        rule = rules.counter_rules[i]
        if rule & C_CLEAR_AT_END:
            counters[i] = 0
        elif rule & C_CLEAR_IF_SKIPPED and slot.flags & MARK0 << rules.counter_marks[i]:
            counters[i] = 0
        elif rule & C_STEP_DOWN and counters[i]:
            counters[i] -= 1
    slot.flags &= ~marks_with(rules, M_CLEAR_AT_END | M_CLEAR_AT_START)


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
