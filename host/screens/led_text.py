"""The simulated board's LEDs drawn in a terminal, as every screen draws them: the full
screen of `play --sim`, `turnlight sim` and `turnlight demo --sim`. A dim LED is brightened
as the web page draws it (host/web/static/app.js, `lit`), so the terminal and the browser
show one board alike and a dim key is never black on a dark terminal."""

from __future__ import annotations

import math
from typing import Any

Pixel = tuple[int, int, int]


def led_grid(rows: list[list[Pixel]]) -> str:
    """The board's LEDs as coloured blocks, each brightened as the web page draws it: a
    square root of each channel, so a dim LED (rgb(2,3,5)) shows on a dark terminal and
    dim, half and full stay apart. An unlit one is a grey dot."""
    lines = []
    for row in rows:
        cells = []
        for pixel in row:
            if any(pixel):
                r, g, b = (round(255 * math.sqrt(c / 255)) for c in pixel)
                cells.append(f"\x1b[38;2;{r};{g};{b}m██")
            else:
                cells.append("\x1b[38;2;45;45;45m··")
        lines.append(" ".join(cells) + "\x1b[0m")
    return "\n".join(lines)


def titled_grid(sim: Any) -> str:
    """A simulated board (host/board/simulated_board.py) as `turnlight demo --sim` prints
    it in colour: the page it shows, then its LEDs (led_grid)."""
    from host.board.firmware_host import PAGE_NAMES

    with sim.lock:
        title = f"board, {PAGE_NAMES[sim.app.page]} page:"
    return title + "\n" + led_grid(sim.grid())
