"""What happens at the two ends of a turn, as selected by GameState.timing.

These are korxsol's turn rules ("ON YOUR TURN" and the status effects in its players'
guide), trimmed to what the board must run alone. Other rulesets switch them off.
"""

from shared import cooldowns
from shared.limits import MAX_AP
from shared.rulesets import T_COOLDOWNS, T_FEAR_CLEANSE, T_FROST, T_KNOCKDOWN_GETUP, T_PIN_CLEAR
from shared.state import F_FROZEN, F_KNOCKED_DOWN, F_PINNED


def turn_start(state, slot):
    """Refill action points, then let frost drain or freeze them. A frozen turn skips the
    Action Phase: the phase jumps straight to the last one (the Cooldown Phase)."""
    slot.ap = slot.ap_max if slot.ap_max <= MAX_AP else MAX_AP
    slot.flags &= ~F_FROZEN
    timing = state.timing
    if timing & T_FROST and slot.frost:
        if slot.frost >= slot.ap:
            slot.flags |= F_FROZEN
            slot.ap = 0
            state.phase = state.phase_count - 1
        else:
            slot.ap -= slot.frost
    # Getting up costs the turn's first action point; a frozen slot cannot, and stays down.
    if timing & T_KNOCKDOWN_GETUP and slot.flags & F_KNOCKED_DOWN and not slot.flags & F_FROZEN:
        slot.flags &= ~F_KNOCKED_DOWN
        if slot.ap:
            slot.ap -= 1


def turn_end(state, slot):
    """The Cooldown Phase and the end-of-turn clean-ups."""
    timing = state.timing
    if timing & T_COOLDOWNS:
        cooldowns.cooldown_phase(slot)
    if timing & T_FROST and slot.frost:
        if slot.flags & F_FROZEN:
            slot.frost = 0
        else:
            slot.frost -= 1
    if timing & T_FEAR_CLEANSE:
        slot.fear = 0
    if timing & T_PIN_CLEAR:
        slot.flags &= ~F_PINNED
    slot.flags &= ~F_FROZEN
