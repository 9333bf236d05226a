"""CircuitPython's board for the profile named by TURNLIGHT_BOARD: exactly the pins the
profile names (a pin it does not name is missing here too, as on another board). Each pin
is made when first asked for, after code.py has compiled the firmware."""

import os


def __getattr__(name):
    from microcontroller import Pin

    from firmware.boards import DEFAULT, load

    try:
        profile = load(os.getenv("TURNLIGHT_BOARD") or DEFAULT)
    except ValueError:  # an unknown board: no pins (boot.py reports the profile's error)
        raise AttributeError(name) from None
    names = (profile.PIXEL_PIN,)
    names += profile.ROW_PINS + profile.COLUMN_PINS + profile.KEY_PINS + profile.ENCODER_PINS
    if name not in names:
        raise AttributeError(name) from None
    return Pin(name)
