"""The ruleset descriptor (shared/descriptor.py, shared/descriptor_pack.py): what the host
tells the board about its game, checked by the board like a state, and the generic timing
rules (shared/turns.py) it states. Korxsol's own rules through its descriptor are in
test_korxsol_timing; here each rule is tried alone on a ruleset made for the test."""

from vmcheck import raises

from host.rulesets.korxsol import device as korxsol
from shared import descriptor, dice, roster, turns
from shared.descriptor import (
    C_CLEAR_AT_END,
    C_DRAIN,
    C_STEP_DOWN,
    M_CLEAR_AT_END,
    M_GET_UP,
    REFILL,
    Descriptor,
    problem,
    state_fits,
)
from shared.descriptor_pack import (
    CARD_JOKER,
    GRID,
    ORDER_CARD,
    DescriptorError,
    card_key,
    counter,
    encoded,
    explain,
    mark,
    names,
    pack,
    state_problem,
)
from shared.reference import build_reference_descriptor, build_reference_state
from shared.state import GameState, mark_bit


def _check(data):
    return problem(data, 0, len(data))


def _table(data, *actions):
    """A state under descriptor `data` with one slot per allowance in `actions`."""
    state = GameState()
    state.rules.load(data, 0, len(data))
    state.ruleset = state.rules.ruleset
    state.phase_count = state.rules.phases
    for i in range(len(actions)):
        roster.add_slot(state, "S%d" % i, 0, 1, actions[i], 10)
    return state


def test_the_default_descriptor_passes_its_own_check():
    assert _check(descriptor.DEFAULT) == 0
    rules = Descriptor()
    assert rules.ruleset == 0 and rules.counters == 0 and rules.marks == 0
    assert rules.phases == 1 and rules.flags == REFILL


def test_korxsol_and_the_reference_descriptors_fit_the_frame_budget():
    for data in (korxsol.descriptor(), build_reference_descriptor()):
        assert _check(data) == 0
        assert len(data) <= descriptor.MAX_DESCRIPTOR


def test_the_success_faces_reach_the_board():
    # The success faces are a ruleset option (an encounter may say faces 1 and 2).
    data = korxsol.descriptor(success_mask=0b011)
    rules = Descriptor()
    rules.load(data, 0, len(data))
    assert rules.success_mask == 0b011


def test_the_roll_keys_dice_and_their_count_reach_the_board():
    data = pack("t", 3, dice_kind=dice.KIND_D10, success_mask=0b1100000000, dice_count=2)
    rules = Descriptor()
    rules.load(data, 0, len(data))
    assert rules.dice_kind == dice.KIND_D10 and rules.dice_count == 2
    assert rules.success_mask == 0b1100000000


def test_names_come_back_as_they_were_packed():
    found = names(korxsol.descriptor())
    assert found["ruleset"] == "korxsol" and found["health"] == "KOR"
    assert found["counters"] == ["frost", "burn", "fear", "terrain"]
    assert found["marks"][0] == "frozen" and found["phases"] == ["action", "cooldown"]


def test_a_card_order_value_comes_back_with_the_ruleset_id_and_names():
    data = pack("t", 9, counters=(counter("x", 3),), order=ORDER_CARD)
    assert _check(data) == 0
    rules = Descriptor()
    rules.load(data, 0, len(data))
    assert rules.ruleset == 9 and rules.raw[1] >> 4 == 1  # the order value: a card
    assert encoded(rules) == data
    assert names(data)["counters"] == ["x"]
    number = pack("t", 9, counters=(counter("x", 3),))
    rules.load(number, 0, len(number))
    assert rules.ruleset == 9 and rules.raw[1] >> 4 == 0  # a number, the default


def test_descriptors_of_versions_2_and_3_read_as_they_did():
    # Version 4 only adds the order value's kind; an older descriptor's bytes (version byte
    # aside, the same) load alike, and its order value is a number.
    new = korxsol.descriptor()
    assert new[0] == descriptor.VERSION == 4
    rules = Descriptor()
    rules.load(new, 0, len(new))
    for version in (2, 3):
        old = bytes((version,)) + new[1:]
        assert _check(old) == 0
        back = Descriptor()
        back.load(old, 0, len(old))
        assert bytes(back.raw[1:]) == bytes(rules.raw[1:])
        assert back.ruleset == rules.ruleset and back.raw[1] >> 4 == 0


def test_a_bad_order_value_kind_is_refused_at_its_byte():
    data = bytearray(pack("t", 9, order=ORDER_CARD))
    data[1] = 2 << 4 | 9  # a kind past the card
    assert _check(data) == 2
    assert "order value's kind" in explain(bytes(data))
    data[1] = ORDER_CARD | 9
    data[0] = 3  # a card in a version 3 descriptor: its byte held the ruleset id alone
    assert _check(data) == 2
    data[0] = 1  # and no version before 2 (nor past 4)
    assert _check(data) == 1
    data[0] = 5
    assert _check(data) == 1
    raises(DescriptorError, pack, "t", 9, order=32)
    raises(DescriptorError, pack, "t", 9, order=1)  # the kind is ORDER_CARD (16), not 1


def test_a_card_key_orders_as_the_cards_do():
    # Rank first, then the suit in bridge order: clubs, diamonds, hearts, spades.
    assert card_key(2, 0) == 8 and card_key(14, 3) == 59 and card_key(15, 0) == CARD_JOKER
    keys = [card_key(rank, suit) for rank in range(2, 15) for suit in range(4)]
    assert keys == sorted(keys) and len(set(keys)) == 52 and max(keys) < CARD_JOKER
    raises(ValueError, card_key, 1, 0)
    raises(ValueError, card_key, 14, 4)


def test_a_descriptor_the_board_would_refuse_is_never_packed():
    raises(DescriptorError, pack, "t", 1, counters=(counter("x", 0),))  # cap 0
    raises(DescriptorError, pack, "t", 1, counters=(counter("x", 16),))  # past the ceiling
    raises(DescriptorError, pack, "t", 1, counters=(counter("x", 3, 99),))  # no such colour
    raises(DescriptorError, pack, "t", 1, counters=(counter("x", 3, 5, C_DRAIN, mark=0),))
    raises(DescriptorError, pack, "t", 1, marks=(mark("m"),) * 6)
    raises(DescriptorError, pack, "t", 1, phases=())
    raises(DescriptorError, pack, "t", 1, dice_kind=dice.KIND_CHANCE)
    raises(DescriptorError, pack, "t", 1, success_mask=0b1000)  # a D3 has no face 4
    raises(DescriptorError, pack, "a name too long", 1)
    raises(DescriptorError, pack, "t", 16)


def test_every_malformed_descriptor_is_named_and_never_raises():
    good = korxsol.descriptor()
    assert _check(good[:-1])  # a name cut short
    assert _check(good + b"x")  # stray bytes
    for n in range(len(good)):
        assert _check(good[:n]), n
    for i in range(len(good)):
        for bit in (1, 0x80):
            bad = bytearray(good)
            bad[i] ^= bit
            problem(bad, 0, len(bad))  # some flips still describe a game: never a raise
    assert _check(bytes(descriptor.MAX_DESCRIPTOR + 1))


def test_an_unused_table_entry_must_be_zero():
    bad = bytearray(pack("t", 1))
    bad[11] = 3  # a cap for a counter the descriptor does not have
    assert _check(bad) == 12
    assert "counter's cap" in explain(bytes(bad))


def test_a_snapshot_of_another_ruleset_does_not_fit_the_descriptor():
    state = build_reference_state()
    assert state_problem(state.rules, state) == "" and state_fits(state.rules, state)
    state.ruleset = 2
    assert "ruleset" in state_problem(state.rules, state)
    assert not state_fits(state.rules, state)


def test_a_counter_past_its_cap_does_not_fit_the_descriptor():
    state = build_reference_state()
    state.slots[0].counters[1] = 4  # the reference caps counter 1 at 3
    assert "cap" in state_problem(state.rules, state)
    assert not state_fits(state.rules, state)


def test_a_mark_the_descriptor_does_not_name_does_not_fit():
    state = _table(pack("t", 1, marks=(mark("a"),)), 3)
    state.slots[0].flags |= mark_bit(0)
    assert state_problem(state.rules, state) == ""
    state.slots[0].flags |= mark_bit(1)
    assert "mark" in state_problem(state.rules, state)
    assert not state_fits(state.rules, state)


def test_a_counter_moves_within_zero_and_its_cap():
    state = _table(pack("t", 1, counters=(counter("a", 2),)), 3)
    slot = state.slots[0]
    state.add_counter(slot, 0, 5)
    assert slot.counters[0] == 2
    state.add_counter(slot, 0, -9)
    assert slot.counters[0] == 0
    raises(ValueError, state.add_counter, slot, 1, 1)  # the ruleset has one counter


def test_without_refill_the_allowance_carries_over_from_turn_to_turn():
    state = _table(pack("t", 1, flags=0), 3, 3)
    state.slots[0].actions = 1
    turns.start_round(state)
    assert state.slots[0].actions == 1


def test_a_draining_counter_below_the_allowance_only_costs_actions():
    data = pack(
        "t",
        1,
        counters=(counter("a", 9, rule=C_DRAIN | C_STEP_DOWN, mark=0),),
        marks=(mark("skip"),),
    )
    state = _table(data, 3, 3)
    state.add_counter(state.slots[0], 0, 2)
    turns.start_round(state)
    assert state.slots[0].actions == 1 and not state.slots[0].flags & mark_bit(0)
    turns.end_turn(state)
    assert state.slots[0].counters[0] == 1


def test_a_counter_that_clears_at_turn_end_clears_only_on_its_owners_turn():
    state = _table(pack("t", 1, counters=(counter("a", 9, rule=C_CLEAR_AT_END),)), 3, 3)
    state.add_counter(state.slots[0], 0, 4)
    state.add_counter(state.slots[1], 0, 4)
    turns.start_round(state)
    turns.end_turn(state)
    assert state.slots[0].counters[0] == 0 and state.slots[1].counters[0] == 4


def test_a_mark_that_clears_at_turn_end_and_one_that_costs_an_action():
    data = pack("t", 1, marks=(mark("a", rule=M_CLEAR_AT_END), mark("b", rule=M_GET_UP)))
    state = _table(data, 3, 3)
    both = mark_bit(0) | mark_bit(1)
    state.slots[0].flags |= both
    turns.start_round(state)
    assert state.slots[0].actions == 2 and state.slots[0].flags & both == mark_bit(0)
    turns.end_turn(state)
    assert not state.slots[0].flags & both


def test_without_a_cooldown_phase_timers_never_step():
    from shared import cooldowns

    state = _table(pack("t", 1), 3, 3)
    turns.start_round(state)
    cooldowns.use(state, state.slots[0], 1, 2)
    for _ in range(6):
        turns.end_turn(state)
    assert cooldowns.remaining(state.slots[0], 1) == 2


def test_a_token_grid_fits_only_a_descriptor_with_the_grid_flag():
    """issue 13: a game with a grid says so (turn flag GRID); a grid under any other
    descriptor does not fit"""
    state = _table(pack("t", 1), 3)
    roster.set_grid(state, 2, 2, (roster.grid_cell(0, 2),))
    assert "grid" in state_problem(state.rules, state)
    assert not state_fits(state.rules, state)
    state.rules.load(pack("t", 1, flags=GRID), 0, len(pack("t", 1, flags=GRID)))
    assert state_problem(state.rules, state) == "" and state_fits(state.rules, state)
    roster.set_grid(state, 0, 0)
    assert state_fits(pack_rules_without_grid(), state)


def pack_rules_without_grid():
    rules = GameState().rules
    data = pack("t", 1)
    rules.load(data, 0, len(data))
    return rules
