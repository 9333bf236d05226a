"""Wiring a profile to real pins: the key scanner, the NeoPixel strip and the encoder.

Only code.py and boot.py call this (the app never imports hardware). They pass in the
`board` module and the classes to build (keypad.KeyMatrix, keypad.Keys, digitalio's
DigitalInOut and firmware.strip.Strip with neopixel_write, rotaryio.IncrementalEncoder),
so this file imports nothing board-specific when it runs. The
annotations are strings, never evaluated on the board; they let mypy check every call here
against the CircuitPython stubs (python -m host.lab.firmware_typecheck).
"""

# False on the board and in the simulator; mypy takes any name TYPE_CHECKING as true, so the
# imports below (typing and stub-only modules) are seen by the type check and never run.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Optional, Union

    from digitalio import DigitalInOut
    from keypad import KeyMatrix, Keys
    from microcontroller import Pin
    from rotaryio import IncrementalEncoder


def pins(board: "ModuleType", names: "tuple[str, ...]") -> "tuple[Pin, ...]":
    return tuple(getattr(board, name) for name in names)


def make_keys(
    board: "ModuleType",
    key_matrix: "type[KeyMatrix]",
    keys: "type[Keys]",
    profile: "Any",
) -> "Union[KeyMatrix, Keys]":
    """A keypad scanner whose key numbers match the profile's KEYMAP order."""
    if profile.KEY_SCAN == "matrix":
        return key_matrix(
            row_pins=pins(board, profile.ROW_PINS),
            column_pins=pins(board, profile.COLUMN_PINS),
            columns_to_anodes=False,
        )
    return keys(pins(board, profile.KEY_PINS), value_when_pressed=False, pull=True)


def make_pixels(
    board: "ModuleType",
    digital_in_out: "type[DigitalInOut]",
    strip: "Any",
    write: "Any",
    profile: "Any",
) -> "Any":
    """The profile's strip (firmware.strip.Strip) on its data pin, written by `write`
    (neopixel_write). The app applies its own brightness and current limit."""
    pin = digital_in_out(getattr(board, profile.PIXEL_PIN))
    pin.switch_to_output()
    return strip(pin, profile.WIDTH * profile.HEIGHT, write)


def make_encoder(
    board: "ModuleType", encoder: "type[IncrementalEncoder]", profile: "Any"
) -> "Optional[IncrementalEncoder]":
    if not profile.ENCODER_PINS:
        return None
    a, b = pins(board, profile.ENCODER_PINS)
    return encoder(a, b)


def let_go_of_start_up():
    """Forget the modules only start-up needs, before the App is made: this one (the wiring),
    firmware.settings (the settings' checks) and the firmware.boards package (the profile
    loader; the profile module itself stays, the App keeps it). A board compiles them from
    .py, and they would keep their code in its heap for good (docs/memory.md). The caller
    must keep no reference to them: code.py's start() holds them in its own frame alone,
    which goes when it returns."""
    import sys

    import firmware

    for name in ("hardware", "settings", "boards"):
        sys.modules.pop("firmware." + name, None)
        if hasattr(firmware, name):
            delattr(firmware, name)
