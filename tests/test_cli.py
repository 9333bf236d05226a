"""The `turnlight` command line: demo and bench run and say what they promise."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def turnlight(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args], capture_output=True, text=True, check=False
    )


def test_the_demo_command_prints_initiative_and_the_winner() -> None:
    done = turnlight("demo", "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert "initiative 1." in done.stdout and "winner:" in done.stdout


def test_bench_json_prints_one_object_with_the_engine_figures() -> None:
    # Only the engine's measurements: the whole bench runs in test_link_cli.py, in process.
    done = turnlight("bench", "--json", "--only", "state_size,engine_memory")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    for key in ("state_bytes", "engine_heap_bytes", "end_turn_alloc_bytes_per_1000"):
        assert isinstance(figures[key], int) and figures[key] >= 0
    assert "soak_events" not in figures  # the link's figures were not asked for
    assert "bench:" in done.stderr  # progress goes to stderr, JSON alone to stdout


def test_bench_only_refuses_a_measurement_it_does_not_know_in_one_line() -> None:
    done = turnlight("bench", "--only", "engine_memroy")
    assert done.returncode == 2 and not done.stdout
    assert done.stderr.count("\n") == 1
    assert "engine_memroy" in done.stderr and "known: state_size, engine_memory" in done.stderr


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


ROOT = Path(__file__).parent.parent
COMMANDS_DOC = ROOT / "docs" / "commands.md"  # the full command table; README.md a short one


def _table_rows(doc: Path) -> dict[str, str]:
    """A doc's command table: each command's rows (its usage cells), joined."""
    rows: dict[str, str] = {}
    for line in doc.read_text().splitlines():
        if line.startswith("| `turnlight "):
            usage = line.split(" | ")[0]
            command = usage.split()[2].strip("`")
            rows[command] = rows.get(command, "") + " " + usage
    return rows


def _commands() -> dict:
    import argparse

    from host.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_the_full_command_table_names_every_option_of_every_command() -> None:
    import argparse

    rows = _table_rows(COMMANDS_DOC)
    missing = []
    for name, command in _commands().items():
        assert name in rows, f"no row for `turnlight {name}` in docs/commands.md's command table"
        for action in command._actions:
            for option in action.option_strings:
                if option.startswith("--") and option != "--help" and option not in rows[name]:
                    missing.append(f"{name} {option}")
            if isinstance(action, argparse._SubParsersAction):  # encounter new / check
                for sub_name, sub in action.choices.items():
                    assert f"{name} {sub_name}" in rows[name], f"{name} {sub_name}"
                    for inner in sub._actions:
                        for option in inner.option_strings:
                            if option.startswith("--") and option != "--help":
                                if option not in rows[name]:
                                    missing.append(f"{name} {sub_name} {option}")
    assert missing == []
    assert "`turnlight --version`" in COMMANDS_DOC.read_text()


def test_the_readme_s_short_command_table_names_every_command() -> None:
    rows = _table_rows(ROOT / "README.md")
    assert sorted(set(_commands()) - set(" ".join(rows.values()).replace("`", " ").split())) == []
    assert "`turnlight --version`" in (ROOT / "README.md").read_text()


def test_the_readme_is_a_first_game_under_150_lines() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) < 150
    sections = [line for line in readme.splitlines() if line.startswith("## ")]
    assert sections[:2] == ["## Two commands", "## Your first game, in five minutes"]
    for internal in ("COBS", "CRC", "soak_", "circuitpython-stubs", "mpy-cross"):
        assert internal not in readme, internal
    assert "samd51j19" in readme  # the NeoTrellis M4's chip
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        assert "samd51g19" not in doc.read_text(), doc


def test_version_bench_and_games_help_and_sim_seed_say_what_they_do() -> None:
    done = turnlight("--version")
    assert done.returncode == 0 and done.stdout.startswith("turnlight ")
    for command in ("bench", "games"):
        text = turnlight(command, "--help").stdout
        assert len(text.split("\n\n")) >= 3, command  # usage, a description, the options
    sim = " ".join(turnlight("sim", "--help").stdout.split())
    assert "(repeatable)" not in sim and "the same dice" in sim


def test_play_refuses_board_without_sim_in_one_line() -> None:
    for args, said in (
        (("--board", "macropad", "--no-board"), "--board macropad and --no-board conflict"),
        (("--board", "macropad", "--port", "/dev/x"), "--board macropad and --port conflict"),
        (("--board", "macropad"), "--board macropad goes with --sim"),
    ):
        done = turnlight("play", *args)
        assert done.returncode == 2, args
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"turnlight: {said}"), lines


def test_reading_a_journal_that_is_not_there_does_not_create_it(tmp_path) -> None:
    db = tmp_path / "nonexistent.sqlite"
    for command in ("games", "export"):
        done = turnlight(command, "--db", str(db))
        assert done.returncode == 2, command
        assert done.stderr.splitlines() == [
            f"turnlight: no journal at {db}: nothing has been saved there yet"
        ]
    assert not db.exists() and list(tmp_path.iterdir()) == []
