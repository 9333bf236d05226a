"""Runs first on the board: enable the USB CDC data channel (the link) beside the REPL,
and turn off USB HID and MIDI, which the board does not use, so the data channel has
endpoints to spare.

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
    # The console CDC, the data CDC, mass storage, HID and MIDI together need every endpoint
    # pair the SAMD51 and the RP2040 have: one more (or a future default) puts the board in
    # safe mode. Turnlight uses neither HID nor MIDI, so both go, and the data channel fits
    # with room to spare. Each call only changes what the next USB connection offers.
    # One at a time: a build may have either without the other.
    try:
        import usb_hid

        usb_hid.disable()
    except ImportError:  # a build without it has its endpoints free already
        pass
    try:
        import usb_midi

        usb_midi.disable()
    except ImportError:
        pass
    usb_cdc.enable(console=True, data=True)
