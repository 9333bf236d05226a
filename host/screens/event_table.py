"""A game's journalled events as a flat table for a spreadsheet (`turnlight export --format
csv`): one column per payload field, whatever the ruleset put there.

An event's payload is a small JSON object (host/core/session.py says which). Its fields become
columns in the order they first appear; a nested object's fields become `field.key`; a list
of numbers or words is one cell, space-separated (`3 1 2`); a list of objects (korxsol's
rolls) becomes one column per key, its items separated by `; ` in the same order in every
such column, so `rolls.purpose` and `rolls.faces` line up. A field named like one of the
event's own columns (seq, at, kind) is `payload.NAME`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

FIXED = ("seq", "at", "kind")
ITEM_SEPARATOR = "; "


def _scalar(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return " ".join(_scalar(v) for v in value)
    return str(value)


def flatten(payload: dict, prefix: str = "") -> dict[str, str]:
    """One payload as {column: cell}."""
    cells: dict[str, str] = {}
    for key, value in payload.items():
        name = f"{prefix}{key}"
        if name in FIXED:  # a roll-shown event's own "kind" (d100) is not the event's kind
            name = f"payload.{key}"
        if value == []:
            continue  # no items: the column comes from the events that have some
        if isinstance(value, dict):
            cells.update(flatten(value, name + "."))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            columns: dict[str, list[str]] = {}
            for n, item in enumerate(value):
                for column, cell in flatten(item, name + ".").items():
                    columns.setdefault(column, [""] * len(value))[n] = cell
            for column, items in columns.items():
                cells[column] = ITEM_SEPARATOR.join(items) if any(items) else ""
        else:
            cells[name] = _scalar(value)
    return cells


def events_csv(events: Iterable[tuple[int, str, dict, str]]) -> str:
    """(seq, kind, payload, at) rows as CSV text with a header row."""
    rows = [({"seq": str(s), "at": at, "kind": k}, flatten(p)) for s, k, p, at in events]
    headers = list(FIXED)
    for _, cells in rows:
        headers += [c for c in cells if c not in headers]
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(headers)
    for fixed, cells in rows:
        both = {**fixed, **cells}
        writer.writerow([both.get(h, "") for h in headers])
    return buf.getvalue()
