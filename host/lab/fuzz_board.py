"""The board-side fuzz targets (host/lab/fuzz.py runs them): the code in shared/ that reads
what arrives over the link, run here on the desktop's Python.

- framing: any bytes into a FrameDecoder never raise, never grow its buffer, and every
  intact frame that follows a delimiter still comes out, in order;
- messages: `event_record_problem`, the host's HELLO reader and the descriptor check
  answer every payload without raising;
- codec: `decode` raises CodecError and nothing else, and whatever decodes encodes back
  byte for byte;
- events: any record into `apply_event` applies or raises EventError, and a refusal
  leaves the state as it was;
- descriptor: `problem` answers every byte string, and what it passes loads into a
  descriptor that holds exactly those bytes.
"""

from __future__ import annotations

import random
from functools import lru_cache

from host.lab.fuzz import target
from host.lab.fuzz_host import mutate
from host.rulesets.korxsol import device as korxsol_device
from shared import codec, descriptor, host_only
from shared import events as ev
from shared.descriptor_pack import encoded
from shared.host_only import make_event
from shared.limits import NO_SLOT
from shared.link import framing
from shared.link import messages as m
from shared.link.host import Hello, UndoHistory
from shared.reference import build_reference_descriptor, build_reference_state
from shared.state import GameState


def _payload(rng: random.Random) -> bytes:
    """A payload of a random type: random bytes, or a real message damaged a little."""
    mtype = rng.randint(0, 9) | (m.FROM_BOARD if rng.random() < 0.5 else 0)
    body = rng.randbytes(rng.randint(0, 24))
    payload = bytes((mtype, rng.randrange(256), rng.randrange(256))) + body
    if rng.random() < 0.5:
        return mutate(rng, _messages()[rng.randrange(len(_messages()))], edits=3)
    return payload


@lru_cache(maxsize=1)
def _messages() -> tuple[bytes, ...]:
    """Well-formed payloads of every kind, for mutation."""
    buf = bytearray(framing.MAX_PAYLOAD + framing.CRC_BYTES)
    out = []
    n = m.pack_hello(buf, 4, 255, m.ROLE_BOARD, 0, 1, 2, m.PROFILE_TRELLIS_M4, 8, 4, 9, 5, 7)
    out.append(bytes(buf[:n]))
    n = m.pack_ping(buf, m.PING, 3, 6, 0xA1B2, 0x0123, 0)
    out.append(bytes(buf[:n]))
    n = m.pack_ack(buf, 3, 5, m.ACK_GAP)
    out.append(bytes(buf[:n]))
    n = m.pack_ack(buf, 3, 5, m.ACK_GAP, m.FROM_BOARD)
    out.append(bytes(buf[:n]))
    n = m.pack_error(buf, 3, 6, m.E_VERSION, m.PROTOCOL_VERSION)
    out.append(bytes(buf[:n]))
    for record in _records():
        out.append(bytes((m.EVENT | m.FROM_BOARD, 5, 2)) + record)
    out.append(bytes((m.SNAPSHOT, 7, 6)) + _reference_encoded())
    out.append(bytes((m.DESCRIPTOR, 6, 2)) + korxsol_device.descriptor())
    return tuple(out)


@lru_cache(maxsize=1)
def _records() -> tuple[bytes, ...]:
    """One well-formed record of each event code."""
    return (
        make_event(ev.NEXT_TURN),
        make_event(ev.NEXT_PHASE),
        make_event(ev.ROLL_ACTION, 0, 1, (3, 1, 2)),
        make_event(ev.CHANCE, NO_SLOT, 0, (1, 0)),
        make_event(ev.D100, 2, 0, (4, 7)),
        make_event(ev.SELECT, 3),
        make_event(ev.COUNTER_UP, 1, 0),
        make_event(ev.COUNTER_DOWN, 1, 2),
        make_event(ev.UNDO),
        make_event(ev.END_COMBAT),
        make_event(ev.RESET),
    )


@lru_cache(maxsize=1)
def _reference_encoded() -> bytes:
    return bytes(codec.encode(build_reference_state()))


def _fingerprint(state: GameState) -> tuple:
    """What the link compares of a state: its encoding, its version and its descriptor."""
    return bytes(codec.encode(state)), state.version, bytes(state.rules.raw)


# ------------------------------------------------------------------------------ framing
@target("framing")
def fuzz_framing(rng: random.Random) -> None:
    decoder = framing.FrameDecoder()
    size = len(decoder.buf)
    stream = bytearray()
    intact = []
    for _ in range(rng.randint(1, 12)):
        pick = rng.random()
        if pick < 0.3:
            stream += rng.randbytes(rng.randint(0, 400))  # noise, zero bytes and all
        elif pick < 0.6:
            stream += mutate(rng, host_only.frame(_payload(rng)[: framing.MAX_PAYLOAD]), edits=3)
        else:
            payload = _payload(rng)[: framing.MAX_PAYLOAD]
            if len(payload) >= framing.MIN_PAYLOAD:
                stream += b"\x00" + host_only.frame(payload)  # ends whatever came before
                intact.append(payload)
    got = []
    pos = 0
    while pos < len(stream):
        # Fed in random pieces, as a serial port hands them over.
        end = min(len(stream), pos + rng.randint(1, 300))
        while pos < end:
            pos = decoder.feed(stream, pos, end)
            assert len(decoder.buf) == size, "the decoder's buffer grew"
            if decoder.length:
                assert framing.MIN_PAYLOAD <= decoder.length <= framing.MAX_FRAME
                got.append(bytes(decoder.buf[: decoder.length]))
    found = iter(got)
    missing = [p for p in intact if not any(g == p for g in found)]
    assert not missing, f"{len(missing)} intact frames of {len(intact)} were lost"
    assert decoder.frames == len(got)


# ----------------------------------------------------------------------------- messages
@target("messages")
def fuzz_messages(rng: random.Random) -> None:
    buf = bytearray(framing.MAX_PAYLOAD + framing.CRC_BYTES)
    payload = _payload(rng)[: len(buf)]
    buf[: len(payload)] = payload
    n = len(payload)
    start = min(n, m.HEADER)
    problem = m.event_record_problem(buf, start, n - start)
    assert isinstance(problem, int)
    if not problem:
        record = bytes(buf[start:n])
        assert ev.EVENT_HEADER <= len(record) <= ev.EVENT_MAX
        assert len(record) == ev.EVENT_HEADER + record[3]
        state = build_reference_state()
        before = _fingerprint(state)
        try:
            ev.apply_event(state, record)
        except ev.EventError:
            assert _fingerprint(state) == before, "a refused event changed the state"
    hello = Hello()
    complete = hello.unpack(buf, n)
    assert complete == (n >= m.HEADER + m.HELLO_BODY)
    if complete:
        assert hello.protocol == buf[m.HEADER] and 0 <= hello.nonce <= 0xFFFF
    where = descriptor.problem(buf, start, n - start)
    assert 0 <= where <= n - start + 1


# -------------------------------------------------------------------------------- codec
@target("codec")
def fuzz_codec(rng: random.Random) -> None:
    if rng.random() < 0.1:
        data = rng.randbytes(rng.randint(0, codec.MAX_ENCODED + 4))
    else:
        data = mutate(rng, _reference_encoded(), edits=rng.randint(1, 4))
    state = build_reference_state()
    try:
        codec.decode(data, state)
    except codec.CodecError:
        return
    again = bytes(codec.encode(state))
    assert again == data, f"decoded {data.hex()} but encodes back as {again.hex()}"


# ------------------------------------------------------------------------------- events
def _record(rng: random.Random) -> bytes:
    pick = rng.random()
    if pick < 0.2:
        return rng.randbytes(rng.randint(0, ev.EVENT_MAX + 2))
    record = _records()[rng.randrange(len(_records()))]
    if pick < 0.6:
        return record
    return mutate(rng, record, edits=2)


@target("events")
def fuzz_events(rng: random.Random) -> None:
    state = build_reference_state()
    undo = UndoHistory(depth=1)  # one level, as the board keeps
    for _ in range(rng.randint(1, 30)):
        record = _record(rng)
        before = _fingerprint(state)
        try:
            ev.apply_event(state, record, undo)
        except ev.EventError:
            assert _fingerprint(state) == before, f"refusing {record.hex()} changed the state"
        # Every state the events reach is one the codec and the link can carry.
        check = GameState()
        check.rules.load(state.rules.raw, 0, len(state.rules.raw))
        codec.decode(codec.encode(state), check)


# --------------------------------------------------------------------------- descriptor
@lru_cache(maxsize=1)
def _descriptors() -> tuple[bytes, ...]:
    return (
        bytes(build_reference_descriptor()),
        bytes(korxsol_device.descriptor()),
        bytes(descriptor.DEFAULT),
    )


@target("descriptor")
def fuzz_descriptor(rng: random.Random) -> None:
    base = _descriptors()[rng.randrange(len(_descriptors()))]
    if rng.random() < 0.1:
        data = rng.randbytes(rng.randint(0, descriptor.MAX_DESCRIPTOR + 4))
    else:
        data = mutate(rng, base, edits=rng.randint(1, 4))
    buf = bytearray(framing.MAX_PAYLOAD)
    start = rng.randint(0, 3)
    data = data[: len(buf) - start]
    buf[start : start + len(data)] = data
    where = descriptor.problem(buf, start, len(data))
    assert 0 <= where <= len(data) + 1
    if where:
        return
    rules = descriptor.Descriptor()
    rules.load(buf, start, len(data))
    assert encoded(rules) == data
    assert descriptor.problem(rules.raw, 0, len(data)) == 0
    state = build_reference_state()
    assert descriptor.state_fits(rules, state) in (True, False)
