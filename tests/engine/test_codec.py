"""The binary state codec (shared/codec.py): exact round trips and clean rejection of bad
bytes. Not a rules test; the state it carries is the one the rules above fill in."""

from vmcheck import raises, snapshot, three_fighters

from shared import codec, cooldowns, dice, limits, roster
from shared.limits import (
    MAX_COOLDOWNS,
    MAX_COUNTER,
    MAX_COUNTERS,
    MAX_GRID_SIDE,
    MAX_RANK,
    MAX_SLOTS,
    NO_SLOT,
)
from shared.reference import build_reference_state
from shared.state import LABEL_CHARS, GameState


def test_the_reference_state_round_trips_exactly():
    state = build_reference_state()
    data = codec.encode(state)
    back = GameState()
    codec.decode(data, back)
    assert snapshot(back) == snapshot(state)
    assert codec.encode(back) == data


def test_encoding_into_a_buffer_matches_and_fits_the_maximum():
    state = build_reference_state()
    buf = bytearray(codec.MAX_ENCODED)
    n = codec.encode(state, buf)
    assert bytes(buf[:n]) == codec.encode(state)
    assert n <= codec.MAX_ENCODED


def test_an_empty_table_round_trips():
    state = GameState()
    back = build_reference_state()
    codec.decode(codec.encode(state), back)
    assert snapshot(back) == snapshot(state)


def test_empty_input_is_rejected():
    raises(codec.CodecError, codec.decode, b"", GameState())


def test_a_wrong_codec_version_is_rejected_with_both_versions_named():
    data = bytearray(codec.encode(three_fighters()))
    data[0] = codec.CODEC_VERSION + 1
    err = raises(codec.CodecError, codec.decode, bytes(data), GameState())
    assert str(codec.CODEC_VERSION) in str(err)


def test_every_truncation_is_rejected():
    data = codec.encode(build_reference_state())
    for n in range(1, len(data)):
        raises(codec.CodecError, codec.decode, data[:n], GameState())


def test_stray_bytes_after_a_state_are_rejected():
    data = codec.encode(three_fighters())
    raises(codec.CodecError, codec.decode, data + b"\x00", GameState())


def test_input_longer_than_the_largest_state_is_rejected_before_reading():
    raises(codec.CodecError, codec.decode, bytes(codec.MAX_ENCODED + 1), GameState())


def test_a_turn_order_that_is_not_a_permutation_is_rejected():
    state = three_fighters()
    good = codec.encode(state)
    state.order[1] = state.order[0]
    bad = codec.encode(state)
    assert bad != good
    raises(codec.CodecError, codec.decode, bad, GameState())


def test_a_state_the_encoding_cannot_hold_is_refused():
    state = three_fighters()
    state.slots[0].health = 300
    raises(codec.CodecError, codec.encode, state)
    state.slots[0].health = 10
    state.slots[0].label = "TooLong"
    raises(codec.CodecError, codec.encode, state)


def test_an_order_key_of_six_bits_round_trips_and_one_of_seven_is_refused():
    # A card as the order value (descriptor_pack.ORDER_CARD) is rank * 4 + suit, up to 60.
    state = three_fighters()
    state.slots[0].order_key = 60
    state.slots[1].order_key = limits.MAX_ORDER_KEY
    back = GameState()
    codec.decode(codec.encode(state), back)
    assert back.slots[0].order_key == 60 and back.slots[1].order_key == 63
    state.slots[2].order_key = 64
    raises(codec.CodecError, codec.encode, state)


def test_negative_and_large_scores_round_trip_and_out_of_range_ones_are_refused():
    state = three_fighters()
    state.scores[0] = -32768
    state.scores[1] = 32767
    back = GameState()
    codec.decode(codec.encode(state), back)
    assert back.scores[0] == -32768 and back.scores[1] == 32767
    state.scores[1] = 32768
    raises(codec.CodecError, codec.encode, state)
    state.scores[1] = -32769
    raises(codec.CodecError, codec.encode, state)


def test_a_d100_that_is_not_two_dice_is_rejected():
    state = three_fighters()
    dice.enter(state, dice.KIND_D100, (4, 2), 0)
    state.roll.count = 3  # written past the dice module's checks
    raises(codec.CodecError, codec.decode, codec.encode(state), GameState())


def test_a_slot_without_a_label_is_rejected():
    state = three_fighters()
    state.slots[1].label = ""
    raises(codec.CodecError, codec.decode, codec.encode(state), GameState())


def test_the_reference_state_fits_in_104_bytes():
    # The size goal of the foundation issue (100 bytes), and 24 slots' wider indexes (5
    # bits, not 3: the count, the turn, the rollers and each of the 8 positions); `turnlight
    # bench` reports the figure.
    assert len(codec.encode(build_reference_state())) <= 104


def test_the_24_fighter_reference_state_fits_in_280_bytes():
    # The big table's (docs/protocol.md): `turnlight bench` reports it (snapshot_bytes_24).
    assert len(codec.encode(build_reference_state(fighters=24))) <= 280


def test_the_largest_state_fits_the_maximum():
    state = GameState()
    state.team_count = 4
    for i in range(MAX_SLOTS):
        roster.add_slot(state, "W%s_" % LABEL_CHARS[i], i % 4, limits.MAX_ORDER_KEY, 7, 255)
        slot = state.slots[i]
        for k in range(MAX_COUNTERS):
            slot.counters[k] = MAX_COUNTER
        slot.flags = 0xFF
        for k in range(MAX_COOLDOWNS):
            slot.cd_id[k] = k + 1
            slot.cd_left[k] = 15
        slot.cd_pending = (1 << MAX_COOLDOWNS) - 1
        slot.effects = 15
        slot.effect_ends = True
    for i in range(4):
        state.scores[i] = -32768
    state.round = 0xFFFF
    # Plain dice at their widest: the most kinds of die a roll has, 7-bit faces.
    sides = [100 - i * limits.MAX_KINDS // 15 for i in range(15)]
    dice.enter(state, dice.KIND_DN, sides, 7, sides=sides)
    state.roll.degree = 4
    state.want.kind = dice.KIND_DN
    state.want.count = 15
    state.want.sides[:] = bytes(sides)
    state.want.who = 7
    cells = [roster.grid_cell(i % 4, 2) for i in range(MAX_GRID_SIDE * MAX_GRID_SIDE)]
    roster.set_grid(state, MAX_GRID_SIDE, MAX_GRID_SIDE, cells)
    data = codec.encode(state)
    assert len(data) <= codec.MAX_ENCODED
    back = GameState()
    codec.decode(data, back)
    assert snapshot(back) == snapshot(state)


def test_a_table_holds_at_most_max_slots_and_a_slot_at_most_max_cooldowns():
    state = GameState()
    for i in range(MAX_SLOTS):
        roster.add_slot(state, "S%d" % i, 0, 2, 3, 10)
    err = raises(ValueError, roster.add_slot, state, "One", 0, 2, 3, 10)
    assert str(MAX_SLOTS) in str(err)
    slot = state.slots[0]
    for k in range(MAX_COOLDOWNS):
        cooldowns.use(state, slot, k + 1, 2)
    raises(ValueError, cooldowns.use, state, slot, MAX_COOLDOWNS + 1, 2)


def test_teams_and_labels_stay_within_what_the_codec_holds():
    state = GameState()
    raises(ValueError, roster.add_slot, state, "Kae", 2)  # two teams unless told otherwise
    raises(ValueError, roster.add_slot, state, "Kael")
    raises(ValueError, roster.add_slot, state, "")
    raises(ValueError, roster.add_slot, state, "K e")
    raises(ValueError, roster.add_slot, state, "Kae", 0, limits.MAX_ORDER_KEY + 1)
    assert state.count == 0


def _wanting(state, kind, count, who, purpose):
    state.want.kind = kind
    state.want.count = count
    state.want.who = who
    state.want.purpose = purpose
    return state


def test_a_wanted_roll_and_an_unused_roll_round_trip_exactly():
    # issue 15: the host sends the roll it waits for, so an untethered board still knows it
    state = _wanting(build_reference_state(), dice.KIND_ACTION_D3, 4, 2, 1)
    state.roll.unused = 1
    data = codec.encode(state)
    back = GameState()
    codec.decode(data, back)
    assert snapshot(back) == snapshot(state)
    assert (back.want.kind, back.want.count, back.want.who, back.want.purpose) == (1, 4, 2, 1)
    assert back.roll.unused == 1
    assert codec.encode(back) == data


def test_a_wanted_roll_costs_at_most_two_bytes_and_none_costs_no_byte():
    # 4 bits of dice count, and with a roll wanted 14 more (kind, roller, purpose): the
    # padding of the last byte may hold some of them.
    plain = len(codec.encode(build_reference_state()))
    wanting = _wanting(build_reference_state(), dice.KIND_CHANCE, 2, NO_SLOT, 6)
    assert plain <= 104
    assert plain < len(codec.encode(wanting)) <= plain + 2


def test_smart_dice_awaited_and_the_fighters_off_the_board_round_trip():
    # issue 30: two board signals, a wanted roll from smart dice and fighters with no slot
    state = _wanting(build_reference_state(), dice.KIND_ACTION_D3, 2, 1, 1)
    state.want.smart = 1
    state.off_board = 15
    back = GameState()
    codec.decode(codec.encode(state), back)
    assert (back.want.smart, back.off_board) == (1, 15)
    codec.decode(codec.encode(build_reference_state()), back)
    assert (back.want.smart, back.off_board) == (0, 0)


def test_more_fighters_off_the_board_than_the_field_holds_are_refused():
    state = build_reference_state()
    state.off_board = 16
    raises(codec.CodecError, codec.encode, state)


def test_each_degree_of_success_of_the_last_roll_round_trips_and_a_board_roll_has_none():
    # issue 42 item 2 (pf2-combat.txt [7]): 1 critical failure .. 4 critical success
    state = build_reference_state()
    back = GameState()
    for degree in range(5):
        state.roll.degree = degree
        data = codec.encode(state)
        codec.decode(data, back)
        assert back.roll.degree == degree and snapshot(back) == snapshot(state)
        assert codec.encode(back) == data
    # The degree's 3 bits fit the reference state's padding: it keeps its size.
    assert len(data) == len(codec.encode(build_reference_state()))
    dice.enter(back, dice.KIND_DN, (7,), 0, 20)  # the board's own roll: no degree
    assert back.roll.degree == 0
    back.roll.degree = 3
    back.roll.clear()
    assert back.roll.degree == 0


def test_a_degree_past_critical_success_or_on_no_roll_is_rejected():
    state = build_reference_state()
    state.roll.degree = 5
    err = raises(codec.CodecError, codec.decode, codec.encode(state), GameState())
    assert err.args == (40, 5)
    state = three_fighters()
    state.roll.clear()
    state.roll.degree = 2
    err = raises(codec.CodecError, codec.decode, codec.encode(state), GameState())
    assert err.args == (40, 2)
    state.roll.degree = 8
    raises(codec.CodecError, codec.encode, state)


def test_decoding_a_state_without_a_wanted_roll_clears_the_last_one():
    back = _wanting(build_reference_state(), dice.KIND_ACTION_D6, 3, 0, 2)
    back.roll.unused = 1
    codec.decode(codec.encode(three_fighters()), back)
    assert back.want.count == 0 and back.want.kind == 0 and back.want.who == NO_SLOT
    assert back.roll.unused == 0


def test_a_wanted_roll_of_another_kind_or_of_a_slot_not_in_use_is_rejected():
    # The encoder writes what it is given; the decoder takes only action dice, chance
    # flips, plain dice or a d100 (of two dice), wanted of a slot in use (or of nobody).
    for kind, count, who in (
        (dice.KIND_D100, 3, 0),
        (7, 2, 0),  # no such kind
        (dice.KIND_ACTION_D3, 2, 5),
    ):
        data = codec.encode(_wanting(three_fighters(), kind, count, who, 0))
        raises(codec.CodecError, codec.decode, data, GameState())


def test_a_wanted_d100_of_two_dice_round_trips():
    state = _wanting(three_fighters(), dice.KIND_D100, 2, 1, 1)
    back = GameState()
    codec.decode(codec.encode(state), back)
    want = back.want
    assert (want.kind, want.count, want.who, want.purpose) == (dice.KIND_D100, 2, 1, 1)


def _gridded(width, height, cells):
    state = three_fighters()
    roster.set_grid(state, width, height, cells)
    return state


def test_a_token_grid_round_trips_with_its_owners_and_ranks():
    state = _gridded(3, 2, (roster.grid_cell(0, 0), 0, roster.grid_cell(1, 2), 0, 0, 1 + 8))
    data = codec.encode(state)
    back = build_reference_state()
    codec.decode(data, back)
    assert snapshot(back) == snapshot(state)
    assert (back.grid_w, back.grid_h) == (3, 2)
    assert back.grid[2] == 2 | 2 << 3 and back.grid[5] == 1 | 1 << 3 and back.grid[1] == 0
    assert not any(back.grid[6:])


def test_no_grid_costs_one_bit_and_a_grid_is_dropped_by_a_state_without_one():
    state = three_fighters()
    plain = codec.encode(state)
    gridded = codec.encode(_gridded(2, 1, (roster.grid_cell(0, 1),)))
    # one bit without a grid; with one: 6 bits of size, then 1 + 4 bits a token, 1 a space
    assert len(plain) <= len(gridded) <= len(plain) + 2
    back = _gridded(4, 4, (roster.grid_cell(1, 1),) * 16)
    codec.decode(plain, back)
    assert (back.grid_w, back.grid_h) == (0, 0) and not any(back.grid)


def _with_two_teams(data, round_bits):
    """`data` of a four-team state with every score 0 (no score bits), its team count field
    rewritten to two teams."""
    out = bytearray(data)
    # the team count - 1 field, 2 bits (after the slot count and the turn's position)
    at = 8 + 4 + 5 + round_bits + 16 + (limits.SLOT_BITS + 1) + limits.SLOT_BITS + 4 + 4
    for k in range(2):
        bit = at + k
        value = 1 if k == 1 else 0  # 2 teams: 0b01
        mask = 0x80 >> (bit % 8)
        out[bit // 8] = (out[bit // 8] | mask) if value else (out[bit // 8] & ~mask)
    return bytes(out)


def test_the_decoder_refuses_a_token_of_a_team_not_in_play_or_of_an_unknown_rank():
    state = _gridded(2, 1, (roster.grid_cell(1, 0),))
    state.team_count = 4
    for t in range(4):
        state.scores[t] = 0
    round_bits = 0
    while state.round >> round_bits:
        round_bits += 1
    back = GameState()
    codec.decode(_with_two_teams(codec.encode(state), round_bits), back)
    assert back.team_count == 2 and back.grid[0] == roster.grid_cell(1, 0)
    state.grid[1] = roster.grid_cell(3, 0)  # team 3: in play among four, not among two
    codec.decode(codec.encode(state), back)
    raises(codec.CodecError, codec.decode, _with_two_teams(codec.encode(state), round_bits), back)
    state.grid[1] = 1 | (MAX_RANK + 1) << 3
    raises(codec.CodecError, codec.encode, state)


def test_the_encoder_refuses_a_grid_the_codec_cannot_hold():
    state = three_fighters()
    state.grid_w, state.grid_h = MAX_GRID_SIDE + 1, 1
    raises(codec.CodecError, codec.encode, state)
    state.grid_w, state.grid_h = 2, 0
    raises(codec.CodecError, codec.encode, state)
    state.grid_w, state.grid_h = 2, 2
    state.grid[4] = 1  # a token past the grid's cells would not come back
    raises(codec.CodecError, codec.encode, state)
    state.grid[4] = 0
    state.grid[0] = 3  # team 2 of a two-team table
    raises(codec.CodecError, codec.encode, state)
    raises(ValueError, roster.set_grid, state, MAX_GRID_SIDE + 1, 2)
    raises(ValueError, roster.grid_cell, 0, MAX_RANK + 1)
