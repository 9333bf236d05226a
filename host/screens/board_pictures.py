"""Pictures of the simulated board: one page at a fixed moment, labelled; the key map; and
the printable one-page legend of a board (`turnlight sim --legend`).

Frames depend on the clock (blinks, dips, pulses), so a picture is rendered at PICTURE_MS,
a moment when every pattern is in its lit half and the bar rows show their first group.
The pages show a real table: a ruleset's bundled encounter (the registry's default unless
told) played a few turns by its demo AI with a fixed seed, so the rows carry the game's
own names.
`--png` (write_one) draws the bare grid of the reference table, as the board shows it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware.boards import load
from firmware.pages import Canvas
from firmware.whole_pages import shows_grid
from host.board.firmware_host import PAGE_NAMES, settle
from host.board.simulated_board import SimulatedBoard
from host.core import registry
from host.screens import pictext
from shared.descriptor_pack import ORDER_CARD
from shared.reference import build_reference_state

if TYPE_CHECKING:
    from shared.state import GameState

PICTURE_MS = 50 + 4800 * 6  # lit phase of every pattern; bar group 0 for 1, 2 or 3 groups
TABLE_SEED = 7  # the seed of the table the labelled pictures show
TABLE_TURNS = 3  # turns the demo AI plays before the picture is taken

BACKGROUND = (18, 18, 22)
INK = (235, 235, 235)
DIM_INK = (165, 165, 170)

# What each page shows, in one or two sentences (docs/board.md has the long version).
PAGE_LEGEND = {
    "initiative": "For each slot: its actions left this turn (blinks), and the phase of "
    "the active turn (steady in the first, slow blink in the last). In a game whose order "
    "is cards, each slot's card: its rank as tallies (a long blink per five, a short one "
    "per unit) and its suit as its colour and dips (clubs green, steady; diamonds blue, 1 "
    "dip; hearts red, 2; spades white, 3); a Joker purple, three long blinks.",
    "cooldowns": "One row per timer: the turns it still needs (blinks); steady dim = used "
    "this turn, cooling from the next.",
    "counters": "One row per counter of the game, in its colour; the count is the number "
    "of blinks.",
    "marks": "One row per mark of the game, lit steady while the slot has it.",
    "dice": "The last roll, one die per cell in reading order: successes bright, failures "
    "dim, the face as blinks.",
    "scores": "One row per team, one lit cell per point.",
    "grid": "The game's token grid, a cell per square from the top left: the owner's team "
    "colour (with its dips), the rank as brightness (common dim, heroic mid, legendary "
    "full); rows that do not fit take turns. Only for a game with a grid, not on the "
    "MacroPad.",
}
# Cues that hold on every page.
COMMON_LEGEND = (
    "Top row: one slot per column in turn order, in its team's colour. The active turn "
    "pulses; slots that acted are dim; out of play is grey. Team k's cells dip dark k times "
    "a cycle, so teams differ without hue.",
    "Bottom row: the page shown (left), the problem cell (strobes red) and the link cell "
    "(steady = tethered, slow blink = alone).",
    "More fighters than columns: the columns are a window of the order, the active turn's "
    "first and the next ones after it; the bottom row's first cell blinks how many are "
    "before it, the one left of the problem cell how many after (sky blue; past ten a long "
    "blink per ten, then one per unit), and the page blinks its number on the second.",
)
CELL_LEGEND = (  # boards too small for a column per slot (the MacroPad)
    "Cells 0-7 (numbered as on the key map): the slots in turn order; each page's rows take "
    "turns in them. The active turn's cell always pulses, and its rows show in cell 9.",
    "Cell 8: the page shown (page n blinks n times). Cell 10: problems. Cell 11: the link "
    "(steady = tethered, slow blink = alone).",
    "More than 8 fighters: cells 0-5 are a window of the order, the active turn's first and "
    "the next five; cell 6 blinks how many are before it, cell 7 how many after (sky blue; "
    "past ten a long blink per ten, then one per unit).",
)


def table_state(
    ruleset_id: str = registry.DEFAULT, seed: int = TABLE_SEED
) -> tuple[GameState, list[str]]:
    """A ruleset's bundled encounter after TABLE_TURNS turns of its demo AI: the board's
    state and the teams' names."""
    from host.core.interface import IllegalAction
    from host.core.session import Session

    ruleset = registry.get(ruleset_id)
    path = ruleset.example_path()
    encounter = ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path))
    session = Session(encounter, seed)
    if ruleset.start_command:
        session.execute(ruleset.start_command)
    for _ in range(TABLE_TURNS):
        if session.over:
            break
        for command in ruleset.plan_turn(session.game):
            try:
                session.execute(command)
            except IllegalAction:
                break
    return ruleset.state(session.game), list(encounter.teams)


def board_at(
    board: str, page: str, seed: int | None = 1, state: GameState | None = None
) -> SimulatedBoard:
    """A board (not started) showing `page` of `state` (the reference table by default) at
    PICTURE_MS."""
    sim = SimulatedBoard(board, seed=seed)
    sim.load_state(state if state is not None else build_reference_state())
    sim.set_page(page)
    settle(sim.app, 0)
    sim.app.render(PICTURE_MS)
    return sim


def write_one(path: Path, board: str, page: str, seed: int | None = 1) -> Path:
    sim = board_at(board, page, seed)
    try:
        sim.save_png(path)
    finally:
        sim.stop()
    return path


def row_labels(page: str, state: GameState, teams: list[str], rows: int) -> list[str]:
    """What each of the `rows` grid rows of a column layout shows on `page`: the identity
    row, the data rows shown first (with a note when more take turns), the system row."""
    from shared.descriptor_pack import encoded, names
    from shared.limits import MAX_COOLDOWNS

    named = names(encoded(state.rules))
    data: list[str]
    if page == "initiative":
        data = [named["allowance"] + " left", "phase"]
        if state.rules.raw[1] & ORDER_CARD:  # the order value is a card: two rows more
            data += ["card's rank", "card's suit"]
    elif page == "cooldowns":
        data = [f"timer {i + 1}" for i in range(MAX_COOLDOWNS)]
    elif page == "counters":
        data = list(named["counters"])
    elif page == "marks":
        data = list(named["marks"])
    else:
        data = []
    system = "page · problems · link"
    if page == "dice":  # the faces fill the rows above the system row, in reading order
        return ["last roll"] + [""] * (rows - 2) + [system]
    if page == "grid":  # the token grid's rows from the top (more than fit take turns)
        room = rows - 1
        grid_rows = [f"grid row {r + 1}" for r in range(state.grid_h)][:room]
        return grid_rows + [""] * (room - len(grid_rows)) + [system]
    if page == "scores":  # a row per team from the top (two teams a row when they outnumber it)
        room = rows - 1
        if len(teams) > room:
            teams = [" / ".join(teams[i : i + 2]) for i in range(0, len(teams), 2)]
        return (teams + [""] * room)[:room] + [system]
    room = rows - 2
    body = data[:room] + [""] * (room - len(data[:room]))
    if len(data) > room:
        body[-1] += f" (then {', '.join(data[room:])})"
    return ["slot", *body, system]


def labelled_page(
    board: str,
    page: str,
    state: GameState,
    teams: list[str],
    width: int = 760,
    common: bool = True,
    title: str = "",
) -> Any:
    """One page of `state` as the board shows it, with a title, what each row is (where a
    row is one thing across the board) and what the page and the cells mean."""
    from PIL import Image, ImageDraw

    sim = board_at(board, page, 1, state)
    try:
        cell = 40
        grid = sim.image(cell)
        columns = sim.app.canvas.columns
        first, shown = sim.app.canvas.first, sim.app.canvas.shown
        rows = sim.profile.HEIGHT
    finally:
        sim.stop()
    title_font, body, small = pictext.font(16), pictext.font(12), pictext.font(11)
    margin = 12
    label_room = 170 if columns else 0
    text = [PAGE_LEGEND[page], *(common_legend(board) if common else ())]
    lines = [line for para in text for line in pictext.wrap(para, body, width - 2 * margin)]
    names_room = 16 if columns else 0
    height = margin + 24 + names_room + grid.height + 8 + 16 * len(lines) + margin
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    heading = title or f"{board}: the {page} page"
    pictext.draw_text(draw, (margin, margin), heading, INK, title_font)
    top = margin + 24 + names_room
    image.paste(grid, (margin + label_room, top))
    if columns:
        pitch = cell + cell // 8
        # Each column's slot, by its label, over the grid (the window of the order shown).
        for col in range(shown if page not in ("dice", "scores", "grid") else 0):
            x = margin + label_room + cell // 8 + col * pitch + cell // 2
            label = state.slots[state.order[(first + col) % state.count]].label
            pictext.draw_text(draw, (x, top - 15), label, DIM_INK, small, align="center")
        labels = row_labels(page, state, teams, rows)
        if shown < state.count:
            labels[-1] = "before · page · after · problems · link"
        for r, label in enumerate(labels):
            parts = pictext.wrap(label, small, label_room - 12)[:2]
            y = top + cell // 8 + r * pitch + cell // 2 - 7 * len(parts)
            for n, part in enumerate(parts):
                pictext.draw_text(draw, (margin, y + n * 13), part, DIM_INK, small)
    y = top + grid.height + 8
    for line in lines:
        pictext.draw_text(draw, (margin, y), line, INK, body)
        y += 16
    return image


def common_legend(board: str) -> tuple[str, ...]:
    """What holds on every page of this board."""
    from firmware.boards import load
    from firmware.pages import Canvas

    profile = load(board)
    return COMMON_LEGEND if Canvas(profile.WIDTH, profile.HEIGHT).columns else CELL_LEGEND


def keymap_image(board: str) -> Any:
    """The key map: each key labelled with its control (HOLD = hold-to-confirm)."""
    from PIL import Image, ImageDraw

    from firmware.boards import load

    profile = load(board)
    keymap = list(profile.KEYMAP)
    labels = [k.replace("_", " ") for k in keymap]
    if profile.ENCODER_MAP:
        labels[-1] = "encoder press: " + labels[-1]
        labels.append(
            "turn encoder: " + " / ".join(c.replace("_", " ") for c in profile.ENCODER_MAP)
        )
    labels = [("HOLD " + t) if t.endswith(("end combat", "reset")) else t for t in labels]
    columns = profile.KEY_COLUMNS
    size, gap = 92, 8
    rows = (len(labels) + columns - 1) // columns
    image = Image.new(
        "RGB", (columns * (size + gap) + gap, rows * (size + gap) + gap), (24, 24, 28)
    )
    draw = ImageDraw.Draw(image)
    label, number = pictext.font(12), pictext.font(11)
    for i, text in enumerate(labels):
        x, y = gap + (i % columns) * (size + gap), gap + (i // columns) * (size + gap)
        fill = (60, 60, 70) if text else (36, 36, 40)
        if text.startswith("HOLD"):
            fill = (120, 30, 30)
        draw.rounded_rectangle((x, y, x + size, y + size), radius=10, fill=fill)
        # Drawn a word at a time: the bundled font's own space is too thin to see.
        for n, line in enumerate(pictext.wrap(text, label, size - 12)):
            pictext.draw_text(draw, (x + 6, y + 8 + n * 15), line, INK, label)
        pictext.draw_text(
            draw, (x + size - 6, y + size - 17), str(i), (150, 150, 150), number, align="right"
        )
    return image


def write_keymap(path: Path, board: str) -> Path:
    keymap_image(board).save(str(path))
    return path


def legend_image(
    board: str, ruleset_id: str = registry.DEFAULT, table: tuple[GameState, list[str]] | None = None
) -> Any:
    """The printable legend of a board: its key map, then every page labelled, on one
    sheet to tape beside the board."""
    from PIL import Image, ImageDraw

    state, teams = table if table is not None else table_state(ruleset_id)
    keys = keymap_image(board)
    width = max(760, keys.width + 24)
    parts = [
        labelled_page(board, page, state, teams, width, common=False)
        for page in shown_pages(board, state)
    ]
    face = pictext.font(13)
    lines = [line for para in common_legend(board) for line in pictext.wrap(para, face, width - 24)]
    head = 44
    notes = 12 + 18 * len(lines)
    height = head + keys.height + notes + sum(p.height for p in parts)
    sheet = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    title = f"Turnlight on the {board}: keys and pages ({ruleset_id})"
    pictext.draw_text(draw, (12, 12), title, INK, pictext.font(20))
    sheet.paste(keys, (12, head))
    y = head + keys.height + 12
    for line in lines:
        pictext.draw_text(draw, (12, y), line, INK, face)
        y += 18
    for part in parts:
        sheet.paste(part, (0, y))
        y += part.height
    return sheet


def write_legend(
    path: Path,
    board: str,
    ruleset_id: str = registry.DEFAULT,
    table: tuple[GameState, list[str]] | None = None,
) -> Path:
    legend_image(board, ruleset_id, table).save(str(path))
    return path


def write_window(path: Path, board: str) -> Path:
    """The big table on `board`: the reference state's 24 fighters, its initiative page as
    the window of the order shows it (the active turn's fighter first)."""
    from shared.reference import BIG_TABLE

    state = build_reference_state(fighters=BIG_TABLE)
    title = f"{board}: the window of a {BIG_TABLE}-fighter order (the initiative page)"
    labelled_page(board, "initiative", state, ["team 0", "team 1"], title=title).save(str(path))
    return path


CARDS = ("2C", "9D", "QH", "AS", "Joker", "10H")  # write_cards: each suit and a Joker


def card_table() -> GameState:
    """Six fighters whose order values are the cards CARDS (a descriptor with ORDER_CARD),
    the first one's turn."""
    from host.core.draws import order_key
    from shared import roster
    from shared.descriptor_pack import pack
    from shared.state import F_ACTIVE, GameState

    state = GameState()
    data = pack("deck", 9, order=ORDER_CARD)
    state.rules.load(data, 0, len(data))
    state.ruleset, state.phase_count, state.round = 9, 1, 1
    for i, card in enumerate(CARDS):
        roster.add_slot(state, card[:3], i % 2, order_key(card), 1, 5)
    state.slots[0].flags |= F_ACTIVE
    return state


def write_cards(path: Path, board: str) -> Path:
    """A card game's initiative page on `board` (the frame at PICTURE_MS, where the card
    rows are in their lit half), then each card's two rows over one 2.4 s cycle as the
    board lights them: a strip per card, time from left to right."""
    from PIL import Image, ImageDraw

    from firmware import pages

    state = card_table()
    page = labelled_page(
        board,
        "initiative",
        state,
        ["team 0", "team 1"],
        common=False,
        title=f"{board}: a card game's initiative page (order values are cards)",
    )
    profile = load(board)
    canvas = Canvas(profile.WIDTH, profile.HEIGHT)
    step, scale, margin, strip = 20, 0.25, 12, 14
    start = 0 if canvas.columns and profile.HEIGHT > 4 else 2 * 2400  # rows 3, 4 shown
    times = range(0, 2400, step)
    pitch = int(step * scale)
    left = 110
    body = pictext.font(12)
    height = margin + 20 + len(CARDS) * (2 * strip + 10) + margin
    image = Image.new("RGB", (page.width, page.height + height), BACKGROUND)
    image.paste(page, (0, 0))
    draw = ImageDraw.Draw(image)
    y = page.height + margin
    note = "Each card's rank row and suit row through one cycle (2.4 s, left to right):"
    pictext.draw_text(draw, (margin, y), note, INK, body)
    y += 20
    lit: list[list[tuple[int, ...]]] = [[] for _ in range(2 * len(CARDS))]
    for t in times:
        canvas.clear()
        pages.render_per_position(canvas, pages.INITIATIVE, state, 255, start + t)
        for col in range(len(CARDS)):
            for k in (0, 1):
                if canvas.columns:
                    cell = canvas.cell(col, 3 + k)
                else:  # the cell layout: each row in the position's own cell, in turn
                    canvas.clear()
                    pages.render_per_position(
                        canvas, pages.INITIATIVE, state, 255, (3 + k) * 2400 + t
                    )
                    cell = canvas.active_cell if col == canvas.active_pos else col
                lit[2 * col + k].append(tuple(canvas.frame[cell * 3 : cell * 3 + 3]))
    for col, card in enumerate(CARDS):
        for k, what in enumerate(("rank", "suit")):
            pictext.draw_text(draw, (margin, y), f"{card} {what}", DIM_INK, body)
            for i, rgb in enumerate(lit[2 * col + k]):
                x = margin + left + i * pitch
                fill = rgb if any(rgb) else (40, 40, 46)
                draw.rectangle((x, y, x + pitch - 1, y + strip - 3), fill=fill)
            y += strip
        y += 10
    image.save(str(path))
    return path


def shown_pages(board: str, state: GameState) -> list[str]:
    """The pages `board` shows for `state`: the grid page only for a state with a token grid
    on a board with a column per slot (firmware.whole_pages.shows_grid)."""
    profile = load(board)
    canvas = Canvas(profile.WIDTH, profile.HEIGHT)
    return [p for p in PAGE_NAMES if p != "grid" or shows_grid(canvas, state)]


def write_pictures(directory: Path, board: str, ruleset_id: str = registry.DEFAULT) -> list[Path]:
    """Every page labelled, the key map, and the printable legend, into `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    table = table_state(ruleset_id)
    state, teams = table
    written = []
    for page in shown_pages(board, state):
        path = directory / f"{board}-page-{page}.png"
        labelled_page(board, page, state, teams).save(str(path))
        written.append(path)
    written.append(write_window(directory / f"{board}-window.png", board))
    written.append(write_cards(directory / f"{board}-cards.png", board))
    written.append(write_keymap(directory / f"{board}-keymap.png", board))
    written.append(write_legend(directory / f"{board}-legend.png", board, ruleset_id, table))
    return written
