"""Runs inside the MicroPython VM with the CircuitPython stubs on the path: the heap that
the stubs (host/vm/stubs), the fake hardware and code_session.py hold once imported, which
a board's built-in modules do not cost. Prints `stub_heap=<bytes>`; the profile (which the
board stub loads, and code.py loads on a board too) is not counted."""

import gc

from firmware.boards import DEFAULT, load

load(DEFAULT)
gc.collect()
before = gc.mem_alloc()
import board  # noqa: F401
import board_frames  # noqa: F401
import code_session  # noqa: F401
import keypad  # noqa: F401
import microcontroller  # noqa: F401
import neopixel  # noqa: F401
import rotaryio  # noqa: F401
import supervisor  # noqa: F401
import usb_cdc  # noqa: F401

gc.collect()
print("stub_heap=%d" % (gc.mem_alloc() - before))
