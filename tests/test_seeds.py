"""A game's seed comes from the OS unless --seed is given; play, demo and run say it, the
journal keeps it and `games` shows it, so any game can be played again (issue #15)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from host import cli
from host.core.journal import Journal


def script(tmp_path: Path, text: str = "initiative\nend\n") -> str:
    path = tmp_path / "s.txt"
    path.write_text(text)
    return str(path)


def test_without_a_seed_run_draws_one_from_the_os_says_it_and_journals_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "j.sqlite")
    monkeypatch.setattr(os, "urandom", lambda n: (123456).to_bytes(n, "big"))
    assert cli.main(["run", "--script", script(tmp_path), "--db", db]) == 0
    assert "seed 123457" in capsys.readouterr().err.splitlines()  # 1 + the OS's number
    assert [g["seed"] for g in Journal(db).games()] == [123457]


def test_two_games_without_a_seed_get_different_seeds(tmp_path: Path, capsys) -> None:
    seeds = []
    for _ in range(2):
        assert cli.main(["run", "--script", script(tmp_path), "--json"]) == 0
        seeds.append(json.loads(capsys.readouterr().out)["seed"])
    assert seeds[0] != seeds[1] and all(1 <= s <= 999_999 for s in seeds)


def test_the_printed_seed_plays_the_same_game_again(tmp_path: Path, capsys) -> None:
    fight = script(tmp_path, "initiative\nend\nend\n")
    assert cli.main(["run", "--script", fight, "--json"]) == 0
    first = capsys.readouterr()
    seed = re.search(r"^seed (\d+)$", first.err, re.M)
    assert seed is not None
    assert cli.main(["run", "--script", fight, "--json", "--seed", seed.group(1)]) == 0
    assert capsys.readouterr().out == first.out


def test_games_shows_each_game_s_seed(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "j.sqlite")
    assert cli.main(["run", "--script", script(tmp_path), "--db", db, "--seed", "424242"]) == 0
    capsys.readouterr()
    assert cli.main(["games", "--db", db]) == 0
    header, _, row = capsys.readouterr().out.splitlines()[:3]
    assert "seed" in header.split()
    assert "424242" in row.split()


def test_the_demo_says_its_seed_from_the_os(capsys, monkeypatch) -> None:
    monkeypatch.setattr(os, "urandom", lambda n: (41).to_bytes(n, "big"))
    assert cli.main(["demo", "--no-board", "--color", "never"]) == 0
    assert "(seed 42)" in capsys.readouterr().out


def test_play_says_its_seed_and_journals_it(tmp_path: Path) -> None:
    db = str(tmp_path / "j.sqlite")
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "play", "--db", db, "--no-board"],
        input="initiative\nquit\n",
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "TERM": "dumb"},
    )
    assert done.returncode == 0, done.stderr
    said = re.search(r"\(game 1\), seed (\d+)$", done.stderr, re.M)
    assert said is not None, done.stderr
    assert [g["seed"] for g in Journal(db).games()] == [int(said.group(1))]
