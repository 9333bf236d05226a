"""settings.toml on the board (issue 4, item 2: a configurable LED budget): code.py reads
TURNLIGHT_LED_BUDGET_MA and TURNLIGHT_BRIGHTNESS with os.getenv, keeps them in a sane range
with one clear console line for a bad value, wires the App with them, and keeps stepping it
whatever a step raises (but a KeyboardInterrupt still stops it). code.py runs here on CPython
with fake board modules."""

from __future__ import annotations

import runpy
import sys
from types import ModuleType, SimpleNamespace
from typing import Any

import adafruit_ticks
import pytest

import firmware.app
from firmware.settings import BUDGET_MAX_MA, BUDGET_MIN_MA, int_setting
from host.board.micropython_vm import ROOT


def test_a_missing_setting_gives_the_default_quietly() -> None:
    assert int_setting("X", None, 400, 100, 2000) == (400, "")
    assert int_setting("X", "", 400, 100, 2000) == (400, "")


def test_a_setting_in_range_is_used_as_given() -> None:
    assert int_setting("X", 250, 400, 100, 2000) == (250, "")
    assert int_setting("X", "250", 400, 100, 2000) == (250, "")  # a quoted value


def test_a_setting_out_of_range_is_clamped_with_a_message() -> None:
    value, message = int_setting("TURNLIGHT_LED_BUDGET_MA", 5000, 400, 100, 2000)
    assert value == 2000 and message == "TURNLIGHT_LED_BUDGET_MA = 5000 is above 2000: using 2000"
    value, message = int_setting("TURNLIGHT_LED_BUDGET_MA", 10, 400, 100, 2000)
    assert value == 100 and "below 100" in message


def test_a_setting_that_is_not_a_number_gives_the_default_with_a_message() -> None:
    value, message = int_setting("TURNLIGHT_LED_BUDGET_MA", "lots", 400, 100, 2000)
    assert value == 400
    assert message == "TURNLIGHT_LED_BUDGET_MA = 'lots' is not a whole number: using 400"


def test_the_budget_range_leaves_room_above_every_boards_idle_draw() -> None:
    from firmware.boards import NAMES, load

    for name in NAMES:
        p = load(name)
        assert BUDGET_MIN_MA > p.WIDTH * p.HEIGHT * p.LED_IDLE_MA, name
    assert BUDGET_MIN_MA <= 400 <= BUDGET_MAX_MA


# -- code.py on fake board modules -----------------------------------------------------------


class FakeScanner:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.events = SimpleNamespace(get_into=lambda event: False)


class FakePin:
    """digitalio.DigitalInOut: the strip's data pin."""

    def __init__(self, pin: Any) -> None:
        self.pin = pin

    def switch_to_output(self) -> None:
        pass


class FakePixels:
    """firmware.strip.Strip: the App's pixels."""

    def __init__(self, pin: FakePin, n: int, write: Any) -> None:
        self.n = n

    def __setitem__(self, i: int, v: int) -> None:
        pass

    def show(self) -> None:
        pass


class Stop(KeyboardInterrupt):
    """Ends code.py's endless loop (a KeyboardInterrupt, as Ctrl-C on the console)."""


def run_code_py(
    monkeypatch: pytest.MonkeyPatch, steps: int, step: Any = None, **settings: str
) -> list[Any]:
    """Run firmware/code.py until ticks_ms has been read `steps` times; the Apps it made."""
    pins = {n: object() for n in ("NEOPIXEL", "ROW0", "ROW1", "ROW2", "ROW3")}
    pins.update({f"COL{i}": object() for i in range(8)})
    fakes = {
        "board": SimpleNamespace(**pins),
        "keypad": SimpleNamespace(
            KeyMatrix=FakeScanner, Keys=FakeScanner, Event=lambda: SimpleNamespace()
        ),
        "digitalio": SimpleNamespace(DigitalInOut=FakePin),
        "neopixel_write": SimpleNamespace(neopixel_write=lambda pin, buf: None),
        "firmware.strip": SimpleNamespace(Strip=FakePixels),
        "usb_cdc": SimpleNamespace(data=None),
        # Blinka's own microcontroller would print a warning about this desktop.
        "microcontroller": SimpleNamespace(cpu=SimpleNamespace(uid=bytes(range(1, 17)))),
    }
    for name, fake in fakes.items():
        module = ModuleType(name)
        module.__dict__.update(vars(fake))
        monkeypatch.setitem(sys.modules, name, module)
    calls = [0]

    def ticks_ms() -> int:
        calls[0] += 1
        if calls[0] > steps:
            raise Stop
        return 1000 + calls[0] * 5

    ticks = ModuleType("adafruit_ticks")
    ticks.__dict__.update(vars(adafruit_ticks))
    ticks.ticks_ms = ticks_ms  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "adafruit_ticks", ticks)
    for name in ("TURNLIGHT_BOARD", "TURNLIGHT_LED_BUDGET_MA", "TURNLIGHT_BRIGHTNESS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    made: list[Any] = []

    class RecordingApp(firmware.app.App):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    if step is not None:
        monkeypatch.setattr(RecordingApp, "step", step)
    monkeypatch.setattr(firmware.app, "App", RecordingApp)
    with pytest.raises(Stop):
        runpy.run_path(str(ROOT / "firmware" / "code.py"), run_name="__main__")
    return made


def test_code_py_takes_the_led_budget_and_brightness_from_settings(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (app,) = run_code_py(monkeypatch, 5, TURNLIGHT_LED_BUDGET_MA="250", TURNLIGHT_BRIGHTNESS="3")
    assert app.budget_ma == 250 and app.brightness == 3
    assert capsys.readouterr().out == ""


def test_code_py_clamps_a_bad_budget_and_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (app,) = run_code_py(
        monkeypatch, 5, TURNLIGHT_LED_BUDGET_MA="9000", TURNLIGHT_BRIGHTNESS="bright"
    )
    assert app.budget_ma == BUDGET_MAX_MA and app.brightness == 5
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "code.py: TURNLIGHT_LED_BUDGET_MA = 9000 is above 2000: using 2000",
        "code.py: TURNLIGHT_BRIGHTNESS = 'bright' is not a whole number: using 5",
    ]


def test_code_py_defaults_without_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    (app,) = run_code_py(monkeypatch, 5)
    assert app.budget_ma == 400 and app.brightness == 5 and app.profile.NAME == "trellis_m4"


def test_code_py_logs_a_failing_step_and_keeps_stepping(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen = []

    def step(self: Any, now_ms: int) -> None:
        seen.append(now_ms)
        if len(seen) <= 2:
            raise RuntimeError("boom")

    run_code_py(monkeypatch, 6, step=step)
    assert len(seen) == 5  # the first ticks_ms read is the App's start time
    out = capsys.readouterr().out
    assert "code.py: step failed (fault 1): boom" in out and "(fault 2)" in out
