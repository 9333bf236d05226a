"""Status stacks on a slot: frost, burn and fear, with their caps.

Burn's cap of 3 is korxsol's rule; frost and fear have no cap in the rules and are clamped
only at the codec's ceiling (7). Flags (pin, knockdown, ...) are plain bits on Slot.flags.
"""

from shared.limits import BURN_CAP, MAX_FEAR, MAX_FROST


def _clamp(value, ceiling):
    if value < 0:
        return 0
    if value > ceiling:
        return ceiling
    return value


def add_frost(state, slot, stacks=1):
    slot.frost = _clamp(slot.frost + stacks, MAX_FROST)
    state.touch()


def add_burn(state, slot, stacks=1):
    """Burn stacks up to BURN_CAP; further stacks are lost."""
    slot.burn = _clamp(slot.burn + stacks, BURN_CAP)
    state.touch()


def add_fear(state, slot, stacks=1):
    slot.fear = _clamp(slot.fear + stacks, MAX_FEAR)
    state.touch()


def burn_damage_on_hit(slot):
    """Un-blockable damage a hit adds to a burning target: one per burn stack."""
    return slot.burn


def set_flag(state, slot, flag, on=True):
    if on:
        slot.flags |= flag
    else:
        slot.flags &= ~flag
    state.touch()
