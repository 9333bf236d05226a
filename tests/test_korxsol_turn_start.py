"""Korxsol's turn start on the desktop, where shared/ runs the turn rules the board runs too
(frost, getting up, fear's flight: host/rulesets/korxsol/device.py states them) and the desktop adds
what only it knows (terrain).

Rules: korxsol-players-guide.txt, FEAR (a feared creature spends an action point per stack
moving away at the start of its turn) and the terrain section (a turn begun in water costs
an action point)."""

from __future__ import annotations

from korxsol_fixtures import SUCCESS, attack, duel, hits, slot

from host.rulesets.korxsol.device import FEAR
from shared import roster, turns
from shared.state import GameState

HOWL = {"name": "Howl", "type": "debuff", "cooldown": 1, "hit": 1, "fear": 2}


def test_water_takes_its_action_point_before_fear_s_flight() -> None:
    s = duel(ash={"moves": ["Howl"]}, bo={"actions": 2}, moves=(HOWL,))
    attack(s, "attack Ash Howl Bo", [SUCCESS], hits(0, 2), chance=(1, 1))
    s.execute("terrain Bo water")
    lines = s.execute("end")
    assert lines[1:4] == [
        "Bo starts its turn in water: 1 action point lost",
        "Bo flees in fear: 1 action point spent moving away",
        "Bo leaves the water",
    ]
    # 2 AP: one to the water, one to the flight; a stack of fear is left for the turn.
    assert slot(s, "Bo").actions == 0 and slot(s, "Bo").counters[FEAR] == 1


def test_fear_s_flight_is_the_shared_rule_the_board_runs_too() -> None:
    s = duel(ash={"moves": ["Howl"]}, bo={"actions": 3}, moves=(HOWL,))
    attack(s, "attack Ash Howl Bo", [SUCCESS], hits(0, 2), chance=(1, 1))
    board = GameState()
    roster.copy_state(board, s.game.state)
    turns.end_turn(board)  # what an untethered board does with its next-turn key
    s.execute("end")
    assert board.slots[1].actions == slot(s, "Bo").actions == 1
    assert board.slots[1].counters[FEAR] == slot(s, "Bo").counters[FEAR] == 0
