"""`turnlight play` at the table (issue #15): what quit says, the board's undo key under
--board-undo, and a screen that keeps up with the board (its presses and their refusals
redraw the live view without a typed command)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def play(*args: str, typed: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", "play", *args],
        input=typed,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "TERM": "dumb", **(env or {})},
    )


def test_quit_says_which_game_was_saved_and_how_to_resume_it(tmp_path: Path) -> None:
    done = play("--no-board", typed="initiative\nquit\n", env={"XDG_DATA_HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == "game 1 saved; resume with: turnlight play --resume 1"
    resumed = play(
        "--no-board", "--resume", "1", typed="quit\n", env={"XDG_DATA_HOME": str(tmp_path)}
    )
    assert resumed.returncode == 0 and "(game 1)" in resumed.stderr


def test_quit_names_the_journal_when_it_is_not_the_default(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite"
    done = play("--no-board", "--db", str(db), typed="initiative\n")  # Ctrl-D: the input ends
    assert done.stderr.splitlines()[-1] == (
        f"game 1 saved; resume with: turnlight play --resume 1 --db {db}"
    )


def test_quit_of_a_game_with_nothing_in_it_says_it_was_removed_not_saved(tmp_path: Path) -> None:
    done = play("--no-board", "--db", str(tmp_path / "j.sqlite"), typed="quit\n")
    assert "had no events: removed" in done.stderr and "saved" not in done.stderr
