"""CircuitPython's board for the profile named by TURNLIGHT_BOARD: exactly the pins the
profile names (a pin it does not name is missing here too, as on another board)."""

import os

from microcontroller import Pin

from firmware.boards import DEFAULT, load


def _pins():
    try:
        profile = load(os.getenv("TURNLIGHT_BOARD") or DEFAULT)
    except ValueError:  # an unknown board: no pins (boot.py reports the profile's error)
        return
    names = (profile.PIXEL_PIN,)
    names += profile.ROW_PINS + profile.COLUMN_PINS + profile.KEY_PINS + profile.ENCODER_PINS
    found = globals()
    for name in names:
        found[name] = Pin(name)


_pins()
