"""`add`: a fighter joins a fight under way, from a stat line or a `[[template]]`, and
enters the turn order as its game says (docs/rulesets/<id>.md, "... who join and leave").

The order rules are read from: korxsol-players-guide.txt "2. TURN ORDER" (rolled once,
before the first turn), speaking-stones-turn-order.txt (a turn is a player's, their
characters in any order), forms-turns-rounds-encounters.txt (every turn of a round at
once; a new round for what comes next), advance-late-combat-round.txt (step A's Initiative
check sorts the round), flare-summoning-turn.txt (players' turns round the table)."""

from __future__ import annotations

import pytest
from newcomer_games import JOINING, SCENES, named, session

from host.core import registry
from host.core.interface import EncounterError, IllegalAction
from host.core.session import Session
from shared.state import F_OUT


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_stat_line_adds_a_fighter_the_views_and_scores_show(ruleset_id: str) -> None:
    s = session(ruleset_id)
    scene = SCENES[ruleset_id]
    before = len(s.ruleset.fighter_names(s.game))
    s.execute(scene.stat_line)
    name = named(scene.stat_line)
    names = s.ruleset.fighter_names(s.game)
    assert len(names) == before + 1 and names[-1] == name
    assert name in [f.name for f in s.ruleset.fighters(s.game)]
    assert name in s.ruleset.summary(s.game)["players"]
    assert s.ruleset.state(s.game).count == before + 1  # a board slot of its own


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_template_joins_under_its_name_or_another(ruleset_id: str) -> None:
    s = session(ruleset_id)
    template = SCENES[ruleset_id].template
    s.execute(f"add {template}")
    s.execute(f"add {template.lower()} as Newt")
    names = s.ruleset.fighter_names(s.game)
    assert names[-2:] == [template, "Newt"]
    labels = [f.label for f in s.ruleset.fighters(s.game)]
    assert len(set(labels)) == len(labels)  # `as` made the second one its own label


def test_korxsol_a_newcomer_takes_its_turn_right_after_the_current_fighter() -> None:
    # korxsol-players-guide.txt "2. TURN ORDER": the order is rolled once; a newcomer is
    # placed after whoever's turn it is (docs/rulesets/korxsol.md).
    s = session("korxsol")
    s.execute("initiative")
    current = s.game.active.name
    s.execute("add Gorm team=Dusk kor=12 agility=3")
    names = s.ruleset.fighter_names(s.game)
    order = [f.name for f in s.ruleset.fighters(s.game)]
    assert order[order.index(current) + 1] == "Gorm"
    assert len(order) == len(names)
    s.execute("end")
    assert s.game.active.name == "Gorm"


def test_korxsol_a_newcomer_before_initiative_rolls_with_everyone() -> None:
    s = session("korxsol")
    s.execute("add Gorm team=Dusk kor=12 agility=3")
    lines = s.execute("initiative")
    assert any(line.startswith("Gorm rolls for initiative") for line in lines)


def test_stones_a_newcomer_acts_in_its_players_turn() -> None:
    # speaking-stones-turn-order.txt: the turn is the player's; each of their characters
    # may be activated in it.
    s = session("stones")
    player = s.game.player_name
    s.execute(f"add Tamsin player={player} class=warrior hp=15 atk=5 crt=10 move=3 range=1")
    lines = s.execute("move Tamsin 1")
    assert "Tamsin is activated" in lines
    other = next(p.name for p in s.game.enc.players if p.name != player)
    s.execute(f"add Quill player={other} class=warrior hp=15 atk=5 crt=10 move=3 range=1")
    with pytest.raises(IllegalAction, match=f"Quill is {other}'s"):
        s.execute("move Quill 1")


def test_stones_a_newcomer_counts_in_its_players_hand_size() -> None:
    # speaking-stones-turn-order.txt: hand size 1 + 2 per character.
    s = session("stones")
    p = s.game.enc.players[0]
    before = s.game.hand_size(0)
    s.execute(f"add Tamsin player={p.name} class=warrior hp=15 atk=5 crt=10 move=3 range=1")
    assert s.game.hand_size(0) == before + s.game.enc.hand_per_character


def test_forms_a_newcomer_takes_part_from_the_next_round() -> None:
    # forms-turns-rounds-encounters.txt: all turns of a round happen at once; a newcomer
    # has missed this round's start.
    s = session("forms")
    s.execute("fight")
    s.execute("add Gorm side=Wardens health=6 agility=2")
    with pytest.raises(IllegalAction, match="takes part from the next"):
        s.execute("done Gorm")
    gorm = s.ruleset.fighter_names(s.game).index("Gorm")
    assert gorm not in s.game.to_act()
    start = s.game.round
    while s.game.round == start and not s.over:
        waiting = s.game.to_act()
        s.execute(f"done {s.game.name(waiting[0])}" if waiting else "next")
    assert not s.game.units[gorm].arriving
    assert not s.game.units[gorm].down


def test_advance_a_newcomer_waits_for_the_next_initiative_check() -> None:
    # advance-late-combat-round.txt: step A's Initiative check sorts the round.
    s = session("advance")
    s.execute("next")  # step A: the Initiative check; now step B
    s.execute("add Mirek team=Adventurers stamina=9 willpower=5 specialties=Sword,Courage")
    with pytest.raises(
        IllegalAction, match="Mirek joined after round 1.s Initiative Check: it acts from round 2.s"
    ):
        s.execute("wait Mirek")
    while s.game.step != 0:
        s.execute("next")
    lines = s.execute("next")
    assert any(line.startswith("Mirek: ") for line in lines)


def test_advance_a_newcomer_in_step_a_rolls_this_rounds_check() -> None:
    s = session("advance")
    s.execute("add Mirek team=Adventurers stamina=9 willpower=5 specialties=Sword,Courage")
    assert any(line.startswith("Mirek: ") for line in s.execute("next"))


def test_flare_refuses_a_player_joining_in_one_line() -> None:
    # flare-summoning-turn.txt: decks, hands and the rotation are dealt as the game begins.
    s = session("flare")
    before = s.ruleset.snapshot(s.game)
    with pytest.raises(IllegalAction, match="cannot join a game under way") as err:
        s.execute("add Cy team=A")
    assert "\n" not in str(err.value)
    assert s.ruleset.snapshot(s.game) == before


def test_a_newcomer_is_in_play_on_the_board() -> None:
    s = session("korxsol")
    s.execute("initiative")
    s.execute("add Gorm team=Dusk kor=12 agility=3")
    state = s.ruleset.state(s.game)
    slot = state.slots[state.count - 1]
    assert slot.label == "Gor" and not slot.flags & F_OUT and slot.health == 12


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_the_terminal_views_show_the_newcomer(ruleset_id: str) -> None:
    s = session(ruleset_id)
    s.execute(f"add {SCENES[ruleset_id].template} as Newt")
    roster = [" ".join(row) for row in s.ruleset.roster(s.game).rows]
    live = [" ".join(row.cells) for row in s.ruleset.live_roster(s.game).rows]
    assert any("Newt" in row for row in roster)
    assert any("Newt" in row or "New" in row for row in live)


def test_korxsol_newcomers_last_puts_a_newcomer_at_the_end_of_the_order() -> None:
    # korxsol-players-guide.txt "2. TURN ORDER" is silent on a late fighter: the encounter's
    # `newcomers = "last"` option places it after everyone (docs/rulesets/korxsol.md).
    ruleset = registry.get("korxsol")
    text = ruleset.example_path().read_text(encoding="utf-8")
    text = text.replace("success_faces = [3]", 'success_faces = [3]\nnewcomers = "last"', 1)
    s = Session(ruleset.parse_encounter(text, "last.toml"), 5)
    s.execute("initiative")
    s.execute("add Gorm team=Dusk kor=12 agility=3")
    assert [f.name for f in s.ruleset.fighters(s.game)][-1] == "Gorm"
    with pytest.raises(EncounterError, match="newcomers 'soon' is not one of next, last"):
        ruleset.parse_encounter(text.replace('"last"', '"soon"'), "soon.toml")
