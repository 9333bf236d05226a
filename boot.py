"""Runs first on the board: enable the USB CDC data channel (the link) beside the REPL.

Safe fallback: hold the profile's BOOT_SKIP_KEY (the top-left key on the NeoTrellis and
the MacroPad, the GP2 button on the Pico) while the board powers up, and USB stays as it
is by default (console only, no data channel); the firmware then plays untethered.
"""

import os
import time

import board
import keypad
import usb_cdc

from firmware.boards import DEFAULT, load
from firmware.hardware import make_keys


def skip_key_held(profile):
    keys = make_keys(board, keypad.KeyMatrix, keypad.Keys, profile)
    time.sleep(0.05)  # a few scans, so a key held since power-up is reported
    event = keypad.Event()
    held = False
    while keys.events.get_into(event):
        if event.pressed and event.key_number == profile.BOOT_SKIP_KEY:
            held = True
    keys.deinit()
    return held


try:
    skip = skip_key_held(load(os.getenv("TURNLIGHT_BOARD") or DEFAULT))
except Exception as err:  # a broken profile must not lose the link: enable it anyway
    print("boot.py: %s" % err)
    skip = False
if skip:
    print("boot.py: skip key held, USB data channel left off")
else:
    usb_cdc.enable(console=True, data=True)
