"""Stones on the simulated board (a real pty, the real firmware): the board holds stones'
descriptor and shows each character's HP, its player's cards in hand against the hand
size, the stones fused to it, the active character's three actions and the last d100; its
next-turn key ends the turn and its roll key rolls the two D10 of the next crit or chance
(speaking-stones-turn-order.txt:44, :53, :64)."""

from __future__ import annotations

from stones_fixtures import session
from test_stones_rules import FOUR_PLAYERS, TWO_MORE

from host import encounters
from host.commands import demo
from host.ruleset import IllegalAction
from host.stones import device
from host.stones.ruleset import RULESET
from host.tethered_sim import TetheredSim
from shared import dice
from shared.descriptor_pack import encoded, names
from shared.initiative import R_OUT
from shared.state import F_ACTIVE, mark_bit


def test_stones_plays_through_the_simulated_board() -> None:
    s = session()
    with TetheredSim(s) as table:
        board = table.sim.app.state
        assert board.ruleset == device.BOARD_ID
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
        # The roll key rolls the two D10 the attack's crit then uses.
        table.press("roll")
        faces = board.roll.faces[0], board.roll.faces[1]
        assert board.roll.kind == dice.KIND_D100
        assert list(s.game.waiting["d100"]) == [(faces, "board")]
        lines = table.execute("attack Kae Orr")
        assert f"d100 {dice.d100_value(*faces)}" in lines[0]
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
    enc = encounters.load(RULESET.example_path())
    s = demo.play(enc, 4, out.append, board="trellis_m4")
    assert s.over and RULESET.winner(s.game) in ("Dawn", "Dusk")
    assert any(e.by == "board" and e.text == "end" for e in s.done)  # the key ended turns
    assert not [line for line in out if "refused" in line]
