"""A board made of the shared link alone, on a thread: a BoardSession over a pyserial port.

The soak in `turnlight bench` and the link tests use it to stand in for the firmware (the
real simulated board comes with the firmware); it plays queued presses as fast as the
journal accepts them and records every event it journalled, in order.
"""

from __future__ import annotations

import threading
from collections import deque

import serial
from adafruit_ticks import ticks_ms

from host.bridge import _wait_readable, open_port
from shared.link import board
from shared.link.board import JOURNAL_EVENTS
from shared.link.messages import NO_ID
from shared.state import GameState


class LinkBoard:
    def __init__(
        self,
        url: str,
        state: GameState,
        nonce: int | None = None,
        journal_events: int = JOURNAL_EVENTS,
        board_id: bytes = NO_ID,
    ) -> None:
        self.port = open_port(url)
        self.lock = threading.RLock()
        self.session = board.BoardSession(
            self.port,
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

    def _run(self) -> None:
        while not self._stop.is_set():
            busy = False
            try:
                with self.lock:
                    now = ticks_ms()
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
