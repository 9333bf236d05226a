"""Runs inside the MicroPython VM with the CircuitPython stubs on the path: the heap that
the stubs (host/board/vm/stubs), the scenario code_session.py and its frames hold once imported
and their lazily loaded parts reached (stubrig, with the data stream), which a board's
built-in modules do not cost. Prints `stub_heap=<bytes>` and `stub_heap_at_import=<bytes>`
(what code.py's imports of the stubs hold while the firmware compiles); the profile (which
the board stub loads, and code.py loads on a board too) is not counted."""

import gc

from firmware.boards import DEFAULT, load

load(DEFAULT)

gc.collect()
before = gc.mem_alloc()
import board  # noqa: F401
import digitalio  # noqa: F401
import keypad  # noqa: F401
import microcontroller  # noqa: F401
import neopixel_write  # noqa: F401
import rotaryio  # noqa: F401
import supervisor  # noqa: F401
import usb_cdc  # noqa: F401

gc.collect()
at_import = gc.mem_alloc() - before
import board_frames  # noqa: F401
import code_session  # noqa: F401
import stubrig  # noqa: F401

gc.collect()
print("stub_heap=%d stub_heap_at_import=%d" % (gc.mem_alloc() - before, at_import))
