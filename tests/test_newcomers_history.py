"""`add` and `remove` are journalled actions like any other: undo, redo and resume (a
journal's stored checkpoints, and a `play` killed with SIGKILL) give back exactly the game
with its newcomers and leavers, for every game that takes them (docs/commands.md,
"Fighters who join and leave"; docs/checkpoints.md)."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from demo_games import play
from newcomer_games import JOINING, SCENES, named, seen, session

from host.core import journal_checkpoints, memory_checkpoints
from host.core.journal import Journal
from host.core.session import resume


@pytest.fixture
def small_checkpoints(monkeypatch) -> Iterator[None]:
    # Close together, so a short game stores checkpoints holding its newcomers.
    monkeypatch.setattr(journal_checkpoints, "EVERY", 4)
    monkeypatch.setattr(journal_checkpoints, "RECENT", 5)
    monkeypatch.setattr(journal_checkpoints, "TAIL", 3)
    monkeypatch.setattr(journal_checkpoints, "KEEP", 2)
    monkeypatch.setattr(memory_checkpoints, "EVERY", 3)
    yield


def comings(ruleset_id: str) -> list[str]:
    scene = SCENES[ruleset_id]
    return [scene.stat_line, f"add {scene.template} as Newt", f"remove {scene.leaver} fled"]


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_undo_and_redo_take_back_and_put_back_who_joined_and_left(ruleset_id: str) -> None:
    s = session(ruleset_id)
    states = [seen(s)]
    for line in comings(ruleset_id):
        s.execute(line)
        states.append(seen(s))
    for back in range(1, len(states)):
        s.undo(1)
        assert seen(s) == states[-1 - back]
    assert named(SCENES[ruleset_id].stat_line) not in s.ruleset.fighter_names(s.game)
    s.redo(len(states) - 1)
    assert seen(s) == states[-1]


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_game_with_newcomers_resumes_from_its_stored_checkpoint(
    ruleset_id: str, tmp_path, small_checkpoints, monkeypatch
) -> None:
    begun: list = []
    real = journal_checkpoints.begin

    def spy(*args):
        start = real(*args)
        begun.append(start)
        return start

    monkeypatch.setattr(journal_checkpoints, "begin", spy)
    journal = Journal(tmp_path / "j.sqlite")
    s = session(ruleset_id, 7, journal)
    for line in comings(ruleset_id):
        s.execute(line)
    if s.ruleset.start_command and not s.ruleset.started(s.game):
        s.execute(s.ruleset.start_command)
    play(s, random.Random(3), 14)  # past a stored checkpoint or two
    assert len(s.done) >= 8
    journal.close()
    journal = Journal(tmp_path / "j.sqlite", write=False)
    try:
        back = resume(journal)
    finally:
        journal.close()
    assert seen(back) == seen(s)
    assert begun and begun[0] is not None, "the checkpoint with the newcomers was refused"
    assert back.ruleset.gone(back.game) == {SCENES[ruleset_id].leaver}


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_killed_play_session_resumes_with_its_newcomers(ruleset_id: str, tmp_path) -> None:
    db = tmp_path / "play.sqlite"
    lines = comings(ruleset_id)
    proc = subprocess.Popen(
        [sys.executable, "-m", "host.cli", "play", "--ruleset", ruleset_id, "--db", str(db)]
        + ["--seed", "11", "--no-board"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=dict(os.environ, TERM="dumb"),
    )
    assert proc.stdin is not None
    proc.stdin.write(("\n".join(lines) + "\n").encode())
    proc.stdin.flush()
    deadline, count = time.monotonic() + 60, 0
    while time.monotonic() < deadline and count < len(lines):
        if db.exists():
            try:
                with sqlite3.connect(db) as con:
                    count = con.execute("SELECT COUNT(*) FROM events").fetchone()[0]
            except sqlite3.OperationalError:
                count = 0
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert count == len(lines)
    back = resume(Journal(db))
    fresh = session(ruleset_id, 11)
    for line in lines:
        fresh.execute(line)
    assert seen(back) == seen(fresh)
