"""Adafruit NeoTrellis M4 Express: 32 NeoPixel keys (8x4) on a key matrix. The default.

Every key is also a pixel: the top row picks a turn position, the second row plays, the
third row changes the view, and the two bottom-right keys are hold-to-confirm.

At power-up, hold the top-left key to keep USB to the console only (BOOT_SKIP_KEY 0, the
default).
"""

NAME = "trellis_m4"
PROFILE = 1  # shared.link.messages.PROFILE_TRELLIS_M4
STUB_BOARD = "trellis_m4_express"  # circuitpython-stubs board id (for the type check)
WIDTH = 8
HEIGHT = 4
KEY_SCAN = "matrix"  # keypad.KeyMatrix: key number = row * 8 + column
ROW_PINS = ("ROW0", "ROW1", "ROW2", "ROW3")
COLUMN_PINS = ("COL0", "COL1", "COL2", "COL3", "COL4", "COL5", "COL6", "COL7")
# One control per key, in key-number order ("" = unused).
KEYMAP = (
    "pos0", "pos1", "pos2", "pos3", "pos4", "pos5", "pos6", "pos7",
    "next_turn", "roll", "add_die", "chance", "d100", "counter_next", "counter_up", "counter_down",
    "page", "brightness", "undo", "select_prev", "select_next", "window", "", "",
    "", "", "", "", "", "", "end_combat", "reset",
)  # fmt: skip
KEY_COLUMNS = 8  # keys per row, for the key map picture
