"""Korxsol's encounter reader, where it refused what it offers (issue 37, item 13): a label
made from a name that another fighter's label already is, and `weapon = "none"`."""

from __future__ import annotations

import pytest
from korxsol_fixtures import ASH, BO, STRIKE, session, toml

from host.core.interface import EncounterError
from host.rulesets.korxsol import encounter_schema

ANN = {"name": "Ann", "team": "A", "moves": ["Strike"]}


def test_a_label_made_from_a_name_is_chosen_free_of_the_labels_before_it() -> None:
    # korxsol-players-guide.txt names no labels: the board's 1..3 letters are the house's
    # (docs/rulesets/korxsol.md); a newcomer's label made from its name is a free one.
    s = session([ANN, BO])
    s.execute("add Ann2 team=A kor=12 agility=2")
    assert s.game.fighter("Ann2").spec.label == "An2"
    assert s.game.fighter("Ann").spec.label == "Ann"  # the one before keeps its own
    s.execute("add Anna team=B kor=12 agility=2")
    assert s.game.fighter("Anna").spec.label == "An3"
    assert [f.spec.label for f in s.game.fighters] == ["Ann", "Bo", "An2", "An3"]


def test_a_label_typed_that_is_taken_is_still_refused() -> None:
    text = toml([ANN, {**BO, "name": "Anna", "label": "Ann"}], moves=[STRIKE])
    with pytest.raises(EncounterError, match="label 'Ann' is already taken"):
        encounter_schema.parse(text, "t.toml")


def test_weapon_none_is_a_fighter_with_no_weapon() -> None:
    # korxsol-players-guide.txt:26 (a Solbound, when equipped, gives the class; a Solighter
    # may have a Solbeast instead, line 30): the template and docs/commands.md write
    # `weapon = "none"` for a fighter with no weapon.
    enc = encounter_schema.parse(
        toml([{**ASH, "weapon": "none"}, {**BO, "weapon": "axe"}], moves=[STRIKE]), "t.toml"
    )
    assert [f.weapon for f in enc.solighters] == ["", "axe"]
    s = session([ASH, BO])
    s.execute("add Cy team=B kor=12 agility=2 weapon=none")
    assert s.game.fighter("Cy").spec.weapon == ""
    with pytest.raises(EncounterError, match="weapon 'spear' is not one of none, sword, axe, bow"):
        encounter_schema.parse(toml([{**ASH, "weapon": "spear"}, BO], [STRIKE]), "t.toml")
