"""The board's entry point (copied to the drive root as code.py): wire the real board,
NeoPixels, keys, encoder and USB data channel into the App, then step it forever.

The board profile comes from TURNLIGHT_BOARD in settings.toml (default trellis_m4).
"""

import os

import board
import keypad
import neopixel
import usb_cdc
from adafruit_ticks import ticks_ms

from firmware import hardware
from firmware.app import App
from firmware.boards import DEFAULT, load

try:
    import rotaryio

    HAVE_ROTARYIO = True
except ImportError:  # boards without an encoder may lack the module
    HAVE_ROTARYIO = False

profile = load(os.getenv("TURNLIGHT_BOARD") or DEFAULT)
stream = usb_cdc.data  # None when boot.py was told to skip the data channel
if stream is not None:
    stream.timeout = 0  # never block the loop: the link polls
    stream.write_timeout = 0
encoder = None
if HAVE_ROTARYIO and profile.ENCODER_PINS:
    encoder = hardware.make_encoder(board, rotaryio, profile)
app = App(
    profile,
    hardware.make_pixels(board, neopixel, profile),
    hardware.make_keys(board, keypad, profile),
    keypad.Event(),
    stream,
    encoder,
    now_ms=ticks_ms(),
)
while True:
    app.step(ticks_ms())
