"""The board as the desktop meets it: the serial link and its bridge, a session tethered
to a board, the simulated board (the real firmware on a pseudo-terminal), a board made of
the link alone, port discovery, copying the firmware onto a CIRCUITPY drive, the
MicroPython VM harness (vm/) and the fault proxy.

It may import `shared`, `firmware` (the simulated board runs it) and `host.core`.
"""
