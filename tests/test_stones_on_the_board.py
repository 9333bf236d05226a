"""Stones on the simulated board (a real pty, the real firmware): the board holds stones'
descriptor and shows each character's HP, its player's cards in hand against the hand
size, the stones fused to it, the active character's three actions and the last d100; its
next-turn key ends the turn and its roll key rolls the two D10 of the next crit or chance
(speaking-stones-turn-order.txt:44, :53, :64).

A turn is a player's (the descriptor's turn unit UNIT_KEY, each player's characters sharing
an order key): every character of the player whose turn it is shows as the turn, each one
done once its activation is over (speaking-stones-turn-order.txt:21, three actions before
another character is activated), and next turn with one of them selected says that one is
done (`done CHAR`); with none left, the turn's end (:57, :60) and the next player's
(:64)."""

from __future__ import annotations

import pytest
from boardfakes import Rig
from stones_fixtures import session
from test_stones_rules import FOUR_PLAYERS, TWO_MORE

from firmware import pages
from host.board.tethered_sim import TetheredSim
from host.commands import demo
from host.core import encounter_files
from host.core.interface import IllegalAction
from host.core.session import Session
from host.rulesets.stones import device
from host.rulesets.stones.ruleset import RULESET
from shared import dice, roster
from shared import events as ev
from shared.descriptor_pack import UNIT_KEY, encoded, names
from shared.host_only import d100_value, make_event
from shared.initiative import R_OUT
from shared.state import F_ACTED, F_ACTIVE, F_OUT, GameState, mark_bit


def _turn(state: GameState) -> list[str]:
    """The characters that show as the turn (F_ACTIVE), in the order."""
    slots = [state.slots[state.order[pos]] for pos in range(state.count)]
    return [slot.label for slot in slots if slot.flags & F_ACTIVE]


def _done(state: GameState) -> list[str]:
    """Those of the turn whose part of it is over (F_ACTED too)."""
    slots = [state.slots[state.order[pos]] for pos in range(state.count)]
    return [slot.label for slot in slots if slot.flags & F_ACTIVE and slot.flags & F_ACTED]


def _said(lines: list[str], text: str) -> bool:
    return any(text in line for line in lines)


def test_stones_plays_through_the_simulated_board() -> None:
    s = session()
    with TetheredSim(s) as table:
        board = table.sim.app.state
        assert board.ruleset == RULESET.board_id
        assert encoded(board.rules) == device.descriptor(RULESET.rules_version)
        described = names(encoded(board.rules))
        assert described["counters"] == ["hand", "handsize", "fused"]
        assert described["marks"] == ["fuse", "move", "act", "fused", "status"]
        kae, orr = board.slots[0], board.slots[2]
        assert (kae.counters[0], kae.counters[1]) == (5, 5) and orr.counters[1] == 3
        # Kaelen fuses and moves, typed on the laptop: the board marks both actions done.
        table.execute('fuse Kae "Ember Ward"')
        table.execute("move Kae 2")
        table.settle()
        assert kae.flags & F_ACTIVE and kae.actions == 1
        assert kae.flags & mark_bit(device.FUSE_DONE) and kae.flags & mark_bit(device.MOVE_DONE)
        assert not kae.flags & mark_bit(device.ACT_DONE)
        assert (kae.counters[0], kae.counters[2]) == (4, 1)
        # With the board's dice the attack waits for its crit d100, the roll key is lit with
        # it, and one press rolls the two D10 the crit uses.
        s.dice_from = "board"
        assert table.execute("attack Kae Orr") == [
            "attack Kae Orr: waits for Kaelen's crit roll (a d100: two D10, tens then units)"
        ]
        table.settle()
        assert (board.want.kind, board.want.count, board.want.who) == (dice.KIND_D100, 2, 0)
        lines = table.press("roll")
        faces = board.roll.faces[0], board.roll.faces[1]
        assert board.roll.kind == dice.KIND_D100 and board.want.count == 0
        assert f"d100 {d100_value(*faces)}" in lines[1]
        assert s.done[-1].rolls == [[faces[0], faces[1], "board"]]
        table.settle()
        assert kae.flags & mark_bit(device.ACT_DONE)
        assert orr.health == s.game.hp[2] < 18
        # The next-turn key is `end`: Bo's turn, his Orrin the board's turn.
        assert "Ann ends the turn" in table.press("next_turn")[0]
        assert s.game.player == 1 and board.active == 2 and board.slots[2].flags & F_ACTIVE
        assert board.slots[2].counters[0] == 3
        # The board's undo key takes back its own press: Ann's turn again, Kaelen acting.
        assert table.press("undo") == ["board: undone: end"]
        assert s.game.player == 0 and board.active == 0 and kae.actions == 0  # all three done


def test_the_boards_order_is_the_rounds_characters_by_their_players_turns() -> None:
    """speaking-stones-turn-order.txt:64: Ann (Kaelen, Mira), Bo (Orrin), Dan, Cy"""
    s = session(players=FOUR_PLAYERS, more=TWO_MORE, orr_hp=1)
    with TetheredSim(s) as table:
        board = table.sim.app.state
        assert list(board.order[: board.count]) == [0, 1, 2, 3, 4]  # Kae Mir Orr Roo Sab
        table.execute("dice d100 9 9")
        table.execute("attack Kae Orr")  # Bo is out: Cy answers Ann, Orrin goes last
        table.settle()
        assert list(board.order[: board.count]) == [0, 1, 4, 3, 2]
        assert board.order_reason[4] == R_OUT and board.active == 0


def test_a_board_press_the_rules_refuse_changes_nothing() -> None:
    s = session()
    with TetheredSim(s) as table:
        table.execute("end")
        table.execute("end")  # Ann's second turn: 10 cards over a hand size of 5
        table.settle()
        for control, said in (
            ("next_turn", "Ann holds 10 cards"),
            ("counter_up", "the rules' to count"),
            ("chance", "stones rolls d100s"),
        ):
            before = len(s.done), s.game.player
            try:
                table.press(control)
            except IllegalAction as err:
                assert said in str(err)
            else:
                raise AssertionError(f"{control} was not refused")
            assert (len(s.done), s.game.player) == before
            assert table.sim.app.state.slots[0].counters[0] == 10


def test_the_demo_plays_a_whole_game_through_the_simulated_board() -> None:
    out: list[str] = []
    enc = encounter_files.load(RULESET.example_path())
    s = demo.play(enc, 4, out.append, board="trellis_m4")
    assert s.over and RULESET.winner(s.game) in ("Dawn", "Dusk")
    assert any(e.by == "board" and e.text == "end" for e in s.done)  # the key ended turns
    assert not [line for line in out if "refused" in line]


def test_the_board_shows_every_character_of_the_player_whose_turn_it_is() -> None:
    """speaking-stones-turn-order.txt:21 (a player activates their characters, one after
    another, in their turn), :64 (then a player of the other team)"""
    s = session()
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        assert board.rules.flags & 48 == UNIT_KEY
        kae, mir, orr = board.slots[0], board.slots[1], board.slots[2]
        assert kae.order_key == mir.order_key != orr.order_key  # Ann's, Ann's, Bo's
        # Ann's turn: both her characters are the turn, each with its three actions.
        assert _turn(board) == ["Kae", "Mir"] and _done(board) == [] and board.active == 0
        assert (kae.actions, mir.actions, orr.actions) == (3, 3, 0)
        # Mira activated after Kaelen's move: Kaelen's activation is over, he is done.
        table.execute("move Kae 2")
        table.execute("move Mir 1")
        table.settle()
        assert _turn(board) == ["Kae", "Mir"] and _done(board) == ["Kae"]
        assert (kae.actions, mir.actions) == (0, 2) and mir.flags & mark_bit(device.MOVE_DONE)
        # Next turn: Bo's, his Orrin the turn; Ann's characters have had theirs this round.
        table.press("next_turn")
        assert _turn(board) == ["Orr"] and board.active == 2 and orr.actions == 3
        assert kae.flags & F_ACTED and mir.flags & F_ACTED and not kae.flags & F_ACTIVE


def test_the_players_characters_all_pulse_on_the_board() -> None:
    """speaking-stones-turn-order.txt:21: the board shows whose player has the turn"""
    s = session()
    canvas = pages.Canvas(8, 4)
    now = 1000  # the bright moment of the fast pulse
    pages.render_page(canvas, pages.INITIATIVE, s.game.state, 255, False, now)
    level = [max(canvas.frame[pos * 3 : pos * 3 + 3]) for pos in range(3)]
    # Kaelen and Mira (positions 0, 1) pulse at full; Bo's Orrin waits at the middle level.
    assert level[0] == level[1] > level[2] > 0


def test_next_turn_on_a_selected_character_ends_its_activation() -> None:
    """speaking-stones-turn-order.txt:21 (three actions, then another character), :57 (once
    all of the player's characters are through, the end of the turn), :64"""
    s = session()
    with TetheredSim(s) as table:
        table.execute("move Kae 2")
        table.settle()
        board = table.sim.app.state
        table.press("pos0")  # Kaelen, being activated
        assert _said(table.press("next_turn"), "Kaelen's activation ends")
        assert _turn(board) == ["Kae", "Mir"] and _done(board) == ["Kae"] and s.game.player == 0
        with pytest.raises(IllegalAction, match="Kaelen's activation is over"):
            table.execute("attack Kae Orr")
        # Mira selected: done without being activated. No one is left to act, so Ann's
        # turn ends as by next turn (her hand of 5 fits its size): Bo's turn.
        table.press("pos1")
        lines = table.press("next_turn")
        assert _said(lines, "Mira is done this turn without being activated")
        assert _said(lines, "Ann ends the turn") and s.game.player == 1
        assert _turn(board) == ["Orr"]
        assert [e.text for e in s.done[-3:]] == ["done Kae", "done Mir", "end"]


def test_the_last_character_done_over_the_hand_size_leaves_the_turn_in_its_end_step() -> None:
    """speaking-stones-turn-order.txt:57 and :60: the player's characters through, the turn
    ends only once the hand is down to its size"""
    s = session()
    with TetheredSim(s) as table:
        table.execute("end")
        table.execute("end")  # Ann's second turn: 10 cards, a hand size of 5
        table.settle()
        board = table.sim.app.state
        table.press("pos0")
        table.press("next_turn")
        table.press("pos1")
        lines = table.press("next_turn")
        assert _said(lines, "the turn stays in its end step: Ann holds 10 cards")
        assert s.game.player == 0 and s.game.end_step and board.phase == device.PHASE_END
        assert _turn(board) == ["Kae", "Mir"] and _done(board) == ["Kae", "Mir"]
        with pytest.raises(IllegalAction, match="Ann has begun ending the turn"):
            table.execute("move Kae 1")
        table.execute("discard fire2 fire2 fire2 fire2 fire2")
        assert _said(table.press("next_turn"), "Ann ends the turn") and s.game.player == 1


def test_a_character_of_another_player_is_not_done_from_the_board() -> None:
    """speaking-stones-turn-order.txt:21: a player activates their own characters"""
    s = session()
    with TetheredSim(s) as table:
        table.settle()
        table.press("pos2")  # Bo's Orrin in Ann's turn: next turn ends Ann's turn instead
        assert _said(table.press("next_turn"), "Ann ends the turn")
        table.execute("done Orr")  # Bo's turn now: Orrin is done, and with him Bo's turn
        with pytest.raises(IllegalAction, match="Kaelen is Ann's, and it is Bo's turn"):
            table.execute("done Kae")


def test_a_stunned_character_shows_done_as_its_players_turn_begins() -> None:
    """speaking-stones-turn-order.txt:53 (a status keyword: a stunned character cannot be
    activated)"""
    s = session()
    with TetheredSim(s) as table:
        table.execute("end")
        table.execute("dice d100 1 0")
        table.execute('ability Orr "Ember Lance" Kae')  # [On 1-20] adds [Stun]
        table.execute("end")
        table.settle()
        board = table.sim.app.state
        assert _turn(board) == ["Kae", "Mir"] and _done(board) == ["Kae"]
        assert board.slots[0].actions == 0 and board.slots[1].actions == 3
        with pytest.raises(IllegalAction, match="Kaelen is stunned"):
            table.execute("done Kae")


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


def test_untethered_the_boards_next_turn_key_follows_the_players_turn() -> None:
    """speaking-stones-turn-order.txt:64: Ann (Kaelen, Mira), then Bo (Orrin)"""
    s = session()
    rig = _untethered(s)
    state = rig.app.state
    rig.tap("pos1")  # Mira
    rig.tap("next_turn")
    assert _turn(state) == ["Kae", "Mir"] and _done(state) == ["Mir"]
    # The same press through the host's rules: the same turn, flag for flag.
    RULESET.board_action(s, make_event(ev.NEXT_TURN, 1))  # naming Mira
    assert _turns(s.game.state) == _turns(state)
    rig.tap("next_turn")
    s.execute("end")
    assert _turn(state) == ["Orr"] and _turns(s.game.state) == _turns(state)


def test_untethered_a_round_of_four_players_turns_agrees_with_the_host() -> None:
    """speaking-stones-turn-order.txt:64: the board's own next turn (shared.turns, by the
    order keys) and the host's `end` take the same players' turns, into round 2"""
    s = session(players=FOUR_PLAYERS, more=TWO_MORE)
    rig = _untethered(s)
    state = rig.app.state
    for _ in range(4):
        rig.tap("next_turn")
        s.execute("end")
        assert _turns(s.game.state) == _turns(state)
    assert state.round == 2 and _turn(state) == ["Kae", "Mir"]


def test_four_players_take_their_turns_by_the_board_in_alternation() -> None:
    """speaking-stones-turn-order.txt:64: Ann (Kaelen, Mira), Bo (Orrin), Dan (Rook), Cy
    (Sable); then round 2"""
    s = session(players=FOUR_PLAYERS, more=TWO_MORE)
    with TetheredSim(s) as table:
        table.settle()
        board = table.sim.app.state
        seen = [_turn(board)]
        for _ in range(4):
            table.press("next_turn")
            seen.append(_turn(board))
        assert seen == [["Kae", "Mir"], ["Orr"], ["Roo"], ["Sab"], ["Kae", "Mir"]]
        assert board.round == 2
