"""The pages that use the whole grid rather than a column (or cell) per turn position: the
dice, scores and token grid pages, and the pictures that cover the page (a pending
hold-to-confirm, a changed setting, the menu, a version mismatch). firmware/pages.py says
what each shows and calls them; they are a module of their own because a board compiles
each .py it imports, and two small compiles need less heap at once than one large one.
"""

from firmware import palette as pal
from shared import dice


def render_dice(canvas, state, animating, now_ms):
    """The last roll, one face per cell; successes (by the descriptor's success faces)
    bright, failures dim, the face value as blinks. Plain dice: a die of up to 10 faces on a
    cell, its face as white blinks; a larger one, whose faces blinks cannot count, on two
    cells, its number's tens (white) then units (amber) as blinks, a 0 a dim glow (a d100's
    D10s the same way); with the descriptor's NATURALS flag (128) a die's highest face is
    steady in the success colour on its cells, its lowest steady in red. While `animating`
    the faces tumble instead. The roll's degree of success, when the host judged one, on
    the cell after the dice: each degree its own colour and its own pattern (docs/board.md)."""
    roll = state.roll
    frame = canvas.frame
    count = roll.count
    if count > canvas.content:
        count = canvas.content
    if roll.kind == 0:
        return
    if animating:
        tick = now_ms // 60
        for i in range(count):
            pal.put(frame, i, pal.team_colour(tick + i * 3), pal.MID)
        return
    cell = count  # the cell after the dice (the degree's)
    if roll.kind == dice.KIND_D100:
        cell = 2
        for i in range(2):  # the tens, then the units
            value = roll.faces[i]
            colour = pal.COOLDOWN if i else pal.SUCCESS
            if roll.faces[0] == 0 and roll.faces[1] == 0:  # 00: a hundred
                pal.put(frame, i, pal.WHITE, pal.FULL)
            elif value == 0:
                pal.put(frame, i, colour, pal.DIM // 2)
            elif pal.count_lit(value, now_ms):
                pal.put(frame, i, colour, pal.FULL)
    elif roll.kind == dice.KIND_DN:
        cell = 0
        for i in range(roll.count):
            sides = roll.sides[i]
            face = roll.faces[i]
            wide = 2 if sides > 10 else 1  # the cells the die takes
            if cell + wide > canvas.content:
                break
            for k in range(wide):
                digit = face if wide == 1 else face % 10 if k else face // 10
                colour = pal.COOLDOWN if k else pal.WHITE
                if state.rules.flags & 128 and (face == 1 or face == sides):
                    pal.put(frame, cell + k, pal.SUCCESS if face > 1 else pal.WARN, pal.FULL)
                elif digit == 0:
                    pal.put(frame, cell + k, colour, pal.DIM // 2)
                elif pal.count_lit(digit, now_ms):
                    pal.put(frame, cell + k, colour, pal.MID)
            cell += wide
    else:
        mask = state.rules.success_mask
        for i in range(count):
            face = roll.faces[i]
            if roll.unused:  # nothing wanted it (the host says): white, no successes counted
                if pal.count_lit(face, now_ms):
                    pal.put(frame, i, pal.WHITE, pal.MID)
                continue
            if roll.kind == dice.KIND_CHANCE:
                if face:
                    pal.put(frame, i, pal.SUCCESS, pal.FULL)
                else:
                    pal.put(frame, i, pal.FAIL, pal.DIM)
                continue
            success = dice.face_succeeds(roll.kind, face, mask)
            if pal.count_lit(face, now_ms):
                pal.put(
                    frame, i, pal.SUCCESS if success else pal.FAIL, pal.FULL if success else pal.MID
                )
            else:
                pal.put(frame, i, pal.SUCCESS if success else pal.FAIL, pal.DIM // 2)
    # The degree of success the host judged, on the cell after the dice (docs/board.md):
    # for each degree from critical failure up, its colour and then whether it is lit in
    # each sixteenth of a second, a bit each (the first eight, then the last eight), so that
    # neither its colour nor its pattern alone is needed. Critical failure: red, a fast
    # flicker; failure: vermillion, a slow blink; success: bluish green, steady; critical
    # success: the success colour, two quick pulses. (Bytes: a tuple is built every frame.)
    at = roll.degree * 3
    if at and cell < canvas.content:
        pattern = b"\x0c\x55\x55\x07\xff\x00\x08\xff\xff\x0a\x33\x00"
        tick = now_ms % 1000 // 63  # 0..15
        if pattern[at - 2 + tick // 8] >> tick % 8 & 1:
            pal.put(frame, cell, pattern[at - 3], pal.FULL)


def render_scores(canvas, state, now_ms):
    """Columns: a lane per team, one cell per point (past a full lane the first cell blinks
    the extra points). A lane is a whole row above the system row, or half of one when
    there are more teams than rows (4 teams on the NeoTrellis's 3 rows: teams 0 and 1 share
    the top row, left and right; teams 2 and 3 the next). Cells: one cell per team, the
    score as blinks."""
    frame = canvas.frame
    teams = state.team_count
    rows = canvas.height - 1
    lanes = 1 if teams <= rows else 2  # lanes per row
    lane_width = canvas.width // lanes
    for team in range(teams):
        score = state.scores[team]
        colour = pal.team_colour(team)
        lit = pal.team_lit(team, now_ms)
        row = team // lanes
        if not canvas.columns or row >= rows:
            if team < canvas.content and pal.count_lit(score, now_ms):
                pal.put(frame, team, colour, pal.FULL)
            continue
        first = row * canvas.width + (team % lanes) * lane_width
        for i in range(lane_width):
            if i < score:
                pal.put(frame, first + i, colour, pal.MID if lit else pal.DIM)
        if score > lane_width and pal.count_lit(score - lane_width, now_ms):
            pal.put(frame, first, colour, pal.FULL)


def shows_grid(canvas, state):
    """Whether the grid page has something to show here: a state with a token grid, on a
    board with the column layout."""
    return canvas.columns and state.grid_w > 0


def render_grid(canvas, state, now_ms):
    """The token grid, a cell per square from the top left, above the system row; more
    rows than fit take turns (a group of rows every two cycles)."""
    if not shows_grid(canvas, state):
        return
    frame = canvas.frame
    rows = canvas.height - 1
    gw = state.grid_w
    gh = state.grid_h
    if gw > canvas.width:
        gw = canvas.width
    groups = (gh + rows - 1) // rows
    first = (now_ms // (2 * pal.CYCLE_MS)) % groups * rows
    grid = state.grid
    for row in range(rows):
        r = first + row
        if r >= gh:
            break
        for c in range(gw):
            cell = grid[r * state.grid_w + c]
            if not cell:
                continue
            team = (cell & 7) - 1
            rank = cell >> 3  # common, heroic, legendary (and above): dim, mid, full
            level = pal.DIM if rank == 0 else (pal.MID if rank == 1 else pal.FULL)
            if pal.team_lit(team, now_ms):
                pal.put(frame, row * canvas.width + c, pal.team_colour(team), level)


def render_version_mismatch(canvas, now_ms):
    """The whole grid: a red checkerboard that swaps twice a second."""
    flip = (now_ms // 500) & 1
    width = canvas.width
    for cell in range(canvas.cells):
        if ((cell % width) + (cell // width) + flip) & 1:
            pal.put(canvas.frame, cell, pal.WARN, pal.FULL)


def render_progress(canvas, done, now_ms):
    """A pending hold-to-confirm: `done` of the content cells fill, strobing."""
    for cell in range(done):
        pal.put(canvas.frame, cell, pal.WARN, pal.FULL if pal.strobe(now_ms) else pal.MID)


def render_number(canvas, count, colour):
    """A setting just changed (dice count, flips, brightness): that many cells lit."""
    if count > canvas.content:
        count = canvas.content
    for cell in range(count):
        pal.put(canvas.frame, cell, colour, pal.MID)


def render_menu(canvas, items, cursor, now_ms):
    """The menu of a small board: one dim cell per item, the chosen one strobing."""
    for i in range(items):
        if i < canvas.content:
            level = (pal.FULL if pal.strobe(now_ms) else pal.DIM) if i == cursor else 12
            pal.put(canvas.frame, i, pal.WHITE, level)
