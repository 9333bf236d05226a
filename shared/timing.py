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
clear. Between two rounds (new_round, as the next one starts; before the first, only its
start): for every slot, the ended round's counters step down or clear and its marks clear;
for every in-play slot, the allowance refills (ROUND_REFILL), counters fill to their caps,
marks are set.
"""

from shared import descriptor as d  # its rule bits, read as d.X: no global for each
from shared.compat import const
from shared.limits import MAX_ACTIONS, MAX_COOLDOWNS
from shared.state import MARK0

# Version 2's round rules (shared/descriptor_pack.py names them).
_ROUND_REFILL = const(8)  # turn flag
_C_ROUND_FILL = const(32)
_C_ROUND_STEP_DOWN = const(64)
_C_ROUND_CLEAR = const(128)
_M_ROUND_SET = const(8)
_M_ROUND_CLEAR = const(16)


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
    if rules.flags & d.REFILL:
        slot.actions = slot.actions_max if slot.actions_max <= MAX_ACTIONS else MAX_ACTIONS
    slot.flags &= ~marks_with(rules, d.M_CLEAR_AT_START)
    for i in range(rules.counters):
        if rules.counter_rules[i] & d.C_DRAIN and counters[i]:
            if counters[i] >= slot.actions:
                slot.flags |= MARK0 << rules.counter_marks[i]
                slot.actions = 0
                state.phase = state.phase_count - 1
                return True  # skipped: nothing else costs an action
            slot.actions -= counters[i]
    for i in range(rules.marks):
        if rules.mark_rules[i] & d.M_GET_UP and slot.flags & MARK0 << i:
            slot.flags &= ~(MARK0 << i)
            if slot.actions:
                slot.actions -= 1
    for i in range(rules.counters):
        spent = counters[i] if counters[i] < slot.actions else slot.actions
        if rules.counter_rules[i] & d.C_SPEND and not slot.flags & rules.guards[i] * MARK0:
            slot.actions -= spent
            counters[i] -= spent
    return False


def turn_end(state, slot):
    """End `slot`'s turn by the rules: its cooldown phase and the clean-ups."""
    rules = state.rules
    counters = slot.counters
    if rules.flags & d.COOLDOWN_PHASE:
        cooldown_phase(slot)
    for i in range(rules.counters):
        rule = rules.counter_rules[i]
        if rule & d.C_CLEAR_AT_END:
            counters[i] = 0
        elif rule & d.C_CLEAR_IF_SKIPPED and slot.flags & MARK0 << rules.counter_marks[i]:
            counters[i] = 0
        elif rule & d.C_STEP_DOWN and counters[i]:
            counters[i] -= 1
    slot.flags &= ~marks_with(rules, d.M_CLEAR_AT_END | d.M_CLEAR_AT_START)


def new_round(state):
    """A round starts (state.round is still the one that ended: 0 before the first). First
    the ended round's rules, on every slot: ROUND_CLEAR counters clear, ROUND_STEP_DOWN
    counters step one off, ROUND_CLEAR marks clear; then the new round's, on each in-play
    slot: the allowance refills (ROUND_REFILL), ROUND_FILL counters fill to their caps,
    ROUND_SET marks are set."""
    rules = state.rules
    ended = state.round
    clear = marks_with(rules, _M_ROUND_CLEAR) if ended else 0
    marks = marks_with(rules, _M_ROUND_SET)
    for i in range(state.count):
        slot = state.slots[i]
        counters = slot.counters
        playing = slot.in_play()
        for k in range(rules.counters):
            rule = rules.counter_rules[k]
            if rule & _C_ROUND_FILL and playing:
                counters[k] = rules.caps[k]
            elif not ended:
                pass
            elif rule & _C_ROUND_CLEAR:
                counters[k] = 0
            elif rule & _C_ROUND_STEP_DOWN and counters[k]:
                counters[k] -= 1
        slot.flags &= ~clear
        if playing:
            slot.flags |= marks
            if rules.flags & _ROUND_REFILL:
                slot.actions = slot.actions_max if slot.actions_max <= MAX_ACTIONS else MAX_ACTIONS


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
