"""A board made of the shared link alone, on a thread: a BoardSession over a pyserial port.

The soak in `turnlight bench` and the link tests use it to stand in for the firmware (the
real simulated board comes with the firmware); it plays queued presses as fast as the
journal accepts them and records every event it journalled, in order. With `send_buffer`
(bytes), its writes go through a USB CDC send buffer of that size that takes only what fits
and drains at `drain_per_ms` (host/board/vm/fakehw.py's SendBuffer), as usb_cdc.data does on a
board with write_timeout = 0.
"""

from __future__ import annotations

import threading
from collections import deque

import serial
from adafruit_ticks import ticks_ms

from host.board.bridge import _wait_readable, open_port
from host.board.vm.fakehw import DRAIN_PER_MS, SendBuffer
from shared.link import board
from shared.link.board import JOURNAL_EVENTS
from shared.link.messages import NO_ID
from shared.state import GameState


class SendBufferedPort:
    """A port with usb_cdc.data's write: a send buffer in front that takes what fits and
    returns the count; it drains into the port as the clock (ticks_ms) runs."""

    def __init__(self, port: serial.SerialBase, size: int, drain_per_ms: int) -> None:
        self.port = port
        self.buffer = SendBuffer(port, size, drain_per_ms, ticks_ms())

    @property
    def in_waiting(self) -> int:
        return int(self.port.in_waiting)

    def readinto(self, buf: memoryview) -> int:
        return int(self.port.readinto(buf) or 0)

    def write(self, buf: memoryview | bytes) -> int:
        self.drain()
        return int(self.buffer.write(buf))

    def drain(self) -> None:
        self.buffer.drain(ticks_ms())


class LinkBoard:
    def __init__(
        self,
        url: str,
        state: GameState,
        nonce: int | None = None,
        journal_events: int = JOURNAL_EVENTS,
        board_id: bytes = NO_ID,
        send_buffer: int = 0,
        drain_per_ms: int = DRAIN_PER_MS,
    ) -> None:
        self.port = open_port(url)
        self.buffered = (
            SendBufferedPort(self.port, send_buffer, drain_per_ms) if send_buffer else None
        )
        self.lock = threading.RLock()
        self.session = board.BoardSession(
            self.buffered or self.port,
            state,
            nonce=nonce,
            journal_events=journal_events,
            now_ms=ticks_ms(),
            board_id=board_id,
        )
        self.queue: deque[bytes] = deque()
        self.journalled: list[bytes] = []  # every event accepted, in order
        self.invalid: list[bytes] = []
        self.full_refusals = 0
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> LinkBoard:
        self._thread = threading.Thread(target=self._run, name="link board", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.port.close()

    def __enter__(self) -> LinkBoard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def press(self, *records: bytes) -> None:
        with self.lock:
            self.queue.extend(records)

    def idle(self) -> bool:
        """Nothing queued and nothing left unacknowledged."""
        with self.lock:
            return not self.queue and self.session.journal.count == 0

    def short_writes(self) -> int:
        """Writes the send buffer took only part of (0 without one)."""
        return self.buffered.buffer.short_writes if self.buffered is not None else 0

    def _run(self) -> None:
        while not self._stop.is_set():
            busy = False
            try:
                with self.lock:
                    now = ticks_ms()
                    if self.buffered is not None:
                        self.buffered.drain()
                    self.session.poll(now)
                    busy = self._submit(now)
                _wait_readable(self.port, 0 if busy else 0.002)
            except (serial.SerialException, OSError) as err:
                self.errors.append(str(err))
                self._stop.wait(0.01)

    def _submit(self, now: int) -> bool:
        while self.queue:
            record = self.queue[0]
            result = self.session.submit_record(now, record)
            if result == board.JOURNAL_FULL:
                self.full_refusals += 1
                return False
            self.queue.popleft()
            if result == board.INVALID:
                self.invalid.append(record)
            else:
                self.journalled.append(record)
        return False
