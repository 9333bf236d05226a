"""Encounter files for any ruleset: TOML that names its ruleset in a top-level key,

    ruleset = "ID"

before its first table, read and checked by that ruleset (`Ruleset.parse_encounter`). A
file that names none is the default ruleset's (registry.DEFAULT), as every file was before
there were other games; an older file's `ruleset` under `[encounter]` is read too. Every
error is one line, `FILE:LINE: what is wrong`; the TOML helpers here give rulesets the
same lines.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from host import registry
from host.ruleset import Encounter, EncounterError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def load(path: str | Path, ruleset: str | None = None) -> Encounter:
    """Read an encounter file with the ruleset it names; `ruleset` (the command line's
    --ruleset) must be that one."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise EncounterError(f"{path}: cannot read the encounter: {err.strerror}") from None
    return parse(text, str(path), ruleset)


def parse(text: str, filename: str = "<encounter>", ruleset: str | None = None) -> Encounter:
    doc = read_toml(text, filename)
    named, line = ruleset_named(doc, text, filename)
    if ruleset is not None and named != ruleset:
        if line is None:
            raise EncounterError(
                f"{filename}:1: this encounter names no ruleset, so it is {named}'s, not"
                f' {ruleset}\'s (a file for {ruleset} starts with ruleset = "{ruleset}")'
            )
        raise EncounterError(
            f"{filename}:{line}: this encounter is for ruleset {named!r}, not {ruleset!r}"
        )
    try:
        rules = registry.get(named)
    except registry.UnknownRuleset as err:
        raise EncounterError(f"{filename}:{line or 1}: {err}") from None
    return rules.parse_encounter(text, filename)


def ruleset_named(doc: dict, text: str, filename: str) -> tuple[str, int | None]:
    """The ruleset a file names and the line it is named on (None: it names none, and is
    the default's)."""
    lines = Lines(text)
    head = doc.get("encounter")
    for table, data in (("", doc), ("encounter", head if isinstance(head, dict) else {})):
        if "ruleset" in data:
            line = lines.of(table, 0, "ruleset")
            if not isinstance(data["ruleset"], str):
                raise EncounterError(f"{filename}:{line}: ruleset must be a string")
            return data["ruleset"], line
    return registry.DEFAULT, None


def read_toml(text: str, filename: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise _toml_error(text, filename, err) from None


class Lines:
    """Finds the line of a table or a key in TOML text, for error messages."""

    _HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\-]+)\s*\]\]?")
    _KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*=")

    def __init__(self, text: str):
        self.tables: dict[tuple[str, int], int] = {}
        self.keys: dict[tuple[str, int, str], int] = {}
        counts: dict[str, int] = {}
        current = ("", 0)
        for number, line in enumerate(text.splitlines(), start=1):
            header = self._HEADER.match(line)
            if header:
                name = header.group(1)
                index = counts.get(name, 0)
                counts[name] = index + 1
                current = (name, index)
                self.tables[current] = number
                continue
            key = self._KEY.match(line)
            if key:
                self.keys.setdefault((current[0], current[1], key.group(1)), number)

    def of(self, table: str, index: int = 0, key: str | None = None) -> int:
        if key is not None and (table, index, key) in self.keys:
            return self.keys[(table, index, key)]
        return self.tables.get((table, index), 1)


_TOML_WHERE = re.compile(r"\s*\((?:at line (\d+), column (\d+)|at end of document)\)$")
_UNCLOSED = ("Unclosed array", "Unclosed inline table", "Unterminated string")


def _still_open(text: str, end: int) -> int | None:
    """The line of the innermost array, inline table or string still open at offset `end`
    (brackets inside strings and comments do not count)."""
    opened: list[int] = []
    i, line, end = 0, 1, min(end, len(text))
    while i < end:
        ch = text[i]
        if ch == "\n":
            line += 1
        elif ch == "#":
            newline = text.find("\n", i)
            i = end if newline == -1 else newline
            continue
        elif ch in "\"'":
            quote = text[i : i + 3] if text.startswith(('"""', "'''"), i) else ch
            j = i + len(quote)
            while j < end and not text.startswith(quote, j):
                if quote == "\n" or (len(quote) == 1 and text[j] == "\n"):
                    break
                j += 2 if quote[0] == '"' and text[j] == "\\" else 1
            if j >= end or not text.startswith(quote, j):
                return line  # the string never ends
            line += text.count("\n", i, j)
            i = j + len(quote)
            continue
        elif ch in "[{":
            opened.append(line)
        elif ch in "]}" and opened:
            opened.pop()
        i += 1
    return opened[-1] if opened else None


def _toml_error(text: str, filename: str, err: Exception) -> EncounterError:
    """`FILE:LINE: not valid TOML: what`. tomllib says where it gave up ("(at line N, column
    M)" or "(at end of document)"); for an array, inline table or string left open (and
    for anything wrong at the end of the file while one is open), that is past where the
    mistake is, so the line is the one where it was opened."""
    message = str(err)
    where = _TOML_WHERE.search(message)
    what = message[: where.start()] if where else message
    lines = text.splitlines(keepends=True)
    if where and where.group(1):
        line, column = int(where.group(1)), int(where.group(2))
        offset = sum(len(x) for x in lines[: line - 1]) + column - 1
        noticed = f"line {line}"
    else:
        line, offset, noticed = max(1, len(lines)), len(text), "the end of the file"
    if what.startswith(_UNCLOSED) or not (where and where.group(1)):
        opened = _still_open(text, offset)
        if opened is not None and opened != line:
            if what.startswith(_UNCLOSED):
                what += f": opened on this line, still open at {noticed}"
            else:
                what += f" at {noticed}, inside a bracket or string opened on this line"
            line = opened
    return EncounterError(f"{filename}:{line}: not valid TOML: {what}")
