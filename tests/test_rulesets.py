"""The ruleset seam (host/ruleset.py, host/registry.py): the registry lists korxsol and
hands it out by id, and korxsol's adapter replays an action from its journal record and
checks an action without playing it."""

from __future__ import annotations

import json

import pytest

from host import registry
from host.korxsol import encounter
from host.ruleset import IllegalAction, Ruleset


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
    assert str(err.value) == "unknown ruleset 'chess' (known: korxsol)"


def test_a_ruleset_id_is_taken_once() -> None:
    class Other(Ruleset):
        id = "korxsol"

    with pytest.raises(ValueError, match="already registered"):
        registry.register(Other())
    with pytest.raises(ValueError, match="built in"):
        registry.unregister("korxsol")


def test_a_korxsol_action_replays_from_its_journal_record() -> None:
    korxsol = registry.get("korxsol")
    enc = korxsol.parse_encounter(encounter.example_path().read_text(), "ember_ridge.toml")
    game = korxsol.new_game(enc, 4)
    started = korxsol.apply(game, korxsol.language.parse("initiative"))
    assert started.lines and korxsol.started(game)
    stored = json.loads(json.dumps(korxsol.record_json(started.record)))
    again = korxsol.new_game(enc, 99)  # another seed: only the record can give the same dice
    korxsol.replay(again, korxsol.language.parse("initiative"), korxsol.record_from_json(stored))
    assert korxsol.snapshot(again)["order"] == korxsol.snapshot(game)["order"]


def test_the_legal_action_check_refuses_in_one_line_and_changes_nothing() -> None:
    korxsol = registry.get("korxsol")
    game = korxsol.new_game(encounter.load(encounter.example_path()), 1)
    before = json.dumps(korxsol.snapshot(game), sort_keys=True)
    with pytest.raises(IllegalAction, match="roll initiative first"):
        korxsol.check(game, korxsol.language.parse("move Kae"))
    korxsol.check(game, korxsol.language.parse("initiative"))  # allowed, and not played
    assert json.dumps(korxsol.snapshot(game), sort_keys=True) == before
    assert not korxsol.started(game)
