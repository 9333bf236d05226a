"""The paired-dice file (`dice.json`, host/dice/settings.py) read and written as a hostile
file (issue #37, item 4; docs/reliability.md, "Hostile files and input"): only a regular
file is read or replaced, its temporary is never a planted link, its size is bounded
before it is read, and every malformed file is one line naming it."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from host import cli
from host.dice import settings
from host.dice.model import GODICE, PIXELS

GOOD = settings.PairedDie("1234ABCD", PIXELS, "d20", "Red", "AA:BB")


def _cli(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_writing_the_dice_file_never_replaces_a_fifo(tmp_path, capsys) -> None:
    fifo = tmp_path / "f.json"
    os.mkfifo(fifo)
    code, _, err = _cli(capsys, "dice", "unstable", "yes", "--file", str(fifo))
    assert code == 2
    assert err == (
        f"turnlight: {fifo}: it is a FIFO, not a regular file: a paired-dice file is only a"
        " regular file\n"
    )
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    with pytest.raises(settings.SettingsError, match="it is a FIFO"):
        settings.save([GOOD], fifo, accept_unstable=False)  # the writer refuses on its own
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_writing_the_dice_file_never_replaces_a_symlinked_fifo(tmp_path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "dice.json").symlink_to(fifo)
    with pytest.raises(settings.SettingsError, match="it is a FIFO"):
        settings.save([GOOD], tmp_path / "dice.json", accept_unstable=False)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert (tmp_path / "dice.json").is_symlink()


def test_a_planted_tmp_symlink_is_not_written_through(tmp_path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("not yours")
    home = tmp_path / "home"
    home.mkdir()
    for planted in ("dice.tmp", "dice.json.tmp"):  # the old temporary's name, and a guess
        (home / planted).symlink_to(victim)
    settings.save([GOOD], home / "dice.json", accept_unstable=True)
    assert victim.read_text() == "not yours"
    assert settings.read(home / "dice.json") == settings.Settings([GOOD], True)
    assert sorted(p.name for p in home.iterdir()) == ["dice.json", "dice.json.tmp", "dice.tmp"]


def test_a_folder_given_as_the_dice_file_is_one_line(tmp_path, capsys) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    for verb in (("list",), ("unstable", "yes"), ("forget", "x")):
        code, _, err = _cli(capsys, "dice", *verb, "--file", str(folder))
        assert code == 2
        assert err == (
            f"turnlight: {folder}: it is a folder, not a regular file: a paired-dice file is"
            " only a regular file\n"
        )
    assert folder.is_dir() and not list(folder.iterdir())


WHAT_IS_WRONG = [
    ('{"dice":"abc"}', '"dice" is a string, not a list'),
    ("[null]", 'the file is a list, not an object with a "dice" list'),
    ("[[1,2]]", 'the file is a list, not an object with a "dice" list'),
    ('{"dice":[null]}', "dice[0] is null, not an object"),
    ('{"dice":[[1,2]]}', "dice[0] is a list, not an object"),
    ('{"dice":[{"die_id":"a","make":"pixels","kind":"d7"}]}', "dice[0].kind is 'd7', not one of"),
    ('{"dice":[{"die_id":"a","make":"pixels","kind":7}]}', "dice[0].kind is a number, not a"),
    (
        '{"dice":[{"die_id":"a","make":"godice","kind":"d20"}]}',
        "dice[0].shell is '': a GoDice paired as a d20 wears the d20",
    ),
    ('{"dice":[{"make":"pixels","kind":"d6"}]}', "dice[0]: no die_id"),
    ('{"dice":[],"accept_unstable":"yes"}', '"accept_unstable" is a string, not true or false'),
    ('{"dice":[],"other":1}', "unknown key 'other' (known: dice, accept_unstable)"),
    ("[" * 3000 + "]" * 3000, "JSON nested 3000 deep; a paired-dice file is 8 at most"),
    ('{"dice": [', "not JSON (Expecting value: line 1 column 11 (char 10))"),
]


@pytest.mark.parametrize("text, wrong", WHAT_IS_WRONG)
def test_each_malformed_dice_file_is_one_line_naming_it(tmp_path, capsys, text, wrong) -> None:
    path = tmp_path / "x.json"
    path.write_text(text)
    for verb in (("list",), ("unstable", "yes")):
        code, out, err = _cli(capsys, "dice", *verb, "--file", str(path))
        assert (code, out) == (2, "")
        assert err.startswith(f"turnlight: {path}: not a paired-dice file: {wrong}")
        assert err.count("\n") == 1
    assert path.read_text() == text  # refused, never written over


def test_a_die_paired_twice_in_the_file_is_one_line(tmp_path) -> None:
    path = tmp_path / "dice.json"
    die = {"die_id": "GoDice_1", "make": GODICE, "kind": "d6", "shell": "d6"}
    path.write_text(json.dumps({"dice": [die, die]}))
    with pytest.raises(settings.SettingsError, match=r"dice\[1\]: die 'GoDice_1' is paired twice"):
        settings.load(path)


def test_a_dice_file_past_64_kb_is_refused_before_it_is_read(tmp_path, monkeypatch) -> None:
    path = tmp_path / "dice.json"
    body = json.dumps({"dice": [GOOD.__dict__], "accept_unstable": False})
    path.write_text(body + " " * (settings.MAX_BYTES - len(body)))
    assert settings.load(path) == [GOOD]  # at the limit: read
    with path.open("a") as fh:
        fh.write(" ")
    with pytest.raises(settings.SettingsError) as refused:
        settings.load(path)
    assert str(refused.value) == (
        f"{path}: 65,537 bytes; a paired-dice file is 65,536 bytes at most"
    )
    huge = tmp_path / "huge.json"
    with huge.open("wb") as fh:
        fh.truncate(200 * 1024 * 1024)  # sparse: 200 MB that cost no disk
    read = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: read.append(n) or real_read(fd, n))
    with pytest.raises(settings.SettingsError, match="209,715,200 bytes; a paired-dice file"):
        settings.load(huge)
    assert read == []  # its size said it: not a byte was read


def test_a_file_that_is_not_utf8_is_one_line_with_its_line(tmp_path) -> None:
    path = tmp_path / "dice.json"
    path.write_bytes(b'{"dice": [],\n "x": "\xff"}')
    with pytest.raises(settings.SettingsError) as refused:
        settings.load(path)
    assert str(refused.value) == (
        f"{path}:2: not UTF-8 text (byte 0xff at column 8); save the file as UTF-8"
    )


def test_a_written_dice_file_keeps_its_permissions_and_reads_back(tmp_path) -> None:
    path = tmp_path / "dice.json"
    settings.save([GOOD], path, accept_unstable=False)
    path.chmod(0o600)
    godie = settings.PairedDie("GoDice_\x1b[2J", GODICE, "d00", "g", "AA", "d10x")
    settings.save([GOOD, godie], path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert settings.read(path) == settings.Settings([GOOD, godie], False)
    assert [p.name for p in Path(tmp_path).iterdir()] == ["dice.json"]  # no temporary left
