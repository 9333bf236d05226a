"""Korxsol's turn rules as the trimmed engine runs them (shared/turns.py, cooldowns, status).

Source: korxsol-players-guide.txt, "3. ON YOUR TURN" (Action Phase, Cooldown Phase) and the
Status Effect Indicators (FROST, FEAR, PIN, BURN, KNOCKDOWN).
"""

from vmcheck import raises, three_fighters

from host.rulesets.korxsol.device import (
    BURN,
    F_FROZEN,
    F_GRAPPLED,
    F_KNOCKED_DOWN,
    F_PINNED,
    FEAR,
    FROST,
    PHASE_ACTION,
    PHASE_COOLDOWN,
)
from shared import cooldowns, roster, turns
from shared.descriptor_pack import counter, pack
from shared.state import F_OUT


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
    state.add_counter(state.slots[0], FROST, 2)
    turns.start_round(state)
    assert state.slots[0].actions == 1
    assert not state.slots[0].flags & F_FROZEN
    assert state.phase == PHASE_ACTION


def test_frost_at_or_above_action_points_freezes_the_turn():
    # FROST: stacks equal to or above the action points freeze the target: no Action Phase,
    # straight to the Cooldown Phase.
    for stacks in (3, 4):
        state = three_fighters()
        state.add_counter(state.slots[0], FROST, stacks)
        turns.start_round(state)
        slot = state.slots[0]
        assert slot.flags & F_FROZEN
        assert slot.actions == 0
        assert state.phase == PHASE_COOLDOWN


def test_one_frost_stack_comes_off_at_the_end_of_the_turn():
    state = three_fighters()
    state.add_counter(state.slots[0], FROST, 2)
    turns.start_round(state)
    turns.end_turn(state)
    assert state.slots[0].counters[FROST] == 1


def test_a_frozen_turn_removes_every_frost_stack_at_its_end():
    state = three_fighters()
    state.add_counter(state.slots[0], FROST, 5)
    turns.start_round(state)
    turns.end_turn(state)
    assert state.slots[0].counters[FROST] == 0
    assert not state.slots[0].flags & F_FROZEN


def test_frost_thaws_only_on_its_owners_turn():
    state = three_fighters()
    state.add_counter(state.slots[2], FROST, 2)
    turns.start_round(state)
    turns.end_turn(state)
    assert state.slots[2].counters[FROST] == 2


def test_leftover_fear_is_removed_when_its_owners_turn_ends():
    state = three_fighters()
    # Slot 1 plays last: fear spends itself as its owner's turn starts (tested below).
    roster.set_order(state, (0, 2, 1))
    turns.start_round(state)
    state.add_counter(state.slots[0], FEAR, 2)
    state.add_counter(state.slots[1], FEAR)
    turns.end_turn(state)
    assert state.slots[0].counters[FEAR] == 0
    assert state.slots[1].counters[FEAR] == 1


def test_pin_clears_at_the_end_of_the_owners_turn():
    state = three_fighters()
    turns.start_round(state)
    roster.set_flag(state, state.slots[0], F_PINNED)
    roster.set_flag(state, state.slots[1], F_PINNED)
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
    state.add_counter(slot, BURN, 2)
    assert slot.counters[BURN] == 2
    state.add_counter(slot, BURN, 2)
    assert slot.counters[BURN] == 3


def test_burn_adds_one_unblockable_damage_per_stack_on_a_hit():
    state = three_fighters()
    slot = state.slots[1]
    assert slot.counters[BURN] == 0
    state.add_counter(slot, BURN, 2)
    assert slot.counters[BURN] == 2


def test_a_knocked_down_slot_spends_one_action_point_to_get_up():
    # KNOCKDOWN: standing back up costs the knocked-down player 1 action point on its turn.
    state = three_fighters()
    roster.set_flag(state, state.slots[0], F_KNOCKED_DOWN)
    turns.start_round(state)
    assert state.slots[0].actions == 2
    assert not state.slots[0].flags & F_KNOCKED_DOWN


def test_timing_rules_are_off_for_a_ruleset_that_does_not_ask_for_them():
    state = three_fighters()
    # The same three counters, described without a timing rule (another ruleset's table).
    quiet = pack("quiet", 2, counters=(counter("a", 7), counter("b", 3), counter("c", 7)))
    state.rules.load(quiet, 0, len(quiet))
    state.ruleset = 2
    state.add_counter(state.slots[0], FROST, 5)
    state.add_counter(state.slots[0], FEAR)
    turns.start_round(state)
    assert state.slots[0].actions == 3
    turns.end_turn(state)
    assert state.slots[0].counters[FROST] == 5
    assert state.slots[0].counters[FEAR] == 1


def test_fear_spends_action_points_one_for_one_as_its_owners_turn_starts():
    # FEAR: the feared runs away, spending an action point per stack (no more than it has).
    state = three_fighters()
    state.add_counter(state.slots[0], FEAR, 2)
    state.add_counter(state.slots[1], FEAR, 5)
    turns.start_round(state)
    assert state.slots[0].actions == 1 and state.slots[0].counters[FEAR] == 0
    turns.end_turn(state)
    assert state.slots[1].actions == 0 and state.slots[1].counters[FEAR] == 3


def test_a_pinned_or_grappled_fighter_spends_no_fear_it_cannot_run():
    for held in (F_PINNED, F_GRAPPLED):
        state = three_fighters()
        state.add_counter(state.slots[0], FEAR, 2)
        roster.set_flag(state, state.slots[0], held)
        turns.start_round(state)
        assert state.slots[0].actions == 3 and state.slots[0].counters[FEAR] == 2


def test_a_frozen_fighter_spends_no_fear_and_loses_it_at_turn_end():
    state = three_fighters()
    state.add_counter(state.slots[0], FROST, 3)
    state.add_counter(state.slots[0], FEAR)
    turns.start_round(state)
    assert state.slots[0].flags & F_FROZEN and state.slots[0].counters[FEAR] == 1
    turns.end_turn(state)
    assert state.slots[0].counters[FEAR] == 0


def test_a_frozen_fighter_stays_knocked_down():
    state = three_fighters()
    state.add_counter(state.slots[0], FROST, 3)
    roster.set_flag(state, state.slots[0], F_KNOCKED_DOWN)
    turns.start_round(state)
    assert state.slots[0].flags & F_KNOCKED_DOWN


def test_a_collapsed_fighters_cooldowns_step_on_as_its_turns_are_skipped():
    # A fighter out of play loses its turns, but its Cooldown Phases still pass: what it
    # used comes off cooldown on time (and the board, untethered, counts the same).
    state = three_fighters()
    turns.start_round(state)
    turns.end_turn(state)  # slot 1's turn
    cooldowns.use(state, state.slots[1], 2, 2)
    state.slots[1].flags |= F_OUT
    turns.end_turn(state)  # slot 1 used it this turn: it goes on cooldown now
    assert cooldowns.remaining(state.slots[1], 2) == 2
    turns.end_turn(state)  # slot 2 ends, slot 0 plays, slot 1 is skipped ...
    turns.end_turn(state)  # ... as slot 0's turn ends
    assert cooldowns.remaining(state.slots[1], 2) == 1
    turns.end_turn(state)
    turns.end_turn(state)
    assert cooldowns.is_ready(state.slots[1], 2)
