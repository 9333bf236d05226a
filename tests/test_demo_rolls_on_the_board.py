"""A demo played on the simulated board rolls the dice on the board's keys where a player
would (issues #11, #12, #14: "the board's keys end turns and roll the dice"): in every
ruleset that asks for its rolls, each roll is the one its waiting action wants, lit on the
roll key and rolled by one press (#15); the journal says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from host import cli
from host.core import registry
from host.core.journal import Journal

# Every ruleset that asks for its rolls (Ruleset.asks_for_rolls: korxsol's each roll a
# declared action waits for, stones' crit and chance d100s, forms' D10s, advance's 2D6 and
# D6, ...), as the registry finds them: a new one is tested without a word here.
ASKING = sorted(i for i, _ in registry.described() if registry.get(i).asks_for_rolls)


def test_the_rulesets_that_ask_for_their_rolls_come_from_the_registry() -> None:
    assert registry.DEFAULT in ASKING  # korxsol asks: the list is not empty by accident
    assert all(registry.get(i).asks_for_rolls for i in ASKING)


@pytest.mark.parametrize("ruleset_id", ASKING)
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
        if kind == "want-dice" and payload.get("source") == "board"  # a wanted roll given
    ]
    assert board_rolls, f"no roll came from the board in the {ruleset_id} demo"
