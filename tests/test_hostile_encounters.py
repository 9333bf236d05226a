"""Encounter files made to hurt (issue #27, findings 3.4 and 3.6): keys nested deep by dots
rather than brackets, and names carrying terminal escape codes. Each is refused in one
line naming the file and where, by every command that reads an encounter."""

from __future__ import annotations

from pathlib import Path

import pytest

from host import cli
from host.core.encounter_files import MAX_NESTING


def _one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert cli.main(argv) == 2, argv
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert len(err) == 1 and err[0].startswith("turnlight: "), err
    return err[0]


def _commands(tmp_path: Path, encounter: Path) -> list[list[str]]:
    script = tmp_path / "s.txt"
    script.write_text("initiative\n")
    db = str(tmp_path / "j.sqlite")
    return [
        ["encounter", "check", str(encounter)],
        ["run", "--script", str(script), "--encounter", str(encounter)],
        ["play", "--no-board", "--db", db, "--encounter", str(encounter)],
    ]


@pytest.mark.parametrize(
    "deep",
    [
        "x" + ".x" * 1199 + " = 1",  # 1,200 parts, 2.4 KB: a RecursionError before
        "[" + "t." * 40 + "u]\nv = 1",  # a table header
        "[[" + "t." * 40 + "u]]\nv = 1",  # an array of tables
    ],
)
def test_keys_nested_deep_by_dots_are_refused_on_their_line(tmp_path, capsys, deep) -> None:
    encounter = tmp_path / "deep.toml"
    encounter.write_text(f'ruleset = "korxsol"\n\n{deep}\n')
    for argv in _commands(tmp_path, encounter):
        assert _one_line(capsys, argv) == (
            f"turnlight: {encounter}:3: not valid TOML here: keys, tables and arrays nested"
            f" more than {MAX_NESTING} deep"
        )
