"""The board shows effects generically (issue #29 item 5): how many effects are on each
fighter, the way a counter is shown (that many blinks, on a row after the descriptor's
counters), and a blink on the key of a fighter one of whose effects ends as its turn ends.
No effect's name reaches the board: the state carries a count and a flag per slot."""

from __future__ import annotations

from firmware import pages
from firmware import palette as pal
from shared import codec, roster
from shared.descriptor_pack import counter, pack
from shared.state import GameState

COUNTERS = 2  # firmware/pages.py's counters page
BLINK_MS = 200  # one blink of a count (firmware/palette.py)


def table() -> GameState:
    state = GameState()
    data = pack("t", 3, counters=(counter("burn", 3),))
    state.rules.load(data, 0, len(data))
    state.ruleset = 3
    for name in ("Ann", "Bo", "Cy"):
        roster.add_slot(state, name, 0, 1, 1, 5)
    return state


def frame(state: GameState, page: int, now: int) -> list[tuple[int, ...]]:
    canvas = pages.Canvas(8, 4)
    pages.render_per_position(canvas, page, state, 255, now)
    return [tuple(canvas.frame[c * 3 : c * 3 + 3]) for c in range(canvas.cells)]


def lit(colour: int, level: int) -> tuple[int, ...]:
    return tuple(pal.RGB[colour * 3 + k] * level // 255 for k in range(3))


def test_the_effects_on_a_fighter_blink_their_count_under_its_counters() -> None:
    state = table()
    state.slots[1].effects = 3
    row = 2 * 8  # the second bar row: the counter's row is the first
    blinks = [frame(state, COUNTERS, t * BLINK_MS)[row + 1] for t in range(5)]
    on = lit(pal.VERMILLION, pal.FULL)
    assert blinks == [on, on, on, (0, 0, 0), (0, 0, 0)]
    assert frame(state, COUNTERS, 0)[row + 0] == (0, 0, 0)  # Ann has none


def test_a_table_without_effects_shows_its_counters_page_as_before() -> None:
    state = table()
    state.slots[0].counters[0] = 2
    assert frame(state, COUNTERS, 0)[2 * 8 : 3 * 8] == [(0, 0, 0)] * 8


def test_the_key_of_a_fighter_whose_effect_ends_this_turn_blinks() -> None:
    state = table()
    state.slots[2].effects = 1
    state.slots[2].effect_ends = True
    end_of_cycle = pal.CYCLE_MS - 100
    assert frame(state, 0, end_of_cycle)[2] == lit(pal.VERMILLION, pal.FULL)
    assert frame(state, 0, 1_000)[2] != lit(pal.VERMILLION, pal.FULL)
    assert frame(state, 0, end_of_cycle)[1] != lit(pal.VERMILLION, pal.FULL)  # Bo's does not


def test_the_effects_reach_the_board_in_the_snapshot() -> None:
    state = table()
    state.slots[0].effects = 15
    state.slots[2].effect_ends = True
    state.slots[2].effects = 2
    back = GameState()
    codec.decode(codec.encode(state), back)
    got = [(s.effects, bool(s.effect_ends)) for s in back.slots[:3]]
    assert got == [(15, False), (0, False), (2, True)]
    # A snapshot without effects clears those a slot had.
    codec.decode(codec.encode(table()), back)
    assert [(s.effects, bool(s.effect_ends)) for s in back.slots[:3]] == [(0, False)] * 3
