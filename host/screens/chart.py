"""A PNG chart of one game over its turns, drawn with Pillow: one or two panels of lines,
as the ruleset says (say, each fighter's health on top and each team's score below).

Every line has its own colour across both panels (the second panel's lines, a team's,
never take a colour of the first's), and its own dash pattern and marker shape, so two
lines that lie on top of each other can still be told apart; the x axis has a tick and a
turn number every few turns.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from host.screens.pictext import draw_text, font

# The first panel's lines: Okabe-Ito (its yellow darkened to show on white).
COLORS = [
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (204, 121, 167),
    (213, 94, 0),
    (0, 114, 178),
    (170, 150, 0),
    (90, 90, 90),
]
# The second panel's lines (teams): colours the first has not, dark enough to stand apart.
TEAM_COLORS = [(0, 0, 0), (120, 60, 160), (140, 90, 40), (160, 20, 40)]
DASHES: list[tuple[int, int] | None] = [None, (10, 5), (3, 4), (14, 4)]  # on, off pixels
MARKERS = ("circle", "square", "triangle", "diamond")
MARKS_PER_LINE = 12  # about this many markers along each line
WIDTH, HEIGHT = 900, 600
LEFT, RIGHT = 50, 160  # room for the y labels, and for the legend
INK, FRAME, GRID = (0, 0, 0), (60, 60, 60), (225, 225, 225)


class Style:
    """How one line is drawn: colour, dashes, marker."""

    def __init__(self, index: int, color: tuple[int, int, int]) -> None:
        self.color = color
        self.dash = DASHES[index % len(DASHES)]
        self.marker = MARKERS[index % len(MARKERS)]
        self.index = index


def tick_step(points: int, most: int = 12) -> int:
    """A round step (1, 2, 5, 10, 20, 50, ...) giving at most `most` ticks."""
    span = max(1, points - 1)
    step = 1
    while span / step > most:
        for factor in (2, 5 / 2, 2):  # 1 -> 2 -> 5 -> 10 -> 20 -> 50 -> ...
            step = int(step * factor)
            if span / step <= most:
                break
    return step


def _dashed(draw: Any, pts: list[tuple[float, float]], style: Style, width: int) -> None:
    if style.dash is None:
        draw.line(pts, fill=style.color, width=width, joint="curve")
        return
    on, off = style.dash
    phase = 0.0  # how far into the current on+off period the line is
    for (xa, ya), (xb, yb) in zip(pts, pts[1:], strict=False):
        length = math.hypot(xb - xa, yb - ya)
        done = 0.0
        while done < length:
            within = phase % (on + off)
            run = (on - within) if within < on else (on + off - within)
            end = min(length, done + run)
            if within < on:
                t0, t1 = done / length, end / length
                draw.line(
                    [(xa + (xb - xa) * t0, ya + (yb - ya) * t0)]
                    + [(xa + (xb - xa) * t1, ya + (yb - ya) * t1)],
                    fill=style.color,
                    width=width,
                )
            phase += end - done
            done = end


def _marker(draw: Any, x: float, y: float, style: Style, r: float = 4.5) -> None:
    fill, edge = style.color, (255, 255, 255)
    if style.marker == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=edge)
    elif style.marker == "square":
        draw.rectangle((x - r + 1, y - r + 1, x + r - 1, y + r - 1), fill=fill, outline=edge)
    elif style.marker == "triangle":
        draw.polygon(
            [(x, y - r - 1), (x + r, y + r - 1), (x - r, y + r - 1)], fill=fill, outline=edge
        )
    else:
        draw.polygon(
            [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)],
            fill=fill,
            outline=edge,
        )


def _panel(
    draw: Any,
    box: tuple[int, int, int, int],
    series: dict[str, list[int]],
    styles: dict[str, Style],
    title: str,
    axis_title: str,
) -> None:
    x0, y0, x1, y1 = box
    small, normal = font(11), font(13)
    points = max((len(v) for v in series.values()), default=0)
    top = max((max(v) for v in series.values() if v), default=1) or 1

    def at(j: float, v: float) -> tuple[float, float]:
        return x0 + (x1 - x0) * j / max(1, points - 1), y1 - (y1 - y0) * v / top

    # y: gridlines at 0, half and the top; x: a tick and the turn number every `step` turns
    for v in sorted({0, top // 2, top}):
        y = at(0, v)[1]
        draw.line([(x0, y), (x1, y)], fill=GRID)
        draw_text(draw, (x0 - 6, y - 7), str(v), INK, small, align="right")
    step = tick_step(points)
    for turn in range(0, max(1, points), step):
        x = round(at(turn, 0)[0])
        draw.line([(x, y1), (x, y1 + 5)], fill=FRAME)
        draw_text(draw, (x, y1 + 7), str(turn), INK, small, align="center")
    draw_text(draw, ((x0 + x1) / 2, y1 + 22), axis_title, INK, small, align="center")
    draw.rectangle(box, outline=FRAME)
    draw_text(draw, (x0, y0 - 19), title, INK, normal)

    every = max(1, points // MARKS_PER_LINE)
    for i, (name, values) in enumerate(series.items()):
        style = styles[name]
        pts = [at(j, v) for j, v in enumerate(values)]
        if len(pts) > 1:
            _dashed(draw, pts, style, 3)
        # Markers at points of their own (offset per line), so lines that overlap show both.
        offset = (style.index * max(1, every // 2)) % every
        for j in range(offset, len(pts), every):
            _marker(draw, *pts[j], style)
        # The legend: a sample of the line, its marker and the name.
        ly = y0 + 6 + 20 * i
        _dashed(draw, [(x1 + 12, ly + 7), (x1 + 44, ly + 7)], style, 3)
        _marker(draw, x1 + 28, ly + 7, style)
        draw_text(draw, (x1 + 52, ly), name, style.color, normal)


# Where the panels go: (top, bottom) of each, room for a title above and the axis below.
PANELS = ((60, 280), (350, HEIGHT - 50))


def write_chart(
    timeline: list[dict], panels: tuple[tuple[str, str], ...], path: str | Path, title: str = ""
) -> None:
    """Draw `timeline` (one point per turn: {panel key: {line name: value}}) as the
    `panels` ((key, title), one or two) say."""
    if not 1 <= len(panels) <= len(PANELS):
        raise ValueError(f"a chart has 1..{len(PANELS)} panels, not {len(panels)}")
    img = Image.new("RGB", (WIDTH, HEIGHT), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    draw_text(draw, (LEFT, 10), title, INK, font(15))
    series: list[dict[str, list[int]]] = [{} for _ in panels]
    for point in timeline:
        for lines, (key, _) in zip(series, panels, strict=True):
            for name, v in point[key].items():
                lines.setdefault(name, []).append(v)
    # One style per line across both panels: the second's colours are not the first's, and
    # its dashes and markers go on counting from the first's.
    styles: dict[str, Style] = {}
    for n, lines in enumerate(series):
        colors = COLORS if n == 0 else TEAM_COLORS
        for i, name in enumerate(lines):
            styles[name] = Style(len(styles), colors[i % len(colors)])
    right = WIDTH - RIGHT
    for (top, bottom), lines, (_, heading) in zip(PANELS, series, panels, strict=False):
        _panel(draw, (LEFT, top, right, bottom), lines, styles, heading, "turn")
    img.save(str(path), format="PNG")
