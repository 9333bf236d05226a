"""A creature joining a d20 fight under way (turns.join, what the host's `add` calls with a
`[[template]]` of the encounter read as its creatures are): it rolls initiative and takes
its place in the order, its first turn this round if its place is still to come, else the
next; past the board's slots (a board of 8 here: tests/small_board.py) it plays on the
screens only; one whose name is taken is
refused in one line, and so is one past the fight's MOST_FIGHTERS entries."""

from __future__ import annotations

import dataclasses

import pytest
from d20_fixtures import ANA, BO, ORC, WOLVES, Table
from small_board import small_board

from host.core.interface import IllegalAction
from host.rulesets.d20 import turns
from host.rulesets.d20.ruleset import RULESET

BOSS = """
[[template]]
name = "Boss"
label = "BSS"
team = "Foes"
hp = 21
ac = 17
dex = 2
  [[template.attack]]
  name = "Scimitar"
  bonus = 4
  damage = "1d6+2"
"""


def joined(t: Table, face: int) -> list[str]:
    RULESET.supply_rolls(t.game, [("initiative", (face,), "entered")])
    t.game.dice.begin(t.game.actions, None)
    try:
        lines = turns.join(t.game, t.encounter.templates[0])
    finally:
        RULESET.supply_rolls(t.game, None)
    RULESET.project(t.game)
    return lines


def test_a_newcomer_rolls_initiative_and_plays_this_round_if_its_place_is_to_come():
    t = Table(ANA, ORC, BOSS)
    t.start(15, 1)  # Ana 18, the orc 2: Ana's turn
    assert joined(t, 8) == ["Boss joins the fight: initiative d20 8 +2 = 10"]
    assert t.turn() == ["Ana"]
    t.play("next")
    assert t.turn() == ["Boss"]
    st = t.game.state
    assert st.count == 3 and st.slots[2].label == "BSS"


def test_a_newcomer_whose_place_has_passed_plays_from_the_next_round():
    t = Table(ANA, ORC, BOSS)
    t.start(15, 1)
    t.play("next")  # the orc's turn
    joined(t, 14)  # 16: before the orc, this round's place has passed
    assert t.turn() == ["Orc"]
    t.play("next")
    assert t.game.round == 2 and t.turn() == ["Ana"]
    t.play("next")
    assert t.turn() == ["Boss"]


def test_a_ninth_creature_plays_past_the_board_and_a_taken_name_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slots = small_board(monkeypatch)
    t = Table(ANA, BO, ORC, WOLVES, WOLVES.replace('"Wolf"', '"Cub"').replace('"WF"', '"CB"'), BOSS)
    t.start(1, 1, 1, 1, 1)
    joined(t, 3)  # the eighth
    ninth = dataclasses.replace(t.encounter.templates[0], name="Boss Two", label="BS2")
    RULESET.supply_rolls(t.game, [("initiative", (3,), "entered")])
    t.game.dice.begin(t.game.actions, None)
    try:
        turns.join(t.game, ninth)
    finally:
        RULESET.supply_rolls(t.game, None)
    RULESET.project(t.game)
    fighters = [f.name for f in t.game.fighters]
    assert fighters[-1] == "Boss Two" and t.game.entry_of(8) is not None
    assert t.game.state.count == slots == 8
    assert [f.name for f in RULESET.off_board(t.game)] == fighters[slots:] == ["Boss Two"]
    t = Table(ANA, ORC, BOSS.replace('"Boss"', '"Orc"', 1).replace('"BSS"', '"ORX"'))
    with pytest.raises(IllegalAction, match="already in the fight"):
        joined(t, 3)


def test_add_brings_a_template_into_the_fight_and_remove_takes_one_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    small_board(monkeypatch)
    from host.core.session import Session
    from host.rulesets.d20 import encounter_schema

    path = encounter_schema.example_path()
    enc = RULESET.parse_encounter(path.read_text(), str(path))
    s = Session(enc, 3)
    s.execute("initiative")
    lines = s.execute('add "Goblin Boss"')
    assert lines[0].startswith("Goblin Boss joins the fight: initiative d20 ")
    boss = s.game.fighter("Goblin Boss")
    assert boss.label == "GBB" and s.game.entry_of(boss.index) is not None
    assert RULESET.fighter_names(s.game)[-1] == "Goblin Boss"
    s.execute('add "Goblin Boss" as Grik')  # a ninth: past the board's slots
    assert [f.name for f in RULESET.off_board(s.game)] == ["Grik"]
    s.execute("remove GBB fled")
    assert not s.game.fighter("GBB").in_fight and RULESET.gone(s.game) == {"Goblin Boss"}
    s.undo(3)
    assert len(s.game.fighters) == 7


def test_add_completes_the_teams_after_team_as_every_game_does() -> None:
    """`add NAME team=` then Tab offers the encounter's teams (host/core/newcomers.py), the
    ones a wrong team's refusal names."""
    path = RULESET.example_path()
    encounter = RULESET.parse_encounter(path.read_text(), str(path))
    game = RULESET.new_game(encounter, 1)
    offered = RULESET.complete(game, ["add", "Gob", "team="])
    assert offered == [f"team={team}" for team in encounter.teams]
