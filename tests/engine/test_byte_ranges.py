"""A number too large for the bytes it is packed into is refused with the same error on every
interpreter: the board's code checks each range itself, rather than leaving it to a bytearray
or struct (ValueError or struct.error on CPython, OverflowError on CircuitPython, a silent
wrap on MicroPython). These run on CPython and on the MicroPython VM."""

from vmcheck import raises, three_fighters

from shared import codec, descriptor_pack, events, roster
from shared.codec import CodecError
from shared.events import EventError
from shared.link import messages as m
from shared.state import GameState


def _state_with_health(value):
    state = three_fighters()
    state.slots[1].health = value
    state.slots[1].health_max = value
    return state


def test_encode_refuses_a_health_over_a_byte_as_a_codec_error():
    for value in (256, 300, 1 << 20):
        err = raises(CodecError, codec.encode, _state_with_health(value))
        assert err.args[0] == 5, err.args  # a number too large for the codec


def test_encode_refuses_an_order_key_over_a_byte_as_a_codec_error():
    state = three_fighters()
    state.slots[0].order_key = 256
    err = raises(CodecError, codec.encode, state)
    assert err.args[0] == 5, err.args


def test_encode_still_takes_a_health_that_fits():
    state = _state_with_health(255)
    back = GameState()
    back.rules = state.rules
    codec.decode(codec.encode(state), back)
    assert back.slots[1].health == 255


def test_an_event_field_over_a_byte_is_an_event_error():
    buf = bytearray(events.EVENT_MAX)
    for code, slot, arg in ((256, 0, 0), (events.NEXT_TURN, 300, 0), (events.NEXT_TURN, 0, -1)):
        err = raises(EventError, events.write_event, buf, code, slot, arg)
        assert err.args[0] == 16, err.args
    assert events.write_event(buf, 255, 255, 255) == events.EVENT_HEADER  # a byte's top fits


def test_a_die_face_over_a_byte_is_an_event_error():
    buf = bytearray(events.EVENT_MAX)
    err = raises(EventError, events.write_event, buf, events.ROLL_ACTION, 0, 1, [1, 256])
    assert err.args[0] == 17, err.args


def test_a_link_field_over_its_bytes_is_a_value_error():
    buf = bytearray(m.HEADER + m.HELLO_BODY)
    checks = (
        (m.pack_ack, (buf, 0, 0, 256)),
        (m.pack_error, (buf, 0, 0, 300, 0)),
        (m.pack_ping, (buf, m.PING, 0, 0, 0x10000, 0, 0)),
        (m.pack_ping, (buf, m.PING, 0, 0, 0, 0, 256)),
        (m.put_header, (buf, 256, 0, 0)),
        (m.pack_hello, (buf, 0, 0, m.ROLE_HOST, 0, 0, 1, 0, 300, 0, 0, 0, 0)),
        (m.pack_hello, (buf, 0, 0, m.ROLE_HOST, 0, 0, 1, 0, 0, 0, 0, 0, 0, b"\x00\x00\x00\x00")),
    )
    for fn, args in checks[:-1]:
        err = raises(ValueError, fn, *args)
        assert err.args[0] == m.FIELD_RANGE, err.args
    checks[-1][0](*checks[-1][1])  # in range: packed


def test_a_descriptor_number_over_a_byte_is_a_descriptor_error():
    err = raises(
        descriptor_pack.DescriptorError,
        descriptor_pack.pack,
        "x",
        1,
        counters=(descriptor_pack.counter("c", 300),),
    )
    assert "byte" in str(err)
    err = raises(descriptor_pack.DescriptorError, descriptor_pack.pack, "x", 256)
    assert "byte" in str(err)


def test_a_grid_cell_or_order_reason_over_a_byte_is_a_value_error():
    state = three_fighters()
    raises(ValueError, roster.set_grid, state, 2, 2, [0, 256])
    raises(ValueError, roster.set_order, state, [0, 1, 2], [0, 0, 256])
