"""The messages inside a frame: a 3-byte header (type, seq, ack) and a per-type body.

A DESCRIPTOR's body is a ruleset descriptor (shared/descriptor.py), a SNAPSHOT's an encoded
state (shared/codec.py), an EVENT's an event record (shared/events.py).

Multi-byte fields are big-endian. docs/protocol.md is the byte-level specification; the
pack functions here write into a caller's buffer with struct.pack_into (no allocation) and
return the payload length.

type: bit 7 (FROM_BOARD) is set on every frame a board sends and clear on every frame a host
sends, so that either end refuses its own frames read back (a port that echoes, such as a
board's REPL console) and never applies them. The one exception is ERROR E_VERSION, which
keeps the plain type 7: a peer on another protocol version must be able to read it.

seq: on EVENT, SNAPSHOT and DESCRIPTOR, the frame's sequence number (mod 256). On every
other type, the sender's last assigned sequence number, so a peer can tell whether it has
seen everything.
ack: the last sequence number the sender received in order from its peer (cumulative).
"""

import struct

from shared import events as ev
from shared import limits
from shared.compat import const

PROTOCOL_VERSION = const(4)

HEADER = const(3)

# Message types.
HELLO = const(1)
SNAPSHOT = const(2)
EVENT = const(3)
ACK = const(4)
PING = const(5)
PONG = const(6)
ERROR = const(7)
DESCRIPTOR = const(8)
FROM_BOARD = const(0x80)  # type bit 7: set on a board's frames, clear on a host's

# HELLO roles and flags.
ROLE_BOARD = const(0)
ROLE_HOST = const(1)
HELLO_ACCEPT = const(1)  # host: "I heard your HELLO; we are linked"
HELLO_WANT_STATE = const(2)  # host: "I hold no state for you; send me yours"

# ACK flags.
ACK_GAP = const(1)  # "I hold frames past a hole at ack + 1": resend that one now

# ERROR codes.
E_VERSION = const(1)  # protocol versions differ; detail = the sender's version
E_REJECTED = const(2)  # the rules refused an event; detail = its seq
E_BAD_SNAPSHOT = const(3)  # a snapshot passed the CRC but not the codec; detail = its seq
E_JOURNAL_FULL = const(4)  # the board refused local events; detail = how many (max 255)
E_BAD_DESCRIPTOR = const(5)  # a descriptor passed the CRC but not the board's check; detail = seq
E_NO_DESCRIPTOR = const(6)  # board: "describe your game first"; detail = the refused seq or 0

# Board profiles (HELLO's profile byte).
PROFILE_SIMULATED = const(0)
PROFILE_TRELLIS_M4 = const(1)
PROFILE_MACROPAD = const(2)
PROFILE_PICO_MATRIX = const(3)

HELLO_FORMAT = ">BBBBBBBBHBH"  # proto role flags fw_major fw_minor profile w h version jn nonce
HELLO_ID = const(13)  # then the board id's 4 bytes (written by hand: not every struct has "s")
HELLO_BODY = const(17)
NO_ID = b"\x00\x00\x00\x00"  # a board id: none (a host, or a board that has no identity)
PING_BODY = const(5)
ERROR_BODY = const(2)


# Every field is checked before it is packed, so that a number too large for its bytes is
# refused the same way everywhere: a bytearray refuses a number over 255 with ValueError on
# CPython and OverflowError on CircuitPython, struct refuses it with struct.error on
# CPython, and MicroPython wraps both silently. These raise ValueError(FIELD_RANGE, value).
FIELD_RANGE = "a link field out of range"


def _check(value, high):
    if not 0 <= value <= high:
        raise ValueError(FIELD_RANGE, value)


def put_header(buf, mtype, seq, ack):
    _check(mtype, 0xFF)
    buf[0] = mtype
    buf[1] = seq & 0xFF
    buf[2] = ack & 0xFF
    return HEADER


def pack_hello(
    buf,
    seq,
    ack,
    role,
    flags,
    fw_major,
    fw_minor,
    profile,
    grid_w,
    grid_h,
    version,
    jn,
    nonce,
    board_id=NO_ID,
):
    put_header(buf, HELLO | FROM_BOARD if role == ROLE_BOARD else HELLO, seq, ack)
    for v in (role, flags, fw_major, fw_minor, profile, grid_w, grid_h, jn):
        _check(v, 0xFF)  # (a HELLO is rare: the tuple it allocates costs nothing in play)
    for v in board_id:
        _check(v, 0xFF)
    struct.pack_into(
        HELLO_FORMAT,
        buf,
        HEADER,
        PROTOCOL_VERSION,
        role,
        flags,
        fw_major,
        fw_minor,
        profile,
        grid_w,
        grid_h,
        version & 0xFFFF,
        jn,
        nonce & 0xFFFF,
    )
    for i in range(4):
        buf[HEADER + HELLO_ID + i] = board_id[i]
    return HEADER + HELLO_BODY


def pack_ping(buf, mtype, seq, ack, digest, version, journalled):
    # A host's PING (mtype PING) or a board's PONG (mtype PONG | FROM_BOARD).
    put_header(buf, mtype, seq, ack)
    _check(digest, 0xFFFF)
    _check(journalled, 0xFF)
    # digest, state version, journalled events
    struct.pack_into(">HHB", buf, HEADER, digest, version & 0xFFFF, journalled)
    return HEADER + PING_BODY


def pack_ack(buf, seq, ack, flags, sender=0):
    # sender: FROM_BOARD on a board, 0 on a host (as for pack_error).
    put_header(buf, ACK | sender, seq, ack)
    _check(flags, 0xFF)
    buf[HEADER] = flags
    return HEADER + 1


def pack_error(buf, seq, ack, code, detail, sender=0):
    # E_VERSION goes to a peer on another version: the plain type every version reads.
    put_header(buf, ERROR if code == E_VERSION else ERROR | sender, seq, ack)
    _check(code, 0xFF)
    buf[HEADER] = code
    buf[HEADER + 1] = detail & 0xFF
    return HEADER + ERROR_BODY


def seq_diff(a, b):
    """a - b for 8-bit sequence numbers, in -128..127."""
    return ((a - b + 128) & 0xFF) - 128


def event_record_problem(buf, start, n):
    """What is malformed in the event record buf[start:start + n] (a code, worded on the
    host by shared/words.py), or 0 if nothing is. A
    record is well formed when it is laid out as docs/protocol.md says: a known code, a slot
    index (or 255), a face count that matches the length, and the faces (and dice kind)
    that code carries. The rules may still refuse it; a malformed record is dropped by a
    host like a damaged frame and never journalled by a board. Allocates nothing."""
    if n < ev.EVENT_HEADER or n > ev.EVENT_MAX:
        return 1
    code = buf[start]
    slot = buf[start + 1]
    count = buf[start + 3]
    if n != ev.EVENT_HEADER + count:
        return 2
    if slot != limits.NO_SLOT and slot >= limits.MAX_SLOTS:
        return 3
    if code == ev.ROLL_DICE:  # plain dice: each face within its die's
        return ev.dice_sides(buf, start)
    if count > limits.MAX_DICE:
        return 1
    if code == ev.ROLL_ACTION:  # (events' dice: one global fewer here, docs/memory.md)
        kind = buf[start + 2]
        if kind == ev.dice.KIND_ACTION_D3:
            high = 3
        elif kind == ev.dice.KIND_ACTION_D6:
            high = 6
        elif kind == ev.dice.KIND_D10:
            high = 10
        else:
            return 4
        low = 1
        if count < 1:
            return 5
    elif code == ev.CHANCE:
        low = 0
        high = 1
        if count < 1 or count > ev.MAX_CHANCE_FLIPS:
            return 6
    elif code == ev.D100:
        low = 0
        high = 9
        if count != 2:
            return 7
    elif code < 1 or code > ev.ROLL_DICE:
        return 8
    elif (code == ev.COUNTER_UP or code == ev.COUNTER_DOWN) and (
        buf[start + 2] >= limits.MAX_COUNTERS
    ):
        return 9
    elif count:
        return 10
    else:
        return 0
    for i in range(start + ev.EVENT_HEADER, start + n):
        if buf[i] < low or buf[i] > high:
            return 11
    return 0
