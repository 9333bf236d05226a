"""The board's entry point (copied to the drive root as code.py): wire the real board,
NeoPixels, keys, encoder and USB data channel into the App, then step it forever.

Settings (settings.toml, read with os.getenv): TURNLIGHT_BOARD picks the profile (default
trellis_m4), TURNLIGHT_LED_BUDGET_MA the LED current budget (default 400, 100..2000) and
TURNLIGHT_BRIGHTNESS the starting brightness level (default 5, 1..8). A bad value is
printed on the console and replaced by the default or the nearest bound.
"""

# isort: off
# The app first, while the heap is empty: its modules take the most to compile, and the
# few small ones after it compile in what is left (docs/memory.md).
from firmware.app import BRIGHTNESS_LEVELS, DEFAULT_BRIGHTNESS, DEFAULT_BUDGET_MA, App
import os

import board
import keypad
import usb_cdc
from adafruit_ticks import ticks_ms

# isort: on

try:
    import rotaryio

    HAVE_ROTARYIO = True
except ImportError:  # boards without an encoder may lack the module
    HAVE_ROTARYIO = False


def wire():
    """This board's parts and settings for the App. What only start-up needs (the pin
    wiring, the settings' checks, the profile loader) is imported here and let go: held by
    this call alone, it is gone once it returns, before the App is made, so its code's room
    is free again for the App's buffers, which the heap, in pieces after the compiles,
    finds hardest to place (a module-level name, or a value left on the module's own stack,
    would keep it for good; docs/memory.md)."""
    # CircuitPython's built-in modules under the strip (C: no heap for their code).
    import digitalio
    from neopixel_write import neopixel_write

    from firmware import hardware, settings
    from firmware.boards import DEFAULT, load
    from firmware.strip import Strip

    def setting(name, default, low, high):
        value, message = settings.int_setting(name, os.getenv(name), default, low, high)
        if message:
            print("code.py: " + message)
        return value

    profile = load(os.getenv("TURNLIGHT_BOARD") or DEFAULT)
    budget_ma = setting(
        "TURNLIGHT_LED_BUDGET_MA", DEFAULT_BUDGET_MA, settings.BUDGET_MIN_MA, settings.BUDGET_MAX_MA
    )
    brightness = setting("TURNLIGHT_BRIGHTNESS", DEFAULT_BRIGHTNESS, 1, BRIGHTNESS_LEVELS)
    stream = usb_cdc.data  # None when boot.py was told to skip the data channel
    if stream is not None:
        stream.timeout = 0  # never block the loop: the link polls
        stream.write_timeout = 0
    encoder = None
    if HAVE_ROTARYIO and profile.ENCODER_PINS:
        encoder = hardware.make_encoder(board, rotaryio.IncrementalEncoder, profile)
    pixels = hardware.make_pixels(board, digitalio.DigitalInOut, Strip, neopixel_write, profile)
    keys = hardware.make_keys(board, keypad.KeyMatrix, keypad.Keys, profile)
    hardware.let_go_of_start_up()
    return profile, pixels, keys, stream, encoder, budget_ma, brightness


def start():
    """The App, wired to this board."""
    profile, pixels, keys, stream, encoder, budget_ma, brightness = wire()
    app = App(
        profile,
        pixels,
        keys,
        keypad.Event(),
        stream,
        encoder,
        now_ms=ticks_ms(),
        budget_ma=budget_ma,
        brightness=brightness,
    )
    try:
        # The chip's unique id, folded into the 4 bytes of HELLO's board id: a host that
        # was linked with this board refuses another one given the same port after a
        # re-plug.
        import microcontroller

        uid = microcontroller.cpu.uid
        board_id = bytearray(4)
        for i in range(len(uid)):
            board_id[i & 3] ^= uid[i]
        app.session.board_id = bytes(board_id)
    except (ImportError, AttributeError, NotImplementedError):
        pass  # no identity: the host tells boards apart by the port's USB serial number only
    return app


app = start()
failures = 0
while True:
    try:
        app.step(ticks_ms())
    except Exception as err:  # the last resort: App.step catches its own faults
        failures += 1
        if failures <= 10 or failures % 1000 == 0:  # a fault on every step must not flood
            print("code.py: step failed (fault %d): %s" % (failures, err))
