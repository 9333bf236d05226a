"""The `turnlight` command line: demo and bench run and say what they promise."""

from __future__ import annotations

import json
import subprocess
import sys


def turnlight(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args], capture_output=True, text=True, check=False
    )


def test_the_demo_command_prints_initiative_and_the_winner() -> None:
    done = turnlight("demo", "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert "initiative 1." in done.stdout and "winner:" in done.stdout


def test_bench_json_prints_one_object_with_the_engine_figures() -> None:
    done = turnlight("bench", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    for key in ("state_bytes", "engine_heap_bytes", "end_turn_alloc_bytes_per_1000"):
        assert isinstance(figures[key], int) and figures[key] >= 0
    assert "bench:" in done.stderr  # progress goes to stderr, JSON alone to stdout


def test_help_lists_every_command() -> None:
    done = turnlight("--help")
    assert done.returncode == 0
    for command in ("demo", "bench", "run", "play", "games", "export", "odds"):
        assert command in done.stdout


def test_an_unknown_board_is_one_line_naming_the_known_ones(tmp_path) -> None:
    known = "(known: trellis_m4, macropad, pico_matrix)"
    db = tmp_path / "j.sqlite"
    for args in (
        ("demo", "--board", "nosuch"),
        ("play", "--sim", "--board", "nosuch", "--db", str(db)),
        ("sim", "--board", "nosuch"),
    ):
        done = turnlight(*args)
        assert done.returncode == 2, args
        assert done.stderr.splitlines() == [f"turnlight: unknown board 'nosuch' {known}"], args
    assert not db.exists()  # refused before a game was written


def test_every_command_s_errors_start_with_the_same_prefix(tmp_path) -> None:
    # sim and deploy used to say `turnlight sim:` and `turnlight deploy:`.
    for args in (
        ("sim", "--page", "lobby"),
        ("deploy", "--drive", str(tmp_path / "not-mounted")),
        ("odds", "--hit", "99"),
    ):
        done = turnlight(*args)
        assert done.returncode == 2, args
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("turnlight: "), (args, lines)


def test_a_misspelled_option_gets_the_subcommand_s_usage_and_a_suggestion() -> None:
    done = turnlight("odds", "--hit", "3", "--agilty", "2")
    assert done.returncode == 2
    assert done.stderr.startswith("usage: turnlight odds ")
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("turnlight odds: error: unrecognized arguments: --agilty 2")
    assert last.endswith("--agilty: did you mean --agility?")
