"""`turnlight encounter new` writes a ruleset's commented template and `turnlight encounter
check FILE` validates a file and shows its fighters as `play` will (issue #15)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_ruleset import TINY

from host import cli
from host.core import registry
from host.core.session import Session
from host.rulesets.korxsol import encounter_schema
from host.screens import text_tables


def known_ids() -> str:  # the rulesets an unknown id's error names
    return ", ".join(registry.ids())


def test_new_writes_a_commented_template_that_check_accepts(tmp_path: Path, capsys) -> None:
    path = tmp_path / "mine.toml"
    assert cli.main(["encounter", "new", "--ruleset", "korxsol", "--out", str(path)]) == 0
    assert f"wrote {path}" in capsys.readouterr().err
    text = path.read_text()
    assert text.startswith("# A new korxsol encounter")
    assert 'ruleset = "korxsol"' in text
    commented = [line for line in text.splitlines() if "#" in line]
    assert len(commented) >= 20  # it explains its keys as it goes
    assert all(len(line) <= 80 for line in text.splitlines())
    assert cli.main(["encounter", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("New Encounter: Red vs Blue, a good korxsol encounter")
    assert "Aria" in out and "Bram" in out


def test_new_without_out_writes_the_template_to_stdout(capsys) -> None:
    assert cli.main(["encounter", "new"]) == 0  # the default ruleset
    assert capsys.readouterr().out == registry.get("korxsol").template()


def test_new_never_writes_over_a_file(tmp_path: Path, capsys) -> None:
    path = tmp_path / "mine.toml"
    path.write_text("# my encounter\n")
    assert cli.main(["encounter", "new", "--out", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"turnlight: {path} already exists: it is kept (write the template to another FILE)"
    ]
    assert path.read_text() == "# my encounter\n"


def test_check_shows_the_fighters_as_play_does(capsys, monkeypatch) -> None:
    path = encounter_schema.example_path()
    # The file as a person names it from its folder: the checkout's own path, which may be
    # longer than a line, is not what is checked here.
    monkeypatch.chdir(path.parent)
    assert cli.main(["encounter", "check", path.name]) == 0
    out = capsys.readouterr().out.splitlines()
    session = Session(encounter_schema.load(path), 1)
    roster = text_tables.live_lines(session.ruleset.live_roster(session.game), 80)
    assert out[-len(roster) :] == [line for line, _ in roster]
    assert all(len(line) <= 80 for line in out)


def test_check_names_the_file_as_it_was_typed(tmp_path: Path, capsys, monkeypatch) -> None:
    # Not made absolute (a checkout's path can be longer than a line) nor tidied: the file
    # as the person typed it, so they know which one was checked.
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "ridge.toml").write_text(encounter_schema.example_path().read_text())
    monkeypatch.chdir(tmp_path / "mine")
    typed = "./../mine/ridge.toml"
    assert cli.main(["encounter", "check", typed]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith(f", a good korxsol encounter ({typed})")
    assert str(tmp_path) not in out


def test_check_says_what_is_wrong_in_one_line_with_its_line(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(registry.get("korxsol").template().replace("kor = 14 ", "kor = 999 "))
    line = (
        bad.read_text()
        .splitlines()
        .index(next(x for x in bad.read_text().splitlines() if x.startswith("kor = 999")))
    )
    assert cli.main(["encounter", "check", str(bad)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"turnlight: {bad}:{line + 1}: solighter 'Aria': kor must be a whole number 1..255, not 999"
    ]


def test_a_ruleset_without_a_template_says_so_in_one_line(capsys) -> None:
    registry.register(TINY)
    try:
        assert cli.main(["encounter", "new", "--ruleset", "tiny"]) == 2
    finally:
        registry.unregister(TINY.id)
    assert capsys.readouterr().err.splitlines() == [
        "turnlight: ruleset 'tiny' has no encounter template: `turnlight encounter new` needs"
        " its Ruleset.template()"
    ]


def test_an_unknown_ruleset_is_one_line(capsys) -> None:
    assert cli.main(["encounter", "new", "--ruleset", "chess"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"turnlight: unknown ruleset 'chess' (known: {known_ids()})"
    ]


@pytest.mark.parametrize("action", ["new", "check"])
def test_each_action_has_help(action: str, capsys) -> None:
    with pytest.raises(SystemExit):
        cli.main(["encounter", action, "--help"])
    assert "usage: turnlight encounter " + action in capsys.readouterr().out
