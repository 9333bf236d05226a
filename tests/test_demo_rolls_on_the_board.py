"""A demo played on the simulated board rolls the dice on the board's keys where a player
would (issues #11, #12, #14: "the board's keys end turns and roll the dice"): in every
ruleset that asks for its rolls, each roll is the one its waiting action wants, lit on the
roll key and rolled by one press (#15); the journal says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from host import cli
from host.core.journal import Journal

# What each demo rolls on the board, as the journal records it.
BOARD_ROLLS = {
    "stones": "want-dice",  # the crit and chance d100s an action waits for
    "forms": "want-dice",  # the D10s of each check, Awareness, attack and Dodge
    "advance": "want-dice",  # each check's 2D6, each Death check's D6, each table's D6
    "korxsol": "want-dice",  # each roll a declared action waits for, lit on the roll key
}


@pytest.mark.parametrize("ruleset_id", sorted(BOARD_ROLLS))
def test_a_demo_on_the_board_rolls_its_dice_on_the_board(
    ruleset_id: str, tmp_path: Path, capsys
) -> None:
    db = tmp_path / "j.sqlite"
    assert cli.main(["demo", "--ruleset", ruleset_id, "--seed", "3", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "winner" in out
    journal = Journal(db)
    (game,) = [g["id"] for g in journal.games()]
    events = journal.events(game)
    board_rolls = [
        payload
        for _, kind, payload, _ in events
        if kind == BOARD_ROLLS[ruleset_id] and payload.get("source") == "board"
    ]
    assert board_rolls, f"no roll came from the board in the {ruleset_id} demo"
