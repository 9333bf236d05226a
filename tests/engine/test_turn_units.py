"""Turn units other than one slot, and the round's hooks (shared/turns.py,
descriptor version 2): each tried alone on a ruleset made for the test, the same on CPython
and inside the MicroPython VM.

- A group turn: the consecutive positions of the order that share a team (or an order key:
  a player's characters) take one turn together. speaking-stones-turn-order.txt:64 (turns
  alternate between the teams' players), speaking-stones-turn-order.txt:57 (a player
  finishes all of their characters' turns, then the next player goes).
- Steps: every slot acts at once in each step of the round.
  forms-turns-rounds-encounters.txt:26 (a round's turns are simultaneous; when all who
  may act have finished, a new round begins), forms-turns-rounds-encounters.txt:47-49 (a
  combat round is a list of numbered steps).
- Round hooks: an allowance per round (advance-late-combat-round.txt:29: one action each
  round), an effect that lasts until the end of the round (advance-late-combat-round.txt:44).
"""

from vmcheck import raises

from shared import descriptor, roster, turns
from shared import events as ev
from shared.descriptor import C_DRAIN, REFILL
from shared.descriptor_pack import (
    C_ROUND_CLEAR,
    C_ROUND_FILL,
    C_ROUND_STEP_DOWN,
    M_ROUND_CLEAR,
    M_ROUND_SET,
    ROUND_REFILL,
    UNIT_KEY,
    UNIT_SLOT,
    UNIT_STEP,
    UNIT_TEAM,
    counter,
    mark,
    pack,
)
from shared.host_only import make_event
from shared.limits import NO_SLOT
from shared.state import F_ACTED, F_ACTIVE, F_OUT, GameState, mark_bit


def _table(data, *slots):
    """A state under descriptor `data` with (team, order key, allowance) slots."""
    state = GameState()
    state.rules.load(data, 0, len(data))
    state.phase_count = state.rules.phases
    for team, key, actions in slots:
        roster.add_slot(state, "S%d" % state.count, team, key, actions, 5)
    return state


def _active(state):
    return [i for i in range(state.count) if state.slots[i].flags & F_ACTIVE]


def _acted(state):
    return [i for i in range(state.count) if state.slots[i].flags & F_ACTED]


def _teams():
    """Team 0, team 0, team 1, team 1, team 0 in the order: three group turns a round."""
    data = pack("t", 1, flags=REFILL | UNIT_TEAM)
    return _table(data, (0, 0, 2), (0, 0, 2), (1, 0, 2), (1, 0, 2), (0, 0, 2))


def test_a_team_takes_its_turn_together_and_turns_alternate_between_teams():
    state = _teams()
    turns.start_round(state)
    assert _active(state) == [0, 1] and state.active == 0 and state.turn == 0
    assert turns.end_turn(state) == 2
    assert _active(state) == [2, 3] and _acted(state) == [0, 1]
    turns.end_turn(state)
    assert _active(state) == [4] and state.round == 1
    turns.end_turn(state)
    assert state.round == 2 and _active(state) == [0, 1] and _acted(state) == []


def test_a_players_characters_share_a_turn_by_their_order_key():
    data = pack("t", 1, flags=REFILL | UNIT_KEY)
    # Player 1 owns slots 0 and 1, player 2 slot 2, player 3 slot 3: all of one team.
    state = _table(data, (0, 1, 2), (0, 1, 2), (0, 2, 2), (0, 3, 2))
    turns.start_round(state)
    assert _active(state) == [0, 1]
    turns.end_turn(state)
    assert _active(state) == [2]
    turns.end_turn(state)
    assert _active(state) == [3]


def test_the_group_follows_the_order_not_the_slot_indexes():
    state = _teams()
    roster.set_order(state, (2, 0, 3, 1, 4))
    turns.start_round(state)
    # Team 1, team 0, team 1, then team 0 twice: four turns, the last of two slots.
    assert _active(state) == [2]
    turns.end_turn(state)
    assert _active(state) == [0]
    turns.end_turn(state)
    assert _active(state) == [3]
    turns.end_turn(state)
    assert _active(state) == [1, 4] and state.active == 1


def test_an_out_of_play_slot_of_a_group_is_skipped_and_does_not_split_it():
    state = _teams()
    state.slots[0].flags |= F_OUT
    state.slots[3].flags |= F_OUT
    turns.start_round(state)
    assert _active(state) == [1] and state.active == 1
    turns.end_turn(state)
    assert _active(state) == [2]


def test_each_slot_of_a_group_turn_gets_its_own_allowance():
    data = pack("t", 1, flags=REFILL | UNIT_TEAM)
    state = _table(data, (0, 0, 2), (0, 0, 3), (1, 0, 1))
    for i in range(3):
        state.slots[i].actions = 0
    turns.start_round(state)
    assert [state.slots[i].actions for i in range(3)] == [2, 3, 0]


def test_a_slot_of_a_group_that_is_done_waits_for_the_others():
    state = _teams()
    turns.start_round(state)
    assert turns.slot_done(state, 1) == 0
    assert _active(state) == [0, 1] and _acted(state) == [1]
    raises(turns.TurnError, turns.slot_done, state, 1)  # done already
    raises(turns.TurnError, turns.slot_done, state, 2)  # not its turn
    turns.slot_done(state, 0)  # the last of the group: the next team's turn
    assert _active(state) == [2, 3] and _acted(state) == [0, 1]


def test_a_skipped_slot_of_a_group_is_done_and_the_group_plays_on_in_its_phase():
    data = pack(
        "t",
        1,
        counters=(counter("ice", 9, rule=C_DRAIN, mark=0),),
        marks=(mark("frozen"),),
        phases=("act", "end"),
        flags=REFILL | UNIT_TEAM,
    )
    state = _table(data, (0, 0, 2), (0, 0, 2), (1, 0, 2))
    state.add_counter(state.slots[0], 0, 5)
    turns.start_round(state)
    assert state.phase == 0 and _acted(state) == [0] and state.slots[0].actions == 0
    assert state.slots[0].flags & mark_bit(0) and state.slots[1].actions == 2


def test_phases_run_once_for_the_whole_group():
    data = pack("t", 1, phases=("act", "end"), flags=REFILL | UNIT_TEAM)
    state = _table(data, (0, 0, 2), (0, 0, 2), (1, 0, 2))
    turns.start_round(state)
    assert turns.advance_phase(state) == 1 and _active(state) == [0, 1]
    turns.advance_phase(state)
    assert _active(state) == [2] and state.phase == 0


def _steps(*slots):
    data = pack("t", 1, phases=("aware", "move", "hit"), flags=REFILL | UNIT_STEP)
    return _table(data, *slots)


def test_in_steps_every_slot_in_play_acts_at_once():
    state = _steps((0, 0, 1), (1, 0, 1), (0, 0, 1))
    state.slots[1].flags |= F_OUT
    turns.start_round(state)
    assert _active(state) == [0, 2] and state.phase == 0 and state.active == 0


def test_in_steps_next_turn_ends_the_step_and_past_the_last_one_the_round():
    state = _steps((0, 0, 1), (1, 0, 1))
    turns.start_round(state)
    state.slots[0].flags |= F_ACTED
    turns.end_turn(state)
    assert state.phase == 1 and _active(state) == [0, 1] and _acted(state) == []
    turns.advance_phase(state)  # a step is a phase: next phase is next step
    assert state.phase == 2 and state.round == 1
    turns.end_turn(state)
    assert state.round == 2 and state.phase == 0 and _active(state) == [0, 1]


def test_in_steps_the_allowance_refills_once_a_round():
    state = _steps((0, 0, 2), (1, 0, 3))
    turns.start_round(state)
    state.slots[0].actions = 0
    turns.end_turn(state)
    turns.end_turn(state)
    assert state.slots[0].actions == 0  # the same round: no refill at the steps
    turns.end_turn(state)
    assert state.slots[0].actions == 2 and state.round == 2


def test_in_steps_the_step_ends_once_everyone_in_it_has_acted():
    state = _steps((0, 0, 1), (1, 0, 1), (0, 0, 1))
    turns.start_round(state)
    turns.slot_done(state, 2)
    assert state.phase == 0 and _acted(state) == [2]
    turns.slot_done(state, 0)
    assert state.phase == 0
    turns.slot_done(state, 1)
    assert state.phase == 1 and _acted(state) == []


def test_an_allowance_per_round_refills_as_the_round_starts_not_each_turn():
    data = pack("t", 1, flags=ROUND_REFILL)
    state = _table(data, (0, 0, 1), (1, 0, 1))
    turns.start_round(state)
    assert state.slots[0].actions == 1 and state.slots[1].actions == 1
    state.slots[0].actions = 0
    turns.end_turn(state)  # slot 1's turn: slot 0's allowance stays spent
    assert state.slots[0].actions == 0 and state.slots[1].actions == 1
    turns.end_turn(state)
    assert state.round == 2 and state.slots[0].actions == 1


def test_counters_fill_at_round_start_and_step_down_or_clear_at_round_end():
    data = pack(
        "t",
        1,
        counters=(
            counter("will", 3, rule=C_ROUND_FILL),
            counter("heat", 9, rule=C_ROUND_STEP_DOWN),
            counter("coop", 9, rule=C_ROUND_CLEAR),
        ),
    )
    state = _table(data, (0, 0, 1), (1, 0, 1))
    state.slots[1].flags |= F_OUT
    turns.start_round(state)
    assert state.slots[0].counters[0] == 3 and state.slots[1].counters[0] == 0
    state.slots[0].counters[0] = 1
    state.add_counter(state.slots[0], 1, 4)
    state.add_counter(state.slots[0], 2, 4)
    state.add_counter(state.slots[1], 2, 4)
    turns.end_turn(state)  # the last turn of round 1
    assert state.round == 2
    assert bytes(state.slots[0].counters[:3]) == bytes((3, 3, 0))
    assert state.slots[1].counters[2] == 0  # the round's end reaches every slot


def test_marks_set_as_the_round_starts_and_clear_as_it_ends():
    data = pack("t", 1, marks=(mark("ready", rule=M_ROUND_SET), mark("coop", rule=M_ROUND_CLEAR)))
    state = _table(data, (0, 0, 1), (1, 0, 1))
    turns.start_round(state)
    assert state.slots[0].flags & mark_bit(0) and state.slots[1].flags & mark_bit(0)
    state.slots[0].flags = state.slots[0].flags & ~mark_bit(0) | mark_bit(1)
    turns.end_turn(state)
    assert state.slots[0].flags & mark_bit(1)  # the round is not over yet
    turns.end_turn(state)
    assert state.slots[0].flags & mark_bit(0) and not state.slots[0].flags & mark_bit(1)


def test_next_turn_naming_a_slot_of_a_group_says_that_slot_is_done():
    state = _teams()
    ev.apply_event(state, make_event(ev.NEXT_TURN))
    assert ev.apply_event(state, make_event(ev.NEXT_TURN, 1))
    assert _active(state) == [0, 1] and _acted(state) == [1]
    err = raises(ev.EventError, ev.apply_event, state, make_event(ev.NEXT_TURN, 3))
    assert "not one still to act" in str(err)
    ev.apply_event(state, make_event(ev.NEXT_TURN, 0))
    assert _active(state) == [2, 3]
    ev.apply_event(state, make_event(ev.NEXT_TURN))  # no slot: the whole unit ends
    assert _active(state) == [4]


def test_with_one_slot_a_turn_next_turn_naming_a_slot_ends_the_turn_as_before():
    state = _table(pack("t", 1), (0, 0, 1), (1, 0, 1), (0, 0, 1))
    ev.apply_event(state, make_event(ev.NEXT_TURN))
    ev.apply_event(state, make_event(ev.NEXT_TURN, 2))
    assert _active(state) == [1] and state.active == 1


def test_the_board_refuses_a_descriptor_of_version_1_and_unknown_turn_bits():
    data = bytearray(pack("t", 1, flags=REFILL | UNIT_STEP | ROUND_REFILL))
    assert descriptor.problem(data, 0, len(data)) == 0
    data[0] = 1
    assert descriptor.problem(data, 0, len(data)) == 1
    data[0] = descriptor.VERSION
    data[5] = 64  # the grid flag (docs/state-codec.md): known
    assert descriptor.problem(data, 0, len(data)) == 0
    data[5] = 128  # NATURALS: known since version 3, unknown to version 2
    assert descriptor.problem(data, 0, len(data)) == 0
    data[0] = 2
    assert descriptor.problem(data, 0, len(data)) == 6


def test_a_mark_rule_past_the_round_rules_is_refused():
    data = bytearray(pack("t", 1, marks=(mark("a", rule=M_ROUND_SET | M_ROUND_CLEAR),)))
    assert descriptor.problem(data, 0, len(data)) == 0
    data[36] = 32
    assert descriptor.problem(data, 0, len(data)) == 32


def test_the_default_table_is_one_slot_a_turn():
    state = GameState()
    assert state.rules.flags & UNIT_STEP == UNIT_SLOT and state.active == NO_SLOT
