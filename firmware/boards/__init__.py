"""Board profiles: one data-only module per supported board (pins, grid, key map).

`load(name)` imports `firmware.boards.<name>` and gives it the DEFAULTS it does not set
itself, so a profile names only what differs; code.py reads the name from the
TURNLIGHT_BOARD setting (settings.toml) and defaults to DEFAULT. Every profile sets NAME,
PROFILE (shared.link.messages.PROFILE_*), STUB_BOARD (the circuitpython-stubs board id),
WIDTH, HEIGHT, KEYMAP (one generic control per key, firmware/app.py's CONTROL_NAMES) and
KEY_COLUMNS (keys per row, for the key map picture).
"""

DEFAULT = "trellis_m4"
NAMES = ("trellis_m4", "macropad", "pico_matrix")

# What a profile need not say, and the value it then has: name, value, name, value ...
DEFAULTS = (
    "PIXEL_PIN", "NEOPIXEL",
    "SERPENTINE", False,  # True for matrices wired in a zig-zag
    "KEY_SCAN", "keys",  # keypad.Keys, one pin per key, pressed = low; or "matrix"
    "ROW_PINS", (),
    "COLUMN_PINS", (),
    "KEY_PINS", (),
    "ENCODER_PINS", (),
    "ENCODER_MAP", (),  # the controls of one detent counter-clockwise, clockwise
    "ENCODER_CLOCKWISE", 1,  # how the encoder's position moves for a clockwise detent
    "BOOT_SKIP_KEY", 0,  # the key to hold at power-up to keep USB to the console only
    "KEYS_LIT", True,  # key n is the LED of cell n (False: buttons beside the grid)
    "LED_MA_PER_CHANNEL", 20,  # a WS2812 channel at full duty
    "LED_IDLE_MA", 1,  # each pixel's own draw with its LEDs off
)  # fmt: skip


def load(name):
    if name not in NAMES:
        raise ValueError("unknown board %r (known: %s)" % (name, ", ".join(NAMES)))
    module = __import__("firmware.boards." + name, None, None, [name])
    for i in range(0, len(DEFAULTS), 2):
        name = str(DEFAULTS[i])
        if not hasattr(module, name):
            setattr(module, name, DEFAULTS[i + 1])
    return module
