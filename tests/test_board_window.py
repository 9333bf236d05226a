"""The whole table on the board (issue 39, the board's side): a board holds every fighter of
a 24-fighter order (shared/slots.py: every fighter's numbers in rows, two Slot views of
them) and shows a window of the order that follows the turn (firmware/pages.py
Canvas.place): the fighter whose turn it is and the next ones, how many are before and
after it on the system row, the window key moving it and the next turn bringing it back
(docs/board.md, docs/protocol.md)."""

from __future__ import annotations

import random

from boardfakes import Rig
from test_board_app import described, frame, hello

from firmware import pages
from firmware import palette as pal
from host.board.firmware_host import settle
from shared import codec
from shared import events as ev
from shared.host_only import make_event
from shared.limits import MAX_SLOTS
from shared.link import messages as m
from shared.reference import BIG_TABLE, build_reference_state
from shared.slots import Slots
from shared.state import TABLE, GameState

CYCLE = pal.CYCLE_MS


def big_rig(board: str = "trellis_m4") -> Rig:
    """A board given the big table's reference state: 24 fighters, a round begun."""
    rig = Rig(board)
    rig.stream.put(hello())
    rig.run(10)
    described(rig)
    rig.stream.put(frame(m.SNAPSHOT, 1, codec.encode(build_reference_state(fighters=BIG_TABLE))))
    rig.run(20)
    assert rig.app.state.count == BIG_TABLE
    return rig


def lit(rig: Rig, cell: int, phase: int) -> bool:
    """Whether `cell` is lit in the frame drawn `phase` ms into a cycle of the patterns."""
    app = rig.app
    settle(app, rig.now)
    now = (rig.now // CYCLE + 2) * CYCLE + phase
    app.render(now)
    return any(app.canvas.frame[cell * 3 : cell * 3 + 3])


def test_the_board_holds_at_least_24_fighters() -> None:
    assert MAX_SLOTS >= 24
    rig = big_rig()
    state = rig.app.state
    assert isinstance(state.slots, Slots)
    assert codec.encode(state) == codec.encode(build_reference_state(fighters=BIG_TABLE))


def test_the_boards_rows_agree_with_a_slot_per_fighter_through_a_whole_game() -> None:
    # The same presses on a board's state (rows and two views) and on the host's (a Slot
    # per fighter): after each, the two encode to the same bytes.
    assert TABLE == 12  # shared/slots.py's row holds the tables at this width
    board = build_reference_state(GameState(Slots(2)), fighters=BIG_TABLE)
    host = build_reference_state(fighters=BIG_TABLE)
    rng = random.Random(39)
    for i in range(400):
        pick = rng.randrange(4)
        if pick == 0:
            record = make_event(ev.NEXT_TURN)
        elif pick == 1:
            record = make_event(ev.NEXT_PHASE)
        else:
            code = ev.COUNTER_UP if pick == 2 else ev.COUNTER_DOWN
            record = make_event(code, rng.randrange(BIG_TABLE), rng.randrange(3))
        ev.apply_event(board, record)
        ev.apply_event(host, record)
        assert codec.encode(board) == codec.encode(host), i
    # And a snapshot decodes into the rows as it does into the host's slots.
    back = GameState(Slots(2))
    codec.decode(codec.encode(host), back)
    assert codec.encode(back) == codec.encode(host)


def test_the_board_passes_the_turn_through_every_one_of_24_fighters() -> None:
    rig = big_rig()
    state = rig.app.state
    start_round = state.round
    seen = []
    for _ in range(BIG_TABLE):
        seen.append(state.active)
        rig.tap("next_turn")
    assert sorted(seen) == list(range(BIG_TABLE))
    assert state.round == start_round + 1


def test_the_window_follows_every_turn() -> None:
    rig = big_rig()
    state = rig.app.state
    canvas = rig.app.canvas
    for _ in range(2 * BIG_TABLE + 3):
        rig.tap("next_turn")
        rig.app.render(rig.now)
        # The fighter whose turn it is in the first column, the next seven after it.
        assert canvas.first == state.turn and canvas.shown == 8
        assert canvas.column(state.turn, state.count) == 0
        assert canvas.column((state.turn + 7) % state.count, state.count) == 7


def test_the_window_key_moves_the_window_and_the_next_turn_brings_it_back() -> None:
    rig = big_rig()
    state = rig.app.state
    canvas = rig.app.canvas
    turn = state.turn
    rig.tap("window")
    rig.app.render(rig.now)
    assert canvas.first == (turn + 8) % BIG_TABLE
    rig.tap("window")
    rig.app.render(rig.now)
    assert canvas.first == (turn + 16) % BIG_TABLE
    rig.hold("window", 600)  # held: a window back
    rig.app.render(rig.now)
    assert canvas.first == (turn + 8) % BIG_TABLE
    rig.tap("next_turn")
    rig.app.render(rig.now)
    assert canvas.first == state.turn == turn + 1


def test_the_system_row_counts_the_fighters_before_and_after_the_window() -> None:
    rig = big_rig()
    state = rig.app.state
    assert state.turn == 0  # the window shows positions 0..7: none before, 16 after
    before_cell, after_cell = 24, 29  # the system row's first cell, left of the problem cell
    assert not lit(rig, before_cell, 100)
    # 16: a long blink for the ten, then six short ones.
    assert lit(rig, after_cell, 100) and lit(rig, after_cell, 250)
    assert not lit(rig, after_cell, 350)
    assert lit(rig, after_cell, 400 + 5 * 200 + 50) and not lit(rig, after_cell, 400 + 6 * 200 + 50)
    rig.tap("window")  # positions 8..15: eight before, eight after
    for cell in (before_cell, after_cell):
        assert lit(rig, cell, 7 * 200 + 50) and not lit(rig, cell, 8 * 200 + 50)


def test_a_turn_key_selects_the_fighter_its_column_shows_and_the_counter_keys_act_on_it() -> None:
    rig = big_rig()
    state = rig.app.state
    rig.tap("window")
    rig.tap("pos3")
    index = state.order[(state.turn + 8 + 3) % BIG_TABLE]
    assert rig.app.selected == index
    before = state.slots[index].counters[rig.app.counter]
    rig.tap("counter_up")
    assert state.slots[index].counters[rig.app.counter] == before + 1
    # The next turn brings the window back; a selection it no longer shows goes back to
    # the turn (the counter keys act on the fighter shown).
    rig.tap("next_turn")
    rig.app.render(rig.now)
    assert rig.app.selected == 255


def test_selecting_past_the_window_moves_the_window_to_it() -> None:
    rig = big_rig()
    state = rig.app.state
    canvas = rig.app.canvas
    for _ in range(9):
        rig.tap("select_next")
    rig.app.render(rig.now)
    pos = list(state.order[: state.count]).index(rig.app.selected)
    assert canvas.column(pos, state.count) >= 0


def test_the_macropad_shows_six_fighters_and_the_counts_in_the_two_cells_after_them() -> None:
    rig = big_rig("macropad")
    canvas = rig.app.canvas
    rig.app.render(rig.now)
    assert canvas.shown == 6 and canvas.first == rig.app.state.turn
    # None before (cell 6 dark), 18 after (cell 7: a long blink, then eight short ones).
    assert not lit(rig, 6, 100)
    assert lit(rig, 7, 100) and lit(rig, 7, 400 + 7 * 200 + 50)
    assert not lit(rig, 7, 400 + 8 * 200 + 50)


def test_eight_fighters_fill_the_board_as_before_with_no_counts() -> None:
    for board in ("trellis_m4", "macropad", "pico_matrix"):
        canvas = pages.Canvas(
            *{"trellis_m4": (8, 4), "macropad": (3, 4), "pico_matrix": (8, 8)}[board]
        )
        canvas.place(8, 5)
        assert canvas.first == 0 and canvas.shown == 8
