"""A PNG chart of one game: each fighter's KOR (top) and each team's score (bottom) over
the turns, drawn with Pillow."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

COLORS = [
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (204, 121, 167),
    (213, 94, 0),
    (0, 114, 178),
    (240, 228, 66),
    (90, 90, 90),
]
WIDTH, HEIGHT, MARGIN = 900, 560, 50


def _panel(draw, box, series: dict[str, list[int]], title: str) -> None:
    x0, y0, x1, y1 = box
    draw.rectangle(box, outline=(60, 60, 60))
    draw.text((x0 + 4, y0 - 14), title, fill=(0, 0, 0))
    points = max((len(v) for v in series.values()), default=0)
    top = max((max(v) for v in series.values() if v), default=1) or 1
    draw.text((x0 - 30, y0), str(top), fill=(0, 0, 0))
    draw.text((x0 - 30, y1 - 10), "0", fill=(0, 0, 0))
    for i, (name, values) in enumerate(series.items()):
        color = COLORS[i % len(COLORS)]
        pts = [
            (x0 + (x1 - x0) * j / max(1, points - 1), y1 - (y1 - y0) * v / top)
            for j, v in enumerate(values)
        ]
        if len(pts) > 1:
            draw.line(pts, fill=color, width=3)
        draw.text((x1 + 8, y0 + 14 * i), name, fill=color)


def write_chart(timeline: list[dict], path: str | Path, title: str = "") -> None:
    img = Image.new("RGB", (WIDTH, HEIGHT), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    draw.text((MARGIN, 8), title, fill=(0, 0, 0))
    kor: dict[str, list[int]] = {}
    score: dict[str, list[int]] = {}
    for point in timeline:
        for name, v in point["kor"].items():
            kor.setdefault(name, []).append(v)
        for name, v in point["score"].items():
            score.setdefault(name, []).append(v)
    right = WIDTH - 140
    _panel(draw, (MARGIN, 40, right, 280), kor, "KOR per fighter")
    _panel(draw, (MARGIN, 320, right, HEIGHT - 30), score, "score per team")
    turns = len(timeline)
    draw.text((MARGIN, HEIGHT - 22), f"turns 0..{max(0, turns - 1)}", fill=(0, 0, 0))
    img.save(str(path), format="PNG")
