"""Frames on the wire (shared/link/framing.py): CRC-16/CCITT-FALSE, COBS, and a decoder
that drops and counts every kind of bad frame without raising or growing."""

from vmcheck import raises

from shared import host_only
from shared.link import framing


def _decode_all(decoder, data):
    """Every payload the decoder yields from data, in order."""
    out = []
    pos = 0
    while pos < len(data):
        pos = decoder.feed(data, pos, len(data))
        if decoder.length:
            out.append(bytes(decoder.buf[: decoder.length]))
    return out


def test_the_crc_is_ccitt_false_with_its_published_check_value():
    assert framing.crc16(b"123456789", 0, 9) == 0x29B1


def test_cobs_matches_the_published_examples():
    cases = (
        (b"\x00", b"\x01\x01"),
        (b"\x00\x00", b"\x01\x01\x01"),
        (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
        (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
        (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    )
    for raw, encoded in cases:
        out = bytearray(16)
        n = framing.cobs_encode(raw, len(raw), out)
        assert bytes(out[:n]) == encoded
        back = bytearray(encoded)
        m = framing.cobs_decode_in_place(back, len(back))
        assert bytes(back[:m]) == raw


def test_every_payload_length_round_trips_and_holds_no_zero_byte():
    decoder = framing.FrameDecoder()
    for n in range(framing.MIN_PAYLOAD, framing.MAX_PAYLOAD + 1):
        payload = bytes((i * 7) & 0xFF for i in range(n))  # zeros included
        wire = host_only.frame(payload)
        assert wire[-1] == 0 and 0 not in wire[:-1]
        assert len(wire) <= framing.MAX_WIRE
        assert _decode_all(decoder, wire) == [payload]
    assert decoder.dropped() == 0


def test_a_payload_longer_than_the_maximum_is_refused_by_the_sender():
    raises(ValueError, host_only.frame, bytes(framing.MAX_PAYLOAD + 1))


def test_a_corrupted_frame_is_dropped_and_counted():
    good = host_only.frame(b"\x03\x01\x00\x01\xff\x00\x00")
    bad = bytearray(good)
    bad[3] ^= 0x40
    decoder = framing.FrameDecoder()
    assert _decode_all(decoder, bytes(bad) + good) == [b"\x03\x01\x00\x01\xff\x00\x00"]
    assert decoder.dropped() == 1


def test_a_truncated_frame_is_dropped_and_the_next_one_decodes():
    first = host_only.frame(b"\x05\x01\x02" + b"\xaa" * 20)
    second = host_only.frame(b"\x04\x01\x02\x00")
    decoder = framing.FrameDecoder()
    # The cable is pulled mid-frame; the first frame's tail never arrives. Without a
    # delimiter between them the next frame is lost with it (retransmission covers that);
    # a sender that starts over puts a 0x00 first, and then only the stump is lost.
    assert _decode_all(decoder, first[:10] + second) == []
    assert _decode_all(decoder, first[:10] + b"\x00" + second) == [b"\x04\x01\x02\x00"]
    assert decoder.dropped() == 2


def test_garbage_between_frames_is_dropped_and_counted():
    payload = b"\x04\x07\x09\x01"
    wire = host_only.frame(payload)
    garbage = b"\x13\x37\xff\xfe\x00\x42\x42\x00\x01\x00"
    decoder = framing.FrameDecoder()
    assert _decode_all(decoder, garbage + wire + garbage + wire) == [payload, payload]
    assert decoder.dropped() >= 2
    assert decoder.frames == 2


def test_an_oversize_frame_is_dropped_without_growing_the_buffer():
    decoder = framing.FrameDecoder()
    size = len(decoder.buf)
    payload = b"\x04\x01\x01\x00"
    out = _decode_all(decoder, b"\x07" * 5000 + b"\x00" + host_only.frame(payload))
    assert out == [payload]
    assert decoder.oversize == 1
    assert len(decoder.buf) == size


def test_empty_frames_are_resync_markers_not_errors():
    payload = b"\x04\x01\x01\x00"
    decoder = framing.FrameDecoder()
    assert _decode_all(decoder, b"\x00\x00\x00" + host_only.frame(payload)) == [payload]
    assert decoder.dropped() == 0


def test_a_frame_too_short_for_a_header_is_malformed():
    decoder = framing.FrameDecoder()
    assert _decode_all(decoder, host_only.frame(b"\x04\x01")) == []
    assert decoder.malformed == 1


def test_reset_forgets_a_partial_frame():
    from shared.link.host import HostDecoder  # only the host resets its decoder

    payload = b"\x04\x01\x01\x00"
    decoder = HostDecoder()
    _decode_all(decoder, b"\x05\x06\x07")
    decoder.reset()
    assert _decode_all(decoder, host_only.frame(payload)) == [payload]
