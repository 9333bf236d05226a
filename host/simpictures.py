"""Pictures of the simulated board: one page at a fixed moment, and the key map.

Frames depend on the clock (blinks, dips, pulses), so a picture is rendered at PICTURE_MS,
a moment when every pattern is in its lit half and the bar rows show their first group;
the pages come from the reference table (8 slots mid-round with a 6-die roll).
"""

from __future__ import annotations

from pathlib import Path

from firmware.pages import PAGE_NAMES
from host.simboard import SimulatedBoard
from shared.reference import build_reference_state

PICTURE_MS = 50 + 4800 * 6  # lit phase of every pattern; bar group 0 for 1, 2 or 3 groups


def board_at(board: str, page: str, seed: int | None = 1) -> SimulatedBoard:
    """A board (not started) showing `page` of the reference table at PICTURE_MS."""
    sim = SimulatedBoard(board, seed=seed)
    sim.load_state(build_reference_state())
    sim.set_page(page)
    sim.app.settle(0)
    sim.app.render(PICTURE_MS)
    return sim


def write_one(path: Path, board: str, page: str, seed: int | None = 1) -> Path:
    sim = board_at(board, page, seed)
    try:
        sim.save_png(path)
    finally:
        sim.stop()
    return path


def write_keymap(path: Path, board: str) -> Path:
    """The key map as a picture: each key labelled with its control (hold = hold-to-confirm)."""
    from PIL import Image, ImageDraw

    from firmware.boards import load
    from host import pictext

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
            pictext.draw_text(draw, (x + 6, y + 8 + n * 15), line, (235, 235, 235), label)
        pictext.draw_text(
            draw, (x + size - 6, y + size - 17), str(i), (150, 150, 150), number, align="right"
        )
    image.save(str(path))
    return path


def write_pictures(directory: Path, board: str) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = [
        write_one(directory / f"{board}-page-{page}.png", board, page) for page in PAGE_NAMES
    ]
    written.append(write_keymap(directory / f"{board}-keymap.png", board))
    return written
