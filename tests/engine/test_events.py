"""The board's events applied with the shared engine (shared/events.py).

Rules: korxsol-players-guide.txt ("3. ON YOUR TURN"; FROST and BURN under the Status Effect
Indicators; the chance token; action dice), and the d100 of two D10s from
speaking-stones-turn-order.txt. The rules themselves are tested in test_korxsol_timing and
test_dice; these tests check that each press reaches the right rule.
"""

from vmcheck import raises, snapshot, three_fighters

from host.rulesets.korxsol.device import BURN, BURN_CAP, FROST
from shared import dice, turns
from shared import events as ev
from shared.host_only import d100_value, make_event
from shared.limits import NO_SLOT
from shared.link.host import UndoHistory
from shared.reference import build_reference_state
from shared.state import F_ACTIVE


def _started():
    state = three_fighters()
    turns.start_round(state)
    return state


def test_next_turn_starts_the_first_round_then_passes_the_turn():
    state = three_fighters()
    assert state.round == 0
    ev.apply_event(state, make_event(ev.NEXT_TURN))
    assert state.round == 1
    first = state.active
    ev.apply_event(state, make_event(ev.NEXT_TURN))
    assert state.active != first and state.round == 1


def test_a_roll_records_the_faces_and_counts_successes_for_the_active_slot():
    # Action dice: only a 3 succeeds by default (docs/rulesets/korxsol.md).
    state = _started()
    record = make_event(ev.ROLL_ACTION, NO_SLOT, dice.KIND_ACTION_D3, (3, 1, 3))
    ev.apply_event(state, record)
    roll = state.roll
    assert bytes(roll.faces[:3]) == bytes((3, 1, 3))
    assert roll.count == 3 and roll.successes == 2 and roll.who == state.active


def test_a_d6_action_roll_reads_each_die_as_a_d3():
    state = _started()
    ev.apply_event(state, make_event(ev.ROLL_ACTION, 1, dice.KIND_ACTION_D6, (6, 5, 1)))
    assert state.roll.successes == 2 and state.roll.who == 1


def test_the_chance_token_is_flipped_one_to_three_times():
    state = _started()
    ev.apply_event(state, make_event(ev.CHANCE, 0, 0, (1, 0, 1)))
    assert state.roll.kind == dice.KIND_CHANCE and state.roll.successes == 2
    before = snapshot(state)
    raises(ev.EventError, ev.apply_event, state, make_event(ev.CHANCE, 0, 0, (1, 0, 1, 1)))
    raises(ev.EventError, ev.apply_event, state, make_event(ev.CHANCE, 0, 0, (2,)))
    assert snapshot(state) == before


def test_a_d100_is_two_d10_faces():
    state = _started()
    ev.apply_event(state, make_event(ev.D100, 0, 0, (0, 0)))
    assert d100_value(state.roll.faces[0], state.roll.faces[1]) == 100
    raises(ev.EventError, ev.apply_event, state, make_event(ev.D100, 0, 0, (5,)))


def test_frost_is_added_and_removed_one_stack_per_press_and_never_below_zero():
    state = _started()
    ev.apply_event(state, make_event(ev.COUNTER_UP, 2, FROST))
    ev.apply_event(state, make_event(ev.COUNTER_UP, 2, FROST))
    assert state.slots[2].counters[FROST] == 2
    for _ in range(3):
        ev.apply_event(state, make_event(ev.COUNTER_DOWN, 2, FROST))
    assert state.slots[2].counters[FROST] == 0


def test_burn_stacks_stop_at_three():
    # BURN: stacks up to 3 times.
    state = _started()
    for _ in range(5):
        ev.apply_event(state, make_event(ev.COUNTER_UP, 1, BURN))
    assert state.slots[1].counters[BURN] == BURN_CAP == 3
    ev.apply_event(state, make_event(ev.COUNTER_DOWN, 1, BURN))
    assert state.slots[1].counters[BURN] == 2


def test_an_event_on_a_slot_not_in_use_is_refused_and_changes_nothing():
    state = _started()
    before = snapshot(state)
    err = raises(ev.EventError, ev.apply_event, state, make_event(ev.COUNTER_UP, 5, FROST))
    assert "slot 5" in str(err)
    assert snapshot(state) == before


def test_select_changes_no_state():
    state = _started()
    before = snapshot(state)
    assert ev.apply_event(state, make_event(ev.SELECT, 1)) is False
    assert snapshot(state) == before


def test_undo_restores_the_state_before_the_last_local_action():
    state = _started()
    undo = UndoHistory(depth=1)  # one level, as the board keeps
    before = snapshot(state)
    ev.apply_event(state, make_event(ev.NEXT_TURN), undo)
    assert snapshot(state) != before
    assert ev.apply_event(state, make_event(ev.UNDO), undo) is True
    after = snapshot(state)
    assert after[:2] == before[:2] and after[3:] == before[3:]  # all but the version
    assert state.version != before[2]
    assert ev.apply_event(state, make_event(ev.UNDO), undo) is False  # one level only


def test_the_hosts_undo_history_goes_back_several_steps():
    state = _started()
    history = UndoHistory()
    before = snapshot(state)
    for _ in range(3):
        ev.apply_event(state, make_event(ev.NEXT_TURN), history)
    for _ in range(3):
        ev.apply_event(state, make_event(ev.UNDO), history)
    assert snapshot(state)[3:] == before[3:]


def test_end_combat_keeps_the_roster_and_clears_the_turn():
    state = build_reference_state()
    ev.apply_event(state, make_event(ev.END_COMBAT))
    assert state.count == 8 and state.round == 0 and state.active == NO_SLOT
    assert state.roll.count == 0
    for i in range(state.count):
        assert not state.slots[i].flags & F_ACTIVE


def test_reset_empties_the_table():
    state = build_reference_state()
    ev.apply_event(state, make_event(ev.RESET))
    assert state.count == 0 and state.round == 0


def test_an_unknown_event_code_is_refused():
    state = _started()
    raises(ev.EventError, ev.apply_event, state, make_event(99))


def test_next_turn_on_an_empty_table_is_refused():
    state = build_reference_state()
    state.reset()
    raises(ev.EventError, ev.apply_event, state, make_event(ev.NEXT_TURN))


def test_a_record_shorter_than_its_header_is_refused_with_an_event_error():
    state = _started()
    before = snapshot(state)
    for record in (b"", b"\x01", b"\x07\x00", b"\x07\x00\x01"):
        err = raises(ev.EventError, ev.apply_event, state, record)
        assert "at least 4 bytes" in str(err)
    assert snapshot(state) == before


def test_a_record_shorter_than_its_faces_is_refused_with_an_event_error():
    state = _started()
    before = snapshot(state)
    whole = make_event(ev.ROLL_ACTION, 0, dice.KIND_ACTION_D3, (3, 1, 2))
    raises(ev.EventError, ev.apply_event, state, whole[:-1])
    assert snapshot(state) == before


def test_a_board_roll_of_the_wanted_count_and_kind_clears_the_wanted_roll():
    # issue 15: one press rolls exactly the wanted roll; the board then stops asking for it
    state = three_fighters()
    state.want.kind = dice.KIND_ACTION_D3
    state.want.count = 2
    ev.apply_event(state, make_event(ev.ROLL_ACTION, NO_SLOT, dice.KIND_ACTION_D3, (3, 1, 2)))
    assert state.want.count == 2  # three dice are not the two wanted
    ev.apply_event(state, make_event(ev.ROLL_ACTION, NO_SLOT, dice.KIND_ACTION_D3, (3, 1)))
    assert state.want.count == 0 and state.roll.unused == 0
