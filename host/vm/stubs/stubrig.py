"""What the CircuitPython module stubs in this folder share, inside the MicroPython VM: the
fake clock behind supervisor.ticks_ms, the fake hardware code.py and boot.py made (each
stub records its object here), and the scenario that drives a run.

The stubs stand in for the modules CircuitPython builds in (board, keypad, neopixel,
usb_cdc, usb_hid, usb_midi, rotaryio, supervisor, microcontroller) so that the board's own
entry points, boot.py, code.py and firmware/hardware.py, run unchanged on the VM. They are
built on host/vm/fakehw.py. Settings come from the environment, as a board's settings.toml
reaches os.getenv: TURNLIGHT_BOARD (the profile, whose pins `board` has),
TURNLIGHT_VM_HELD (a key held since power-up), TURNLIGHT_VM_NO_DATA (usb_cdc.data is None,
as when boot.py left the data channel off) and TURNLIGHT_VM_SCENARIO (a module that sets
`hook`, called with the time on every ticks_ms(); it is imported at the first ticks_ms()
call, once code.py has imported the firmware, so that compiling it does not add to the
heap's peak while the firmware compiles).
"""

import os

import fakehw

STEP_MS = 5  # each ticks_ms() call is one loop step of code.py, this long
_TICKS_MAX = 0x1FFFFFFF  # adafruit_ticks' period, 2**29 ms

now = 0
ticks = 0  # ticks_ms() calls
hook = None
pixels = None  # the NeoPixel made
keys = None  # the keypad scanner made
encoder = None  # the rotary encoder made
data = None
if not os.getenv("TURNLIGHT_VM_NO_DATA"):
    # usb_cdc.data: the board's writes go through a USB send buffer of 256 B (fakehw).
    data = fakehw.Stream(inbox=1024, send_buffer=fakehw.SEND_BUFFER)


def tick():
    """supervisor.ticks_ms(): the clock moves one step, the send buffer drains, and the
    scenario has its turn."""
    global now, ticks, _scenario
    now = (now + STEP_MS) & _TICKS_MAX
    ticks += 1
    if _scenario:
        name = _scenario
        _scenario = None
        __import__(name)
    if data is not None:
        data.drain(now)
    if hook is not None:
        hook(now)
    return now


_scenario = os.getenv("TURNLIGHT_VM_SCENARIO")
