"""What the CircuitPython module stubs in this folder share, inside the MicroPython VM: the
fake clock behind supervisor.ticks_ms, the fake hardware code.py and boot.py make (each
object is recorded here), and the scenario that drives a run.

The stubs stand in for the modules CircuitPython builds in (board, keypad, neopixel_write,
digitalio, usb_cdc, usb_hid, usb_midi, rotaryio, supervisor, microcontroller) so that the
board's own entry points, boot.py, code.py and firmware/hardware.py, and the real neopixel
library, run unchanged on the VM. On a board those modules are C and cost the Python heap
nothing, so these are kept as small as the entry points allow (docs/memory.md, "What the
stubs cost"): only what code.py, boot.py, hardware.py and the App touch, in this one module,
which the stubs load only when code.py or boot.py first reaches for a stubbed object (after
the firmware has compiled), and precompiled (host/board/micropython_vm.EntryPoints). The
general fakes of host/board/vm/fakehw.py (used by the other VM scripts, the simulator and
the tests) model the same hardware.

Settings come from the environment, as a board's settings.toml reaches os.getenv:
TURNLIGHT_BOARD (the profile, whose pins `board` has), TURNLIGHT_VM_HELD (a key held since
power-up), TURNLIGHT_VM_NO_DATA (usb_cdc.data is None, as when boot.py left the data channel
off) and TURNLIGHT_VM_SCENARIO (a module that sets `hook`, called with the time on every
ticks_ms(); it is imported at the second ticks_ms() call, code.py's first loop step, once
code.py has imported the firmware and made the App).
"""

import os

STEP_MS = 5  # each ticks_ms() call is one loop step of code.py, this long
_TICKS_MAX = 0x1FFFFFFF  # adafruit_ticks' period, 2**29 ms
# CircuitPython's CDC send buffer on SAMD51 and RP2040 (a write takes only what fits), and
# how fast it empties: one 64-byte full-speed packet a millisecond (as host/board/vm/fakehw.py).
_SEND_BUFFER = 256
_DRAIN_PER_MS = 64

now = 0
ticks = 0  # ticks_ms() calls
hook = None
pixels = None  # the strip neopixel_write drives (_Strip), made at its first write
keys = None  # the keypad scanner made
encoder = None  # the rotary encoder made


def tick():
    """supervisor.ticks_ms(): the clock moves one step, the send buffer drains, and the
    scenario has its turn."""
    global now, ticks, _scenario
    now = (now + STEP_MS) & _TICKS_MAX
    ticks += 1
    if _scenario and ticks > 1:  # code.py's second call: its first step, the App made
        name = _scenario
        _scenario = None
        try:
            __import__(name)
        except Exception as err:  # code.py would catch it and loop on without a scenario
            print("STUB the scenario did not load: %r" % (err,))
            raise SystemExit(1) from None
    if data is not None:
        data.drain()
    if hook is not None:
        try:
            hook(now)
        except Exception as err:  # the scenario's fault: end the run (code.py would go on)
            print("STUB the scenario failed: %r" % (err,))
            raise SystemExit(1) from None
    return now


class Event:
    """keypad.Event."""

    def __init__(self, key_number=0, pressed=False):
        self.key_number = key_number
        self.pressed = pressed


def _names(pins):
    return ",".join([pin.name for pin in pins])


class _Scanner:
    """keypad's KeyMatrix and Keys: `events.get_into(event)` (the scanner is its own event
    queue) and `deinit()`; `tap(key)` queues a press and a release. A key held since
    power-up (TURNLIGHT_VM_HELD) is pressed in the first scan. Kept in `keys`; it says on
    the console what it was made with."""

    def __init__(self, what):
        global keys
        self.events = self
        self.queue = []  # (key, pressed), oldest first
        held = os.getenv("TURNLIGHT_VM_HELD")
        if held:
            self.queue.append((int(held), True))
        keys = self
        print("STUB keypad." + what)

    def get_into(self, event):
        if not self.queue:
            return False
        event.key_number, event.pressed = self.queue.pop(0)
        return True

    def tap(self, key):
        self.queue.append((key, True))
        self.queue.append((key, False))

    def deinit(self):
        print("STUB keypad.deinit")


def KeyMatrix(row_pins, column_pins, columns_to_anodes=True, interval=0.02, max_events=64):
    return _Scanner(
        "KeyMatrix rows=%s columns=%s columns_to_anodes=%s"
        % (_names(row_pins), _names(column_pins), columns_to_anodes)
    )


def Keys(pins, value_when_pressed, pull=True, interval=0.02, max_events=64):
    return _Scanner(
        "Keys pins=%s value_when_pressed=%s pull=%s" % (_names(pins), value_when_pressed, pull)
    )


class _Strip:
    """What the strip's writes put on the wire (neopixel_write, under firmware/strip.py):
    `shown` holds each pixel's last colour as 0xRRGGBB, `shows` counts the writes.
    Kept in `pixels`. (A real strip takes 24 bits a pixel at 800 kHz: 30 us a pixel,
    docs/benchmarks.md.)"""

    def __init__(self, pin, n):
        self.shown = [0] * n
        self.shows = 0
        print("STUB neopixel_write pin=%s n=%d" % (pin.pin.name, n))


def strip_write(pin, buf):
    """neopixel_write(pin, buf): the bytes in GRB order (a WS2812's, as firmware/strip.py
    writes them), read back into colours without allocating."""
    global pixels
    if pixels is None:
        pixels = _Strip(pin, len(buf) // 3)
    shown = pixels.shown
    for i in range(len(shown)):
        shown[i] = buf[3 * i + 1] << 16 | buf[3 * i] << 8 | buf[3 * i + 2]
    pixels.shows += 1


class IncrementalEncoder:
    """rotaryio.IncrementalEncoder: `position`. Kept in `encoder`."""

    def __init__(self, pin_a, pin_b, divisor=4):
        global encoder
        self.position = 0
        encoder = self
        print("STUB rotaryio.IncrementalEncoder %s,%s" % (pin_a.name, pin_b.name))


class _Stream:
    """usb_cdc.data: `in_waiting`, `readinto`, and a `write` that takes only what fits the
    send buffer (_SEND_BUFFER bytes) and returns that count; the buffer drains to the host's
    side (`out`, `out_n`) at _DRAIN_PER_MS bytes a millisecond of the clock. `put(data)` is
    the host sending, into a preallocated inbox. Nothing here allocates after it is made."""

    def __init__(self):
        self.inbox = bytearray(_SEND_BUFFER)  # the host's frames here are 106 B at most
        self.start = 0
        self.in_waiting = 0
        self.pending = bytearray(_SEND_BUFFER)  # the send buffer, oldest byte first
        self.count = 0
        self.out = bytearray(_SEND_BUFFER)  # what reached the host since it last looked
        self.out_n = 0
        self.timeout = 0  # code.py sets these
        self.write_timeout = None

    def readinto(self, buf):
        n = min(len(buf), self.in_waiting)
        inbox = self.inbox
        start = self.start
        for i in range(n):
            buf[i] = inbox[start + i]
        self.start = start + n
        self.in_waiting -= n
        return n

    def write(self, buf):
        n = min(len(buf), _SEND_BUFFER - self.count)
        pending = self.pending
        at = self.count
        for i in range(n):
            pending[at + i] = buf[i]
        self.count = at + n
        return n

    def drain(self):
        """One clock step (STEP_MS) of draining into `out`."""
        n = min(self.count, STEP_MS * _DRAIN_PER_MS, _SEND_BUFFER - self.out_n)
        pending = self.pending
        out = self.out
        at = self.out_n
        for i in range(n):
            out[at + i] = pending[i]
        left = self.count - n
        for i in range(left):
            pending[i] = pending[n + i]
        self.count = left
        self.out_n = at + n

    def put(self, data):
        """The host sends `data`: it is read after whatever is still waiting."""
        inbox = self.inbox
        left = self.in_waiting
        start = self.start
        for i in range(left):  # what is waiting moves to the front
            inbox[i] = inbox[start + i]
        if left + len(data) > len(inbox):
            raise ValueError("the fake stream's inbox is full")
        for i in range(len(data)):
            inbox[left + i] = data[i]
        self.start = 0
        self.in_waiting = left + len(data)


_scenario = os.getenv("TURNLIGHT_VM_SCENARIO")
data = None if os.getenv("TURNLIGHT_VM_NO_DATA") else _Stream()
