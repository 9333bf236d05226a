"""Text a die or a USB gadget chooses never reaches the terminal raw (issue #37, item 5):
a GoDice's id is its advertised name, and a Pixels die's name is its own, so anyone in
radio range sets them; a USB device names its own product and serial number. Every
command that prints them spells control characters out (`\\x1b`) with the one function
`play`'s view uses, host/core/names.py `printable`."""

from __future__ import annotations

import argparse
import logging
import sys
import types

import pytest

from host import cli
from host.dice import pixels, settings
from host.dice.fake_transport import FakeDie, FakeTransport
from host.dice.model import GODICE, PIXELS
from host.dice.transport import Advert

EVIL = "\x1b]0;pwned\x07\x1b[2J\x9b31m"
SPELT = "\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m"


def _raw(text: str) -> list[str]:
    return [ch for ch in text if ch in "\x1b\x07\x9b"]


def test_dice_list_spells_out_escape_codes_in_a_die_id_and_name(tmp_path, capsys) -> None:
    path = tmp_path / "dice.json"
    settings.save(
        [
            settings.PairedDie("GoDice_" + EVIL, GODICE, "d6", "GoDice_" + EVIL, "AA", "d6"),
            settings.PairedDie("1234ABCD", PIXELS, "d20", "Red" + EVIL, "BB"),
        ],
        path,
        accept_unstable=False,
    )
    assert cli.main(["dice", "list", "--file", str(path)]) == 0
    out = capsys.readouterr().out
    assert _raw(out) == []
    assert out.count(SPELT) == 3  # the GoDice's id and name, the Pixels die's name


def test_dice_forget_and_its_refusal_spell_out_escape_codes(tmp_path, capsys) -> None:
    path = tmp_path / "dice.json"
    die = settings.PairedDie("GoDice_" + EVIL, GODICE, "d6", "g", "AA", "d6")
    settings.save([die], path, accept_unstable=False)
    assert cli.main(["dice", "forget", "GoDice_x" + EVIL, "--file", str(path)]) == 2
    assert cli.main(["dice", "forget", die.die_id, "--file", str(path)]) == 0
    out, err = capsys.readouterr()
    assert _raw(out + err) == [] and SPELT in out and SPELT in err


@pytest.fixture
def dice_in_range(monkeypatch):
    """`turnlight dice scan` and `pair` hearing a fake stack: a GoDice and a Pixels die
    whose advertised names carry escape codes."""
    manu, info = pixels.advert_current(0x1234ABCD, 7, 20, 5, 0, 90)
    dice = [
        FakeDie(Advert("AA:01", "GoDice_" + EVIL, []), set()),
        FakeDie(
            Advert(
                "AA:02",
                "Pixel " + EVIL,
                [pixels.SERVICE],
                {pixels.COMPANY_ID: manu},
                {pixels.INFO_SERVICE: info},
            ),
            {pixels.SERVICE},
        ),
    ]
    fake = types.ModuleType("host.dice.bleak_transport")
    fake.BleakTransport = lambda: FakeTransport(dice)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "host.dice.bleak_transport", fake)
    monkeypatch.setattr("host.dice.play_hook.bleak_missing", lambda: "")
    monkeypatch.setattr("host.commands.dice.GODICE_ASK_S", 0.01)


def test_dice_scan_spells_out_escape_codes_in_advertised_names(dice_in_range, capsys) -> None:
    assert cli.main(["dice", "scan", "--seconds", "0.01"]) == 0
    out = capsys.readouterr().out
    assert _raw(out) == []
    assert out.count(SPELT) == 3  # the GoDice's id and name, the Pixels die's name


def test_dice_pair_spells_out_escape_codes_in_an_advertised_id(
    dice_in_range, tmp_path, capsys
) -> None:
    file = str(tmp_path / "dice.json")
    assert cli.main(["dice", "pair", "GoDice_" + EVIL, "--shell", "d6", "--file", file]) == 0
    assert cli.main(["dice", "pair", "nope", "--file", file]) == 2  # names those in range
    out, err = capsys.readouterr()
    assert _raw(out + err) == [] and SPELT in out and SPELT in err


def test_devices_spells_out_a_usb_product_name_and_serial(monkeypatch, capsys) -> None:
    from host.board import discovery
    from host.commands import devices

    gadget = discovery.Candidate(
        "/dev/ttyACM9", 0x239A, 0x8031, "SN" + EVIL, "Trellis" + EVIL, "", "1-1", "data"
    )
    monkeypatch.setattr(discovery, "candidates", lambda: [gadget])
    devices.run(argparse.Namespace(all=True, json=False, probe=0.0))
    out = capsys.readouterr().out
    assert _raw(out) == []
    assert out.count(SPELT) == 2


def test_a_dice_line_a_view_refused_is_logged_spelt_out(caplog) -> None:
    from host.dice.table import DiceTable

    def view_that_fails(line: str) -> None:
        raise RuntimeError("the view is gone")

    table = DiceTable(FakeTransport([]), [], lambda die, value: None, view_that_fails)
    with caplog.at_level(logging.ERROR):
        table.say(f"smart die d6 GoDice_{EVIL} linked")
    assert _raw(caplog.text) == [] and SPELT in caplog.text
