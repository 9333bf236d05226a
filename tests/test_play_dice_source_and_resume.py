"""`turnlight play` at a real table (issue #28, items 1 and 6): where the dice come from
survives a resume, and the command `quit` prints resumes the same setup."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from host.cli import build_parser
from host.commands.play import same_setup
from host.core.interface import IllegalAction
from host.core.journal import Journal
from host.core.session import Session, resume
from host.rulesets.korxsol import encounter_schema


def new_session(path: Path) -> Session:
    return Session(encounter_schema.load(encounter_schema.example_path()), 5, Journal(str(path)))


def play(*args: str, typed: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", "play", *args],
        input=typed,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "TERM": "dumb"},
    )


def test_dice_from_is_journalled_and_a_resume_keeps_it(tmp_path: Path) -> None:
    session = new_session(tmp_path / "j.sqlite")
    session.execute("initiative")
    session.execute("dice from entered")
    again = resume(Journal(str(tmp_path / "j.sqlite")))
    assert again.dice_from == "entered"
    action = again.ruleset.plan_turn(again.game)[0]
    again.execute(action)
    assert again.pending is not None  # it waits for entered dice, as before the resume


def test_a_resume_told_where_the_dice_come_from_takes_that_over_the_journal(
    tmp_path: Path,
) -> None:
    session = new_session(tmp_path / "j.sqlite")
    session.execute("initiative")
    session.execute("dice from board")
    assert resume(Journal(str(tmp_path / "j.sqlite")), dice_from="engine").dice_from == "engine"


def test_a_game_that_never_chose_plays_the_engine_s_dice_after_a_resume(tmp_path: Path) -> None:
    session = new_session(tmp_path / "j.sqlite")
    session.execute("initiative")
    assert resume(Journal(str(tmp_path / "j.sqlite"))).dice_from == "engine"


def test_an_unknown_dice_source_is_refused_and_not_journalled(tmp_path: Path) -> None:
    session = new_session(tmp_path / "j.sqlite")
    session.execute("initiative")
    with pytest.raises(IllegalAction, match="board, engine, entered"):
        session.execute("dice from table")
    assert Journal(str(tmp_path / "j.sqlite")).last_event(1, "dice-from") is None


def test_play_resumed_as_quit_says_keeps_waiting_for_entered_dice(tmp_path: Path) -> None:
    db = str(tmp_path / "j.sqlite")
    first = play("--no-board", "--seed", "5", "--db", db, typed="dice from entered\nquit\n")
    hint = first.stderr.splitlines()[-1]
    assert hint.endswith("--dice entered"), hint
    # Resumed without --dice: the journal says where the dice come from.
    resumed = play("--no-board", "--resume", "1", "--db", db, typed="initiative\nquit\n")
    assert "waiting for Kaelen's initiative roll (3 D3) from the table" in resumed.stdout


@pytest.mark.parametrize(
    "setup",
    [
        ["--sim"],
        ["--sim", "--board", "macropad", "--dice", "board", "--web"],
        ["--port", "/dev/ttyACM1", "--board-undo", "all", "--web", "0.0.0.0:9000"],
        ["--no-board", "--db", "my games.sqlite", "--no-screen"],
    ],
)
def test_the_resume_hint_sets_the_game_up_as_it_was(setup: list[str]) -> None:
    parser = build_parser()
    before = parser.parse_args(["play", *setup])
    dice = before.dice or "engine"
    hint = " ".join(["--resume", "1", *same_setup(before, dice)])
    after = parser.parse_args(["play", *shlex.split(hint)])
    kept = ("sim", "board", "port", "no_board", "board_undo", "web", "db", "screen")
    assert {k: getattr(after, k) for k in kept} == {k: getattr(before, k) for k in kept}
    assert (after.dice or "engine") == dice and after.resume == 1
