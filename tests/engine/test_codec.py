"""The binary state codec (shared/codec.py): exact round trips and clean rejection of bad
bytes. Not a rules test; the state it carries is the one the rules above fill in."""

from vmcheck import raises, snapshot, three_fighters

from shared import codec
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
    state.slots[0].kor = 300
    raises(codec.CodecError, codec.encode, state)
    state.slots[0].kor = 10
    state.slots[0].label = "TooLong"
    raises(codec.CodecError, codec.encode, state)
