"""The ruleset seam (host/core/interface.py, host/core/registry.py): the registry lists korxsol and
hands it out by id, korxsol's adapter replays an action from its journal record and checks
an action without playing it, an encounter file names its ruleset, and the command line
takes --ruleset and lists the rulesets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from host.core import encounter_files, registry
from host.core.interface import EncounterError, IllegalAction, Ruleset
from host.rulesets.korxsol import encounter_schema


def known_ids() -> str:  # the rulesets an unknown id's error names
    return ", ".join(registry.ids())


def test_the_registry_lists_korxsol_and_says_what_it_is_in_one_line() -> None:
    assert "korxsol" in registry.ids()
    assert registry.DEFAULT == "korxsol"
    korxsol = registry.get("korxsol")
    assert korxsol.id == "korxsol" and korxsol.rules_version >= 1
    described = dict(registry.described())
    assert described["korxsol"] == korxsol.description
    assert described["korxsol"] and "\n" not in described["korxsol"]


def test_an_unknown_ruleset_is_one_line_naming_the_known_ones() -> None:
    with pytest.raises(registry.UnknownRuleset) as err:
        registry.get("chess")
    assert str(err.value) == f"unknown ruleset 'chess' (known: {known_ids()})"


def test_a_ruleset_id_is_taken_once() -> None:
    class Other(Ruleset):
        id = "korxsol"

    with pytest.raises(ValueError, match="already registered"):
        registry.register(Other())
    with pytest.raises(ValueError, match="'korxsol' is built in, not registered"):
        registry.unregister("korxsol")


def test_a_korxsol_action_replays_from_its_journal_record() -> None:
    korxsol = registry.get("korxsol")
    enc = korxsol.parse_encounter(encounter_schema.example_path().read_text(), "ember_ridge.toml")
    game = korxsol.new_game(enc, 4)
    started = korxsol.apply(game, korxsol.language.parse("initiative"))
    assert started.lines and korxsol.started(game)
    stored = json.loads(json.dumps(korxsol.record_json(started.record)))
    again = korxsol.new_game(enc, 99)  # another seed: only the record can give the same dice
    korxsol.replay(again, korxsol.language.parse("initiative"), korxsol.record_from_json(stored))
    assert korxsol.snapshot(again)["order"] == korxsol.snapshot(game)["order"]


def test_the_legal_action_check_refuses_in_one_line_and_changes_nothing() -> None:
    korxsol = registry.get("korxsol")
    game = korxsol.new_game(encounter_schema.load(encounter_schema.example_path()), 1)
    before = json.dumps(korxsol.snapshot(game), sort_keys=True)
    with pytest.raises(IllegalAction, match="roll initiative first"):
        korxsol.check(game, korxsol.language.parse("move Kae"))
    korxsol.check(game, korxsol.language.parse("initiative"))  # allowed, and not played
    assert json.dumps(korxsol.snapshot(game), sort_keys=True) == before
    assert not korxsol.started(game)


# ---------------------------------------------------------------- the command line
def turnlight(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args], capture_output=True, text=True, check=False
    )


def test_turnlight_rulesets_lists_each_ruleset_in_one_line() -> None:
    done = turnlight("rulesets")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == registry.ids()  # none that cannot be played
    korxsol = registry.get("korxsol")
    assert lines[0].split()[1] == f"v{korxsol.rules_version}"
    assert korxsol.description in lines[0] and lines[0].endswith("(default)")


def test_run_takes_a_known_ruleset(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("initiative\n")
    done = turnlight("run", "--ruleset", "korxsol", "--script", str(script), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["round"] == 1


@pytest.mark.parametrize("command", ["run", "demo", "play"])
def test_an_unknown_ruleset_on_the_command_line_is_refused_in_one_line(command, tmp_path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("initiative\n")
    extra = {"run": ["--script", str(script)], "demo": [], "play": ["--db", str(tmp_path / "j")]}
    done = turnlight(command, "--ruleset", "chess", *extra[command])
    assert done.returncode == 2
    known = known_ids()  # a fresh process knows the installed ones: none is registered here
    assert done.stderr.splitlines() == [f"turnlight: unknown ruleset 'chess' (known: {known})"]
    assert not (tmp_path / "j").exists()  # refused before a journal was opened


def test_an_encounter_file_names_its_ruleset_at_the_top(tmp_path: Path) -> None:
    bundled = encounter_schema.example_path().read_text()
    assert bundled.splitlines()[2] == 'ruleset = "korxsol"'  # before the first table
    assert encounter_files.parse(bundled, "ember_ridge.toml").ruleset == "korxsol"
    # Files from before there were other rulesets: under [encounter], or not at all.
    older = bundled.replace('ruleset = "korxsol"\n', "").replace(
        "[encounter]\n", '[encounter]\nruleset = "korxsol"\n'
    )
    assert encounter_files.parse(older, "older.toml").name == "Ember Ridge"
    none = bundled.replace('ruleset = "korxsol"\n', "")
    assert encounter_files.parse(none, "none.toml").ruleset == "korxsol"


def test_an_encounter_file_of_an_unknown_ruleset_is_one_line_at_its_line() -> None:
    text = encounter_schema.example_path().read_text().replace('"korxsol"', '"chess"')
    with pytest.raises(EncounterError) as err:
        encounter_files.parse(text, "chess.toml")
    assert str(err.value) == f"chess.toml:3: unknown ruleset 'chess' (known: {known_ids()})"


def test_an_encounter_file_of_another_ruleset_than_asked_is_refused_in_one_line() -> None:
    text = encounter_schema.example_path().read_text()
    with pytest.raises(EncounterError) as err:
        encounter_files.parse(text, "ember.toml", ruleset="chess")
    assert str(err.value) == "ember.toml:3: this encounter is for ruleset 'korxsol', not 'chess'"
    unnamed = text.replace('ruleset = "korxsol"\n', "")
    with pytest.raises(EncounterError) as err:
        encounter_files.parse(unnamed, "ember.toml", ruleset="chess")
    assert str(err.value).startswith("ember.toml:1: this encounter names no ruleset, so it is")
    assert "\n" not in str(err.value)


def test_every_built_in_rulesets_bundled_files_are_packaged() -> None:
    # A non-editable install carries only package-data: each ruleset's example encounter
    # (and the template `encounter new` writes) must match its patterns.
    import fnmatch

    from host.core.encounter_files import tomllib

    root = Path(__file__).resolve().parent.parent
    data = tomllib.loads((root / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]
    for ruleset_id in registry.built_in():
        package = type(registry.get(ruleset_id)).__module__.rsplit(".", 1)[0]
        folder = root / package.replace(".", "/")
        wanted = [*patterns.get("*", []), *patterns.get(package, [])]
        for path in folder.rglob("*.toml"):
            relative = path.relative_to(folder).as_posix()
            assert any(fnmatch.fnmatch(relative, p) for p in wanted), (ruleset_id, relative)


def test_every_ruleset_shows_the_board_the_board_id_it_declares_and_none_shares_one() -> None:
    # A snapshot of another game's id is refused by a board holding this one's descriptor,
    # so two rulesets must never share one: each declares its own (Ruleset.board_id), and
    # its state and descriptor carry that one.
    seen: dict[int, str] = {}
    for ruleset_id in registry.ids():
        ruleset = registry.get(ruleset_id)
        path = ruleset.example_path()
        game = ruleset.new_game(ruleset.parse_encounter(path.read_text(), str(path)), 1)
        state = ruleset.state(game)
        assert state.ruleset == state.rules.ruleset == ruleset.board_id != 0, ruleset_id
        assert ruleset.board_id not in seen, (ruleset_id, seen.get(ruleset.board_id))
        seen[ruleset.board_id] = ruleset_id
    assert set(registry.built_in()) <= set(seen.values())
