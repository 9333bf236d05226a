"""Smart dice in `turnlight play`: when the session's dice come from "smart" (`--dice
smart`, or `dice from smart` typed at the prompt), the paired dice start on their own
thread (host/dice/runner.py); their rolls change the session under the play UI's command
lock (and the tether's guard, with a board), and what they say joins the view's log."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from typing import Any

from host.dice import settings
from host.dice.runner import SmartDiceRunner
from host.dice.source import SOURCE, SmartDiceSource
from host.dice.transport import Transport

POLL_S = 0.25


def bleak_missing() -> str:
    """The one line saying how to install Bluetooth support, or "" when it is installed."""
    try:
        import host.dice.bleak_transport  # noqa: F401
    except ImportError as err:
        return str(err)
    return ""


async def _bleak() -> Transport:
    from host.dice.bleak_transport import BleakTransport

    return BleakTransport()


class SmartDiceForPlay:
    """Watches the play UI's session; starts the smart dice the first time it takes its
    dice from them."""

    def __init__(
        self,
        ui: Any,
        make_transport: Callable[[], Awaitable[Transport]] = _bleak,
        dice: list[settings.PairedDie] | None = None,
        accept_unstable: bool | None = None,
    ) -> None:
        self.ui = ui
        self.make_transport = make_transport
        self.dice = dice
        self.accept_unstable = accept_unstable
        self.runner: SmartDiceRunner | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="smart-dice-watch", daemon=True)

    def start(self) -> SmartDiceForPlay:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(5)
        if self.runner is not None:
            self.runner.stop()

    def place_lines(self) -> list[str]:
        """Which die filled which place of the roll being filled, and what each empty place
        waits for (for a view: none while nothing waits or no dice run)."""
        return self.runner.source.place_lines() if self.runner is not None else []

    def say(self, lines: list[str]) -> None:
        if lines:
            self.ui.messages.extend(lines)
            self.ui.show()

    def _guard(self, action: Callable[[], list[str]]) -> list[str]:
        with self.ui.command_lock:
            return self.ui.guard(action)

    def _watch(self) -> None:
        while not self._stop.is_set():
            if self.ui.session.dice_from == SOURCE:
                self._start_dice()
                return
            self._stop.wait(POLL_S)

    def _start_dice(self) -> None:
        if self.make_transport is _bleak:
            missing = bleak_missing()
            if missing:
                self.say([missing])
                return
        try:
            dice = self.dice if self.dice is not None else settings.load()
            unstable = self.accept_unstable
            if unstable is None:
                unstable = settings.accepts_unstable()
        except settings.SettingsError as err:
            self.say([str(err)])
            return
        if not dice:
            self.say(
                ["no smart dice are paired: `turnlight dice scan`, then `turnlight dice pair`"]
            )
            return
        source = SmartDiceSource(lambda: self.ui.session, self.say, self._guard)
        self.runner = SmartDiceRunner(self.make_transport, dice, source, unstable).start()
