"""The turn-order machine (shared/turns.py).

Rules from korxsol-players-guide.txt, "4. TURN END": once a player's cooldowns are set their
turn is over, and play passes to whoever comes next in the turn order.
"""

from vmcheck import raises, three_fighters

from shared import roster, turns
from shared.limits import NO_SLOT
from shared.state import F_ACTED, F_ACTIVE, F_OUT


def test_the_order_must_name_every_slot_exactly_once():
    state = three_fighters()
    raises(turns.TurnError, roster.set_order, state, (0, 0, 1))
    raises(turns.TurnError, roster.set_order, state, (0, 1))
    raises(turns.TurnError, roster.set_order, state, (0, 1, 5))
    roster.set_order(state, (2, 0, 1))
    assert bytes(state.order[:3]) == bytes((2, 0, 1))


def test_a_round_starts_with_the_first_slot_in_the_order():
    state = three_fighters()
    roster.set_order(state, (2, 0, 1))
    assert state.active == NO_SLOT
    turns.start_round(state)
    assert state.round == 1
    assert state.active == 2
    assert state.slots[2].flags & F_ACTIVE


def test_ending_a_turn_passes_play_to_the_next_slot_in_the_order():
    state = three_fighters()
    roster.set_order(state, (2, 0, 1))
    turns.start_round(state)
    assert turns.end_turn(state) == 0
    assert state.slots[2].flags & F_ACTED
    assert not state.slots[2].flags & F_ACTIVE
    assert state.slots[0].flags & F_ACTIVE
    assert turns.end_turn(state) == 1


def test_out_of_play_slots_are_skipped():
    state = three_fighters()
    roster.set_order(state, (0, 1, 2))
    state.slots[1].flags |= F_OUT
    turns.start_round(state)
    assert state.active == 0
    assert turns.end_turn(state) == 2
    assert turns.end_turn(state) == 0
    assert state.round == 2


def test_an_out_of_play_first_slot_does_not_start_the_round():
    state = three_fighters()
    state.slots[0].flags |= F_OUT
    turns.start_round(state)
    assert state.active == 1


def test_passing_the_last_slot_wraps_to_a_new_round():
    state = three_fighters()
    turns.start_round(state)
    turns.end_turn(state)
    turns.end_turn(state)
    assert state.round == 1
    turns.end_turn(state)
    assert state.round == 2
    assert state.active == 0
    for i in range(1, 3):
        assert not state.slots[i].flags & F_ACTED


def test_phases_advance_in_order_and_the_last_one_ends_the_turn():
    state = three_fighters()
    turns.start_round(state)
    assert state.phase == 0
    assert turns.advance_phase(state) == 1
    assert state.active == 0
    turns.advance_phase(state)
    assert state.active == 1
    assert state.phase == 0


def test_ending_a_turn_before_any_round_is_an_error_and_changes_nothing():
    state = three_fighters()
    before = state.version
    raises(turns.TurnError, turns.end_turn, state)
    raises(turns.TurnError, turns.advance_phase, state)
    assert state.version == before


def test_a_table_with_nobody_in_play_cannot_start_or_end_a_turn():
    state = three_fighters()
    for i in range(3):
        state.slots[i].flags |= F_OUT
    raises(turns.TurnError, turns.start_round, state)
    state.slots[0].flags &= ~F_OUT
    turns.start_round(state)
    state.slots[0].flags |= F_OUT
    before = state.version
    raises(turns.TurnError, turns.end_turn, state)
    assert state.version == before


def test_every_change_moves_the_state_version():
    state = three_fighters()
    seen = [state.version]
    roster.set_order(state, (1, 2, 0))
    seen.append(state.version)
    turns.start_round(state)
    seen.append(state.version)
    turns.advance_phase(state)
    seen.append(state.version)
    turns.end_turn(state)
    seen.append(state.version)
    for i in range(1, len(seen)):
        assert seen[i] != seen[i - 1]


def test_a_new_order_mid_round_keeps_the_running_turn_with_its_slot():
    state = three_fighters()
    roster.set_order(state, (0, 1, 2))
    turns.start_round(state)
    turns.end_turn(state)
    assert state.active == 1
    roster.set_order(state, (1, 2, 0))
    assert state.active == 1 and state.turn == 0
    turns.end_turn(state)
    assert state.active == 2
