"""Forms through the simulated board (a real pty, the real firmware): the board shows the
combat step as its phase, who is still to act (F_ACTED on everyone else), the movement
order as its slot order, the next social check's attribute and the last check's dice; its
next-turn key is `next` and its roll key rolls the D10s the next roll takes."""

from __future__ import annotations

import pytest
from forms_fixtures import vault

from host.forms import device
from host.forms.engine import Game
from host.forms.model import ATTRIBUTES
from host.ruleset import IllegalAction
from host.tethered_sim import TetheredSim
from shared.descriptor_pack import encoded, names
from shared.state import F_ACTED, F_ACTIVE, F_OUT, GameState


def shows(board: GameState, game: Game, roll: bool = True) -> None:
    """What the board holds is the game: step, who is to act, movement order, roll."""
    assert list(board.order[: board.count]) == game.order
    waiting = game.to_act()
    for i, u in enumerate(game.units):
        flags = board.slots[i].flags
        assert bool(flags & F_OUT) == u.down
        if game.mode == "combat" and not u.down:
            assert bool(flags & (F_ACTED | F_ACTIVE) == F_ACTED) == (i not in waiting)
    if game.mode == "combat":
        assert board.phase == game.step - 1
        assert board.order[board.turn] == waiting[0]
    if roll and game.last:
        faces = list(game.last[0].faces)
        assert list(board.roll.faces[: board.roll.count]) == faces
        assert board.roll.successes == game.last[0].successes


def test_forms_plays_through_the_simulated_board() -> None:
    # forms-turns-rounds-encounters.txt:36-45 (the next check), 54-61 (the steps)
    session = vault(2)
    ruleset = session.ruleset
    with TetheredSim(session) as table:
        board = table.sim.app.state
        assert board.ruleset == device.BOARD_ID
        assert names(encoded(board.rules))["phases"] == list(device.PHASES)
        # A social round: two checks entered on the laptop, Physique before Genius.
        table.execute("check Ayla trap")
        table.execute("check Bram Physique")
        table.settle()
        assert board.phase == device.PHASE_CHECK
        assert board.slots[1].counters[device.CHECK] == ATTRIBUTES.index("Physique") + 1
        assert board.slots[0].counters[device.CHECK] == ATTRIBUTES.index("Genius") + 1
        assert board.order[board.turn] == 1 and board.slots[1].flags & F_ACTIVE
        # The roll key rolls the D10s; the next-turn key makes Bram's check with them.
        table.press("roll")
        rolled = list(board.roll.faces[: board.roll.count])
        assert len(rolled) == session.game.encounter.most_dice
        table.press("next_turn")
        check = session.game.last[0]
        assert check.source == "board" and list(check.faces) == rolled[:4]
        # Once a press has used the board's roll, the board shows the rules' roll: the
        # check's four dice, not the six the key rolled.
        shows(board, session.game)
        assert board.roll.count == 4 and list(board.roll.faces[:4]) == list(check.faces)
        # The board's undo takes back its own press (the dice it used go with it: a redo
        # would replay them, as for every ruleset).
        table.press("undo")
        assert len(session.game.checks) == 2 and not session.game.waiting.get("next")
        table.press("next_turn")
        while session.game.checks or session.game.combined is not None:
            table.press("next_turn")  # the trap, and its Dodge if it springs
        rnd = session.game.round
        table.press("next_turn")  # nothing left to roll: the round ends
        assert session.game.round == rnd + 1 and board.phase == device.PHASE_FORM
        table.execute("fight")
        table.settle()
        assert board.phase == 0  # step 1: Awareness
        # The whole fight: the AI's actions typed, `next` pressed on the board.
        for _ in range(300):
            if session.over:
                break
            for command in ruleset.plan_turn(session.game):
                if command == "next":
                    table.press("next_turn")
                else:
                    table.execute(command)
                    table.settle()
                if session.over:
                    break
                shows(board, session.game)
        assert ruleset.winner(session.game) in ("Party", "Wardens")


def test_a_board_press_forms_has_no_use_for_is_refused_and_changes_nothing() -> None:
    session = vault(1)
    with TetheredSim(session) as table:
        table.settle()
        before = session.game.round, len(session.done)
        with pytest.raises(IllegalAction, match="refused"):
            table.press("counter_up")
        with pytest.raises(IllegalAction, match="forms flips no chance tokens"):
            table.press("chance")
        table.settle()
        assert (session.game.round, len(session.done)) == before
        assert table.sim.app.state.slots[0].counters[device.CHECK] == 0
