"""Forms through the simulated board (a real pty, the real firmware), and a board that lost
its host.

The board's turn unit is the step (UNIT_STEP, docs/state-codec.md "Turn units"): every
unit's turn in a round happens at once (forms-turns-rounds-encounters.txt:26). In combat the
steps are the eight combat steps (:54-61); a social round is one step. Every standing unit
shows as active, and those still to act in the step are the ones not marked acted. The
next-turn key on a selected unit still to act ends that unit's part of the step (`done
UNIT`; social: `roll UNIT`, its check that comes next), with none selected it ends the step
(`pass`); the roll key rolls the D10s the next roll takes. The board also shows the
movement order as its slot order (:51), the next social check's attribute (:36-45) and the
last check's dice."""

from __future__ import annotations

import pytest
from boardfakes import Rig
from forms_fixtures import HIT, MISS, fight, hall, run, vault

from host.board.tethered_sim import TetheredSim
from host.core.interface import IllegalAction
from host.core.session import Session
from host.rulesets.forms import device
from host.rulesets.forms.encounter_schema import ATTRIBUTES
from host.rulesets.forms.engine import Game
from host.rulesets.forms.ruleset import RULESET
from shared import dice, roster
from shared import events as ev
from shared.descriptor_pack import UNIT_STEP, encoded, names
from shared.host_only import make_event
from shared.state import F_ACTED, F_ACTIVE, F_OUT, GameState


def _to_act(state: GameState) -> list[str]:
    """The units the board shows still to act (active, not acted), in the order."""
    slots = [state.slots[state.order[pos]] for pos in range(state.count)]
    return [s.label for s in slots if s.flags & (F_ACTIVE | F_ACTED | F_OUT) == F_ACTIVE]


def _active(state: GameState) -> list[str]:
    slots = [state.slots[state.order[pos]] for pos in range(state.count)]
    return [s.label for s in slots if s.flags & F_ACTIVE]


def _pos(game: Game, name: str) -> str:
    """The board key that selects the unit called `name` (its movement-order position)."""
    return f"pos{game.order.index(game.unit(name))}"


def shows(board: GameState, game: Game, roll: bool = True) -> None:
    """What the board holds is the game: the round's steps, who is still to act in the step
    (every standing unit active), the movement order, the last roll."""
    assert list(board.order[: board.count]) == game.order
    waiting = device.to_act(game)
    phases = names(encoded(board.rules))["phases"]
    assert phases == list(device.STEP_PHASES if device.in_combat(game) else device.SOCIAL_PHASES)
    for i, u in enumerate(game.units):
        flags = board.slots[i].flags & (F_ACTIVE | F_ACTED | F_OUT)
        assert flags == (F_OUT if u.down else F_ACTIVE if i in waiting else F_ACTIVE | F_ACTED)
    if game.mode == "combat":
        assert board.phase == game.step - 1
        assert set(_to_act(board)) == {game.units[i].spec.label for i in game.to_act()}
    if roll and game.last:
        faces = list(game.last[0].faces)
        assert list(board.roll.faces[: board.roll.count]) == faces
        assert board.roll.successes == game.last[0].successes


def test_forms_plays_through_the_simulated_board() -> None:
    # forms-turns-rounds-encounters.txt:36-45 (the next check), 54-61 (the steps)
    session = vault(2)
    ruleset = session.ruleset
    game = session.game
    with TetheredSim(session) as table:
        board = table.sim.app.state
        assert board.ruleset == RULESET.board_id and board.rules.flags & 48 == UNIT_STEP
        assert names(encoded(board.rules))["phases"] == ["social"]
        # A social round: before any check, everyone may still act.
        assert _to_act(board) == _active(board) and len(_active(board)) == len(game.units)
        # Two checks entered on the laptop, Physique before Genius: the two units with a
        # check waiting are those still to act.
        table.execute("check Ayla trap")
        table.execute("check Bram Physique")
        table.settle()
        assert sorted(_to_act(board)) == sorted(game.units[i].spec.label for i in (0, 1))
        assert board.slots[1].counters[device.CHECK] == ATTRIBUTES.index("Physique") + 1
        assert board.slots[0].counters[device.CHECK] == ATTRIBUTES.index("Genius") + 1
        # With the board's dice the next-turn key on Bram declares his check: it waits for
        # his Physique roll, the roll key is lit with its count, and one press rolls exactly
        # those D10 and makes the check.
        session.dice_from = "board"
        table.press(_pos(game, "Bram"))
        assert table.press("next_turn") == [
            "board: roll Bram: waits for Bram's Physique roll (4 D10)"
        ]
        table.settle()
        assert (board.want.kind, board.want.count) == (dice.KIND_D10, 4)
        table.press("roll")
        check = session.game.last[0]
        rolled = list(board.roll.faces[: board.roll.count])
        assert check.source == "board" and list(check.faces) == rolled and len(rolled) == 4
        assert session.done[-1].text == "roll Bram" and session.done[-1].by == "board"
        shows(board, session.game)
        # The board's undo takes back its own roll: the check waits for it again, the key
        # lit; undo again drops the check the board declared.
        assert table.press("undo")[-1] == "board: roll Bram: waits for Bram's Physique roll (4 D10)"
        table.settle()
        assert session.pending is not None and board.want.count == 4
        assert table.press("undo")[0].startswith("board: dropped: roll Bram")
        table.settle()
        assert len(session.game.checks) == 2 and board.want.count == 0
        session.dice_from = "engine"
        # Next turn with nobody selected ends the step, here the social round: the checks
        # waiting are made in their order (the trap's Dodge too if it springs), and a new
        # round begins, everyone to act again.
        rnd = session.game.round
        table.press("next_turn")
        assert session.game.round == rnd + 1 and not session.game.checks
        assert board.round == rnd + 1 and board.phase == 0
        shows(board, session.game, roll=False)
        table.execute("fight")
        table.settle()
        # Combat: the board is described again, with the eight steps.
        assert names(encoded(board.rules))["phases"] == list(device.STEP_PHASES)
        assert board.phase == 0  # step 1: Awareness
        shows(board, session.game)
        # The whole fight: the AI's actions, a unit's `done` and the step's end pressed on
        # the board (the key on the unit, the key alone), the rest typed.
        for _ in range(300):
            if session.over:
                break
            for command in ruleset.plan_turn(session.game):
                presses, typed = ruleset.demo_presses(session.game, command)
                for control in presses:
                    table.press(control)
                if command == "pass":
                    table.press("next_turn")
                elif typed:
                    table.execute(command)
                    table.settle()
                if session.over:
                    break
                shows(board, session.game)
        assert ruleset.winner(session.game) in ("Party", "Wardens")
        # Over: nobody is left to act.
        assert _to_act(board) == []


def test_the_board_shows_every_unit_still_to_act_in_the_step_as_active() -> None:
    """forms-turns-rounds-encounters.txt:26, :56: at step 2 every Aware unit is to act; once
    one has moved it is done, the others still to act"""
    s = hall()
    fight(s)
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        assert board.phase == 1 and _to_act(board) == ["Di", "Cy", "Bo", "Ann"]
        table.execute("move Di")
        table.settle()
        assert _active(board) == ["Di", "Cy", "Bo", "Ann"] and _to_act(board) == ["Cy", "Bo", "Ann"]
        assert board.slots[3].flags & F_ACTED
        shows(board, s.game)


def test_next_turn_on_a_selected_unit_ends_its_part_of_the_step() -> None:
    """forms-turns-rounds-encounters.txt:26: a unit's turn is its part of the round; :58 (step
    5: attacking is optional): next turn on Bo is `done Bo`, the others still attack"""
    s = hall()
    fight(s)
    run(s, "pass", "pass", "pass")  # steps 2, 3, 4
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        assert board.phase == 4 and _to_act(board) == ["Di", "Cy", "Bo", "Ann"]
        table.press(_pos(s.game, "Bo"))
        lines = table.press("next_turn")
        assert any("Bo is done with step 5" in line for line in lines)
        assert _to_act(board) == ["Di", "Cy", "Ann"] and board.phase == 4
        shows(board, s.game)


def test_next_turn_on_a_unit_at_step_1_rolls_its_awareness_with_the_boards_dice() -> None:
    """forms-turns-rounds-encounters.txt:49, :54: Awareness is not optional: next turn on a
    unit at step 1 rolls its Insight; with the board's dice it waits for them, and the roll key
    rolls them"""
    s = hall()
    run(s, "fight")
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        assert board.phase == 0 and _to_act(board) == ["Di", "Bo", "Cy", "Ann"]
        s.dice_from = "board"
        table.press(_pos(s.game, "Cy"))
        assert table.press("next_turn") == ["board: done Cy: waits for Cy's Insight roll (2 D10)"]
        lines = table.press("roll")  # the roll key, lit with the two D10 wanted
        assert any("Cy rolls Insight" in line for line in lines)
        assert s.game.last[0].source == "board" and "Cy" not in _to_act(board)
        shows(board, s.game)


def test_next_turn_with_no_unit_selected_ends_the_step_for_everyone_still_in_it() -> None:
    """forms-turns-rounds-encounters.txt:26: the step is over once everyone in it is done:
    step 3 (Slow Form, optional) ends for all four, and step 4 begins"""
    s = hall()
    fight(s)
    run(s, "pass")  # step 2: nobody moves
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        assert board.phase == 2
        table.press("next_turn")
        assert board.phase == 3 and s.game.step == 4
        assert _to_act(board) == ["Di", "Cy", "Bo", "Ann"]
        shows(board, s.game)


def test_a_unit_selected_before_its_movement_turn_is_refused_and_changes_nothing() -> None:
    """forms-turns-rounds-encounters.txt:26, :51: movement is the one exception to all at
    once: it goes by the movement order, Di (Agility 1) first"""
    s = hall()
    fight(s)
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        before = len(s.done)
        table.press(_pos(s.game, "Ann"))
        with pytest.raises(IllegalAction, match="Di moves before Ann"):
            table.press("next_turn")
        table.settle()
        assert len(s.done) == before and _to_act(board) == ["Di", "Cy", "Bo", "Ann"]


def test_a_social_check_out_of_its_order_is_refused_from_the_board() -> None:
    """forms-turns-rounds-encounters.txt:36-45: Bo's Physique check comes before Ann's
    Genius, whichever unit is selected"""
    s = hall()
    run(s, "check Ann Genius", "check Bo Physique")
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        assert _to_act(board) == ["Bo", "Ann"]
        table.press(_pos(s.game, "Ann"))
        with pytest.raises(IllegalAction, match="Bo's Physique check comes first"):
            table.press("next_turn")
        table.execute(f"dice {HIT}")
        table.press(_pos(s.game, "Bo"))
        assert any("Physique check succeeds" in line for line in table.press("next_turn"))
        assert _to_act(board) == ["Ann"]


def test_a_sprung_trap_shows_its_combat_step_on_the_board_and_its_undo_goes_back() -> None:
    """forms-turns-rounds-encounters.txt:21-23: a failed trap check opens a combat round at
    once; the board is described again with the combat steps and shows step 5, the trap's
    unit the one still to act; the board's undo of its press takes it back to the social
    round's one step"""
    s = hall()
    run(s, "check Ann trap")
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        table.execute(f"dice {MISS}")
        table.press(_pos(s.game, "Ann"))
        assert any("the trap springs" in line for line in table.press("next_turn"))
        assert names(encoded(board.rules))["phases"] == list(device.STEP_PHASES)
        assert board.phase == 4 and _to_act(board) == ["Ann"]
        shows(board, s.game)
        table.press("undo")
        assert names(encoded(board.rules))["phases"] == ["social"]
        assert board.phase == 0 and _to_act(board) == ["Ann"] and s.game.combined is None
        shows(board, s.game, roll=False)


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


# ------------------------------------------------------------------ a board without its host


def _untethered(s: Session) -> Rig:
    """A board that took the game's state and descriptor, then lost its host."""
    rig = Rig()
    roster.copy_state(rig.app.state, s.game.state)
    rig.run(2)
    return rig


def _turns(state: GameState) -> tuple:
    """What the turn machine keeps: each slot's active, acted and out flags, the turn
    position, the round and the phase."""
    flags = [state.slots[i].flags & (F_ACTIVE | F_ACTED | F_OUT) for i in range(state.count)]
    return flags, state.turn, state.round, state.phase


def _slot_done(rig: Rig, s: Session, name: str) -> None:
    """The same press on both: next turn on `name`, the board's own and the host's."""
    rig.tap(_pos(s.game, name))
    rig.tap("next_turn")
    RULESET.board_action(s, make_event(ev.NEXT_TURN, s.game.unit(name)))


def _step_ends(rig: Rig, s: Session) -> None:
    rig.tap("next_turn")
    RULESET.board_action(s, make_event(ev.NEXT_TURN))


def test_untethered_the_boards_steps_agree_with_the_host_where_everyone_has_a_part() -> None:
    """forms-turns-rounds-encounters.txt:26, :54-61: the board's own next turn (on a unit, and
    alone) and the host's `done` and `pass` agree flag for flag over steps 2 to 5, where all
    four units have a part; where the host passes over steps nobody has a part in (6 and 7:
    no hits, no damage), the board takes a press for each, and they agree again at step 8
    and into round 2"""
    s = hall()
    fight(s)  # step 2: every unit Aware, to move in the order Di, Cy, Bo, Ann
    rig = _untethered(s)
    board = rig.app.state
    assert _turns(board) == _turns(s.game.state)
    _slot_done(rig, s, "Di")  # Di does not move
    assert _to_act(board) == ["Cy", "Bo", "Ann"] and _turns(board) == _turns(s.game.state)
    _step_ends(rig, s)  # step 3: each of them knows Slow
    assert board.phase == 2 and _turns(board) == _turns(s.game.state)
    _slot_done(rig, s, "Ann")
    assert _turns(board) == _turns(s.game.state)
    _step_ends(rig, s)  # step 4: each knows Fast
    _step_ends(rig, s)  # step 5: each may attack
    assert board.phase == 4 and _turns(board) == _turns(s.game.state)
    _slot_done(rig, s, "Bo")
    assert _to_act(board) == ["Di", "Cy", "Ann"] and _turns(board) == _turns(s.game.state)
    # Nobody attacks: the host passes over steps 6 and 7 to step 8; the board walks them.
    _step_ends(rig, s)
    assert s.game.step == 8 and board.phase == 5 and _to_act(board) == ["Di", "Cy", "Bo", "Ann"]
    rig.tap("next_turn")
    rig.tap("next_turn")
    assert _turns(board) == _turns(s.game.state)  # step 8: nobody moved at step 2
    # Past step 8 the round ends. Round 2: everyone is Aware, so the host passes over step
    # 1; one more press on the board.
    _step_ends(rig, s)
    assert board.round == 2 and s.game.round == 2 and s.game.step == 2 and board.phase == 0
    rig.tap("next_turn")
    assert _turns(board) == _turns(s.game.state)


def test_untethered_a_social_round_agrees_with_the_host() -> None:
    """forms-turns-rounds-encounters.txt:26, :36-45: the units with a check waiting are to
    act; next turn on the one whose check comes next makes it, and next turn alone ends the
    round (the checks waiting made first), on the board as on the host"""
    s = hall()
    run(s, "check Ann Genius", "check Bo Physique", "check Cy Passion")
    rig = _untethered(s)
    board = rig.app.state
    assert _to_act(board) == ["Bo", "Cy", "Ann"] and _turns(board) == _turns(s.game.state)
    s.execute(f"dice {HIT}")
    _slot_done(rig, s, "Bo")  # Physique first
    assert _to_act(board) == ["Cy", "Ann"] and _turns(board) == _turns(s.game.state)
    s.execute(f"dice {HIT}")
    s.execute(f"dice {MISS}")
    _step_ends(rig, s)  # Passion, Genius, and the round's end
    assert board.round == 2 and _to_act(board) == ["Di", "Bo", "Cy", "Ann"]
    assert _turns(board) == _turns(s.game.state)


def test_the_step_key_makes_a_social_rounds_waiting_checks_in_order_then_ends_it() -> None:
    """forms-turns-rounds-encounters.txt:26 (the round ends once everyone has finished),
    :36-45 (checks in attribute order), :21-23 (a sprung trap's Dodge at once): `pass`, the
    next-turn key with nobody selected, makes Cy's Physique check, Bo's Genius, Ann's
    Genius (the trap, entered after Bo's), the trap's Dodge, and ends the round"""
    s = hall()
    run(s, "check Bo Genius dc=1", "check Ann trap", "check Cy Physique")
    for faces in (HIT, MISS, MISS, MISS):
        s.execute(f"dice {faces}")
    lines = run(s, "pass")
    rolled = [line.split(" rolls ")[0] for line in lines if line.split(" ")[1] == "rolls"]
    assert rolled == ["Cy", "Bo", "Ann", "Ann"]
    assert "the trap springs" in " ".join(lines) and lines[-1] == "social round 1 is over"
    assert s.game.round == 2 and not s.game.checks and s.game.units[0].health == 3
