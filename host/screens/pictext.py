"""Text on the project's pictures (the PNG chart, the simulator's key maps), drawn with the
font bundled in Pillow so every machine draws the same picture.

That font's space is about a quarter of a letter wide (2 px at 10 px), so "KOR per fighter"
read as "KORperfighter": words are drawn one at a time, a readable space apart.
"""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw, ImageFont

SPACE_OF_N = 0.6  # a space as wide as 0.6 of an "n"


def font(size: int = 11) -> Any:
    """Pillow's bundled font at `size` pixels (its bitmap font where FreeType is missing)."""
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, ValueError, OSError):  # an old Pillow, or no FreeType
        return ImageFont.load_default()


def space(face: Any) -> float:
    return max(face.getlength(" "), face.getlength("n") * SPACE_OF_N)


def width(text: str, face: Any) -> float:
    """How wide `draw_text` draws `text`."""
    words = text.split(" ")
    return sum(face.getlength(w) for w in words) + space(face) * (len(words) - 1)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fill: tuple[int, int, int],
    face: Any,
    align: str = "left",
) -> None:
    """Draw one line of text at `xy` (its left edge; its right edge with align="right",
    its middle with align="center"), words a readable space apart."""
    x, y = xy
    if align == "right":
        x -= width(text, face)
    elif align == "center":
        x -= width(text, face) / 2
    for word in text.split(" "):
        if word:
            draw.text((x, y), word, fill=fill, font=face)
        x += face.getlength(word) + space(face)


def wrap(text: str, face: Any, room: float) -> list[str]:
    """Words in lines no wider than `room` (a word wider than that has a line alone)."""
    lines: list[str] = []
    for word in text.split():
        if lines and width(lines[-1] + " " + word, face) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines
