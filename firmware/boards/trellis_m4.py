"""Adafruit NeoTrellis M4 Express: 32 NeoPixel keys (8x4) on a key matrix. The default.

Every key is also a pixel: the top row picks a turn position, the second row plays, the
third row changes the view, and the two bottom-right keys are hold-to-confirm.
"""

NAME = "trellis_m4"
PROFILE = 1  # shared.link.messages.PROFILE_TRELLIS_M4
STUB_BOARD = "trellis_m4_express"  # circuitpython-stubs board id (for the type check)
WIDTH = 8
HEIGHT = 4
PIXEL_PIN = "NEOPIXEL"
SERPENTINE = False
KEY_SCAN = "matrix"  # keypad.KeyMatrix: key number = row * 8 + column
ROW_PINS = ("ROW0", "ROW1", "ROW2", "ROW3")
COLUMN_PINS = ("COL0", "COL1", "COL2", "COL3", "COL4", "COL5", "COL6", "COL7")
KEY_PINS = ()
ENCODER_PINS = ()
BOOT_SKIP_KEY = 0  # hold the top-left key at power-up to keep USB to the console only
# One control per key, in key-number order ("" = unused).
KEYMAP = (
    "pos0", "pos1", "pos2", "pos3", "pos4", "pos5", "pos6", "pos7",
    "next_turn", "roll", "chance", "d100", "frost_add", "frost_remove", "burn_add", "burn_remove",
    "page", "brightness", "undo", "select_prev", "select_next", "", "", "",
    "", "", "", "", "", "", "end_combat", "reset",
)  # fmt: skip
KEY_COLUMNS = 8  # keys per row, for the key map picture
ENCODER_MAP = ()
ENCODER_CLOCKWISE = 1  # no encoder (see macropad.py)
LED_MA_PER_CHANNEL = 20  # a WS2812 channel at full duty
LED_IDLE_MA = 1  # each pixel's own draw with its LEDs off
