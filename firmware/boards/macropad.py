"""Adafruit MacroPad RP2040: 12 NeoPixel keys (3 wide, 4 tall), a rotary encoder with a
push switch, and a 128x64 OLED (unused: the LEDs carry every page).

The encoder turns the selection (clockwise: the next turn position; counter-clockwise: the
previous one); its switch (key 12) is hold-to-confirm reset.

At power-up, hold KEY1 (top left) to keep USB to the console only (BOOT_SKIP_KEY 0, the
default).
"""

NAME = "macropad"
PROFILE = 2  # shared.link.messages.PROFILE_MACROPAD
STUB_BOARD = "adafruit_macropad_rp2040"
WIDTH = 3
HEIGHT = 4
KEY_PINS = (
    "KEY1", "KEY2", "KEY3", "KEY4", "KEY5", "KEY6",
    "KEY7", "KEY8", "KEY9", "KEY10", "KEY11", "KEY12", "BUTTON",
)  # fmt: skip
ENCODER_PINS = ("ROTA", "ROTB")
KEYMAP = (
    "next_turn", "roll", "chance",
    "d100", "counter_up", "counter_down",
    "counter_next", "add_die", "undo",
    "page", "brightness", "end_combat",
    "reset",
)  # fmt: skip
KEY_COLUMNS = 3  # keys per row, for the key map picture
ENCODER_MAP = ("select_prev", "select_next")  # one detent counter-clockwise, clockwise
# How rotaryio.IncrementalEncoder(ROTA, ROTB)'s position moves for one clockwise detent: it
# counts down (Adafruit's MacroPad library negates it for the same reason), so clockwise
# selects the next turn position and counter-clockwise the previous one.
ENCODER_CLOCKWISE = -1
