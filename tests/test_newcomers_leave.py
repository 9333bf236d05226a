"""`remove NAME [WHY]`: a fighter leaves the fight. It takes no more turns, is out of play
on the board, and stays in the journal, the scores and the exports with its statistics
(docs/commands.md, "Fighters who join and leave"); `Ruleset.gone` names it, for effects
that must not wait on a fighter who has left."""

from __future__ import annotations

import pytest
from newcomer_games import JOINING, SCENES, named, session

from host import cli
from host.core.interface import IllegalAction
from host.core.journal import Journal
from shared.state import F_OUT


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_fighter_who_leaves_is_out_of_play_and_kept_in_the_scores(ruleset_id: str) -> None:
    s = session(ruleset_id)
    leaver = SCENES[ruleset_id].leaver
    lines = s.execute(f"remove {leaver} fled")
    assert f"{leaver} leaves the fight (fled)" in lines[0]
    assert s.ruleset.gone(s.game) == {leaver}
    names = s.ruleset.fighter_names(s.game)
    state = s.ruleset.state(s.game)
    assert state.slots[names.index(leaver)].flags & F_OUT
    assert leaver in s.ruleset.summary(s.game)["players"]
    assert leaver in [row[0] for row in s.ruleset.score_table(s.game).rows]
    fighter = next(f for f in s.ruleset.fighters(s.game) if f.name == leaver)
    assert fighter.out and not fighter.current


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_fighter_who_left_cannot_leave_again(ruleset_id: str) -> None:
    s = session(ruleset_id)
    leaver = SCENES[ruleset_id].leaver
    s.execute(f"remove {leaver} dismissed")
    with pytest.raises(IllegalAction, match="already"):
        s.execute(f"remove {leaver}")


def test_korxsol_a_fighter_who_left_takes_no_turn() -> None:
    # korxsol-players-guide.txt "4. TURN END": the next player in the order begins; one
    # out of the fight is skipped as a collapsed one is.
    s = session("korxsol")
    s.execute("initiative")
    order = [f.name for f in s.ruleset.fighters(s.game)]
    after = order[1]
    s.execute(f"remove {after} fled")
    s.execute("end")
    assert s.game.active.name == order[2]


def test_korxsol_a_fighter_who_left_is_not_healed_back() -> None:
    s = session("korxsol")
    s.execute("initiative")
    order = [f.name for f in s.ruleset.fighters(s.game)]
    s.execute(f"remove {order[1]}")
    s.execute(f"adjust {order[1]} kor -1")
    s.execute(f"adjust {order[1]} kor +1")
    assert order[1] in s.ruleset.gone(s.game)
    names = s.ruleset.fighter_names(s.game)
    assert s.ruleset.state(s.game).slots[names.index(order[1])].flags & F_OUT


def test_korxsol_the_fighter_whose_turn_it_is_ends_its_turn_before_leaving() -> None:
    s = session("korxsol")
    s.execute("initiative")
    with pytest.raises(IllegalAction, match="`end` it first"):
        s.execute(f"remove {s.game.active.name}")


def test_korxsol_a_team_with_no_one_left_loses() -> None:
    # korxsol-players-guide.txt "5. GAME END": all opposing characters out.
    s = session("korxsol")
    s.execute("remove Orrin fled")
    s.execute("remove Brimm fled")
    assert not s.over  # the fight has not begun
    s.execute("initiative")
    assert s.over and s.ruleset.winner(s.game) == "Dawn"


def test_stones_a_player_with_no_character_left_is_eliminated() -> None:
    # speaking-stones-turn-order.txt: the end when one side is incapacitated; a player
    # with none standing has no turn.
    s = session("stones")
    dan = [c.name for c in s.game.enc.characters if s.game.enc.players[c.player].name == "Dan"]
    lines: list[str] = []
    for name in dan:
        lines += s.execute(f"remove {name} fled")
    assert any("Dan is eliminated" in line for line in lines)


def test_stones_the_character_being_activated_is_done_before_it_leaves() -> None:
    s = session("stones")
    s.execute("move Kae 1")
    with pytest.raises(IllegalAction, match="`done Kaelen` first"):
        s.execute("remove Kaelen")


def test_forms_a_unit_who_left_is_nobodys_foe_and_no_step_waits_for_it() -> None:
    # forms-turns-rounds-encounters.txt: step 5 attacks a standing foe.
    s = session("forms")
    s.execute("fight")
    s.execute("remove Shade fled")
    shade = s.ruleset.fighter_names(s.game).index("Shade")
    assert shade not in s.game.to_act()
    assert all(shade not in s.game._foes(i) for i in range(len(s.game.units)))


def test_advance_a_character_who_left_counts_as_put_down() -> None:
    # advance-late-combat-round.txt: a character who withdraws (<Flee>) leaves combat.
    s = session("advance")
    before = s.ruleset.summary(s.game)["teams"]["Adventurers"]
    s.execute("remove Grub fled")
    after = s.ruleset.summary(s.game)["teams"]["Adventurers"]
    assert after != before
    with pytest.raises(IllegalAction, match="out of the fight"):
        s.execute("wait Grub")


def test_flare_refuses_a_player_leaving_in_one_line() -> None:
    s = session("flare")
    with pytest.raises(IllegalAction, match="cannot leave a game under way") as err:
        s.execute("remove Ann")
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_the_exports_keep_who_joined_and_who_left(ruleset_id: str, tmp_path, capsys) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    s = session(ruleset_id, 5, journal)
    scene = SCENES[ruleset_id]
    s.execute(scene.stat_line)
    s.execute(f"remove {scene.leaver} fled")
    journal.close()
    assert cli.main(["export", "--db", str(tmp_path / "j.sqlite"), "--format", "scores-csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    players = {row.split(",")[2] for row in rows[1:] if row.split(",")[1] == "player"}
    assert {named(scene.stat_line), scene.leaver} <= players
    assert cli.main(["export", "--db", str(tmp_path / "j.sqlite"), "--format", "json"]) == 0
    events = capsys.readouterr().out
    assert f"remove {scene.leaver} fled" in events and scene.stat_line.split()[1] in events


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_the_live_view_says_a_fighter_left_not_that_it_fell(ruleset_id: str) -> None:
    """A fighter who fled or was dismissed was not struck down: its row in the live view
    (play's terminal, the console's table) says it left, not DOWN or incapacitated."""
    s = session(ruleset_id)
    leaver = SCENES[ruleset_id].leaver
    s.execute(f"remove {leaver} fled")
    label = s.ruleset.state(s.game).slots[s.ruleset.fighter_names(s.game).index(leaver)].label
    row = next(
        r
        for r in s.ruleset.live_roster(s.game).rows
        if any(c.lstrip("> *-.0123456789") in (leaver, label) for c in r.cells)
    )
    said = " ".join([*row.cells, row.note]).lower()
    assert "left" in said, said
    assert "down" not in said.split() and "incapacitated" not in said, said
