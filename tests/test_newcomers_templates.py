"""`[[template]]` tables in an encounter file: fighters who may join, written with the keys
of the game's fighter tables and read as that game reads a fighter when the file is loaded
(host/core/encounter_files.py; docs/commands.md, "Templates")."""

from __future__ import annotations

import pytest
from newcomer_games import JOINING, SCENES

from host.core import registry
from host.core.encounter_files import read_toml, templates_of, write_toml
from host.core.interface import EncounterError


def example_text(ruleset_id: str) -> str:
    return registry.get(ruleset_id).example_path().read_text(encoding="utf-8")


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_each_bundled_encounter_has_a_template_to_join(ruleset_id: str) -> None:
    names = [t["name"] for t in templates_of(example_text(ruleset_id))]
    assert SCENES[ruleset_id].template in names


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_template_the_game_would_refuse_is_refused_on_its_line(ruleset_id: str) -> None:
    text = example_text(ruleset_id)
    bad = text + '\n[[template]]\nname = "Broken"\nwings = 2\n'
    line = len(text.splitlines()) + 2
    with pytest.raises(EncounterError) as err:
        registry.get(ruleset_id).parse_encounter(bad, "x.toml")
    assert str(err.value).startswith(f"x.toml:{line}: template 'Broken': ")
    assert "wings" in str(err.value)


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_template_without_a_name_or_written_twice_is_refused(ruleset_id: str) -> None:
    text = example_text(ruleset_id)
    ruleset = registry.get(ruleset_id)
    with pytest.raises(EncounterError, match="a template needs a name"):
        ruleset.parse_encounter(text + "\n[[template]]\nhp = 3\n", "x.toml")
    twice = f'\n[[template]]\nname = "{SCENES[ruleset_id].template.lower()}"\n'
    with pytest.raises(EncounterError, match="written twice"):
        ruleset.parse_encounter(text + twice, "x.toml")


def test_flare_files_take_no_template() -> None:
    text = example_text("flare") + '\n[[template]]\nname = "Cy"\n'
    with pytest.raises(EncounterError, match="unknown key 'template'"):
        registry.get("flare").parse_encounter(text, "x.toml")


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_read_file_written_back_reads_as_the_same_encounter(ruleset_id: str) -> None:
    # `add` reads a newcomer among the file's fighters written back as TOML (write_toml).
    ruleset = registry.get(ruleset_id)
    text = example_text(ruleset_id)
    doc = read_toml(text, "x.toml")
    doc.pop("template")
    again, first = (ruleset.parse_encounter(t, "x.toml") for t in (write_toml(doc), text))
    a, b = (ruleset.new_game(e, 5) for e in (again, first))
    ruleset.project(a)
    ruleset.project(b)
    assert ruleset.fighter_names(a) == ruleset.fighter_names(b)
    assert ruleset.snapshot(a) == ruleset.snapshot(b)
