"""A game is played by one session at a time (issue #19, finding 3): starting or resuming a
game holds it in the journal (host/core/journal.py, `holders`); a second `play --resume` of it
is refused in one line naming the holder; the hold goes when the session ends, and one
left by a process that is gone (a crash) is taken over. New games from two sessions on one
journal go on side by side."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from host.core.journal import GameHeld, Journal
from host.core.session import Session, resume
from host.rulesets.korxsol import encounter_schema

ENV = dict(os.environ, TERM="dumb")


def _saved_game(db: Path) -> int:
    s = Session(encounter_schema.load(encounter_schema.example_path()), 4, Journal(db))
    s.execute("initiative")
    assert s.game_id is not None
    s.journal.close()  # type: ignore[union-attr]
    return s.game_id


def _play(db: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "host.cli", "play", "--db", str(db), "--no-board", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )


def _holder(db: Path, game: int, timeout: float = 60.0) -> int | None:
    """The pid holding `game` once one does (None if none did within `timeout`)."""
    deadline = time.monotonic() + timeout
    while True:
        con = sqlite3.connect(db)
        try:
            row = con.execute("SELECT pid FROM holders WHERE game = ?", (game,)).fetchone()
        except sqlite3.OperationalError:
            row = None
        finally:
            con.close()
        if row is not None:
            return int(row[0])
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.05)


def test_a_second_play_resume_of_a_held_game_is_refused_naming_the_holder(tmp_path) -> None:
    db = tmp_path / "j.sqlite"
    game = _saved_game(db)
    first = _play(db, "--resume", str(game))
    try:
        assert _holder(db, game) == first.pid
        second = subprocess.run(
            [sys.executable, "-m", "host.cli", "play", "--db", str(db), "--no-board"]
            + ["--resume", str(game)],
            input="end\nquit\n",
            capture_output=True,
            text=True,
            env=ENV,
            check=False,
        )
        assert second.returncode == 2
        lines = second.stderr.splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith(
            f"turnlight: game {game} is being played by another session: turnlight pid"
            f" {first.pid} on {socket.gethostname()} (session "
        )
        assert lines[0].endswith("a game is played by one session at a time: end that one first")
    finally:
        assert first.stdin is not None
        first.communicate("end\nquit\n", timeout=60)
    assert first.returncode == 0
    # The first session's `end` is journalled, nothing of the second's: the game replays,
    # and the hold went with the first session.
    assert _holder(db, game, timeout=0) is None
    back = resume(Journal(db), game)
    assert [e.text for e in back.done] == ["initiative", "end"]


def test_a_hold_left_by_a_killed_session_is_taken_over(tmp_path, capsys) -> None:
    db = tmp_path / "j.sqlite"
    game = _saved_game(db)
    crashed = _play(db, "--resume", str(game))
    assert _holder(db, game) == crashed.pid
    crashed.send_signal(signal.SIGKILL)
    crashed.wait()
    back = resume(Journal(db), game)
    said = (
        f"game {game} was held by turnlight pid {crashed.pid} on {socket.gethostname()},"
        " which ended without letting go (a crash?): this session takes it over"
    )
    assert back.notices == [said] and said in capsys.readouterr().err
    assert _holder(db, game, timeout=0) == os.getpid()


def test_new_games_from_two_sessions_on_one_journal_both_go_on(tmp_path) -> None:
    db = tmp_path / "j.sqlite"
    Journal(db).close()
    sessions = [_play(db, "--seed", str(seed)) for seed in (1, 2)]
    for session in sessions:
        session.communicate("initiative\nend\nquit\n", timeout=60)
        assert session.returncode == 0, session.stderr
    journal = Journal(db)
    assert [g["events"] for g in journal.games()] == [2, 2]
    for g in journal.games():
        assert [e.text for e in resume(journal, g["id"]).done] == ["initiative", "end"]


def test_a_session_lets_go_when_its_journal_closes_and_at_the_next_game(tmp_path) -> None:
    db = tmp_path / "j.sqlite"
    journal = Journal(db)
    s = Session(encounter_schema.load(encounter_schema.example_path()), 4, journal)
    assert s.game_id is not None and _holder(db, s.game_id, 0) == os.getpid()
    s.execute("initiative")
    following = s.next_game()
    assert _holder(db, s.game_id, 0) is None
    assert following.game_id is not None and _holder(db, following.game_id, 0) == os.getpid()
    journal.close()
    assert _holder(db, following.game_id, 0) is None


def _held_by(db: Path, game: int, pid: int, host: str, started: str) -> None:
    con = sqlite3.connect(db)
    con.execute(
        "INSERT OR REPLACE INTO holders VALUES (?, 'other', ?, ?, ?, '2026-11-24T09:00:00')",
        (game, pid, host, started),
    )
    con.commit()
    con.close()


def test_a_hold_of_a_live_process_on_this_host_is_kept(tmp_path) -> None:
    db = tmp_path / "j.sqlite"
    game = _saved_game(db)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        _held_by(db, game, sleeper.pid, socket.gethostname(), "")
        with pytest.raises(GameHeld) as err:
            resume(Journal(db), game)
        assert f"turnlight pid {sleeper.pid} on {socket.gethostname()}" in str(err.value)
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_hold_from_another_host_or_a_reused_pid_is_stale(tmp_path) -> None:
    # A WAL journal cannot be shared between machines: a hold from another host came with
    # a copied file. A live process with the holder's pid but another start time is not it.
    db = tmp_path / "j.sqlite"
    game = _saved_game(db)
    _held_by(db, game, os.getpid(), "another-laptop", "")
    assert "another-laptop" in resume(Journal(db), game).notices[0]
    if Path(f"/proc/{os.getppid()}/stat").exists():
        _held_by(db, game, os.getppid(), socket.gethostname(), "1")  # started at tick 1: no
        assert "which ended without letting go" in resume(Journal(db), game).notices[0]


def test_reading_a_game_takes_no_hold(tmp_path) -> None:
    db = tmp_path / "j.sqlite"
    game = _saved_game(db)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        _held_by(db, game, sleeper.pid, socket.gethostname(), "")
        read = resume(Journal(db, write=False), game)  # what export does
        assert [e.text for e in read.done] == ["initiative"]
    finally:
        sleeper.kill()
        sleeper.wait()


def test_an_event_of_a_game_another_process_took_over_is_refused_and_not_kept(
    tmp_path: Path,
) -> None:
    db = tmp_path / "j.sqlite"
    s = Session(encounter_schema.load(encounter_schema.example_path()), 4, Journal(db))
    s.execute("initiative")
    # Another process judged this one's hold stale and took the game over.
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE holders SET pid = ?, host = 'elsewhere'", (os.getpid() + 1,))
    con.close()
    done = len(s.done)
    with pytest.raises(GameHeld, match="taken over by turnlight pid"):
        s.execute("end")
    assert len(s.done) == done
    assert s.journal is not None and s.game_id is not None
    assert [kind for _, kind, _, _ in s.journal.events(s.game_id)] == ["action"]


def test_a_resume_that_fails_lets_go_of_the_game(tmp_path: Path, monkeypatch) -> None:
    from host.core import registry
    from host.core.interface import IllegalAction

    db = tmp_path / "j.sqlite"
    game = _saved_game(db)

    def gone(ruleset_id: str):
        raise registry.UnknownRuleset(f"unknown ruleset {ruleset_id!r}")

    journal = Journal(db)
    with monkeypatch.context() as patched:
        patched.setattr(registry, "get", gone)
        with pytest.raises(IllegalAction, match="its ruleset is not here"):
            resume(journal, game)
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM holders WHERE game = ?", (game,)).fetchone() == (0,)
    con.close()
    assert resume(Journal(db), game).game_id == game  # and another session may take it
