"""`turnlight dice` (scan, pair, list, forget), `play --dice smart` without Bluetooth
support, and the paired-dice settings file (docs/dice.md)."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from host.dice import settings
from host.dice.model import GODICE, PIXELS, DieInfo

ROOT = Path(__file__).resolve().parent.parent
NO_BLEAK = importlib.util.find_spec("bleak") is None


def _turnlight(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_DATA_HOME=str(home))
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )


@pytest.mark.skipif(not NO_BLEAK, reason="bleak is installed here")
@pytest.mark.parametrize("args", [("play", "--dice", "smart", "--no-board"), ("dice", "scan")])
def test_without_bleak_smart_dice_say_in_one_line_how_to_install_it(tmp_path, args) -> None:
    done = _turnlight(*args, home=tmp_path)
    assert done.returncode == 2
    from host.dice.transport import install_line

    assert done.stderr.splitlines() == [f"turnlight: {install_line()}"]
    assert not (tmp_path / "turnlight" / "journal.sqlite").exists()  # nothing was started


def test_bleak_is_imported_only_by_the_bleak_transport() -> None:
    importing = re.compile(r"^\s*(from bleak|import bleak)", re.M)
    found = [
        str(path.relative_to(ROOT))
        for folder in ("host", "shared", "firmware")
        for path in (ROOT / folder).rglob("*.py")
        if importing.search(path.read_text(encoding="utf-8"))
    ]
    assert found == ["host/dice/bleak_transport.py"]


def test_paired_dice_are_kept_beside_the_journal_by_their_own_id(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    die = settings.PairedDie("1234ABCD", PIXELS, "d20", "Red", "AA:BB")
    path = settings.save([die])
    assert path == tmp_path / "turnlight" / "dice.json"
    assert settings.load() == [die]
    moved = settings.PairedDie("1234ABCD", PIXELS, "d20", "Red", "CC:DD")
    assert settings.paired_with([die], moved) == [moved]  # the same die, a new address


def test_a_damaged_settings_file_is_said_in_one_line(tmp_path) -> None:
    path = tmp_path / "dice.json"
    path.write_text("{not json")
    with pytest.raises(settings.SettingsError, match=r"dice.json: not a paired-dice file"):
        settings.load(path)


def test_dice_list_and_forget(tmp_path) -> None:
    file = tmp_path / "dice.json"
    settings.save([settings.PairedDie("GoDice_1", GODICE, "d20", "g", "AA", "d20")], file)
    listed = _turnlight("dice", "list", "--file", str(file), home=tmp_path)
    assert listed.returncode == 0 and "GoDice_1" in listed.stdout and "shell d20" in listed.stdout
    missing = _turnlight("dice", "forget", "nope", "--file", str(file), home=tmp_path)
    assert missing.returncode == 2
    assert missing.stderr.strip() == "turnlight: no paired die 'nope' (paired: GoDice_1)"
    gone = _turnlight("dice", "forget", "GoDice_1", "--file", str(file), home=tmp_path)
    assert gone.returncode == 0
    assert json.loads(file.read_text())["dice"] == []


def test_the_game_master_may_count_godice_unstable_rests_as_rolls(tmp_path) -> None:
    file = tmp_path / "dice.json"
    assert settings.accepts_unstable(file) is False  # the default: not counted
    done = _turnlight("dice", "unstable", "yes", "--file", str(file), home=tmp_path)
    assert done.returncode == 0 and settings.accepts_unstable(file) is True
    settings.save([settings.PairedDie("GoDice_1", GODICE, "d6", "g", "AA", "d6")], file)
    assert settings.accepts_unstable(file) is True  # pairing keeps the setting


FOUND = [
    DieInfo(GODICE, "GoDice_E5DA53_K_v04", "AA:01", "GoDice_E5DA53_K_v04", battery=70),
    DieInfo(PIXELS, "1234ABCD", "AA:02", "Pixel d20", "d20", 80),
    DieInfo(PIXELS, "00C0FFEE", "AA:03", "old", ""),
]


def _pair(tmp_path: Path, die_id: str, shell=None, kind=None) -> int:
    from host.commands.dice import _pair

    args = argparse.Namespace(die_id=die_id, shell=shell, kind=kind)
    path = tmp_path / "dice.json"
    return _pair(args, FOUND, settings.load(path), path)


def test_a_godice_is_paired_with_its_shell_which_it_cannot_report(tmp_path, capsys) -> None:
    assert _pair(tmp_path, "GoDice_E5DA53_K_v04") == 2
    assert "is a GoDice: say its shell, --shell" in capsys.readouterr().err
    assert _pair(tmp_path, "GoDice_E5DA53_K_v04", shell="d10x") == 0
    (die,) = settings.load(tmp_path / "dice.json")
    assert (die.die_id, die.kind, die.shell, die.address) == (
        "GoDice_E5DA53_K_v04",
        "d00",
        "d10x",
        "AA:01",
    )


def test_a_pixels_die_is_paired_by_its_id_with_the_kind_it_reports(tmp_path, capsys) -> None:
    assert _pair(tmp_path, "1234ABCD", shell="d6") == 2  # a shell is for GoDice
    assert _pair(tmp_path, "00C0FFEE") == 2  # old firmware: its kind must be given
    assert "does not say its kind" in capsys.readouterr().err
    assert _pair(tmp_path, "1234ABCD") == 0
    assert _pair(tmp_path, "00C0FFEE", kind="d6") == 0
    kinds = {d.die_id: d.kind for d in settings.load(tmp_path / "dice.json")}
    assert kinds == {"1234ABCD": "d20", "00C0FFEE": "d6"}


def test_pairing_a_die_not_in_range_names_the_ones_that_are(tmp_path, capsys) -> None:
    assert _pair(tmp_path, "FFFFFFFF") == 2
    err = capsys.readouterr().err
    assert "no die 'FFFFFFFF' in range (in range: GoDice_E5DA53_K_v04, 1234ABCD, 00C0FFEE)" in err


def test_a_scan_lists_nothing_that_is_not_a_smart_die() -> None:
    from host.commands.dice import scan_dice
    from host.dice.fake_transport import FakeDie, FakeTransport
    from host.dice.transport import Advert

    other = FakeDie(Advert("AA:09", "Headphones", ["0000110b-0000-1000-8000-00805f9b34fb"]), set())
    assert asyncio.run(scan_dice(FakeTransport([other]), 0.1)) == []
