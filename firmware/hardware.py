"""Wiring a profile to real pins: the key scanner and the NeoPixel strip.

Only code.py and boot.py call this (the app never imports hardware). The modules are
passed in, so this file imports nothing board-specific itself.
"""


def pins(board, names):
    return tuple(getattr(board, name) for name in names)


def make_keys(board, keypad, profile):
    """A keypad scanner whose key numbers match the profile's KEYMAP order."""
    if profile.KEY_SCAN == "matrix":
        return keypad.KeyMatrix(
            row_pins=pins(board, profile.ROW_PINS),
            column_pins=pins(board, profile.COLUMN_PINS),
            columns_to_anodes=False,
        )
    return keypad.Keys(pins(board, profile.KEY_PINS), value_when_pressed=False, pull=True)


def make_pixels(board, neopixel, profile):
    return neopixel.NeoPixel(
        getattr(board, profile.PIXEL_PIN),
        profile.WIDTH * profile.HEIGHT,
        brightness=1.0,  # the app applies its own brightness and current limit
        auto_write=False,
    )


def make_encoder(board, rotaryio, profile):
    if not profile.ENCODER_PINS:
        return None
    a, b = pins(board, profile.ENCODER_PINS)
    return rotaryio.IncrementalEncoder(a, b)
