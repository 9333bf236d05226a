"""What the pages draw, read straight from the frame (issue 4, item 2: every page readable
at a glance, and colour-blind-safe patterns): four teams on the NeoTrellis's scores page
each get a lane of their own, and on the MacroPad the active turn is always visible. The
counters, marks and dice pages draw what the descriptor describes (issue 10)."""

from __future__ import annotations

from firmware import pages, whole_pages
from firmware import palette as pal
from host.board.firmware_host import PAGE_NAMES
from shared import dice, roster
from shared.descriptor_pack import counter, mark, pack
from shared.limits import NO_SLOT
from shared.reference import build_reference_state
from shared.state import GameState, mark_bit

# The per-position pages' numbers, private to the board's firmware.pages (_COOLDOWNS ...).
COOLDOWNS, COUNTERS, MARKS = (PAGE_NAMES.index(p) for p in ("cooldowns", "counters", "marks"))

QUIET_MS = 2400 * 10 + 1500  # after every team's dips and past the one-blink extra


def team_rgb(team: int, level: int) -> tuple[int, ...]:
    frame = bytearray(3)
    pal.put(frame, 0, pal.team_colour(team), level)
    return tuple(frame)


def cells_of(canvas: pages.Canvas, rgb: tuple[int, ...]) -> list[int]:
    f = canvas.frame
    return [c for c in range(canvas.cells) if tuple(f[c * 3 : c * 3 + 3]) == rgb]


def scores_canvas(width: int, height: int, scores: tuple[int, ...]) -> pages.Canvas:
    state = GameState()
    state.team_count = len(scores)
    for team, score in enumerate(scores):
        state.scores[team] = score
    canvas = pages.Canvas(width, height)
    whole_pages.render_scores(canvas, state, QUIET_MS)
    return canvas


def test_four_teams_on_the_trellis_scores_page_each_get_their_own_lane() -> None:
    canvas = scores_canvas(8, 4, (3, 2, 4, 1))
    lanes = {}
    for team, score in enumerate((3, 2, 4, 1)):
        cells = cells_of(canvas, team_rgb(team, pal.MID))
        assert len(cells) == score, team
        rows = {c // 8 for c in cells}
        halves = {c % 8 // 4 for c in cells}
        assert len(rows) == 1 and len(halves) == 1, (team, cells)  # one half-row each
        lanes[team] = (rows.pop(), halves.pop())
    assert len(set(lanes.values())) == 4  # no two teams share a lane
    assert lanes[3][0] != lanes[0][0]  # team 3 is not in team 0's row any more ...
    assert lanes == {0: (0, 0), 1: (0, 1), 2: (1, 0), 3: (1, 1)}  # ... it is beside team 2
    assert not any(canvas.frame[2 * 8 * 3 : 3 * 8 * 3])  # the third row is left dark


def test_a_fourth_teams_extra_points_blink_in_its_own_lane() -> None:
    state = GameState()
    state.team_count = 4
    state.scores[3] = 6  # a full lane of 4, and 2 more as blinks in its first cell
    canvas = pages.Canvas(8, 4)
    seen = set()
    for now in range(0, 2400, 50):
        canvas.clear()
        whole_pages.render_scores(canvas, state, now)
        seen.add(tuple(canvas.frame[(8 + 4) * 3 : (8 + 4) * 3 + 3]))
    assert team_rgb(3, pal.FULL) in seen  # the blink, at cell 12 (row 1, right half)


def test_up_to_three_teams_keep_a_whole_row_each() -> None:
    canvas = scores_canvas(8, 4, (8, 6, 7))
    for team, score in enumerate((8, 6, 7)):
        assert cells_of(canvas, team_rgb(team, pal.MID)) == list(range(team * 8, team * 8 + score))


def test_the_pico_has_a_row_for_every_team() -> None:
    canvas = scores_canvas(8, 8, (2, 2, 2, 2))
    for team in range(4):
        assert cells_of(canvas, team_rgb(team, pal.MID)) == [team * 8, team * 8 + 1]


def macropad_frames(page: int) -> list[tuple[int, bytes]]:
    """(row shown, frame) over a whole rotation of `page` on the MacroPad's 3x4 grid."""
    state = build_reference_state()
    canvas = pages.Canvas(3, 4)
    frames = []
    for now in range(0, 4 * 2400 * 2, 25):
        canvas.clear()
        pages.render_per_position(canvas, page, state, NO_SLOT, now)
        frames.append((canvas.row, bytes(canvas.frame)))
    return frames


def test_the_macropad_shows_the_active_turn_at_every_moment() -> None:
    state = build_reference_state()
    active = state.turn
    team = state.slots[state.active].team
    bright, dim = team_rgb(team, pal.FULL), team_rgb(team, pal.DIM)
    for page in (pages.INITIATIVE, COOLDOWNS, COUNTERS, MARKS):
        rows_seen = set()
        pulses = set()
        for row, frame in macropad_frames(page):
            rows_seen.add(row)
            rgb = tuple(frame[active * 3 : active * 3 + 3])
            assert rgb in (bright, dim), (page, row)  # its identity, pulsing, in every row
            pulses.add(rgb)
        assert pulses == {bright, dim}
        assert len(rows_seen) > 1  # the other cells do rotate through the page's rows


def test_the_macropad_shows_the_active_turns_page_rows_in_cell_9() -> None:
    state = build_reference_state()
    slot = state.slots[state.active]
    lit_in_9 = {row for row, f in macropad_frames(COUNTERS) if any(f[9 * 3 : 9 * 3 + 3])}
    expected = {row + 1 for row, count in enumerate(slot.counters[:3]) if count}
    assert lit_in_9 == expected
    # The initiative page's phase row belongs to the active turn alone: it shows in cell 9.
    phase = {row for row, f in macropad_frames(pages.INITIATIVE) if any(f[9 * 3 : 9 * 3 + 3])}
    assert 2 in phase


def test_a_face_the_success_faces_name_is_drawn_as_a_success() -> None:
    # Issue #10, bug 4a: with success faces 2 and 3 a 2 counts as a success, and must be
    # drawn in the success colour too (the dice page read the default faces).
    state = GameState()
    data = pack("t", 1, success_mask=0b110)
    state.rules.load(data, 0, len(data))
    dice.enter(state, dice.KIND_ACTION_D3, (2, 1), 0)
    assert state.roll.successes == 1
    canvas = pages.Canvas(8, 4)
    whole_pages.render_dice(canvas, state, False, 50)  # the lit half of a blink
    assert tuple(canvas.frame[0:3]) == colour_rgb(pal.SUCCESS, pal.FULL)
    assert tuple(canvas.frame[3:6]) == colour_rgb(pal.FAIL, pal.MID)  # a 1 fails


def colour_rgb(colour: int, level: int) -> tuple[int, ...]:
    frame = bytearray(3)
    pal.put(frame, 0, colour, level)
    return tuple(frame)


def test_the_counters_and_marks_pages_draw_what_the_descriptor_describes() -> None:
    state = GameState()
    data = pack(
        "t",
        1,
        counters=(counter("a", 9, pal.VERMILLION), counter("b", 9, pal.SKY_BLUE)),
        marks=(mark("m", pal.COOLDOWN),),
    )
    state.rules.load(data, 0, len(data))
    state.ruleset = 1
    roster.add_slot(state, "A", 0, 1, 3, 9)
    state.slots[0].counters[1] = 12  # more than ten blinks: steady
    state.slots[0].flags |= mark_bit(0)
    canvas = pages.Canvas(8, 4)
    pages.render_per_position(canvas, COUNTERS, state, NO_SLOT, 50)
    assert not any(canvas.frame[8 * 3 : 8 * 3 + 3])  # counter "a" is 0: its row is dark
    assert tuple(canvas.frame[16 * 3 : 16 * 3 + 3]) == colour_rgb(pal.SKY_BLUE, pal.FULL)
    assert pages.page_rows(COUNTERS, state.rules) == 2
    canvas.clear()
    pages.render_per_position(canvas, MARKS, state, NO_SLOT, 50)
    assert tuple(canvas.frame[8 * 3 : 8 * 3 + 3]) == colour_rgb(pal.COOLDOWN, pal.FULL)
    assert pages.page_rows(MARKS, state.rules) == 1


# The token grid page (issue 13: "on boards with enough keys, the token grid itself: owner
# as hue and rank as brightness, with the colour-blind palette";
# flare-summoning-turn.txt's grid of owned, ranked tokens).
def gridded_state(width: int, height: int) -> GameState:
    state = GameState()
    state.team_count = 2
    cells = [0] * (width * height)
    cells[0] = roster.grid_cell(0, 0)  # top left: team 0, common
    cells[width + 1] = roster.grid_cell(1, 1)  # row 1: team 1, heroic
    cells[(height - 1) * width + width - 1] = roster.grid_cell(0, 2)  # last: legendary
    roster.set_grid(state, width, height, cells)
    return state


def test_the_pico_shows_the_whole_grid_above_the_system_row() -> None:
    state = gridded_state(6, 6)
    canvas = pages.Canvas(8, 8)
    pages.render_page(canvas, pages.GRID, state, NO_SLOT, False, QUIET_MS)
    assert cells_of(canvas, team_rgb(0, pal.DIM)) == [0]  # common: dim
    assert cells_of(canvas, team_rgb(1, pal.MID)) == [8 + 1]  # heroic: mid
    assert cells_of(canvas, team_rgb(0, pal.FULL)) == [5 * 8 + 5]  # legendary: full
    lit = [c for c in range(canvas.cells) if any(canvas.frame[c * 3 : c * 3 + 3])]
    assert lit == [0, 9, 45]  # nothing else, and nothing in the system row
    assert whole_pages.shows_grid(canvas, state)


def test_a_team_dips_on_the_grid_as_it_does_everywhere_so_hue_is_not_alone() -> None:
    state = gridded_state(6, 6)
    canvas = pages.Canvas(8, 8)
    whole_pages.render_grid(canvas, state, 2400 * 10 + 150)  # in team 1's dip
    assert cells_of(canvas, team_rgb(1, pal.MID)) == []
    assert cells_of(canvas, team_rgb(0, pal.DIM)) == [0]  # team 0 never dips


def test_the_trellis_shows_the_grid_three_rows_at_a_time_in_turns() -> None:
    state = gridded_state(6, 6)
    canvas = pages.Canvas(8, 4)
    seen = []
    for now in (QUIET_MS, QUIET_MS + 2 * 2400):
        canvas.clear()
        whole_pages.render_grid(canvas, state, now)
        seen.append([c for c in range(canvas.cells) if any(canvas.frame[c * 3 : c * 3 + 3])])
    # rows 0..2 (tokens at a1 and b2), then rows 3..5 (the legendary at row 5, shown row 2)
    assert sorted(seen) == [[0, 9], [2 * 8 + 5]]
    assert not any(canvas.frame[3 * 8 * 3 :])  # the system row stays the system's


def test_the_macropad_has_no_grid_page_and_a_state_without_a_grid_shows_none() -> None:
    canvas = pages.Canvas(3, 4)
    state = gridded_state(3, 3)
    assert not whole_pages.shows_grid(canvas, state)  # too few keys for a grid of squares
    pages.render_page(canvas, pages.GRID, state, NO_SLOT, False, QUIET_MS)
    assert not any(canvas.frame)
    assert not whole_pages.shows_grid(pages.Canvas(8, 8), GameState())


def test_the_grid_page_lights_every_page_cell_of_the_system_row() -> None:
    """The system row of an 8-wide board has six page cells (then the problem and link
    cells): the seventh page, the grid, shows as all six lit."""
    canvas = pages.Canvas(8, 4)
    white = bytearray(3)
    pal.put(white, 0, pal.WHITE, pal.FULL)
    for page, bright in ((pages.DICE, [24 + pages.DICE]), (pages.GRID, list(range(24, 30)))):
        canvas.clear()
        pages.render_system(canvas, page, True, False, 0, 0, 0, 0)
        assert cells_of(canvas, tuple(white)) == bright
