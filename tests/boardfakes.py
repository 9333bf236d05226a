"""The firmware App on fake hardware (host/board/vm/fakehw.py, the one module of fakes the VM
scripts, the simulated board and these tests share), driven by a fake clock."""

from __future__ import annotations

from firmware.app import App
from firmware.boards import load
from host.board.vm.fakehw import Encoder, Event, Events, Keys, Pixels, SendBuffer, Stream

__all__ = ["Encoder", "Event", "Events", "Keys", "Pixels", "Rig", "SendBuffer", "Stream"]


class Rig:
    """An App on fake hardware with a fake clock: `tap`, `hold`, `run`. With
    `send_buffer`, the board's writes go through a USB send buffer of that many bytes
    drained as the clock runs (fakehw.SendBuffer)."""

    def __init__(
        self, board: str = "trellis_m4", budget_ma: int = 400, send_buffer: int = 0
    ) -> None:
        self.profile = load(board)
        self.pixels = Pixels(self.profile.WIDTH * self.profile.HEIGHT)
        self.keys = Keys()
        self.now = 1000
        self.stream = Stream(send_buffer=send_buffer, now_ms=self.now)
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
            self.stream.drain(self.now)
            self.app.step(self.now)

    def down(self, control: str) -> None:
        self.keys.events.put(self.key(control), True)
        self.run(5)

    def up(self, control: str) -> None:
        self.keys.events.put(self.key(control), False)
        self.run(5)

    def tap(self, control: str) -> None:
        self.down(control)
        self.up(control)

    def hold(self, control: str, ms: int) -> None:
        self.down(control)
        self.run(ms)
        self.up(control)
