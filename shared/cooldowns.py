"""Cooldown timers: up to MAX_COOLDOWNS per slot, each keyed by a small id (1..7).

A timer is set when its move or item is used, but only goes on cooldown in the owner's
Cooldown Phase; from then on each of the owner's Cooldown Phases steps it one off. So a
cooldown of X keeps the move out of the owner's next X turns. The Cooldown Phase itself is
a turn rule (shared.turns.cooldown_phase); this module uses, reads and clears the timers,
which only the host's rules do (the board loads none of it).
"""

from shared.limits import MAX_COOLDOWN_ID, MAX_COOLDOWN_TURNS, MAX_COOLDOWNS


def remaining(slot, cd_id):
    """Turns left on the timer `cd_id` (0 = ready). A timer used this turn counts as busy."""
    for i in range(MAX_COOLDOWNS):
        if slot.cd_id[i] == cd_id:
            return slot.cd_left[i]
    return 0


def is_ready(slot, cd_id):
    return remaining(slot, cd_id) == 0


def use(state, slot, cd_id, turns):
    """Mark `cd_id` used this turn with a cooldown of `turns`; it goes on cooldown at the
    owner's next Cooldown Phase. A cooldown of 0 sets nothing."""
    if not 1 <= cd_id <= MAX_COOLDOWN_ID:
        raise ValueError("cooldown id %d is not in 1..%d" % (cd_id, MAX_COOLDOWN_ID))
    if not 0 <= turns <= MAX_COOLDOWN_TURNS:
        raise ValueError("cooldown of %d turns is not in 0..%d" % (turns, MAX_COOLDOWN_TURNS))
    if turns == 0:
        return
    free = -1
    for i in range(MAX_COOLDOWNS):
        if slot.cd_id[i] == cd_id:
            if slot.cd_left[i]:
                raise ValueError("cooldown %d is still running" % cd_id)
            free = i
            break
        if free < 0 and slot.cd_id[i] == 0:
            free = i
    if free < 0:
        raise ValueError("all %d cooldown timers are in use" % MAX_COOLDOWNS)
    slot.cd_id[free] = cd_id
    slot.cd_left[free] = turns
    slot.cd_pending |= 1 << free
    state.touch()


def start_now(state, slot, cd_id, turns):
    """Put `cd_id` on cooldown at once, skipping the wait for the Cooldown Phase (a broken
    charge goes on cooldown the moment it breaks)."""
    use(state, slot, cd_id, turns)
    for i in range(MAX_COOLDOWNS):
        if slot.cd_id[i] == cd_id:
            slot.cd_pending &= ~(1 << i)


def clear(state, slot, cd_id):
    """Take `cd_id` off cooldown at once (an item or move that resets it)."""
    for i in range(MAX_COOLDOWNS):
        if slot.cd_id[i] == cd_id:
            slot.cd_id[i] = 0
            slot.cd_left[i] = 0
            slot.cd_pending &= ~(1 << i)
            state.touch()
