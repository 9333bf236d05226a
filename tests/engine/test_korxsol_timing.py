"""Korxsol's turn rules as the trimmed engine runs them (shared/timing.py, cooldowns, status).

Source: korxsol-players-guide.txt, "3. ON YOUR TURN" (Action Phase, Cooldown Phase) and the
Status Effect Indicators (FROST, FEAR, PIN, BURN, KNOCKDOWN).
"""

from vmcheck import raises, three_fighters

from shared import cooldowns, rulesets, status, turns
from shared.rulesets import PHASE_ACTION, PHASE_COOLDOWN
from shared.state import F_FROZEN, F_KNOCKED_DOWN, F_PINNED


def _to_turn_of(state, index):
    """End turns until it is slot `index`'s turn."""
    for _ in range(3 * state.count):
        if state.active == index:
            return
        turns.end_turn(state)
    raise AssertionError("slot %d never got a turn" % index)


def test_frost_lowers_action_points_by_one_per_stack_at_turn_start():
    # FROST: every stack costs the target one action point when its turn starts.
    state = three_fighters()
    status.add_frost(state, state.slots[0], 2)
    turns.start_round(state)
    assert state.slots[0].ap == 1
    assert not state.slots[0].flags & F_FROZEN
    assert state.phase == PHASE_ACTION


def test_frost_at_or_above_action_points_freezes_the_turn():
    # FROST: stacks equal to or above the action points freeze the target: no Action Phase,
    # straight to the Cooldown Phase.
    for stacks in (3, 4):
        state = three_fighters()
        status.add_frost(state, state.slots[0], stacks)
        turns.start_round(state)
        slot = state.slots[0]
        assert slot.flags & F_FROZEN
        assert slot.ap == 0
        assert state.phase == PHASE_COOLDOWN


def test_one_frost_stack_comes_off_at_the_end_of_the_turn():
    state = three_fighters()
    status.add_frost(state, state.slots[0], 2)
    turns.start_round(state)
    turns.end_turn(state)
    assert state.slots[0].frost == 1


def test_a_frozen_turn_removes_every_frost_stack_at_its_end():
    state = three_fighters()
    status.add_frost(state, state.slots[0], 5)
    turns.start_round(state)
    turns.end_turn(state)
    assert state.slots[0].frost == 0
    assert not state.slots[0].flags & F_FROZEN


def test_frost_thaws_only_on_its_owners_turn():
    state = three_fighters()
    status.add_frost(state, state.slots[2], 2)
    turns.start_round(state)
    turns.end_turn(state)
    assert state.slots[2].frost == 2


def test_leftover_fear_is_removed_when_its_owners_turn_ends():
    state = three_fighters()
    turns.start_round(state)
    status.add_fear(state, state.slots[0], 2)
    status.add_fear(state, state.slots[1], 1)
    turns.end_turn(state)
    assert state.slots[0].fear == 0
    assert state.slots[1].fear == 1


def test_pin_clears_at_the_end_of_the_owners_turn():
    state = three_fighters()
    turns.start_round(state)
    status.set_flag(state, state.slots[0], F_PINNED)
    status.set_flag(state, state.slots[1], F_PINNED)
    turns.end_turn(state)
    assert not state.slots[0].flags & F_PINNED
    assert state.slots[1].flags & F_PINNED


def test_the_cooldown_phase_puts_this_turns_moves_on_cooldown():
    # COOLDOWN PHASE: set moves used this turn on cooldown.
    state = three_fighters()
    turns.start_round(state)
    slot = state.slots[0]
    cooldowns.use(state, slot, 1, 2)
    assert slot.cd_pending == 1
    turns.end_turn(state)
    assert cooldowns.remaining(slot, 1) == 2
    assert slot.cd_pending == 0


def test_the_cooldown_phase_steps_running_cooldowns_one_off():
    state = three_fighters()
    turns.start_round(state)
    slot = state.slots[0]
    cooldowns.use(state, slot, 1, 3)
    turns.end_turn(state)
    _to_turn_of(state, 0)
    turns.end_turn(state)
    assert cooldowns.remaining(slot, 1) == 2


def test_a_cooldown_of_x_keeps_a_move_out_of_the_owners_next_x_turns():
    state = three_fighters()
    turns.start_round(state)
    slot = state.slots[0]
    cooldowns.use(state, slot, 4, 2)
    turns.end_turn(state)
    busy_turns = 0
    for _ in range(4):
        _to_turn_of(state, 0)
        if not cooldowns.is_ready(slot, 4):
            busy_turns += 1
        turns.end_turn(state)
    assert busy_turns == 2


def test_cooldowns_step_only_on_their_owners_turn():
    state = three_fighters()
    turns.start_round(state)
    cooldowns.use(state, state.slots[0], 1, 2)
    turns.end_turn(state)
    turns.end_turn(state)  # slot 1's turn ends
    turns.end_turn(state)  # slot 2's turn ends
    assert cooldowns.remaining(state.slots[0], 1) == 2


def test_a_move_still_on_cooldown_cannot_be_used_again():
    state = three_fighters()
    turns.start_round(state)
    slot = state.slots[0]
    cooldowns.use(state, slot, 1, 2)
    before = state.version
    raises(ValueError, cooldowns.use, state, slot, 1, 2)
    assert state.version == before


def test_burn_stacks_up_to_three_times():
    state = three_fighters()
    slot = state.slots[1]
    status.add_burn(state, slot, 2)
    assert slot.burn == 2
    status.add_burn(state, slot, 2)
    assert slot.burn == 3


def test_burn_adds_one_unblockable_damage_per_stack_on_a_hit():
    state = three_fighters()
    slot = state.slots[1]
    assert status.burn_damage_on_hit(slot) == 0
    status.add_burn(state, slot, 2)
    assert status.burn_damage_on_hit(slot) == 2


def test_a_knocked_down_slot_spends_one_action_point_to_get_up():
    # KNOCKDOWN: standing back up costs the knocked-down player 1 action point on its turn.
    state = three_fighters()
    status.set_flag(state, state.slots[0], F_KNOCKED_DOWN)
    turns.start_round(state)
    assert state.slots[0].ap == 2
    assert not state.slots[0].flags & F_KNOCKED_DOWN


def test_timing_rules_are_off_for_a_ruleset_that_does_not_ask_for_them():
    state = three_fighters()
    state.timing = 0
    state.ruleset = rulesets.STONES
    status.add_frost(state, state.slots[0], 5)
    status.add_fear(state, state.slots[0], 1)
    turns.start_round(state)
    assert state.slots[0].ap == 3
    turns.end_turn(state)
    assert state.slots[0].frost == 5
    assert state.slots[0].fear == 1
