"""Plain-text layout for any ruleset: tables that wrap their list columns to fit a width,
and the live view's compact table (`turnlight play`, made for an 80x24 terminal). The
ruleset says what goes in the cells (host/ruleset.py: Table, LiveTable); this module only
lays them out."""

from __future__ import annotations

import textwrap

from host.ruleset import LiveTable, Table

TABLE_WIDTH = 100


def _wrap(cell: str, width: int) -> list[str]:
    """A comma-separated list in lines of at most `width`, broken after a comma where it
    can be, and between words inside an item longer than the line."""
    lines: list[str] = []
    items = cell.split(", ")
    for n, item in enumerate(items):
        text = item + ("," if n < len(items) - 1 else "")
        if lines and len(lines[-1]) + 1 + len(text) <= width:
            lines[-1] += " " + text
        elif len(text) <= width:
            lines.append(text)
        else:
            lines += textwrap.wrap(text, width, break_long_words=False) or [text]
    return lines or [""]


def text_table(
    headers: list[str],
    rows: list[list[str]],
    wrap: tuple[int, ...] = (),
    width: int | None = None,
    align_right: tuple[int, ...] = (),
) -> str:
    """A plain-text table. The columns in `wrap` hold comma-separated lists: when the table
    is wider than `width`, the widest of them wraps (after a comma where it can, else
    between words) until it fits. The columns in `align_right` (numbers) are right-aligned."""
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)
    ]
    if width is not None:
        least = {
            i: max([len(headers[i])] + [len(x) + 1 for r in rows for x in r[i].split()])
            for i in wrap
        }
        while sum(widths) + 2 * (len(widths) - 1) > width:
            shrinkable = [i for i in wrap if widths[i] > least[i]]
            if not shrinkable:
                break
            widest = max(shrinkable, key=lambda i: widths[i])
            widths[widest] -= 1

    def pad(i: int, text: str) -> str:
        return text.rjust(widths[i]) if i in align_right else text.ljust(widths[i])

    lines = ["  ".join(pad(i, h) for i, h in enumerate(headers)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        cells = [_wrap(c, widths[i]) if i in wrap else [c] for i, c in enumerate(r)]
        for n in range(max(len(c) for c in cells)):
            parts = [pad(i, c[n] if n < len(c) else "") for i, c in enumerate(cells)]
            lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)


def live_lines(table: LiveTable, width: int = 80) -> list[tuple[str, bool]]:
    """The live view's table for a narrow screen: the headers, a row of figures for each
    one taking turns, and under it, indented, its note wrapped to the width. Each line
    comes with whether it is the row of whoever's turn it is."""
    headers = table.headers
    widths = [max([len(h)] + [len(r.cells[i]) for r in table.rows]) for i, h in enumerate(headers)]
    head = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    lines = [(head.rstrip(), False)]
    indent = "    "
    for r in table.rows:
        row = "  ".join(c.ljust(w) for c, w in zip(r.cells, widths, strict=True)).rstrip()
        lines.append((row, r.current))
        for part in textwrap.wrap(r.note, width, initial_indent=indent, subsequent_indent=indent):
            lines.append((part, False))
    return lines


def table_text(table: Table, width: int | None = TABLE_WIDTH) -> str:
    """A ruleset's table as text, its list columns wrapped to fit `width`."""
    return text_table(table.headers, table.rows, table.wrap, width)
