"""The big-table issue's "done when": a d20 and a korxsol game of 24 entries (MOST_FIGHTERS,
the bundled `big_table` encounters) play to the end through the simulated board
(`turnlight demo --encounter big_table`), and `--encounter` takes a bundled encounter's
name, refusing one that is neither a file nor bundled by naming those there are."""

from __future__ import annotations

from pathlib import Path

import pytest

from host import cli
from host.core.encounter_files import read_toml
from host.core.journal import Journal
from host.core.newcomers import MOST_FIGHTERS


@pytest.mark.parametrize("ruleset_id, seed", [("d20", 4), ("korxsol", 6)])
def test_a_big_table_plays_to_the_end_through_the_simulated_board(
    ruleset_id: str, seed: int, tmp_path: Path, capsys
) -> None:
    db = tmp_path / "j.sqlite"
    argv = ["demo", "--ruleset", ruleset_id, "--encounter", "big_table", "--seed", str(seed)]
    assert cli.main([*argv, "--color", "never", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "simulated trellis_m4 board" in out
    assert "\nwinner: " in out and "draw: turn limit" not in out
    journal = Journal(db)
    (listed,) = journal.games()
    game = journal.game(listed["id"])
    assert game is not None and game["winner"] and game["finished"]  # journalled as won
    doc = read_toml(game["encounter_toml"], "big_table")
    assert len(doc["creature" if ruleset_id == "d20" else "solighter"]) == MOST_FIGHTERS


def test_an_encounter_neither_a_file_nor_bundled_is_refused_naming_the_bundled(capsys) -> None:
    assert cli.main(["demo", "--ruleset", "d20", "--encounter", "big_tabel"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert "big_tabel: no such file, nor an encounter bundled with d20" in err
    assert "big_table" in err and "wyrmling_den" in err
