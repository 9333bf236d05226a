"""Checkpoints another program wrote into the journal (issue #27, findings 3.3 and 3.5):
the digest is not keyed, so whoever can write the journal can store a checkpoint whose
digest checks. Whatever it holds is refused in one line, before it costs more than a
bounded time and memory, and the game is replayed from the journal (docs/reliability.md,
"Forged checkpoints")."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from demo_games import seen

from host import cli
from host.core import journal_checkpoints
from host.core.journal import Journal
from host.core.session import HOLE, Session, resume

ACTIONS = 30


@pytest.fixture(autouse=True)
def small_checkpoints(monkeypatch) -> None:
    monkeypatch.setattr(journal_checkpoints, "EVERY", 4)
    monkeypatch.setattr(journal_checkpoints, "RECENT", 5)
    monkeypatch.setattr(journal_checkpoints, "TAIL", 3)


def _long_game(tmp_path: Path, ruleset_id: str = "korxsol") -> tuple[Path, Session]:
    from host.core import registry

    path = tmp_path / "j.sqlite"
    ruleset = registry.get(ruleset_id)
    example = ruleset.example_path()
    enc = ruleset.parse_encounter(example.read_text(encoding="utf-8"), str(example))
    played = Session(enc, 3, Journal(path))
    played.execute("initiative")
    while len(played.done) < ACTIONS:
        played.execute("end")
    played.journal.close()  # type: ignore[union-attr]
    return path, played


def _rows(path: Path) -> list[tuple]:
    con = sqlite3.connect(path)
    rows = con.execute("SELECT game, seq, header, history, body FROM checkpoints").fetchall()
    con.close()
    assert rows
    return rows


def _store(path: Path, game: int, seq: int, header: str, history: str, body: bytes) -> None:
    """Rewrite one checkpoint as a forger would: its digest made to match what it holds."""
    con = sqlite3.connect(path)
    event = con.execute(
        "SELECT hash FROM events WHERE game = ? AND seq = ?", (game, seq)
    ).fetchone()[0]
    digest = journal_checkpoints._digest(header, history, body, event)
    con.execute(
        "UPDATE checkpoints SET header = ?, history = ?, body = ?, digest = ?"
        " WHERE game = ? AND seq = ?",
        (header, history, body, digest, game, seq),
    )
    con.commit()
    con.close()


def _replayed_with_notice(path: Path, played: Session, why: str) -> Session:
    back = resume(Journal(path), played.game_id)
    assert any(why in notice for notice in back.notices), back.notices
    assert all("\n" not in notice for notice in back.notices)
    assert seen(back) == seen(played)
    assert HOLE not in back.done  # replayed from the start: no checkpoint was used
    back.journal.close()  # type: ignore[union-attr]
    return back


def test_a_header_nested_too_deep_is_refused_and_the_game_replayed(
    tmp_path, capsys, monkeypatch
) -> None:
    path, played = _long_game(tmp_path)
    deep = "[" * 2000 + "]" * 2000  # the JSON reader recursed per bracket: a RecursionError
    for game, seq, _, history, body in _rows(path):
        _store(path, game, seq, deep, history, body)
    assert cli.main(["export", "--db", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["partial"] is None
    second = tmp_path / "copy.sqlite"
    shutil.copy(path, second)  # the resume below stores a good checkpoint in its place
    _replayed_with_notice(path, played, "its header is not text of at most 1,000 characters")
    monkeypatch.setattr(journal_checkpoints, "HEADER_CHARS", 10_000)  # read: too deep still
    _replayed_with_notice(second, played, "its header is nested too deep")
    assert cli.main(["export", "--db", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["partial"] is None
