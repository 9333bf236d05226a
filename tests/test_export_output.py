"""`turnlight export --out`: never over the journal it reads (however the path is spelled),
and every file written whole or not at all (a temporary beside it, then a rename)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from host import cli
from host.core import outfile

SCRIPT = "initiative\nend\n"


def _journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    db = tmp_path / "e.sqlite"
    script = tmp_path / "s.txt"
    script.write_text(SCRIPT)
    assert cli.main(["run", "--script", str(script), "--db", str(db), "--seed", "3"]) == 0
    capsys.readouterr()
    return db


def _spellings(db: Path) -> list[str]:
    """The journal's path as written, relative through a detour, through a symlink and a
    hard link, and its WAL side files."""
    link = db.parent / "link.sqlite"
    link.symlink_to(db)
    hard = db.parent / "hard.sqlite"
    os.link(db, hard)
    detour = db.parent / "sub"
    detour.mkdir()
    return [
        str(db),
        str(detour / ".." / db.name),
        str(link),
        str(hard),
        f"{db}-wal",
    ]


@pytest.mark.parametrize("fmt", ["json", "csv", "scores-csv", "scores-json", "png"])
def test_export_refuses_an_output_that_is_the_journal(tmp_path, capsys, fmt) -> None:
    db = _journal(tmp_path, capsys)
    before = _exported(db, capsys)
    for out in _spellings(db):
        assert cli.main(["export", "--db", str(db), "--format", fmt, "--out", out]) == 2
        err = capsys.readouterr().err.splitlines()
        assert err == [f"turnlight: --out {out} is the journal {db}: refusing to write over it"]
        assert _exported(db, capsys) == before


def _exported(db: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert cli.main(["export", "--db", str(db)]) == 0
    return capsys.readouterr().out


def test_an_export_is_written_whole_or_not_at_all(tmp_path, capsys, monkeypatch) -> None:
    db = _journal(tmp_path, capsys)
    out = tmp_path / "game.json"
    out.write_text("the old export\n")

    def full_disk(self: Path, *args: object, **kwargs: object) -> int:
        self.open("w").write('{"half": ')  # what a disk that fills up part way leaves
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full_disk)
    assert cli.main(["export", "--db", str(db), "--out", str(out)]) == 2
    monkeypatch.undo()
    err = capsys.readouterr().err.splitlines()
    assert err == [f"turnlight: cannot write {out}: No space left on device"]
    assert out.read_text() == "the old export\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_an_export_through_a_symlink_writes_its_target_and_keeps_the_link(tmp_path, capsys) -> None:
    db = _journal(tmp_path, capsys)
    target = tmp_path / "real.csv"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    assert cli.main(["export", "--db", str(db), "--format", "csv", "--out", str(link)]) == 0
    assert link.is_symlink() and target.read_text().startswith("seq,")
    assert target.stat().st_mode & 0o777 == 0o640  # an existing file keeps its permissions


def test_a_png_export_is_renamed_into_place(tmp_path, capsys) -> None:
    db = _journal(tmp_path, capsys)
    png = tmp_path / "chart.png"
    assert cli.main(["export", "--db", str(db), "--format", "png", "--out", str(png)]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_is_the_journal_sees_through_spellings(tmp_path) -> None:
    db = tmp_path / "j.sqlite"
    db.write_bytes(b"")
    assert outfile.is_the_journal(tmp_path / "." / "j.sqlite", db)
    assert outfile.is_the_journal(f"{db}-shm", db)
    assert not outfile.is_the_journal(tmp_path / "other.json", db)


@pytest.mark.parametrize("fmt", ["json", "png"])
def test_export_refuses_an_output_that_is_not_a_regular_file(tmp_path, capsys, fmt) -> None:
    # A rename over a FIFO (or, as root, over /dev/null) would put a regular file in its
    # place: issue #27, finding 3.1. Tried on a FIFO of the test's own, never on /dev.
    db = _journal(tmp_path, capsys)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "to-pipe"
    link.symlink_to(fifo)
    for out in (fifo, link):
        assert cli.main(["export", "--db", str(db), "--format", fmt, "--out", str(out)]) == 2
        err = capsys.readouterr().err.splitlines()
        assert err == [
            f"turnlight: cannot write {out}: it is a FIFO, not a regular file: an export"
            " replaces only a regular file"
        ]
    assert fifo.is_fifo()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_the_writer_never_renames_over_a_fifo_that_appeared_meanwhile(tmp_path) -> None:
    out = tmp_path / "late"

    def make_a_fifo_there(path: Path) -> None:
        path.write_text("x")
        os.mkfifo(out)

    with pytest.raises(outfile.NotAFile):
        outfile.write_with(out, make_a_fifo_there)
    assert out.is_fifo() and [p.name for p in tmp_path.iterdir()] == ["late"]


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_an_export_never_carries_the_web_consoles_token(tmp_path, capsys, fmt) -> None:
    """Whoever holds the console's token runs the game (host/web/hub.py keeps it in the
    journal for --resume): an export, which travels, says it was withheld."""
    from host.core.journal import Journal
    from host.web.hub import TOKEN_EVENT

    db = _journal(tmp_path, capsys)
    token = "k3Yq9-secret-console-token"
    journal = Journal(db)
    game = journal.games()[-1]["id"]
    journal.append(game, TOKEN_EVENT, {"token": token})
    journal.close()
    assert cli.main(["export", "--db", str(db), "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert token not in out
    assert "(withheld)" in out
