"""The board's link over a USB send buffer that takes only what fits (CircuitPython's
usb_cdc.data with write_timeout = 0: 256 B on SAMD51 and RP2040, the rest not taken and the
count returned). The board keeps what was not taken and sends it first on the next poll:
a full window of events gets across whole, with nothing lost and nothing resent."""

from __future__ import annotations

from host.board.vm.fakehw import SEND_BUFFER, Stream
from shared import dice, host_only
from shared import events as ev
from shared.host_only import make_event
from shared.link import framing
from shared.link import messages as m
from shared.link.board import ACCEPTED, BoardSession
from shared.reference import build_reference_state

SIX_DICE = make_event(ev.ROLL_ACTION, arg=dice.KIND_ACTION_D6, faces=(1, 2, 3, 4, 5, 6))


def host_frame(mtype: int, seq: int, ack: int, body: bytes = b"") -> bytes:
    payload = bytearray(m.HEADER + len(body))
    m.put_header(payload, mtype, seq, ack)
    payload[m.HEADER :] = body
    return host_only.frame(bytes(payload))


def host_hello() -> bytes:
    hello = bytearray(m.HEADER + m.HELLO_BODY)
    m.pack_hello(hello, 0xFF, 0xFF, m.ROLE_HOST, m.HELLO_ACCEPT, 0, 1, 0, 0, 0, 0, 0, 0)
    return host_only.frame(bytes(hello))


def frames_in(data: bytes) -> tuple[list[bytes], framing.FrameDecoder]:
    decoder = framing.FrameDecoder()
    found = []
    pos = 0
    while pos < len(data):
        pos = decoder.feed(data, pos, len(data))
        if decoder.length:
            found.append(bytes(decoder.buf[: decoder.length]))
    return found, decoder


def unsent(session: BoardSession) -> int:
    """Bytes the board has written that its stream has not taken yet (they wait in its
    tail)."""
    return session._tail_n


def linked_board(drain_per_ms: int) -> tuple[BoardSession, Stream]:
    stream = Stream(send_buffer=SEND_BUFFER, drain_per_ms=drain_per_ms)
    session = BoardSession(stream, build_reference_state(), nonce=1, now_ms=0)
    stream.put(host_hello())
    session.poll(0)
    assert session.linked
    stream.drain(10)
    stream.take_written()  # the board's HELLO
    return session, stream


def test_a_full_window_of_events_gets_across_a_256_byte_send_buffer_whole() -> None:
    session, stream = linked_board(drain_per_ms=64)
    assert len(host_only.frame(bytes(3) + SIX_DICE)) == 17
    for _ in range(framing.WINDOW):  # 16 frames of 17 B = 272 B in one go
        assert session.submit_record(10, bytearray(SIX_DICE)) == ACCEPTED
    assert session.short_writes == 1  # the buffer took 256 B: 16 B waited on the board
    assert unsent(session) == 16
    now = 10
    while unsent(session) or stream.buffer is not None and stream.buffer.count:
        now += 1
        stream.drain(now)
        session.poll(now)
    events, decoder = frames_in(bytes(stream.take_written()))
    sent = [f for f in events if f[0] == m.EVENT | m.FROM_BOARD]
    assert [f[1] for f in sent] == list(range(framing.WINDOW))
    assert all(f[m.HEADER :] == SIX_DICE for f in sent)
    assert decoder.dropped() == 0 and decoder.dropped_bytes == 0
    stream.put(host_frame(m.ACK, 0xFF, framing.WINDOW - 1, b"\x00"))
    session.poll(now + 1)
    assert session.journal.count == 0
    assert session.retransmits == 0


def test_frames_written_while_the_send_buffer_is_full_wait_in_order_behind_the_tail() -> None:
    session, stream = linked_board(drain_per_ms=64)
    for _ in range(framing.WINDOW):
        session.submit_record(10, bytearray(SIX_DICE))
    stream.put(host_frame(m.PING, 0xFF, 0xFF, bytes(m.PING_BODY)))
    session.poll(10)  # no time has passed: the buffer is still full, the PONG waits too
    assert unsent(session) > 16
    now = 10
    while unsent(session) or stream.buffer is not None and stream.buffer.count:
        now += 1
        stream.drain(now)
        session.poll(now)
    frames, decoder = frames_in(bytes(stream.take_written()))
    # The PONG, and the ERROR that asks for a descriptor (none was sent here).
    assert [f[0] for f in frames] == [m.EVENT | m.FROM_BOARD] * framing.WINDOW + [
        m.PONG | m.FROM_BOARD,
        m.ERROR | m.FROM_BOARD,
    ]
    assert decoder.dropped() == 0


def test_a_frame_that_finds_the_tail_full_is_dropped_whole_and_the_journal_resends_it() -> None:
    session, stream = linked_board(drain_per_ms=0)  # the host reads nothing for a while
    for _ in range(40):
        session.submit_record(10, bytearray(SIX_DICE))
    now = 10
    for _ in range(100):  # the window times out and is resent into a full buffer
        now += 10
        stream.drain(now)
        session.poll(now)
        stream.put(host_frame(m.ACK, 0xFF, 0xFF, b"\x00"))  # the link stays up
    assert session.tail_dropped > 0
    assert stream.buffer is not None
    stream.buffer.drain_per_ms = 64  # the host reads again
    acked = 0xFF
    decoder = framing.FrameDecoder()
    for _ in range(400):
        now += 5
        stream.drain(now)
        session.poll(now)
        data = bytes(stream.take_written())
        pos = 0
        while pos < len(data):
            pos = decoder.feed(data, pos, len(data))
            f = decoder.buf
            if decoder.length and f[0] == m.EVENT | m.FROM_BOARD and f[1] == (acked + 1) & 0xFF:
                acked = f[1]
        stream.put(host_frame(m.ACK, 0xFF, acked, b"\x00"))
        if not session.journal.count:
            break
    assert session.journal.count == 0  # every event got across, in order
    assert acked == 39
    assert decoder.dropped() == 0  # frames went whole or not at all: none was cut
