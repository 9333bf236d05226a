"""CircuitPython's supervisor, as adafruit_ticks uses it: ticks_ms() is stubrig's fake
clock (one step of STEP_MS a call), so code.py takes the same path as on a board. stubrig
is loaded at the first call, after code.py has compiled the firmware."""

_tick = None


def ticks_ms():
    global _tick
    if _tick is None:
        import stubrig

        _tick = stubrig.tick
    return _tick()
