"""The simulated board: the real firmware App on CPython, on a real pseudo-terminal.

The LEDs are the firmware's own strip (firmware/strip.py, as code.py makes it), its bytes
captured where they would leave for the wire: the `neopixel_write` it is given here hands
them to the simulated board. What cannot exist here is faked at the lowest level:
keypad events (a queue with keypad's `events.get_into`) and the encoder's position (both
from host/board/vm/fakehw.py, the fakes the VM scripts and the tests share), and the USB data
channel, which is the master side of `os.openpty()`: the host opens the slave's path with
pyserial like any serial port.
"""

from __future__ import annotations

import fcntl
import os
import select
import struct
import termios
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any

from adafruit_ticks import ticks_ms

from firmware.app import App
from firmware.boards import DEFAULT, load
from firmware.strip import Strip
from host.board.firmware_host import PAGE_NAMES
from host.board.vm.fakehw import Encoder, Event, Keys
from shared import roster
from shared.state import GameState

Pixel = tuple[int, int, int]


class PtyStream:
    """The board's end of the pty, with usb_cdc.data's shape. Writes never block: with no
    host reading, bytes that do not fit are dropped, as on a board with the cable out."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        os.set_blocking(fd, False)
        self.dropped = 0

    @property
    def in_waiting(self) -> int:
        raw = fcntl.ioctl(self.fd, termios.FIONREAD, b"\0\0\0\0")
        return int(struct.unpack("i", raw)[0])

    def readinto(self, buf: Any) -> int:
        try:
            data = os.read(self.fd, len(buf))
        except (BlockingIOError, OSError):
            return 0
        buf[: len(data)] = data
        return len(data)

    def write(self, buf: Any) -> int:
        data = bytes(buf)
        try:
            written = os.write(self.fd, data)
        except (BlockingIOError, OSError):
            written = 0
        self.dropped += len(data) - written
        return len(data)


class SimulatedBoard:
    def __init__(self, board: str = DEFAULT, seed: int | None = None) -> None:
        self.board_name = board
        self.profile = load(board)
        self.lock = threading.RLock()
        self.keys = Keys(clock=time.monotonic)
        self.encoder = Encoder() if self.profile.ENCODER_PINS else None
        # The strip's data pin: nothing here but a name (the pin is only passed back to
        # the write).
        self.strip = Strip(PIXEL_PIN, self.profile.WIDTH * self.profile.HEIGHT, self._write)
        self.seed = seed
        self.frames = 0
        self._frame: list[Pixel] = [(0, 0, 0)] * (self.profile.WIDTH * self.profile.HEIGHT)
        self._frame_cond = threading.Condition()
        self._master = -1
        self._slave = -1
        self.path = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        self.app = self._new_app(None)

    def _new_app(self, stream: PtyStream | None) -> App:
        return App(
            self.profile,
            self.strip,
            self.keys,
            Event(),
            stream,
            self.encoder,
            now_ms=ticks_ms(),
            seed=self.seed,
        )

    # -- lifecycle ----------------------------------------------------------------------

    def start(self, wire: str | None = None) -> str:
        """Open the pty, run the App loop on a thread, return the path a host opens. With
        `wire`, the board's end is that path instead (another program's pty, such as the
        fault proxy's board side, which then carries the bytes to the host)."""
        if wire is None:
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)  # no echo or line editing: a byte pipe like USB CDC
            self.path = os.ttyname(self._slave)
        else:
            self._master = os.open(wire, os.O_RDWR | os.O_NOCTTY)
            self.path = wire
        stream = PtyStream(self._master)
        with self.lock:
            # The link belongs to the pty now; keep the state and page set before the start.
            old = self.app
            self.app = self._new_app(stream)
            roster.copy_state(self.app.state, old.state)
            self.app.page = old.page
            self.app.brightness = old.brightness
        self._thread = threading.Thread(target=self._run, name="simulated board", daemon=True)
        self._thread.start()
        return self.path

    def stop(self) -> None:
        """Stop the loop and close the pty; safe to call more than once."""
        if self._wake_r < 0:
            return
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)
        self._wake_r = self._wake_w = -1

    def __enter__(self) -> SimulatedBoard:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        watch = [self._master, self._wake_r]
        while not self._stop.is_set():
            with self.lock:
                self.app.step(ticks_ms())
            ready, _, _ = select.select(watch, [], [], 0.002)
            if self._wake_r in ready:
                try:
                    os.read(self._wake_r, 64)
                except BlockingIOError:
                    pass

    def _wake(self) -> None:
        if self._wake_w < 0:
            return
        try:
            os.write(self._wake_w, b"x")
        except (BlockingIOError, OSError):
            pass

    # -- input --------------------------------------------------------------------------

    def press(self, key: int, hold_ms: int = 0) -> None:
        """Press key `key` and let it go `hold_ms` later. Indexes past the key map turn the
        encoder (see key_for): one detent per press."""
        count = len(self.profile.KEYMAP)
        if key >= count and self.encoder is not None:
            # count + 1 is a clockwise detent: the raw position moves as the profile says.
            clockwise = self.profile.ENCODER_CLOCKWISE
            with self.lock:
                self.encoder.position += clockwise if key == count + 1 else -clockwise
            self._wake()
            return
        if not 0 <= key < count:
            raise ValueError(f"key {key} is not one of 0..{count - 1} on {self.board_name}")
        now = time.monotonic()
        self.keys.events.put(key, True, now)
        self.keys.events.put(key, False, now + hold_ms / 1000)
        self._wake()

    def key_down(self, key: int) -> None:
        self.keys.events.put(key, True, time.monotonic())
        self._wake()

    def key_up(self, key: int) -> None:
        self.keys.events.put(key, False, time.monotonic())
        self._wake()

    def key_for(self, control: str) -> int:
        """The key index of a named control (on the MacroPad the encoder's two directions
        are indexes just past the keys). KeyError names the board's controls."""
        keymap = self.profile.KEYMAP
        if control in keymap:
            return keymap.index(control)
        encoder_map = self.profile.ENCODER_MAP
        if control in encoder_map:
            return len(keymap) + encoder_map.index(control)
        known = [c for c in (*keymap, *encoder_map) if c]
        raise KeyError(f"{self.board_name} has no key for {control!r} (it has {known})")

    @property
    def page_name(self) -> str:
        """The page the board shows (firmware/pages.py), by its name."""
        return PAGE_NAMES[self.app.page]

    def set_page(self, name: str) -> None:
        with self.lock:
            self.app.page = PAGE_NAMES.index(name)
            self.app.dirty = True
        self._wake()

    def load_state(self, state: GameState) -> None:
        """Put a state on the board as a host snapshot would (pictures, demos, tests)."""
        with self.lock:
            version = self.app.state.version
            roster.copy_state(self.app.state, state)
            self.app.state.version = version
            self.app.state.touch()
            self.app.dirty = True
        self._wake()

    def render_now(self) -> None:
        """Step the App once on the caller's thread (for a board that was not started)."""
        with self.lock:
            self.app.dirty = True
            self.app.step(ticks_ms())

    # -- output -------------------------------------------------------------------------

    def _write(self, pin: Any, buf: bytearray) -> None:
        """Stands in for neopixel_write: the wire bytes, green, red, blue a pixel."""
        self._shown(bytes(buf))

    def _shown(self, wire: bytes) -> None:
        frame = [(wire[i + 1], wire[i], wire[i + 2]) for i in range(0, len(wire) - 2, 3)]
        with self._frame_cond:
            self._frame = frame
            self.frames += 1
            self._frame_cond.notify_all()

    def pixels(self) -> list[Pixel]:
        """The last frame shown, per LED (after brightness and the current limiter)."""
        with self._frame_cond:
            return list(self._frame)

    def wait_for_frame(self, predicate: Callable[[list[Pixel]], bool], timeout_s: float) -> bool:
        deadline = time.monotonic() + timeout_s
        with self._frame_cond:
            while True:
                if predicate(list(self._frame)):
                    return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._frame_cond.wait(left)

    def grid(self) -> list[list[Pixel]]:
        """The last frame as rows of cells (LED order undone for zig-zag strips)."""
        frame = self.pixels()
        width, height = self.profile.WIDTH, self.profile.HEIGHT
        leds = self.app.led_of_cell
        return [[frame[leds[r * width + c]] for c in range(width)] for r in range(height)]

    def terminal_grid(self) -> str:
        lines = []
        for row in self.grid():
            cells = []
            for r, g, b in row:
                if r or g or b:
                    cells.append(f"\x1b[38;2;{r};{g};{b}m██")
                else:
                    cells.append("\x1b[38;2;45;45;45m··")
            lines.append(" ".join(cells) + "\x1b[0m")
        return "\n".join(lines)

    def save_png(self, path: str | Path, cell: int = 48) -> None:
        self.image(cell).save(str(path))

    def image(self, cell: int = 48) -> Any:
        """The last frame as a picture (a PIL image): a rounded square per cell."""
        from PIL import Image, ImageDraw

        rows = self.grid()
        gap = cell // 8
        width = len(rows[0]) * (cell + gap) + gap
        height = len(rows) * (cell + gap) + gap
        image = Image.new("RGB", (width, height), (18, 18, 22))
        draw = ImageDraw.Draw(image)
        for y, row in enumerate(rows):
            for x, (r, g, b) in enumerate(row):
                left, top = gap + x * (cell + gap), gap + y * (cell + gap)
                fill = (r, g, b) if (r or g or b) else (40, 40, 46)
                draw.rounded_rectangle(
                    (left, top, left + cell, top + cell), radius=cell // 6, fill=fill
                )
        return image


PIXEL_PIN = "NEOPIXEL"
