"""Fake board hardware for CPython tests of the firmware App, driven by a fake clock:
a pixel strip that keeps what show() sent, a key queue with keypad's get_into, and an
in-memory stream with usb_cdc.data's shape."""

from __future__ import annotations

from collections import deque
from typing import Any

from firmware.app import App
from firmware.boards import load


class Pixels:
    def __init__(self, n: int) -> None:
        self.buf = [0] * n
        self.shown = [0] * n
        self.shows = 0

    def __setitem__(self, i: int, v: int) -> None:
        self.buf[i] = v

    def show(self) -> None:
        self.shown = list(self.buf)
        self.shows += 1

    def rgb(self, i: int) -> tuple[int, int, int]:
        v = self.shown[i]
        return (v >> 16) & 255, (v >> 8) & 255, v & 255


class Event:
    key_number = 0
    pressed = False


class Events:
    def __init__(self) -> None:
        self.queue: deque[tuple[int, bool]] = deque()

    def get_into(self, event: Any) -> bool:
        if not self.queue:
            return False
        event.key_number, event.pressed = self.queue.popleft()
        return True


class Keys:
    def __init__(self) -> None:
        self.events = Events()


class Stream:
    def __init__(self) -> None:
        self.inbox = bytearray()
        self.written = bytearray()

    @property
    def in_waiting(self) -> int:
        return len(self.inbox)

    def readinto(self, buf: Any) -> int:
        n = min(len(buf), len(self.inbox))
        buf[:n] = self.inbox[:n]
        del self.inbox[:n]
        return n

    def write(self, buf: Any) -> int:
        self.written += bytes(buf)
        return len(buf)


class Rig:
    """An App on fake hardware with a fake clock: `tap`, `hold`, `run`."""

    def __init__(self, board: str = "trellis_m4", budget_ma: int = 400) -> None:
        self.profile = load(board)
        self.pixels = Pixels(self.profile.WIDTH * self.profile.HEIGHT)
        self.keys = Keys()
        self.stream = Stream()
        self.now = 1000
        self.app = App(
            self.profile,
            self.pixels,
            self.keys,
            Event(),
            self.stream,
            None,
            now_ms=self.now,
            seed=5,
            budget_ma=budget_ma,
            nonce=1,
        )

    def key(self, control: str) -> int:
        return list(self.profile.KEYMAP).index(control)

    def run(self, ms: int, step: int = 5) -> None:
        end = self.now + ms
        while self.now < end:
            self.now += step
            self.app.step(self.now)

    def down(self, control: str) -> None:
        self.keys.events.queue.append((self.key(control), True))
        self.run(5)

    def up(self, control: str) -> None:
        self.keys.events.queue.append((self.key(control), False))
        self.run(5)

    def tap(self, control: str) -> None:
        self.down(control)
        self.up(control)

    def hold(self, control: str, ms: int) -> None:
        self.down(control)
        self.run(ms)
        self.up(control)
