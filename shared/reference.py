"""The reference state: 8 slots with 3 cooldowns each, mixed stacks and a 6-die last roll.

Tests, `turnlight bench` and the MicroPython measurements all build this one state, so their
numbers describe the same thing.
"""

from shared import dice, rulesets, turns
from shared.state import F_CHARGING, F_KNOCKED_DOWN, F_PINNED, GameState

_ROSTER = (
    # label, team, agility, action points, KOR
    ("Kae", 0, 4, 3, 18),
    ("Orn", 1, 3, 2, 20),
    ("Vex", 0, 5, 3, 14),
    ("Brm", 1, 2, 2, 22),
    ("Syl", 0, 6, 4, 12),
    ("Tor", 1, 4, 3, 16),
    ("Ima", 0, 3, 2, 15),
    ("Zed", 1, 5, 3, 17),
)


def build_reference_state(state=None):
    """Fill `state` (or a new GameState) with the reference table and return it."""
    if state is None:
        state = GameState()
    state.reset()
    state.ruleset = rulesets.KORXSOL
    state.timing = rulesets.KORXSOL_TIMING
    state.phase_count = rulesets.KORXSOL_PHASES
    for label, team, agility, ap, kor in _ROSTER:
        state.add_slot(label, team, agility, ap, kor)
    turns.set_order(state, (4, 2, 7, 0, 5, 1, 6, 3), (0, 1, 1, 0, 2, 2, 0, 0))
    for index in range(state.count):
        slot = state.slots[index]
        slot.kor -= index % 5
        slot.frost = index % 3
        slot.burn = (index + 1) % 4
        slot.fear = index % 2
        for timer in range(3):
            slot.cd_id[timer] = timer + 1
            slot.cd_left[timer] = (index + timer) % 4 + 1
        slot.cd_pending = 1 if index % 2 else 0
    state.slots[1].flags |= F_KNOCKED_DOWN
    state.slots[3].flags |= F_PINNED
    state.slots[6].flags |= F_CHARGING
    turns.start_round(state)
    state.scores[0] = 7
    state.scores[1] = 5
    dice.enter(state, dice.KIND_ACTION_D3, (3, 1, 2, 3, 3, 2), state.active)
    return state
