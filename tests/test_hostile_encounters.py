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


ESCAPES = "\\u001b]0;pwned\\u0007\\u001b[2J"  # as TOML spells them: set the title, clear


def _with_escapes(ruleset_id: str, tmp_path: Path) -> tuple[Path, int]:
    """The ruleset's bundled encounter, its first name after the encounter's own holding
    escape codes; and that name's line."""
    from host.core import registry

    lines = registry.get(ruleset_id).example_path().read_text(encoding="utf-8").splitlines()
    names = [n for n, line in enumerate(lines) if line.startswith("name = ")]
    at = names[1]  # the first is the encounter's own name
    lines[at] = lines[at].replace('"', ESCAPES + '"', 2).replace(ESCAPES + '"', '"', 1)
    path = tmp_path / f"{ruleset_id}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, at + 1


@pytest.mark.parametrize("ruleset_id", ["korxsol", "stones", "forms", "flare", "advance"])
def test_a_name_holding_a_control_character_is_refused_naming_file_and_key(
    tmp_path, capsys, ruleset_id
) -> None:
    encounter, line = _with_escapes(ruleset_id, tmp_path)
    for argv in _commands(tmp_path, encounter):
        said = _one_line(capsys, argv)
        assert said.startswith(f"turnlight: {encounter}:{line}: ")
        assert said.endswith(
            "name holds a control character (U+001B); a name or word printed to a terminal"
            " may hold none"
        )


def test_text_printed_spells_out_control_characters(capsys) -> None:
    from io import StringIO

    from rich.console import Console

    from host.commands._errors import fail
    from host.core.names import printable
    from host.core.session import Session
    from host.rulesets.korxsol import encounter_schema
    from host.screens.play_ui import PlayUI

    assert printable("Kae\x1b]0;pwned\x07\x9b\n\tx") == "Kae\\x1b]0;pwned\\x07\\x9b\n\tx"
    assert printable("a\nb", lines=False) == "a\\x0ab"
    fail("unknown character 'Kae\x1b[2J'")
    assert capsys.readouterr().err == "turnlight: unknown character 'Kae\\x1b[2J'\n"
    out = StringIO()
    enc = encounter_schema.load(encounter_schema.example_path())
    ui = PlayUI(Session(enc, 2), Console(file=out, width=100, color_system=None), "no board")
    ui.messages.append("Kae\x1b]0;pwned\x07 said hello")  # as if a name had held one
    ui.show()
    assert "\x1b" not in out.getvalue() and "\x07" not in out.getvalue()
    assert "Kae\\x1b]0;pwned\\x07 said hello" in out.getvalue()
