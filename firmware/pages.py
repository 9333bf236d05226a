# The pages: what the grid shows, drawn into an RGB frame (one byte per channel).
#
# Two layouts cover every board. On a grid at least 8 wide and 3 tall ("columns") each turn
# position owns a column: row 0 is the slot's identity, the rows below are the page's bars,
# and the bottom row is the system row (page indicator, problems, link). On a smaller grid
# ("cells") each turn position owns one cell and the page's rows take turns in it, one per
# cycle, except the active turn's cell: it always shows the slot's identity (pulsing), and
# its page rows show in a spare cell of its own (the MacroPad's cell 9), so whose turn it is
# can be seen at any moment. When a turn is several slots' (a team's, a player's, or every
# slot's in steps: the descriptor's turn unit, shared/turns.py), each active slot's identity
# pulses fast while it has to act and blinks slowly once it is done; the first of them is
# the active turn of the cell layout. Pages never call show(); they write only into the
# frame.
#
# Data rows per page (column layout, top to bottom under the identity row). What a counter
# or a mark is, and its colour, comes from the state's descriptor (state.rules):
#   initiative: actions left (blinks), phase (or step) under each active slot (steady in the
#               first phase, a slow blink in the last, that many blinks in one between);
#               when the descriptor's order value is a card, its rank (tally blinks: a long
#               one per five, a short one per unit) and its suit (steady, dark for 0..3 dips
#               as a team's identity is: clubs, diamonds, hearts, spades), both in the
#               suit's colour (bluish green, sky blue, vermillion, white); a Joker
#               reddish purple, three long blinks over a steady suit row
#   cooldowns:  timers 1..4: turns left (blinks); steady dim = used this turn, not yet cooling
#   counters:   each counter of the descriptor, in its colour (blinks), then, when a slot has
#               effects, the effects on each slot, whatever their names (vermillion blinks)
# On every per-position page a slot one of whose effects ends as its turn ends blinks
# vermillion at the end of each cycle on its identity cell.
#   marks:      each mark of the descriptor, in its colour (steady)
#   dice:       the last roll's faces in reading order (not per position), successes by the
#               descriptor's success faces; a roll nothing wanted (the host's `unused`) in
#               white, its successes not counted
# On every page a roll the host wants (state.want) lights the roll key: its dice count as
# blinks over a dim glow (render_wanted).
#   scores:     one row per team (half a row each when teams outnumber the rows), a cell
#               per point (not per position)
#   grid:       the state's token grid (not per position), only when the state has one and
#               the board has the column layout (not the MacroPad: too few keys): a cell per
#               square, above the system row; the owner's team colour (with its dips), the
#               rank as brightness (common dim, heroic mid, legendary full). Rows that do
#               not fit (the NeoTrellis shows 3) take turns, as bar rows do.
#
#
# (Comments, not a docstring: a docstring is a string token the board's compile holds in
# the heap: docs/memory.md.)

from firmware import palette as pal
from firmware import whole_pages  # their own module: a smaller compile on a board
from shared import dice, limits
from shared.compat import const
from shared.state import F_ACTED, F_ACTIVE, F_OUT, mark_bit

# The page numbers (their names, for the host: host/board/firmware_host.py PAGE_NAMES); the app
# names the public ones.
INITIATIVE = const(0)
_COOLDOWNS = const(1)
_COUNTERS = const(2)
_MARKS = const(3)
DICE = const(4)
_SCORES = const(5)
GRID = const(6)
PAGE_COUNT = const(7)

# `const` is needed only above: deleting it frees its slot in this module's globals for the
# functions below, so the table stays a size smaller (docs/memory.md).
del const


def page_rows(page, rules):
    """Data rows under the identity row on a per-position page."""
    if page == INITIATIVE:
        return 4 if rules.raw[1] > 15 else 2  # a card (the descriptor's byte 1): rank, suit
    if page == _COOLDOWNS:
        return limits.MAX_COOLDOWNS
    if page == _COUNTERS:
        return rules.counters
    if page == _MARKS:
        return rules.marks
    return 0


class Canvas:
    """The frame and where things go on this board's grid. The last cell is the link's, the
    one before it the problem cell's; in the column layout the rows between the identity
    row and the system row (height - 2 of them) are the bar rows.

    The turn positions shown are a window of the order (`place`): `shown` of them from
    position `first` (the turn's, moved by `shift`) on, wrapping past the last to the
    round's first; column (or cell) c is position (first + c) % count.
    A table wider than the window shows how many are before and after it (render_system)."""

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.cells = width * height
        self.frame = bytearray(self.cells * 3)
        self.columns = width >= 8 and height >= 3
        if self.columns:
            self.content = self.cells - width  # cells above the system row (its first)
            self.active_cell = -1
        else:
            self.content = 8  # the positions' cells (then the page cell)
            # Cell layout: the active turn's page rows, where a cell is spare (else unshown).
            self.active_cell = 9 if 9 < self.cells - 2 else -1
        self.shift = 0  # the window's first position, less the turn's (the app moves it)
        self.first = 0  # the position in the first column (or cell)
        self.shown = 0  # the positions shown
        # The data rows shown (they rotate): the first in the bar rows (column layout), the
        # one in the cells (cell layout).
        self.row = 0
        self.active_pos = -1  # the active turn's column this frame (cell layout), or -1

    def place(self, count, turn):
        """Show `count` positions from `turn` + `shift` on (all when they fit the window)."""
        first = turn + self.shift
        # A column per position; else a cell per position, 8 (6 and two for the counts
        # before and after the window when more play).
        window = self.width if self.columns else 8 if count <= 8 else 6
        if count <= window:
            first = self.shift = 0
        elif self.shift >= count or self.shift < 0:
            self.shift %= count
        self.first = first % count if count else 0
        self.shown = count if count < window else window

    def column(self, pos, count):
        """The column (or cell) of turn position `pos`, or -1 when it is not shown."""
        col = (pos - self.first) % count if count else -1
        return col if 0 <= col < self.shown else -1

    def clear(self):
        frame = self.frame
        for i in range(len(frame)):
            frame[i] = 0

    def rotate(self, rows, now_ms):
        """Pick which data rows show this frame when the page has more than fit."""
        if self.columns:
            bar_rows = self.height - 2
            groups = (rows + bar_rows - 1) // bar_rows if rows else 1
            self.row = (now_ms // (2 * pal.CYCLE_MS)) % groups * bar_rows
        else:
            self.row = (now_ms // pal.CYCLE_MS) % (rows + 1)

    def cell(self, pos, row):
        """The cell of data row `row` (0 = identity) at column `pos`, or -1."""
        if self.columns:
            if row == 0:
                return pos
            shown = row - 1 - self.row
            if 0 <= shown < self.height - 2:
                return (shown + 1) * self.width + pos
            return -1
        if pos == self.active_pos:
            if row == 0:
                return pos  # the active turn always shows who it is
            return self.active_cell if row == self.row else -1
        if row == self.row:
            return pos
        return -1


def draw_identity(canvas, state, pos, col, selected, now_ms):
    cell = canvas.cell(col, 0)
    if cell < 0:
        return
    index = state.order[pos]
    slot = state.slots[index]
    if slot.flags & F_OUT:
        pal.put(canvas.frame, cell, pal.FAIL, pal.DIM)
        return
    colour = pal.team_colour(slot.team)
    if index == selected and pal.slow_blink(now_ms // 2):
        colour = pal.WHITE
    if slot.effect_ends and now_ms % pal.CYCLE_MS >= pal.CYCLE_MS - 300:
        pal.put(canvas.frame, cell, pal.VERMILLION, pal.FULL)  # an effect ends this turn
        return
    if slot.flags & F_ACTIVE:  # each slot of the running turn: fast while it has to act
        fast = not slot.flags & F_ACTED
        level = (
            pal.FULL if (pal.fast_pulse(now_ms) if fast else pal.slow_blink(now_ms)) else pal.DIM
        )
    elif not pal.team_lit(slot.team, now_ms):
        level = 0
    elif slot.flags & F_ACTED:
        level = pal.DIM
    else:
        level = pal.MID
    pal.put(canvas.frame, cell, colour, level)


def draw_count(canvas, pos, row, colour, count, now_ms):
    cell = canvas.cell(pos, row)
    if cell >= 0 and pal.count_lit(count, now_ms):
        pal.put(canvas.frame, cell, colour, pal.FULL)


def draw_steady(canvas, pos, row, colour, on, level):
    cell = canvas.cell(pos, row)
    if cell >= 0 and on:
        pal.put(canvas.frame, cell, colour, level)


def render_per_position(canvas, page, state, selected, now_ms):
    rules = state.rules
    rows = page_rows(page, rules)
    count = state.count
    canvas.place(count, state.turn)
    for col in range(canvas.shown if page == _COUNTERS else 0):
        if state.slots[state.order[(canvas.first + col) % count]].effects:
            rows = rules.counters + 1  # a row more: the effects on each slot
    for k in range(10 if page == _COUNTERS else 0):
        if state.detail[k]:  # the turn's details: a row each after the effects row
            rows = rules.counters + 2 + k
    canvas.rotate(rows, now_ms)
    canvas.active_pos = canvas.column(state.turn, count) if state.active != limits.NO_SLOT else -1
    for col in range(canvas.shown):
        pos = (canvas.first + col) % count
        draw_identity(canvas, state, pos, col, selected, now_ms)
        slot = state.slots[state.order[pos]]
        if page == INITIATIVE:
            colour = pal.team_colour(slot.team)
            draw_count(canvas, col, 1, colour, slot.actions, now_ms)
            if slot.flags & F_ACTIVE:
                phase = state.phase
                if phase == 0:
                    on = True
                elif phase == state.phase_count - 1:
                    on = pal.slow_blink(now_ms)
                else:
                    on = pal.count_lit(phase, now_ms)
                draw_steady(canvas, col, 2, pal.COOLDOWN if phase else pal.WHITE, on, pal.MID)
            key = slot.order_key
            if key > 7 and rules.raw[1] > 15:  # a card (docs/board.md): rank * 4 + suit, 60 a Joker
                # Clubs bluish green, diamonds sky blue, hearts vermillion, spades white; a
                # Joker reddish purple (palette index 3): hues apart from one another.
                colour = 3 if key > 59 else b"\x08\x06\x07\x05"[key & 3]
                draw_steady(canvas, col, 3, colour, pal.tally_lit(key >> 2, now_ms, 5), pal.FULL)
                draw_steady(canvas, col, 4, colour, pal.team_lit(key & 3, now_ms), pal.MID)
        elif page == _COOLDOWNS:
            for k in range(limits.MAX_COOLDOWNS):
                if slot.cd_id[k]:
                    if slot.cd_left[k]:
                        draw_count(canvas, col, k + 1, pal.COOLDOWN, slot.cd_left[k], now_ms)
                    elif slot.cd_pending & (1 << k):
                        draw_steady(canvas, col, k + 1, pal.COOLDOWN, True, pal.DIM)
        elif page == _COUNTERS:
            for k in range(rules.counters):
                draw_count(canvas, col, k + 1, rules.colours[k], slot.counters[k], now_ms)
            draw_count(canvas, col, rules.counters + 1, pal.VERMILLION, slot.effects, now_ms)
            for k in range(10 if pos == state.turn else 0):
                v = state.detail[k]  # a colour and a value (0, a mark: 11 lights it steady)
                if v:
                    draw_count(canvas, col, rules.counters + 2 + k, v >> 4, v & 15 or 11, now_ms)
        elif page == _MARKS:
            for k in range(rules.marks):
                on = slot.flags & mark_bit(k)
                draw_steady(canvas, col, k + 1, rules.mark_colours[k], on, pal.FULL)


def render_wanted(canvas, state, controls, roll, now_ms):
    """The roll the host waits for, on the roll keys' cells (a key is the cell of its
    number, where it has one; `controls` holds each key's control, `roll` the roll key's):
    the dice count as blinks at full brightness, in the success colour (chance flips: bluish
    green; plain dice: sky blue, or white when they are of several kinds); between the
    blinks a dim glow, so the key never looks dark while a roll is wanted. While smart dice
    are awaited (want.smart) that glow flickers four times a second."""
    want = state.want
    if not want.count:
        return
    colour = pal.SUCCESS
    if want.kind == dice.KIND_CHANCE:
        colour = pal.BLUISH_GREEN
    elif want.kind == dice.KIND_DN:  # plain dice: sky blue, one kind; a kind more, white
        colour = pal.WHITE if want.sides[0] != want.sides[want.count - 1] else pal.SKY_BLUE
    level = pal.FULL if pal.count_lit(want.count, now_ms) else pal.DIM
    if level == pal.DIM and want.smart and not pal.fast_pulse(now_ms):
        level = 0
    for key in range(min(len(controls), canvas.cells)):
        if controls[key] == roll:
            pal.put(canvas.frame, key, colour, level)


def render_page(canvas, page, state, selected, animating, now_ms):
    if page == DICE:
        whole_pages.render_dice(canvas, state, animating, now_ms)
    elif page == _SCORES:
        whole_pages.render_scores(canvas, state, now_ms)
    elif page == GRID:
        whole_pages.render_grid(canvas, state, now_ms)
    else:
        render_per_position(canvas, page, state, selected, now_ms)


def render_system(canvas, page, linked, problem_flash, problems, off_board, count, now_ms):
    """The page indicator, the problem cell and the link cell. An 8-wide system row has a
    cell for each of the first six pages; the grid page (the seventh) lights them all. The
    problem cell: a strobe for a new problem, a dim red glow once there have been any; and
    while fighters take turns with no slot on the board (`off_board`: past its MAX_SLOTS),
    a slow amber blink (its dark half shows the glow).

    When the order is longer than the window (`count` positions), how many positions are
    before it and after it, each on a cell of its own in sky blue (pal.tally_lit: up to ten
    blinks, past ten a long blink per ten and then a short one per unit): in the column
    layout the system row's first cell and the one left of the problem cell, the page as
    blinks on the second; in the cell layout the two cells after the six positions."""
    frame = canvas.frame
    problem_cell = canvas.cells - 2
    # Past the last position the window wraps to the round's first: the rest are before it.
    before = canvas.first
    if before + canvas.shown > count:
        before = count - canvas.shown
    after = count - canvas.shown - before
    at = canvas.content if canvas.columns else canvas.shown  # the "before" cell
    if before + after:
        if pal.tally_lit(before, now_ms):
            pal.put(frame, at, pal.SKY_BLUE, pal.MID)
        if pal.tally_lit(after, now_ms):
            pal.put(frame, problem_cell - 1 if canvas.columns else at + 1, pal.SKY_BLUE, pal.MID)
    if canvas.columns and not before + after:
        for i in range(PAGE_COUNT):
            if canvas.content + i < problem_cell:
                on = i == page or page == GRID
                pal.put(frame, canvas.content + i, pal.WHITE, pal.FULL if on else 8)
    elif pal.count_lit(page + 1, now_ms):  # the page as blinks (by the "before" cell)
        pal.put(frame, canvas.content + (1 if canvas.columns else 0), pal.WHITE, pal.MID)
    if problem_flash:
        if pal.strobe(now_ms):
            pal.put(frame, problem_cell, pal.WARN, pal.FULL)
    elif off_board and pal.slow_blink(now_ms):
        pal.put(frame, problem_cell, pal.COOLDOWN, pal.MID)  # amber
    elif problems:
        pal.put(frame, problem_cell, pal.WARN, pal.DIM // 2)
    # Tethered: steady. Untethered: a slow blink.
    if linked or pal.slow_blink(now_ms):
        pal.put(frame, problem_cell + 1, pal.WHITE, pal.MID)  # the link cell
