"""Advance through the simulated board on a real pty (as tests/test_tiny_on_the_board.py does
for the tiny ruleset): the host describes the game, the board shows the step A to E, who is
Advance and Late, who has acted, Stamina, Willpower and the damaged parts; its next-turn key
steps the round, and its roll key makes the Death check.

A round is one turn of everyone in the fight at once, in steps (the descriptor's turn unit
UNIT_STEP, its phases the steps A to E: advance-late-combat-round.txt:5-15): every
character in the fight is active, and the ones who may act now are those not done in the
step (F_ACTED): the Advance adventurers in B, the enemies in C, the Late adventurers in D
(:23), those whose extra actions come now in E (:139-141), and whoever must answer a hit
or owes a Death check. Next turn with one of them selected says it is done: it takes no
action (`wait`, :66), or takes the hit waiting (`take`); once nobody is left to act, the
step ends (`next`)."""

from __future__ import annotations

import pytest
from advance_fixtures import FAIL, PASS, play, session, text
from boardfakes import Rig

from host.board.tethered_sim import TetheredSim
from host.core.interface import IllegalAction
from host.core.session import Session
from host.rulesets.advance import device
from shared import dice, roster
from shared.descriptor_pack import UNIT_STEP, encoded, names
from shared.state import F_ACTED, F_ACTIVE, GameState


def _turn(state: GameState) -> list[str]:
    """The characters that show as the turn (F_ACTIVE), in the order."""
    slots = [state.slots[state.order[pos]] for pos in range(state.count)]
    return [slot.label for slot in slots if slot.flags & F_ACTIVE]


def _to_act(state: GameState) -> list[str]:
    """Those of the turn still to act in the step (F_ACTIVE without F_ACTED)."""
    slots = [state.slots[state.order[pos]] for pos in range(state.count)]
    return [slot.label for slot in slots if slot.flags & (F_ACTIVE | F_ACTED) == F_ACTIVE]


def _said(lines: list[str], text: str) -> bool:
    return any(text in line for line in lines)


def _initiative(s: Session, late: tuple[str, ...] = ()) -> None:
    """Step A's dice entered: the table's <Reflexes>, every adventurer Advance but `late`;
    `next` then rolls them (on the laptop, or by the board's next-turn key)."""
    play(s, "dice d6 1")
    for f in s.game.fighters:
        if not f.enemy and f.in_combat:
            play(s, FAIL if f.name in late else PASS)


def _pos(state: GameState, label: str) -> str:
    """The board's key for the turn position showing `label`."""
    at = [state.slots[state.order[pos]].label for pos in range(state.count)].index(label)
    return f"pos{at}"


def test_advance_plays_through_the_simulated_board() -> None:
    s = session(text(("stamina = 14", "stamina = 1")), seed=3)
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        assert board.ruleset == device.BOARD_ID
        described = names(encoded(board.rules))
        assert described["counters"] == ["will", "parts", "extra"]
        assert described["marks"] == ["advance", "late", "fullpwr", "helpless", "support"]
        assert described["phases"] == list(device.PHASE_NAMES)
        assert described["health"] == "Stamina"
        # The next-turn key rolls step A's initiative (the engine's dice, seeded): step B.
        lines = table.press("next_turn")
        assert any("the Initiative check is on" in line for line in lines)
        assert board.phase == 1 and board.round == 1
        for f in s.game.fighters[:3]:
            mark = device.F_ADVANCE if f.advance else device.F_LATE
            assert board.slots[f.index].flags & mark
        assert board.rules.flags & 48 == UNIT_STEP
        while s.game.step != 2:  # to step C: the enemies may act, the adventurers are done
            table.press("next_turn")
        assert board.phase == 2 and _to_act(board) == ["Gru", "Sna", "MOR"]
        for f in s.game.fighters[:3]:
            slot = board.slots[f.index]
            assert slot.flags & F_ACTIVE and slot.flags & F_ACTED
            assert slot.actions == (0 if f.advance else 1)  # the Advance ones have acted
        # Grub's hit takes Ayla past 0 Stamina: Body Damage to her Right Arm.
        table.execute(PASS)
        table.execute("dice d6 2")
        table.execute("attack Grub Spear Ayla evade=no")
        table.settle()
        ayla = board.slots[0]
        assert ayla.health == 0 and ayla.counters[device.PARTS] == 1
        assert ayla.counters[device.WILLPOWER] == 6
        assert _to_act(board) == ["Ayl"]  # only who owes the Death check may act now
        # With the board's dice, next turn on her makes her Death check (it is rolled, not
        # skipped): it waits for its D6, the roll key is lit with one die, and one press
        # rolls it and makes the check.
        s.dice_from = "board"
        table.press(_pos(board, "Ayl"))
        assert table.press("next_turn") == ["board: death Ayl: waits for Ayla's death roll (1 D6)"]
        table.settle()
        assert (board.want.kind, board.want.count, board.want.who) == (dice.KIND_ACTION_D6, 1, 0)
        lines = table.press("roll")
        face = board.roll.faces[0]
        assert board.roll.count == 1 and 1 <= face <= 6 and board.want.count == 0
        assert f"board: Ayla's Death check: {face} vs 1 damaged parts" in lines
        assert s.done[-1].text == "death Ayl" and s.done[-1].rolls == [["death", [face], "board"]]
        # A check typed on the laptop waits for its 2D6: one press rolls exactly two dice.
        table.execute("attack Snag 'Hand Axe' Bren evade=no")
        table.settle()
        assert (board.want.kind, board.want.count) == (dice.KIND_ACTION_D6, 2)
        table.press("roll")
        faces = tuple(board.roll.faces[:2])
        assert s.done[-1].rolls[0] == ["check", list(faces), "board"]
        s.dice_from = "engine"
        # Counters are the rules' to count; the key is refused and nothing changes.
        with pytest.raises(IllegalAction, match="refused"):
            table.press("counter_up")
        table.settle()
        assert board.slots[0].counters[device.WILLPOWER] == s.game.fighters[0].willpower


def test_everyone_in_the_fight_is_the_rounds_turn_and_each_step_shows_who_may_act() -> None:
    """advance-late-combat-round.txt:5-15 (steps A to E), :23 (Advance in B, Late in D), :25
    (the order within a step is the players'), :29 (one action a round)"""
    s = session()
    _initiative(s, late=("Bren",))
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        assert board.round == 0 and _turn(board) == []  # before the first Initiative checks
        table.press("next_turn")
        everyone = ["Ayl", "Cyr", "Gru", "Sna", "MOR", "Bre"]  # Advance, enemies, Late
        assert board.phase == 1 and _turn(board) == everyone and board.active == 0
        assert _to_act(board) == ["Ayl", "Cyr"]
        table.execute("wait Cyra")  # in any order within the step
        table.settle()
        assert _to_act(board) == ["Ayl"]
        table.execute("next")
        table.settle()
        assert board.phase == 2 and _to_act(board) == ["Gru", "Sna", "MOR"]
        table.execute("next")
        table.settle()
        assert board.phase == 3 and _to_act(board) == ["Bre"] and _turn(board) == everyone


def test_next_turn_on_a_selected_character_is_that_it_takes_no_action() -> None:
    """advance-late-combat-round.txt:66 (a character may take no action), :9-11 (then the
    enemies' step)"""
    s = session()
    _initiative(s, late=("Bren",))
    play(s, "next")
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        table.press(_pos(board, "Ayl"))
        assert _said(table.press("next_turn"), "Ayla takes no action")
        assert board.phase == 1 and _to_act(board) == ["Cyr"]
        # Cyra is the last to act in B: done, the step ends as by next turn.
        table.press(_pos(board, "Cyr"))
        lines = table.press("next_turn")
        assert _said(lines, "Cyra takes no action") and _said(lines, "step C: Enemy Actions")
        assert board.phase == 2 and _to_act(board) == ["Gru", "Sna", "MOR"]
        assert [e.text for e in s.done[-3:]] == ["wait Ayl", "wait Cyr", "next"]
        assert all(e.by == "board" for e in s.done[-3:])


def test_the_target_of_a_waiting_hit_is_the_one_to_act_and_next_turn_on_it_takes_the_hit() -> None:
    """advance-late-combat-round.txt:123-125 (the target may evade once the hit's damage is
    decided)"""
    s = session()
    _initiative(s)
    play(s, "next", "next")  # step C: the enemies
    with TetheredSim(s) as table:
        table.execute(PASS)
        table.execute("attack Grub Spear Ayla")  # Ayla has Willpower: the hit waits
        table.settle()
        board = table.sim.app.state
        assert _to_act(board) == ["Ayl"]
        table.press(_pos(board, "Ayl"))
        lines = table.press("next_turn")
        assert _said(lines, "Ayla takes") and s.done[-1].text == "take Ayl"
        assert _to_act(board) == ["Sna", "MOR"] and board.phase == 2


def test_next_turn_on_a_character_in_step_e_passes_every_extra_action_it_has_now() -> None:
    """advance-late-combat-round.txt:139-143 (extra actions after Late; [Habit] may give one
    character several)"""
    s = session(text(("extra = 1\nrebound = 2", "extra = 2\nrebound = 2")))
    _initiative(s, late=("Bren",))
    play(s, "next", "wait Ayla", "wait Cyra", "next", "next", "assist Bren Habit", "next")
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        assert board.phase == 4 and _to_act(board) == ["Bre"]
        assert board.slots[1].counters[device.EXTRA] == 2
        table.press(_pos(board, "Bre"))
        lines = table.press("next_turn")
        assert [line for line in lines if "takes no action" in line] == [
            "board: Bren takes no action",
            "board: Bren takes no action",
        ]
        # Nobody is left to act in E: the round ends, and round 2 is at step A, where
        # nobody acts (the game master's `next` makes the Initiative checks).
        assert board.round == 2 and board.phase == 0 and _to_act(board) == []
        assert len(_turn(board)) == 6
        assert [e.text for e in s.done[-3:]] == ["wait Bre", "wait Bre", "next"]


def test_untethered_the_boards_next_turn_key_steps_through_the_round() -> None:
    """advance-late-combat-round.txt:5: the steps A to E, in order, each round"""
    s = session()
    _initiative(s)
    play(s, "next")
    rig = Rig()
    roster.copy_state(rig.app.state, s.game.state)
    rig.run(2)
    state = rig.app.state
    for step in (2, 3, 4):
        rig.tap("next_turn")
        assert state.phase == step and state.round == 1
    rig.tap("next_turn")
    assert state.round == 2 and state.phase == 0 and len(_turn(state)) == 6
