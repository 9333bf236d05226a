"""The binary state codec (shared/codec.py): exact round trips and clean rejection of bad
bytes. Not a rules test; the state it carries is the one the rules above fill in."""

from vmcheck import raises, snapshot, three_fighters

from shared import codec, cooldowns, dice, roster
from shared.limits import MAX_COOLDOWNS, MAX_COUNTER, MAX_COUNTERS, MAX_SLOTS, NO_SLOT
from shared.reference import build_reference_state
from shared.state import GameState


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


def test_the_reference_state_fits_in_100_bytes():
    # The size goal of the foundation issue; `turnlight bench` reports the figure.
    assert len(codec.encode(build_reference_state())) <= 100


def test_the_largest_state_fits_the_maximum():
    state = GameState()
    state.team_count = 4
    for i in range(MAX_SLOTS):
        roster.add_slot(state, "W%d_" % i, i % 4, 15, 7, 255)
        slot = state.slots[i]
        for k in range(MAX_COUNTERS):
            slot.counters[k] = MAX_COUNTER
        slot.flags = 0xFF
        for k in range(MAX_COOLDOWNS):
            slot.cd_id[k] = k + 1
            slot.cd_left[k] = 15
        slot.cd_pending = (1 << MAX_COOLDOWNS) - 1
    for i in range(4):
        state.scores[i] = -32768
    state.round = 0xFFFF
    dice.enter(state, dice.KIND_DN, (255,) * 15, 7, sides=255)
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
    raises(ValueError, roster.add_slot, state, "Kae", 0, 16)
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


def test_a_wanted_roll_costs_two_bytes_and_none_costs_no_byte():
    plain = len(codec.encode(build_reference_state()))
    wanting = _wanting(build_reference_state(), dice.KIND_CHANCE, 2, NO_SLOT, 6)
    assert plain == 99
    assert len(codec.encode(wanting)) == plain + 2


def test_decoding_a_state_without_a_wanted_roll_clears_the_last_one():
    back = _wanting(build_reference_state(), dice.KIND_ACTION_D6, 3, 0, 2)
    back.roll.unused = 1
    codec.decode(codec.encode(three_fighters()), back)
    assert back.want.count == 0 and back.want.kind == 0 and back.want.who == NO_SLOT
    assert back.roll.unused == 0


def test_a_wanted_roll_of_another_kind_or_of_a_slot_not_in_use_is_rejected():
    # The encoder writes what it is given; the decoder takes only action dice or chance
    # flips, wanted of a slot in use (or of nobody).
    for kind, who in ((dice.KIND_D100, 0), (dice.KIND_DN, 0), (dice.KIND_ACTION_D3, 5)):
        data = codec.encode(_wanting(three_fighters(), kind, 2, who, 0))
        raises(codec.CodecError, codec.decode, data, GameState())
