"""What the pages draw, read straight from the frame (issue 4, item 2: every page readable
at a glance, and colour-blind-safe patterns): four teams on the NeoTrellis's scores page
each get a lane of their own, and on the MacroPad the active turn is always visible."""

from __future__ import annotations

from firmware import pages
from firmware import palette as pal
from shared.limits import NO_SLOT
from shared.reference import build_reference_state
from shared.state import GameState

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
    pages.render_scores(canvas, state, QUIET_MS)
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
        pages.render_scores(canvas, state, now)
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
        frames.append((canvas.cell_row, bytes(canvas.frame)))
    return frames


def test_the_macropad_shows_the_active_turn_at_every_moment() -> None:
    state = build_reference_state()
    active = state.turn
    team = state.slots[state.active].team
    bright, dim = team_rgb(team, pal.FULL), team_rgb(team, pal.DIM)
    for page in (pages.INITIATIVE, pages.COOLDOWNS, pages.STATUS, pages.FLAGS):
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
    lit_in_9 = {row for row, f in macropad_frames(pages.STATUS) if any(f[9 * 3 : 9 * 3 + 3])}
    expected = {row for row, count in ((1, slot.frost), (2, slot.burn), (3, slot.fear)) if count}
    assert lit_in_9 == expected
    # The initiative page's phase row belongs to the active turn alone: it shows in cell 9.
    phase = {row for row, f in macropad_frames(pages.INITIATIVE) if any(f[9 * 3 : 9 * 3 + 3])}
    assert 2 in phase
