"""The engine's helpers that only the host and the tests use (and the engine's tests on the
MicroPython VM: it runs there too). A board never imports this module, so its heap does not
pay for them: the record for one event as new bytes, and the number a d100 reads.
"""

from shared.events import EVENT_MAX, write_event
from shared.limits import NO_SLOT


def make_event(code, slot=NO_SLOT, arg=0, faces=()):
    """The record for one event, as bytes (allocates: for the host and tests)."""
    buf = bytearray(EVENT_MAX)
    return bytes(buf[: write_event(buf, code, slot, arg, faces)])


def d100_value(tens, units):
    """The d100 read from two D10s: tens*10 + units, where 0 and 0 read as 100."""
    value = tens * 10 + units
    return value if value else 100
