"""Fake board hardware, one module for every place that runs the firmware off the board:
the MicroPython VM scripts (host/board/vm/*.py, where it is imported as `fakehw`), the
simulated board (host/board/simulated_board.py), the link-only board of the soak
(host/board/link_board.py) and the CPython tests (tests/boardfakes.py), where it is
`host.board.vm.fakehw`. The CircuitPython module stubs (host/board/vm/stubs/) have a smaller
fake of their own, host/board/vm/stubs/stubrig.py, because what they hold counts in the
smallest heap code.py starts in (docs/memory.md).

It runs on CPython and on MicroPython alike: no annotations that need evaluating, no
dataclasses, nothing from the standard library. It is never deployed (host/board/circuitpy_drive.py
copies
firmware/ and shared/ only). What each fake has is only what the firmware touches:

- `Pixels`: a NeoPixel strip with auto_write off: `pixels[i] = 0xRRGGBB`, `show()` keeps
  the frame shown (`shown`) and counts the shows (`shows`) and those that changed a pixel
  (`changes`).
- `Event`, `Events`, `Keys`: keypad's Event, EventQueue (`get_into`) and a scanner with
  `events` and `deinit()`. An event can be due later (`put(key, pressed, at)`, against the
  queue's clock); taking one allocates nothing, and an empty queue costs nothing.
- `Encoder`: rotaryio.IncrementalEncoder's `position`.
- `SendBuffer`: CircuitPython's USB CDC send buffer as `usb_cdc.data.write` sees it with
  `write_timeout = 0`: a write takes only what fits (SEND_BUFFER bytes on SAMD51 and
  RP2040) and returns that count; the buffer drains to the host at DRAIN_PER_MS bytes a
  millisecond of the clock (`drain(now_ms)`).
- `Stream`: usb_cdc.data's shape (`in_waiting`, `readinto`, `write`): what the host sends
  is `put` into a preallocated inbox; what the board writes lands in `written` (the
  host's side), straight away or through a SendBuffer when one is asked for.
"""

SEND_BUFFER = 256  # bytes: CircuitPython's CDC send buffer on SAMD51 and RP2040
# How fast the buffer empties: one 64-byte full-speed packet a millisecond (a host that
# polls the bulk endpoint once per USB frame; a real one usually drains it faster).
DRAIN_PER_MS = 64


class Pixels:
    def __init__(self, n):
        self.n = n
        self.buf = [0] * n
        self.shown = [0] * n
        self.shows = 0
        self.changes = 0  # shows that changed at least one pixel
        self.write = True  # False: show() only counts (a step timed without the LED write)

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        self.buf[i] = v

    def __getitem__(self, i):
        return self.buf[i]

    def fill(self, v):
        for i in range(self.n):
            self.buf[i] = v

    def show(self):
        if not self.write:
            self.shows += 1
            return
        buf = self.buf
        shown = self.shown
        changed = False
        for i in range(self.n):
            if shown[i] != buf[i]:
                shown[i] = buf[i]
                changed = True
        self.shows += 1
        if changed:
            self.changes += 1

    def rgb(self, i):
        v = self.shown[i]
        return (v >> 16) & 255, (v >> 8) & 255, v & 255

    def deinit(self):
        pass


class Event:
    def __init__(self, key_number=0, pressed=False):
        self.key_number = key_number
        self.pressed = pressed


def _always():
    return 0


class Events:
    """keypad.EventQueue: `put(key, pressed, at=0)` queues an event that becomes visible
    once the clock reaches `at` (clock: a function of no arguments; none means every event
    is due at once)."""

    def __init__(self, clock=None):
        self.queue = []  # (at, key, pressed), oldest first
        self.clock = clock if clock is not None else _always

    def put(self, key, pressed, at=0):
        self.queue.append((at, key, pressed))

    def get_into(self, event):
        queue = self.queue
        if not queue or queue[0][0] > self.clock():
            return False
        _, event.key_number, event.pressed = queue.pop(0)
        return True

    def clear(self):
        self.queue = []

    def __len__(self):
        return len(self.queue)


class Keys:
    """keypad.Keys / keypad.KeyMatrix: `events`, and `deinit()`."""

    def __init__(self, clock=None):
        self.events = Events(clock)
        self.deinited = False

    def tap(self, key):
        self.events.put(key, True)
        self.events.put(key, False)

    def deinit(self):
        self.deinited = True


class Encoder:
    def __init__(self, position=0):
        self.position = position

    def deinit(self):
        pass


class SendBuffer:
    """A USB CDC send buffer of `size` bytes in front of `wire` (anything with write()):
    `write` takes what fits and returns that count; `drain(now_ms)` hands the wire what
    the time since the last drain lets out, `drain_per_ms` bytes a millisecond, in order."""

    def __init__(self, wire, size=SEND_BUFFER, drain_per_ms=DRAIN_PER_MS, now_ms=0):
        self.wire = wire
        self.size = size
        self.drain_per_ms = drain_per_ms
        self.ring = bytearray(size)
        self.view = memoryview(self.ring)
        self.head = 0  # the oldest byte not yet drained
        self.count = 0
        self.drained_at = now_ms
        self.short_writes = 0  # writes that took less than they were given
        self.refused_bytes = 0  # bytes given to write and not taken

    def write(self, buf):
        n = len(buf)
        room = self.size - self.count
        if n > room:
            self.short_writes += 1
            self.refused_bytes += n - room
            n = room
        ring = self.ring
        at = (self.head + self.count) % self.size
        for i in range(n):
            ring[at] = buf[i]
            at += 1
            if at == self.size:
                at = 0
        self.count += n
        return n

    def drain(self, now_ms):
        budget = (now_ms - self.drained_at) * self.drain_per_ms
        if budget <= 0 and self.count:
            return
        self.drained_at = now_ms
        while self.count and budget > 0:
            n = self.count
            if n > budget:
                n = budget
            if self.head + n > self.size:
                n = self.size - self.head  # up to the ring's end; the rest next time round
            self.wire.write(self.view[self.head : self.head + n])
            self.head = (self.head + n) % self.size
            self.count -= n
            budget -= n


class _Written:
    """The host's side of a Stream: what came out of the board, in `written`."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, buf):
        self.stream._arrived(buf)


class Stream:
    """usb_cdc.data's shape. `put(data)` is the host sending (into a preallocated inbox of
    `inbox` bytes); the board's writes arrive in `written` (a bytearray), at once or, with
    `send_buffer` bytes, through a SendBuffer drained by `drain(now_ms)`; with
    `keep=False` they are only counted (`arrived`), so a long run on the VM holds nothing.
    `fail` makes write raise OSError, as usb_cdc's may with the cable pulled."""

    def __init__(self, inbox=4096, send_buffer=0, drain_per_ms=DRAIN_PER_MS, now_ms=0, keep=True):
        self.inbox = bytearray(inbox)
        self.start = 0
        self.end = 0
        self.written = bytearray()
        self.keep = keep
        self.arrived = 0  # bytes that reached the host's side
        self.write_calls = 0
        self.fail = False
        self.timeout = 0  # code.py sets these on usb_cdc.data
        self.write_timeout = None
        self.buffer = None
        if send_buffer:
            self.buffer = SendBuffer(_Written(self), send_buffer, drain_per_ms, now_ms)

    @property
    def in_waiting(self):
        return self.end - self.start

    def readinto(self, buf):
        n = len(buf)
        if n > self.end - self.start:
            n = self.end - self.start
        inbox = self.inbox
        start = self.start
        for i in range(n):
            buf[i] = inbox[start + i]
        self.start = start + n
        return n

    def write(self, buf):
        if self.fail:
            raise OSError(5)
        self.write_calls += 1
        if self.buffer is not None:
            return self.buffer.write(buf)
        self._arrived(buf)
        return len(buf)

    def _arrived(self, buf):
        self.arrived += len(buf)
        if self.keep:
            self.written += buf

    def drain(self, now_ms):
        if self.buffer is not None:
            self.buffer.drain(now_ms)

    def put(self, data):
        """The host sends `data`: it is read after whatever is still waiting."""
        n = len(data)
        if self.start == self.end:
            self.start = self.end = 0
        elif self.end + n > len(self.inbox):  # move what is waiting to the front
            left = self.end - self.start
            for i in range(left):
                self.inbox[i] = self.inbox[self.start + i]
            self.start, self.end = 0, left
        if self.end + n > len(self.inbox):
            raise ValueError("the fake stream's inbox is full")
        for i in range(n):
            self.inbox[self.end + i] = data[i]
        self.end += n

    def take_written(self):
        """What the board wrote since the last call (and forget it)."""
        out = self.written
        self.written = bytearray()
        return out
