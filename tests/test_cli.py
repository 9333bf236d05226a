"""The `turnlight` command line: demo and bench run and say what they promise."""

from __future__ import annotations

import json
import subprocess
import sys

from host.commands import demo


def turnlight(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args], capture_output=True, text=True, check=False
    )


def test_the_demo_plays_the_same_game_for_the_same_seed() -> None:
    lines_a: list[str] = []
    lines_b: list[str] = []
    lines_c: list[str] = []
    demo.play(5, 2, out=lines_a.append)
    demo.play(5, 2, out=lines_b.append)
    demo.play(6, 2, out=lines_c.append)
    assert lines_a == lines_b
    assert lines_a != lines_c
    assert any("Round 2" in line for line in lines_a)


def test_the_demo_command_prints_initiative_and_the_final_table() -> None:
    done = turnlight("demo", "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert "Initiative" in done.stdout and "Final table" in done.stdout


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
    assert "demo" in done.stdout and "bench" in done.stdout
