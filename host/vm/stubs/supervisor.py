"""CircuitPython's supervisor, as adafruit_ticks uses it: ticks_ms() is the fake clock of
stubrig (one step of STEP_MS a call), so code.py takes the same path as on a board."""

from stubrig import tick as ticks_ms  # noqa: F401
