"""The engine's helpers that only the host and the tests use (and the engine's tests on the
MicroPython VM: it runs there too). A board never imports this module, so its heap does not
pay for them: the record for one event as new bytes, the number a d100 reads, a roll
from a generator into a state, and one frame's wire bytes.
"""

from shared import dice
from shared.events import EVENT_MAX, write_event, write_sides
from shared.limits import MAX_DICE, NO_SLOT
from shared.link.framing import CRC_BYTES, MAX_WIRE, encode_frame


def make_event(code, slot=NO_SLOT, arg=0, faces=(), sides=None):
    """The record for one event, as bytes (allocates: for the host and tests). A ROLL_DICE
    record takes each die's faces, `sides` (its arg is the dice count)."""
    buf = bytearray(EVENT_MAX)
    n = write_event(buf, code, slot, arg, faces)
    if sides is not None:
        n = write_sides(buf, sides)
    return bytes(buf[:n])


def d100_value(tens, units):
    """The d100 read from two D10s: tens*10 + units, where 0 and 0 read as 100."""
    value = tens * 10 + units
    return value if value else 100


def roll(state, rng, kind, count, who, sides=0, mask=None):
    """Roll `count` dice of `kind` from `rng` into the state's last roll (shared.dice.enter)
    and return the successes (counted with `mask`, by default the success faces of the
    state's descriptor)."""
    faces = bytearray(MAX_DICE)
    dice.roll_faces(rng, kind, count, faces, sides)
    return dice.enter(state, kind, faces[:count], who, sides, mask)


def frame(payload):
    """The wire bytes for one payload (allocates; the board encodes into its own buffer with
    shared.link.framing.encode_frame)."""
    n = len(payload)
    buf = bytearray(n + CRC_BYTES)
    buf[:n] = payload
    out = bytearray(MAX_WIRE)
    return bytes(out[: encode_frame(buf, n, out)])
