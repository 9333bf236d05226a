"""Property tests (hypothesis): whatever bytes arrive, the link layer neither raises nor
grows, and the link keeps working afterwards."""

from __future__ import annotations

from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from linkcheck import Table

from host.rulesets.korxsol.device import BURN, FROST
from shared import dice, host_only
from shared import events as ev
from shared.descriptor_pack import counter, pack
from shared.host_only import make_event
from shared.limits import MAX_DICE
from shared.link import board as b
from shared.link import framing
from shared.link import messages as m
from shared.link.digest import state_digest
from shared.reference import build_reference_descriptor

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
    assert decode_all(decoder, b"\x00" + host_only.frame(PAYLOAD))[-1:] == [PAYLOAD]


@given(st.binary(min_size=framing.MIN_PAYLOAD, max_size=framing.MAX_PAYLOAD))
@settings(max_examples=300, deadline=None)
def test_any_payload_round_trips_through_a_frame(payload: bytes) -> None:
    wire = host_only.frame(payload)
    assert 0 not in wire[:-1] and len(wire) <= framing.MAX_WIRE
    assert decode_all(framing.FrameDecoder(), wire) == [payload]


@given(st.binary(max_size=framing.MAX_WIRE), st.integers(min_value=0, max_value=255))
@settings(max_examples=200, deadline=None, derandomize=True)
def test_a_corrupted_byte_never_yields_a_wrong_payload(payload_tail: bytes, flip: int) -> None:
    payload = PAYLOAD + payload_tail[: framing.MAX_PAYLOAD - len(PAYLOAD)]
    wire = bytearray(host_only.frame(payload))
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
    record = make_event(ev.NEXT_TURN)
    table.board.submit_record(table.now, record)
    assert table.settle(8000)
    assert table.applied[-1:] == [record] and table.applied.count(record) == 1
    assert state_digest(table.board.state) == state_digest(table.host.state)


# Presses the reference state takes (the board refuses, locally, any a forged snapshot or
# event has made impossible; those never reach the host).
PRESSES = [
    make_event(ev.NEXT_TURN),
    make_event(ev.NEXT_PHASE),
    make_event(ev.ROLL_ACTION, 0, dice.KIND_ACTION_D3, (3, 1, 2)),
    make_event(ev.COUNTER_UP, 2, FROST),
    make_event(ev.COUNTER_DOWN, 2, FROST),
    make_event(ev.COUNTER_UP, 5, BURN),
    make_event(ev.SELECT, 1),
    make_event(ev.UNDO),
]
DESCRIPTORS = (
    build_reference_descriptor(),
    pack("other", 2, counters=(counter("a", 9),), phases=("a", "b")),
)
# Any payload at all with a good CRC; and, since those rarely parse, payloads that start
# with a real message type and a header a real peer could send.
ANY_PAYLOAD = st.binary(min_size=framing.MIN_PAYLOAD, max_size=framing.MAX_PAYLOAD)
TYPED_PAYLOAD = st.builds(
    lambda mtype, seq, ack, body: bytes((mtype, seq, ack)) + body,
    st.integers(min_value=m.HELLO, max_value=m.DESCRIPTOR),
    st.integers(min_value=0, max_value=255),
    st.integers(min_value=0, max_value=255),
    st.one_of(
        st.binary(max_size=20),
        st.sampled_from(PRESSES),  # a well-formed EVENT body
        st.sampled_from(DESCRIPTORS),  # a well-formed DESCRIPTOR body: ours, or another's
        st.binary(min_size=m.HELLO_BODY, max_size=m.HELLO_BODY).map(
            lambda body: bytes((m.PROTOCOL_VERSION,)) + body[1:]  # a HELLO in our version
        ),
    ),
)
JUNK = st.lists(
    st.tuples(st.booleans(), st.one_of(ANY_PAYLOAD, TYPED_PAYLOAD), st.integers(0, 400)),
    min_size=1,
    max_size=6,
)


def settled(table: Table, ms: int) -> bool:
    """Step until the board's journal is empty, the host has nothing in flight, both are
    linked and their states agree (or `ms` passes)."""
    for _ in range(ms // 5):
        table.run(5)
        if (
            table.board.linked
            and table.board.journal.count == 0
            and table.host.quiet()
            and not table.host._dirty
            and state_digest(table.board.state) == state_digest(table.host.state)
        ):
            return True
    return False


def press(table: Table, records: list[bytes]) -> list[bytes]:
    """Submit each press on the board; returns those it took (a forged snapshot or event
    may have left a state in which the board's own rules refuse some)."""
    taken = []
    for record in records:
        if table.board.submit_record(table.now, record) == b.ACCEPTED:
            taken.append(record)
        table.run(5)
    return taken


def recovers_then_takes(table: Table, after: list[bytes]) -> None:
    """After junk: the link comes back, and every press made then is applied exactly once,
    in order, and none is refused."""
    assert settled(table, 20000), "the link did not recover from the junk"
    mark, refused = len(table.applied), len(table.refused)
    taken_after = press(table, after)
    assert settled(table, 20000)
    assert table.applied[mark:] == taken_after
    assert table.refused[refused:] == []


@given(
    st.lists(st.sampled_from(PRESSES), max_size=5),
    JUNK,
    st.lists(st.sampled_from(PRESSES), min_size=1, max_size=5),
)
@settings(max_examples=150, deadline=None, phases=tuple(set(Phase) - {Phase.explain}))
def test_crc_valid_junk_never_wedges_the_link_nor_loses_or_repeats_a_press(
    before: list[bytes], junk: list[tuple[bool, bytes, int]], after: list[bytes]
) -> None:
    """Frames with a good CRC around any bytes (a damaged frame that the CRC-16 lets
    through, 1 in 65,536, or a confused peer) arrive between normal exchanges. Whatever
    they are, the link must come back: every press is applied exactly once and in order,
    the presses after the junk too, and both ends end up with the same state. A forged
    EVENT with the very sequence number the host expects is applied (nothing tells it from
    the board's own); it shows as an extra entry, never as a press lost or repeated."""
    table = Table()
    table.run(100)
    taken = press(table, before)
    assert settled(table, 5000)
    assert table.applied == taken
    for to_board, payload, wait in junk:
        (table.down if to_board else table.up).inject(host_only.frame(payload))
        table.run(wait)
    recovers_then_takes(table, after)
    assert table.applied[: len(taken)] == taken


@given(
    st.lists(
        st.one_of(
            st.sampled_from(PRESSES),
            st.tuples(st.booleans(), st.one_of(ANY_PAYLOAD, TYPED_PAYLOAD), st.integers(0, 60)),
        ),
        min_size=1,
        max_size=12,
    ),
    st.lists(st.sampled_from(PRESSES), min_size=1, max_size=5),
)
@settings(max_examples=150, deadline=None, phases=tuple(set(Phase) - {Phase.explain}))
def test_crc_valid_junk_among_presses_in_flight_never_wedges_the_link(
    steps: list[bytes | tuple[bool, bytes, int]], after: list[bytes]
) -> None:
    """The same junk while presses are in flight. A forged frame can then pass for a real
    one (an ACK for an event still on its way, an EVENT with the number of one in flight)
    and cost that press, which no check can tell; see docs/protocol.md, "Damaged frames
    that pass the CRC". What must hold: the link comes back, the two states agree, and
    every press after that is applied exactly once, in order."""
    table = Table()
    table.run(100)
    for step in steps:
        if isinstance(step, bytes):
            press(table, [step])
        else:
            to_board, payload, wait = step
            (table.down if to_board else table.up).inject(host_only.frame(payload))
            table.run(wait)
    recovers_then_takes(table, after)


# Presses the board takes whatever its state, with every face a journal record can hold:
# 1..10 on a D10 (the largest face, 10, packed into half a byte), 0..9 on a d100's dice.
A_PRESS = st.one_of(
    st.just(make_event(ev.NEXT_TURN)),
    st.lists(st.integers(1, 10), min_size=1, max_size=MAX_DICE).map(
        lambda faces: make_event(ev.ROLL_ACTION, 0, dice.KIND_D10, faces)
    ),
    st.tuples(st.integers(0, 9), st.integers(0, 9)).map(
        lambda faces: make_event(ev.D100, 0, 0, faces)
    ),
)


@given(st.lists(st.lists(A_PRESS, min_size=1, max_size=30), min_size=1, max_size=6))
@settings(max_examples=25, deadline=None)
def test_every_offline_press_reaches_the_host_whole_and_in_order(
    batches: list[list[bytes]],
) -> None:
    # The board's journal keeps each press with its faces two to a byte, in a ring whose
    # start moves on as the host acknowledges: whatever was pressed offline, in batches
    # between reconnects, the host applies as it was pressed, once, in order.
    table = Table()
    table.run(100)
    pressed = []
    for batch in batches:
        table.plug(False)
        table.run(4000)  # the link times out on both ends
        for record in batch:
            assert table.board.submit_record(table.now, record) == b.ACCEPTED
            pressed.append(record)
        table.plug(True)
        assert table.settle(5000)
    assert table.applied == pressed


def test_a_journal_slot_holds_the_longest_record() -> None:
    assert b._SLOT == ev.EVENT_HEADER + (MAX_DICE + 1) // 2


def test_the_longest_frame_fits_the_boards_empty_tail() -> None:
    # The board frames each frame into its tail (behind what its stream has not taken yet):
    # into an empty tail, any frame fits, the longest (a snapshot) and a HELLO's resync byte.
    # No zero byte in it: COBS's longest encoding (a byte more per 254).
    payload = bytearray(b"\x01" * (framing.MAX_PAYLOAD + framing.CRC_BYTES))
    out = bytearray(framing.MAX_WIRE)
    assert framing.encode_frame(payload, framing.MAX_PAYLOAD, out) == framing.MAX_WIRE
    assert 1 + framing.MAX_WIRE <= b._TAIL
