"""The reference table: 8 slots with 3 cooldowns each, mixed counters and marks, and a 6-die
last roll, under a reference descriptor that uses every timing rule (3 counters, 5 marks,
2 phases; shaped like the first ruleset's, with neutral names).

Tests, `turnlight bench` and the MicroPython measurements all build this one state, so their
numbers describe the same thing.
"""

from shared import dice, roster, turns
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
    SKIPPED_COOLDOWNS,
)
from shared.descriptor_pack import counter, mark, pack
from shared.state import GameState, mark_bit

REFERENCE_RULESET = 1
BIG_TABLE = 24  # the fighters of the big table's reference (the board's figures take it)

_ROSTER = (
    # label, team, order key, actions, health
    ("Kae", 0, 4, 3, 18),
    ("Orn", 1, 3, 2, 20),
    ("Vex", 0, 5, 3, 14),
    ("Brm", 1, 2, 2, 22),
    ("Syl", 0, 6, 4, 12),
    ("Tor", 1, 4, 3, 16),
    ("Ima", 0, 3, 2, 15),
    ("Zed", 1, 5, 3, 17),
)


def build_reference_descriptor():
    """The reference descriptor's bytes."""
    return pack(
        "ref",
        REFERENCE_RULESET,
        health="hp",
        allowance="acts",
        counters=(
            counter("c1", 7, 6, C_DRAIN | C_STEP_DOWN | C_CLEAR_IF_SKIPPED, mark=0),
            counter("c2", 3, 7),
            counter("c3", 7, 5, C_SPEND | C_CLEAR_AT_END, guard=0b01100),
        ),
        marks=(
            mark("m1", 8, M_CLEAR_AT_START),
            mark("m2", 8, M_GET_UP),
            mark("m3", 8, M_CLEAR_AT_END),
            mark("m4", 8),
            mark("m5", 8),
        ),
        phases=("p1", "p2"),
        flags=REFILL | COOLDOWN_PHASE | SKIPPED_COOLDOWNS,
    )


def build_reference_state(state=None, fighters=8):
    """Fill `state` (or a new GameState) with the reference table and its descriptor, and
    return it. `fighters` past the eight of the roster (up to MAX_SLOTS: the big table's
    24) repeat its rows with numbered labels, and the order takes them in turn after the
    eight."""
    if state is None:
        state = GameState()
    state.reset()
    data = build_reference_descriptor()
    state.rules.load(data, 0, len(data))
    state.ruleset = REFERENCE_RULESET
    state.phase_count = 2
    for index in range(fighters):
        label, team, order_key, actions, health = _ROSTER[index % 8]
        if index >= 8:
            label = label[:2] + "0123456789ABCDEFGHIJKLMN"[index]
        roster.add_slot(state, label, team, order_key, actions, health)
    order = [4, 2, 7, 0, 5, 1, 6, 3]
    reasons = [0, 1, 1, 0, 2, 2, 0, 0]
    for index in range(8, fighters):
        order.append(index)
        reasons.append(index % 3)
    roster.set_order(state, order[:fighters], reasons[:fighters])
    for index in range(state.count):
        slot = state.slots[index]
        slot.health -= index % 5
        slot.counters[0] = index % 3
        slot.counters[1] = (index + 1) % 4
        slot.counters[2] = index % 2
        for timer in range(3):
            slot.cd_id[timer] = timer + 1
            slot.cd_left[timer] = (index + timer) % 4 + 1
        slot.cd_pending = 1 if index % 2 else 0
    state.slots[1].flags |= mark_bit(1)
    state.slots[3].flags |= mark_bit(2)
    state.slots[6].flags |= mark_bit(4)
    turns.start_round(state)
    state.scores[0] = 7
    state.scores[1] = 5
    dice.enter(state, dice.KIND_ACTION_D3, (3, 1, 2, 3, 3, 2), state.active)
    return state
