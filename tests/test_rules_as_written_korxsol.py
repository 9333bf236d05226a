"""Korxsol as its text is written (issue #26, "Rules"): what an audit of
korxsol-players-guide.txt found the game saying otherwise, one test per rule, each citing
the text's line; through the bundled Ember Ridge encounter and the generic session."""

from __future__ import annotations

import pytest

from host.core.interface import EncounterError
from host.core.session import Session
from host.rulesets.korxsol import encounter_schema


def test_a_solighter_reveals_one_artifact_and_the_refusal_says_artifact() -> None:
    # korxsol-players-guide.txt:280 (the Solighter's cards "and Artifact": one of them);
    # the count's noun agrees with it: "at most 1 artifacts" once.
    text = encounter_schema.example_path().read_text()
    two = text.replace('artifacts = ["Ember Charm"]', 'artifacts = ["Ember Charm", "Stone Ward"]')
    assert two != text
    with pytest.raises(EncounterError) as err:
        encounter_schema.parse(two, "ridge.toml")
    assert str(err.value).endswith(": solighter 'Kaelen': at most 1 artifact, not 2")


def test_kor_restored_at_its_starting_value_is_no_change_and_heals_nothing() -> None:
    # korxsol-players-guide.txt:41-42 (KOR can be restored; healing never brings it over
    # the starting value): `adjust Kae kor +5` at full KOR once logged "Kaelen heals 0 KOR"
    # as well as "no change".
    s = Session(encounter_schema.load(encounter_schema.example_path()), 1)
    assert s.execute("adjust Kae kor +5") == [
        "the game master adjusts Kaelen's kor: no change (still 16)"
    ]
    s.execute("adjust Kae kor -3")
    assert s.execute("adjust Kae kor +5") == [
        "Kaelen heals 3 KOR (16/16)",
        "the game master adjusts Kaelen's kor by +3 to 16 (+5 asked)",
    ]
