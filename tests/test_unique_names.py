"""A name or label in an encounter picks one fighter (issue #19, finding 5): two fighters
named alike (as commands match names: case, spaces and punctuation aside), or one named
after another's label, are refused with FILE:LINE, so a board press or a command can
never reach the wrong one. The tiny test ruleset refuses a player named twice too."""

from __future__ import annotations

import pytest
from korxsol_fixtures import session, toml
from tiny_ruleset import Tiny

from host.core.interface import EncounterError
from host.rulesets.korxsol import encounter_schema
from host.rulesets.korxsol.board_presses import board_action
from host.rulesets.korxsol.device import FROST
from shared import events as ev


def _refusal(text: str) -> str:
    with pytest.raises(EncounterError) as err:
        encounter_schema.parse(text, "duel.toml")
    return str(err.value)


def _line_of(text: str, wanted: str, nth: int = 1) -> int:
    lines = text.splitlines()
    return [i for i, line in enumerate(lines, start=1) if line == wanted][nth - 1]


def test_two_fighters_with_the_same_name_are_refused_on_the_second_one_s_line() -> None:
    text = toml(
        [
            {"name": "Orrin", "label": "Or1"},
            {"name": "Orrin", "label": "Or2", "team": "B"},
        ]
    )
    first, second = _line_of(text, "[[solighter]]"), _line_of(text, 'name = "Orrin"', 2)
    assert _refusal(text) == (
        f"duel.toml:{second}: solighter 'Orrin': name 'Orrin' is already the name of"
        f" solighter 'Orrin' (line {first}); a command or board press naming it could reach"
        " either"
    )


def test_names_that_differ_only_in_case_or_punctuation_are_the_same_name() -> None:
    text = toml(
        [{"name": "Orrin", "label": "Or1"}, {"name": "o-rrin", "label": "Or2", "team": "B"}]
    )
    assert "name 'o-rrin' is already the name of solighter 'Orrin'" in _refusal(text)


def test_a_name_that_is_another_fighter_s_label_is_refused() -> None:
    text = toml([{"name": "Kaelen", "label": "Ash"}, {"name": "Ash", "label": "Bo", "team": "B"}])
    line = _line_of(text, 'name = "Ash"')
    assert _refusal(text).startswith(
        f"duel.toml:{line}: solighter 'Ash': name 'Ash' is already the label of solighter 'Kaelen'"
    )


def test_a_fighter_s_own_name_may_be_its_label() -> None:
    text = toml([{"name": "Ash", "label": "Ash"}, {"name": "Bo", "label": "Bo", "team": "B"}])
    assert [f.name for f in encounter_schema.parse(text, "duel.toml").solighters] == ["Ash", "Bo"]


def test_a_frost_press_lands_on_the_slot_pressed() -> None:
    s = session(
        [{"name": "Orrin", "label": "Or1"}, {"name": "Orrick", "label": "Or2", "team": "B"}]
    )
    board_action(s, bytes([ev.COUNTER_UP, 1, FROST, 0]))
    assert [s.game.slot(f).counters[FROST] for f in s.game.fighters] == [0, 1]


def test_the_tiny_ruleset_refuses_a_player_named_twice() -> None:
    text = (
        'ruleset = "tiny"\nteams = ["Red", "Blue"]\n\n[[player]]\nname = "Ann"\nteam = "Red"\n'
        '\n[[player]]\nname = "ann"\nteam = "Blue"\n'
    )
    with pytest.raises(EncounterError) as err:
        Tiny().parse_encounter(text, "duel.toml")
    assert str(err.value) == (
        "duel.toml:9: player 'ann' is named twice: `hit NAME` would reach either"
    )
