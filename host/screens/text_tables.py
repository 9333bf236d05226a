"""Plain-text layout for any ruleset, in one style and within 80 columns: tables that wrap
their list columns to fit a width (and, when even that is too wide, go on in a second block
under the first), the live view's compact table (`turnlight play`, made for an 80x24
terminal), and two-column lists such as `help`. The ruleset says what goes in the cells
(host/core/interface.py: Table, LiveTable); this module only lays them out. A cell is never cut
short and a word never broken."""

from __future__ import annotations

import re
import textwrap

from host.core.interface import LiveTable, Table

TABLE_WIDTH = 80
GAP = "  "  # between columns
NUMBER = re.compile(r"^[+-]?[\d,]*\.?\d+%?$|^-$")


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
    head, groups = live_groups(table, width)
    return [head, *(line for group in groups for line in group)]


def live_groups(
    table: LiveTable, width: int = 80
) -> tuple[tuple[str, bool], list[list[tuple[str, bool]]]]:
    """`live_lines` as its header line and, for each row, the lines it takes (its figures,
    then its note's): a screen too short for them all leaves out whole rows."""
    headers = table.headers
    widths = [max([len(h)] + [len(r.cells[i]) for r in table.rows]) for i, h in enumerate(headers)]
    head = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    indent = "    "
    groups = []
    for r in table.rows:
        row = "  ".join(c.ljust(w) for c, w in zip(r.cells, widths, strict=True)).rstrip()
        group = [(row, r.current)]
        for part in textwrap.wrap(r.note, width, initial_indent=indent, subsequent_indent=indent):
            group.append((part, False))
        groups.append(group)
    return (head.rstrip(), False), groups


def table_text(table: Table, width: int | None = TABLE_WIDTH) -> str:
    """A ruleset's table as text, its list columns wrapped to fit `width`."""
    return text_table(table.headers, table.rows, table.wrap, width)


def numeric_columns(rows: list[list[str]]) -> tuple[int, ...]:
    """The columns whose every cell is a number (or `-`): they are right-aligned."""
    if not rows:
        return ()
    return tuple(
        i
        for i in range(len(rows[0]))
        if all(NUMBER.match(r[i]) for r in rows) and any(r[i] != "-" for r in rows)
    )


def _blocks(headers: list[str], rows: list[list[str]], width: int) -> list[list[int]]:
    """The columns in blocks that each fit `width`, the first column (who or what a row is
    about) at the head of every block."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    blocks = [[0]]
    for i in range(1, len(headers)):
        used = sum(widths[c] for c in blocks[-1]) + len(GAP) * len(blocks[-1])
        if used + widths[i] > width and len(blocks[-1]) > 1:
            blocks.append([0])
        blocks[-1].append(i)
    return blocks


def fitted_table(title: str, table: Table, width: int = TABLE_WIDTH) -> str:
    """A titled table within `width` columns: list columns wrap, numbers are right-aligned,
    and when the columns still do not fit, the rest go on in another block below, each
    block led by the first column."""
    right = numeric_columns(table.rows)
    text = text_table(table.headers, table.rows, table.wrap, width, right)
    if max(len(line) for line in text.splitlines()) > width:
        parts = []
        for block in _blocks(table.headers, table.rows, width):
            headers = [table.headers[i] for i in block]
            rows = [[r[i] for i in block] for r in table.rows]
            wrap = tuple(n for n, i in enumerate(block) if i in table.wrap)
            aligned = tuple(n for n, i in enumerate(block) if i in right)
            parts.append(text_table(headers, rows, wrap, width, aligned))
        text = "\n\n".join(parts)
    return f"{title}\n{text}" if title else text


def humane(key: str) -> str:
    """A statistic's key as a header: `damage_dealt` -> `damage dealt`."""
    return key.replace("_", " ")


def two_columns(pairs: list[tuple[str, str]], width: int = TABLE_WIDTH) -> list[str]:
    """Terms and what they mean, side by side, the meanings wrapped between words within
    `width`. A term longer than the left column has its meaning on the lines under it; the
    left column is as wide as gives the fewest lines."""
    candidates = {len(term) for term, _ in pairs if len(term) <= width // 2} or {0}
    layouts = [_two_columns(pairs, width, left) for left in sorted(candidates, reverse=True)]
    return min(layouts, key=len)  # the first of the shortest: the widest left column


def _two_columns(pairs: list[tuple[str, str]], width: int, left: int) -> list[str]:
    indent = " " * (left + len(GAP))
    lines: list[str] = []
    for term, meaning in pairs:
        if not meaning:
            lines.append(term)
            continue
        parts = textwrap.wrap(
            meaning, width - len(indent), break_long_words=False, break_on_hyphens=False
        )
        if len(term) > left:
            lines.append(term)
            lines += [indent + part for part in parts]
        else:
            lines.append(term.ljust(left) + GAP + parts[0])
            lines += [indent + part for part in parts[1:]]
    return lines


def wrapped(text: str, width: int = TABLE_WIDTH, indent: str = "  ") -> list[str]:
    """A paragraph in lines within `width`, broken between words, the lines after the
    first indented."""
    return textwrap.wrap(
        text, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )
