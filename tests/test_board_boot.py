"""boot.py under CPython with the board's USB and key modules faked at the lowest level (the
module objects CircuitPython provides): what it asks of USB, with and without the skip key."""

from __future__ import annotations

import runpy
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


class FakeKeys:
    """keypad.KeyMatrix / keypad.Keys: reports `held` as pressed since power-up."""

    held: int | None = None

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.events = self
        self._pending = [] if FakeKeys.held is None else [FakeKeys.held]

    def get_into(self, event: types.SimpleNamespace) -> bool:
        if not self._pending:
            return False
        event.key_number = self._pending.pop()
        event.pressed = True
        return True

    def deinit(self) -> None:
        pass


def run_boot(
    monkeypatch: pytest.MonkeyPatch, held: int | None, missing: tuple[str, ...] = ()
) -> list[tuple]:
    calls: list[tuple] = []

    def module(name: str, **members: object) -> types.ModuleType:
        made = types.ModuleType(name)
        for key, value in members.items():
            setattr(made, key, value)
        return made

    board = module("board", __getattr__=lambda name: name)  # every pin exists
    keypad = module("keypad", KeyMatrix=FakeKeys, Keys=FakeKeys, Event=types.SimpleNamespace)
    usb_cdc = module("usb_cdc", enable=lambda **kw: calls.append(("usb_cdc.enable", kw)))
    usb_hid = module("usb_hid", disable=lambda: calls.append(("usb_hid.disable",)))
    usb_midi = module("usb_midi", disable=lambda: calls.append(("usb_midi.disable",)))
    for fake in (board, keypad, usb_cdc, usb_hid, usb_midi):
        monkeypatch.setitem(sys.modules, fake.__name__, fake)
    for name in missing:  # a build without it: importing it fails
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setattr("time.sleep", lambda s: None)
    monkeypatch.setattr(FakeKeys, "held", held)
    runpy.run_path(str(ROOT / "boot.py"), run_name="__main__")
    return calls


def test_boot_turns_off_hid_and_midi_before_enabling_the_data_channel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = run_boot(monkeypatch, held=None)
    assert calls == [
        ("usb_hid.disable",),
        ("usb_midi.disable",),
        ("usb_cdc.enable", {"console": True, "data": True}),
    ]


def test_boot_with_the_skip_key_held_leaves_usb_as_it_is(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_boot(monkeypatch, held=0) == []
    assert "skip key held" in capsys.readouterr().out


@pytest.mark.parametrize("missing", ["usb_hid", "usb_midi"])
def test_boot_turns_off_the_one_a_build_has_when_the_other_is_missing(
    monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    present = "usb_midi" if missing == "usb_hid" else "usb_hid"
    calls = run_boot(monkeypatch, held=None, missing=(missing,))
    assert calls == [(f"{present}.disable",), ("usb_cdc.enable", {"console": True, "data": True})]
