"""Bad input the README promises one line for, `turnlight: what is wrong` (with the file and
line where there is one), not a traceback: a damaged or read-only journal, a folder that
cannot be made, a script or encounter that is not UTF-8, TOML nested thousands deep, a
number too long to convert, and an odds query too big to print (issue #19, finding 9); and
lines too long to split (finding 8)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from host import cli
from host.core.commandline import MAX_LINE
from host.core.interface import IllegalAction
from host.rulesets.korxsol import language


def one_line(capsys: pytest.CaptureFixture[str], argv: list[str], status: int = 2) -> str:
    """Run the real CLI entry; it must exit with `status` and say exactly one line."""
    assert cli.main(argv) == status, argv
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("turnlight: "), (argv, err)
    return err[0]


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "s.txt"
    path.write_text("initiative\nend\n")
    return path


def test_a_file_that_is_not_a_database_is_one_line_for_every_command(
    tmp_path, capsys, script
) -> None:
    db = tmp_path / "j.sqlite"
    db.write_bytes(b"this is not a SQLite database, just some text, long enough to be read\n")
    said = f"turnlight: {db} is not a turnlight journal, or is damaged past reading"
    for argv in (
        ["games", "--db", str(db)],
        ["export", "--db", str(db)],
        ["play", "--db", str(db), "--no-board", "--resume"],
        ["play", "--db", str(db), "--no-board"],
        ["run", "--db", str(db), "--script", str(script)],
        ["demo", "--db", str(db), "--no-board", "--seed", "1"],
    ):
        assert one_line(capsys, argv).startswith(said), argv


def _read_only(monkeypatch: pytest.MonkeyPatch, db: Path) -> None:
    """Open `db` as SQLite opens a file it may not write (chmod does not stop root)."""
    connect = sqlite3.connect

    def read_only(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(path) == str(db):
            path, kwargs["uri"] = f"file:{db}?mode=ro", True
        return connect(path, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only)


def test_a_read_only_journal_is_one_line_before_anything_is_played(
    tmp_path, capsys, monkeypatch, script
) -> None:
    db = tmp_path / "j.sqlite"
    assert cli.main(["run", "--db", str(db), "--script", str(script), "--seed", "2"]) == 0
    capsys.readouterr()
    _read_only(monkeypatch, db)
    said = f"turnlight: cannot write the journal {db}: it is read-only"
    for argv in (
        ["run", "--db", str(db), "--script", str(script)],
        ["play", "--db", str(db), "--no-board", "--resume"],
        ["demo", "--db", str(db), "--no-board", "--seed", "1"],
    ):
        assert one_line(capsys, argv).startswith(said), argv
    # Reading needs no writing: the saved game still lists and exports.
    assert cli.main(["games", "--db", str(db)]) == 0
    assert cli.main(["export", "--db", str(db), "--format", "csv"]) == 0


def test_a_journal_folder_that_cannot_be_made_is_one_line(tmp_path, capsys, script) -> None:
    (tmp_path / "afile").write_text("a file where a folder would go\n")
    db = tmp_path / "afile" / "sub" / "j.sqlite"
    said = one_line(capsys, ["run", "--db", str(db), "--script", str(script)])
    assert said == (
        f"turnlight: cannot create the folder {db.parent} for the journal: Not a directory"
    )


def test_a_script_that_is_not_utf8_names_its_line(tmp_path, capsys) -> None:
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("initiative\n# café\n".encode("latin-1"))
    said = one_line(capsys, ["run", "--script", str(bad)])
    assert said == (
        f"turnlight: {bad}:2: not UTF-8 text (byte 0xe9 at column 6); save the file as UTF-8"
    )


def test_an_encounter_that_is_not_utf8_names_its_line(tmp_path, capsys, script) -> None:
    bad = tmp_path / "e.toml"
    bad.write_bytes(b'[encounter]\nname = "\xff"\n')
    said = one_line(capsys, ["run", "--script", str(script), "--encounter", str(bad)])
    assert said == (
        f"turnlight: {bad}:2: not UTF-8 text (byte 0xff at column 9); save the file as UTF-8"
    )


def test_toml_nested_thousands_deep_is_refused_on_its_line(tmp_path, capsys, script) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text('[encounter]\nname = "x"\n\na = ' + "[" * 3000 + "]" * 3000 + "\n")
    said = one_line(capsys, ["run", "--script", str(script), "--encounter", str(deep)])
    assert said == (
        f"turnlight: {deep}:4: not valid TOML here: arrays and tables nested more than 32 deep"
    )


def test_a_number_too_long_to_convert_is_refused_on_its_line(tmp_path, capsys, script) -> None:
    big = tmp_path / "big.toml"
    big.write_text('[encounter]\nname = "x"\nseed = ' + "9" * 5000 + "\n")
    said = one_line(capsys, ["run", "--script", str(script), "--encounter", str(big)])
    assert said == f"turnlight: {big}:3: not valid TOML here: an integer beyond 64 bits"


def test_an_integer_beyond_64_bits_is_refused_on_its_line(tmp_path, capsys, script) -> None:
    # 0x and 5,000 digits reads as a Python int that cannot even be printed in an error.
    big = tmp_path / "big.toml"
    big.write_text('[encounter]\nname = "x"\n\n[[solighter]]\nkor = 0x' + "f" * 5000 + "\n")
    said = one_line(capsys, ["run", "--script", str(script), "--encounter", str(big)])
    assert said == f"turnlight: {big}:5: not valid TOML here: an integer beyond 64 bits"


def test_an_encounter_file_far_bigger_than_one_is_refused_unread(tmp_path, capsys, script):
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * 2_000_000)
    said = one_line(capsys, ["run", "--script", str(script), "--encounter", str(big)])
    assert said == (
        f"turnlight: {big}: the file is more than 1,000,000 bytes; an encounter is far smaller"
    )


def test_odds_with_a_base_too_big_to_print_is_one_line(capsys) -> None:
    said = one_line(capsys, ["odds", "--base", "9" * 310])
    assert (
        said
        == "turnlight: --base must be at most 1,000 (a move's damage), not a number of 310 digits"
    )
    assert cli.main(["odds", "--base", "1000", "--json"]) == 0


# -- finding 8: one long input --------------------------------------------------------------
def test_a_command_longer_than_the_limit_is_refused_at_once() -> None:
    word = "x" * 1_000_000
    started = time.perf_counter()
    with pytest.raises(IllegalAction) as err:
        language.parse(f"attack {word}")
    assert time.perf_counter() - started < 0.5  # shlex took 18.9 s on this word
    assert str(err.value) == (
        f"the line is 1,000,007 characters long; a command is at most {MAX_LINE:,}"
    )
    assert language.parse("initiative " + "#" * (MAX_LINE - 11)) is not None


def test_a_script_line_longer_than_the_limit_is_refused_with_its_line(tmp_path, capsys) -> None:
    long = tmp_path / "long.txt"
    long.write_text("initiative\n" + "x" * 4_000_000 + "\nend\n")
    started = time.perf_counter()
    said = one_line(capsys, ["run", "--script", str(long)])
    assert time.perf_counter() - started < 5  # 4 MB took 277 s to split
    assert said == (
        f"turnlight: {long}:2: the line is longer than {MAX_LINE:,} characters,"
        " the most a line may be"
    )


def test_script_lines_are_split_as_before(tmp_path, capsys) -> None:
    # \r\n, a lone \r and a form feed end lines as str.splitlines() says, as they did.
    from host.core.textfile import read_lines

    path = tmp_path / "s.txt"
    path.write_bytes(b"initiative\r\nend\rend\x0cend\n\nlast")
    assert read_lines(path, MAX_LINE) == ["initiative", "end", "end", "end", "", "last"]
