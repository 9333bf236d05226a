"""Raspberry Pi Pico with an 8x8 NeoPixel matrix and four push buttons.

Wiring (README "Hardware"): matrix DIN on GP28 (through a 330 ohm resistor), matrix 5V to
VBUS, GND to GND; buttons from GP2, GP3, GP4, GP5 to GND (internal pull-ups). With four
buttons the rarer controls live in a menu: "menu" steps through them, "do" runs the one
shown (hold it for a destructive one).

At power-up, hold the GP2 button to keep USB to the console only (BOOT_SKIP_KEY 0, the
default).
"""

NAME = "pico_matrix"
PROFILE = 3  # shared.link.messages.PROFILE_PICO_MATRIX
STUB_BOARD = "raspberry_pi_pico"
WIDTH = 8
HEIGHT = 8
PIXEL_PIN = "GP28"
KEY_PINS = ("GP2", "GP3", "GP4", "GP5")
KEYMAP = ("next_turn", "menu_next", "menu_do", "page")
KEY_COLUMNS = 4  # keys per row, for the key map picture
KEYS_LIT = False  # buttons beside the matrix, not its LEDs
