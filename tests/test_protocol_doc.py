"""docs/protocol.md's test vectors are what the code sends and accepts, field by field."""

from __future__ import annotations

import re

import pytest

from host.board.micropython_vm import ROOT
from host.lab.bench_link import descriptor_frame, roll_event_frame, snapshot_frame
from host.rulesets.korxsol import device as korxsol_device
from shared import codec, descriptor, dice, host_only
from shared import events as ev
from shared.host_only import make_event
from shared.link import framing
from shared.link import messages as m
from shared.reference import build_reference_state

DOC = (ROOT / "docs" / "protocol.md").read_text()


def vectors() -> dict[str, tuple[bytes, str]]:
    block = re.search(r"```vectors\n(.*?)```", DOC, re.S)
    assert block, "docs/protocol.md has no vectors block"
    found = {}
    for line in block.group(1).splitlines():
        name, data, wire = (part.strip() for part in line.split("|"))
        found[name] = (bytes.fromhex(data), wire)
    return found


VECTORS = vectors()


def built(name: str) -> bytes:
    """Each message vector built from the fields the document names."""
    buf = bytearray(framing.MAX_PAYLOAD + 2)
    if name == "hello-board":
        n = m.pack_hello(
            buf,
            4,
            255,
            m.ROLE_BOARD,
            0,
            1,
            2,
            m.PROFILE_TRELLIS_M4,
            8,
            4,
            0x0123,
            5,
            0xBEEF,
            bytes.fromhex("c0ffee42"),
        )
    elif name == "hello-accept":
        n = m.pack_hello(buf, 255, 4, m.ROLE_HOST, m.HELLO_ACCEPT, 0, 1, 0, 0, 0, 0x42, 0, 0)
    elif name == "event-roll":
        record = make_event(ev.ROLL_ACTION, 0, dice.KIND_ACTION_D3, (3, 1, 2, 3, 3, 2))
        return bytes([m.EVENT | m.FROM_BOARD, 5, 2]) + record
    elif name == "event-roll-dice":
        record = make_event(ev.ROLL_DICE, 1, 3, (6, 1, 7), sides=(6, 6, 8))
        return bytes([m.EVENT | m.FROM_BOARD, 8, 2]) + record
    elif name == "event-next-turn":
        return bytes([m.EVENT | m.FROM_BOARD, 6, 2]) + make_event(ev.NEXT_TURN)
    elif name == "event-counter-up":
        record = make_event(ev.COUNTER_UP, 3, korxsol_device.BURN)
        return bytes([m.EVENT | m.FROM_BOARD, 7, 2]) + record
    elif name == "ack-gap":
        n = m.pack_ack(buf, 3, 5, m.ACK_GAP)
    elif name == "ack-board":
        n = m.pack_ack(buf, 6, 3, 0, m.FROM_BOARD)
    elif name == "ping":
        n = m.pack_ping(buf, m.PING, 3, 6, 0xA1B2, 0x0123, 0)
    elif name == "pong":
        n = m.pack_ping(buf, m.PONG | m.FROM_BOARD, 6, 3, 0xA1B2, 0x0123, 2)
    elif name == "error-version":
        n = m.pack_error(buf, 3, 6, m.E_VERSION, m.PROTOCOL_VERSION, m.FROM_BOARD)
    elif name == "snapshot-reference":
        return bytes([m.SNAPSHOT, 7, 6]) + codec.encode(build_reference_state())
    elif name == "snapshot-wanted":
        state = build_reference_state()
        state.want.kind = dice.KIND_ACTION_D3
        state.want.count = 4
        state.want.who = 2
        state.want.purpose = 1
        return bytes([m.SNAPSHOT, 8, 6]) + codec.encode(state)
    elif name == "descriptor-korxsol":
        return bytes([m.DESCRIPTOR, 6, 2]) + korxsol_device.descriptor()
    else:
        raise KeyError(name)
    return bytes(buf[:n])


def test_the_crc_vector_is_the_published_check_value() -> None:
    data, wire = VECTORS["crc-check"]
    assert wire == "crc 29 b1"
    assert framing.crc16(data, 0, len(data)) == 0x29B1


@pytest.mark.parametrize("name", [n for n in VECTORS if n.startswith("cobs-")])
def test_the_cobs_vectors_encode_as_written(name: str) -> None:
    data, wire = VECTORS[name]
    out = bytearray(64)
    n = framing.cobs_encode(data, len(data), out)
    assert "cobs " + bytes(out[:n]).hex(" ") == wire


MESSAGES = [n for n in VECTORS if not n.startswith(("crc-", "cobs-"))]


@pytest.mark.parametrize("name", MESSAGES)
def test_each_message_vector_matches_its_fields_and_its_frame(name: str) -> None:
    payload, wire = VECTORS[name]
    assert built(name) == payload
    assert host_only.frame(payload) == bytes.fromhex(wire)
    decoder = framing.FrameDecoder()
    frame = bytes.fromhex(wire)
    decoder.feed(frame, 0, len(frame))
    assert bytes(decoder.buf[: decoder.length]) == payload


def test_the_bench_frames_are_the_documented_ones() -> None:
    snapshot = bytes.fromhex(VECTORS["snapshot-reference"][1])
    event = bytes.fromhex(VECTORS["event-roll"][1])
    assert len(snapshot_frame()) == len(snapshot)
    documented = re.search(r"\): (\d+) bytes on the wire, `snapshot_bytes`", DOC)
    assert documented and int(documented.group(1)) == len(snapshot)
    assert len(roll_event_frame()) == len(event) == 17
    described = bytes.fromhex(VECTORS["descriptor-korxsol"][1])
    assert len(descriptor_frame()) == len(described)
    documented = re.search(r"(\d+)\s+bytes on the wire, `descriptor_bytes`", DOC)
    assert documented and int(documented.group(1)) == len(described)


def test_the_documented_limits_are_the_codes() -> None:
    limits = re.search(
        r"payload at most (\d+) bytes \(`MAX_PAYLOAD`.*?at most (\d+) encoded bytes.*?"
        r"\(`MAX_FRAME`\) and (\d+) on the wire",
        DOC,
        re.S,
    )
    assert limits, "docs/protocol.md no longer states the frame limits"
    assert tuple(int(g) for g in limits.groups()) == (
        framing.MAX_PAYLOAD,
        framing.MAX_FRAME,
        framing.MAX_WIRE,
    )
    body = re.search(r"encoding \(`docs/state-codec.md`\), at most (\d+) bytes", DOC)
    assert body and int(body.group(1)) == codec.MAX_ENCODED
    body = re.search(r"lays it out byte by byte, at most (\d+) bytes", DOC)
    assert body and int(body.group(1)) == descriptor.MAX_DESCRIPTOR
    assert framing.MAX_PAYLOAD >= m.HEADER + descriptor.MAX_DESCRIPTOR
    assert framing.MAX_PAYLOAD >= m.HEADER + codec.MAX_ENCODED
    # COBS: a code byte per 254 bytes (two for a 24-fighter table's longest payload)
    coded = framing.MAX_PAYLOAD + framing.CRC_BYTES
    assert framing.MAX_FRAME == coded + (coded + 253) // 254
    assert m.HELLO_BODY == 17 and m.PING_BODY == 5
    title = re.search(r"# The Turnlight link protocol, version (\d+)", DOC)
    assert title and int(title.group(1)) == m.PROTOCOL_VERSION
    hello = re.search(r"### HELLO \(type 1\), body (\d+) bytes", DOC)
    assert hello and int(hello.group(1)) == m.HELLO_BODY
    assert f"| 3 | 1 | protocol version ({m.PROTOCOL_VERSION}) |" in DOC


def test_the_direction_bit_is_the_documented_one() -> None:
    assert f"bit 7 (0x{m.FROM_BOARD:02x}, `FROM_BOARD`)" in DOC
    assert m.FROM_BOARD == 0x80
