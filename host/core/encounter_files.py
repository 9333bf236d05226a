"""Encounter files for any ruleset: TOML that names its ruleset in a top-level key,

    ruleset = "ID"

before its first table, read and checked by that ruleset (`Ruleset.parse_encounter`). A
file that names none is the default ruleset's (registry.DEFAULT), as every file was before
there were other games; an older file's `ruleset` under `[encounter]` is read too. Every
error is one line, `FILE:LINE: what is wrong`; the TOML helpers here give rulesets the
same lines.

Every ruleset's file may also hold `[[template]]` tables: a named fighter written with the
keys of that ruleset's fighters, which `add` brings into a fight under way
(host/core/newcomers.py). `take_templates` takes them out of a read file before the ruleset
reads the rest, and `check_templates` reads each as that ruleset reads a fighter, so a
template that could never join is refused when the file is loaded. `write_toml` writes a
read document back as TOML text.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from host.core import names, numbers, registry, textfile
from host.core.interface import Encounter, EncounterError
from shared.limits import MAX_TEAMS
from shared.roster import check_label

T = TypeVar("T")

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

MAX_BYTES = 1_000_000  # an encounter file; the bundled 2v2 is under 4 KB
MAX_NESTING = 32  # arrays, tables and dotted keys inside each other; an encounter needs 3


def load(path: str | Path, ruleset: str | None = None) -> Encounter:
    """Read an encounter file with the ruleset it names; `ruleset` (the command line's
    --ruleset) must be that one."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as err:
        raise EncounterError(f"{path}: cannot read the encounter: {err.strerror}") from None
    if len(data) > MAX_BYTES:
        raise EncounterError(
            f"{path}: the file is more than {MAX_BYTES:,} bytes; an encounter is far smaller"
        )
    try:
        text = textfile.decode(data, str(path))
    except textfile.TextFileError as err:
        raise EncounterError(str(err)) from None
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
    if type(text) is _Read:  # a file read already, with a template among its fighters
        return copy.deepcopy(text.doc)
    # The TOML reader recurses once per bracket (3,000 deep ran out of stack): refuse
    # deep nesting before it is read.
    depth, line = _deepest(text)
    if depth > MAX_NESTING:
        raise EncounterError(
            f"{filename}:{line}: not valid TOML here: arrays and tables nested more than"
            f" {MAX_NESTING} deep"
        )
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise _toml_error(text, filename, err) from None
    except ValueError:  # an integer of more digits than Python converts (4,300)
        doc = None
    # Dotted keys and table headers (`x.x.x = 1`, 1,200 parts) nest too, without a bracket:
    # whatever walks the document after (this module, a ruleset) must not recurse that deep.
    if doc is not None and _depth(doc) > MAX_NESTING:
        raise EncounterError(
            f"{filename}:{_most_dotted(text)}: not valid TOML here: keys, tables and arrays"
            f" nested more than {MAX_NESTING} deep"
        )
    if doc is not None:
        _refuse_control_characters(doc, text, filename)
    if doc is None or not _within_64_bits(doc):
        # TOML's integers are 64-bit: a longer one (0x and 5,000 digits reads, but cannot
        # even be printed in an error) is refused where it is.
        line = next((n for n, t in enumerate(text.splitlines(), 1) if _LONG_NUMBER.search(t)), 1)
        raise EncounterError(
            f"{filename}:{line}: not valid TOML here: an integer beyond 64 bits"
        ) from None
    return doc


def _refuse_control_characters(doc: dict, text: str, filename: str) -> None:
    """Refuse a key or string holding a control character (an escape code in a name reached
    the terminal raw), naming its line and key."""
    lines: Lines | None = None
    stack: list[tuple[object, str, str, int]] = [(doc, "", "", 0)]  # value, path, table, index
    while stack:
        value, path, table, index = stack.pop()
        if isinstance(value, str):
            bad = names.control_character(value)
            if bad is None:
                continue
        elif isinstance(value, dict):
            bad = next((b for b in map(names.control_character, value) if b), None)
            if bad is None:
                top = not path
                for key, item in value.items():
                    where = (key, 0) if top and isinstance(item, dict | list) else (table, index)
                    stack.append((item, f"{path}.{key}" if path else key, *where))
                continue
        elif isinstance(value, list):
            for n, item in enumerate(value):
                where = (table, n) if isinstance(item, dict) and "." not in path else (table, index)
                stack.append((item, f"{path}[{n}]", *where))
            continue
        else:
            continue
        lines = lines or Lines(text)
        key = path.rsplit(".", 1)[-1].split("[", 1)[0]
        raise EncounterError(
            f"{filename}:{lines.of(table, index, key)}: {names.printable(path, False)} holds a"
            f" control character ({bad}); a name or word printed to a terminal may hold none"
        )


def _depth(doc: dict) -> int:
    """How deep tables and arrays nest in a read document (up to one past MAX_NESTING),
    walked without recursion."""
    deepest = 0
    stack: list[tuple[object, int]] = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_NESTING:
            break
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return deepest


_KEY_PART = re.compile(r"^\s*\[*([^=\]]*)")


def _most_dotted(text: str) -> int:
    """The line whose key or table header has the most dots: where a document nested too
    deep without brackets says so."""
    best, where = -1, 1
    for number, line in enumerate(text.splitlines(), start=1):
        found = _KEY_PART.match(line)
        dots = found.group(1).count(".") if found else 0
        if dots > best:
            best, where = dots, number
    return where


def _within_64_bits(value: object) -> bool:
    if isinstance(value, int):
        return -(2**63) <= value < 2**63
    if isinstance(value, dict):
        return all(_within_64_bits(v) for v in value.values())
    if isinstance(value, list):
        return all(_within_64_bits(v) for v in value)
    return True


class Lines:
    """Finds the line of a table or a key in TOML text, for error messages."""

    _HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\-]+)\s*\]\]?")
    _KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*=")

    # The text last read and its lines: one file is read by several readers (its
    # templates, its tables, each template's trial), a regex pass over it each time.
    _last: tuple[str, dict, dict] | None = None
    tables: dict[tuple[str, int], int]
    keys: dict[tuple[str, int, str], int]

    def __init__(self, text: str):
        last = Lines._last
        if last is not None and last[0] == text:
            self.tables, self.keys = last[1], last[2]  # (never changed once made)
            return
        self.tables, self.keys = {}, {}
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
        Lines._last = (str(text), self.tables, self.keys)  # (whole: another thread may read)

    def of(self, table: str, index: int = 0, key: str | None = None) -> int:
        if key is not None and (table, index, key) in self.keys:
            return self.keys[(table, index, key)]
        return self.tables.get((table, index), 1)


_TOML_WHERE = re.compile(r"\s*\((?:at line (\d+), column (\d+)|at end of document)\)$")
_UNCLOSED = ("Unclosed array", "Unclosed inline table", "Unterminated string")


_STRUCTURE = re.compile(r"[\n#\"'\[\]{}]")
_LONG_NUMBER = re.compile(r"\b(?:0[xob][0-9A-Fa-f_]{17,}|[+-]?[0-9][0-9_]{18,})")


class TableReader:
    """What every ruleset's encounter reader does alike with one table of a read file (the
    ruleset kit's encounter reader, host/core/kit.py): a one-line error at the line of the
    table (or its key), unknown keys refused naming the known ones, a non-empty text, one
    of a few words, a list of names, a whole number in a range and a true/false flag. A
    ruleset's reader subclasses it and adds only its own kinds of value (d20's dice, forms'
    attributes); it calls these with the table's name and index (the line an error names),
    the table's data, the key and who the table describes (the error's first words)."""

    def __init__(self, text: str, filename: str) -> None:
        self.filename = filename
        self.lines = Lines(text)

    def fail(self, table: str, index: int, key: str | None, what: str) -> EncounterError:
        return EncounterError(f"{self.filename}:{self.lines.of(table, index, key)}: {what}")

    def known(self, table: str, index: int, data: Any, allowed: tuple[str, ...], who: str) -> None:
        if not isinstance(data, dict):
            raise self.fail(table, index, None, f"{who} must be a table")
        for key in data:
            if key not in allowed:
                raise self.fail(
                    table, index, key, f"{who}: unknown key {key!r} (known: {', '.join(allowed)})"
                )

    def text(
        self, table: str, index: int, data: dict, key: str, who: str, default: str | None = None
    ) -> str:
        value = data.get(key, default)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(table, index, key, f"{who}: {key} must be a non-empty string")
        return value.strip()

    def integer(
        self,
        table: str,
        index: int,
        data: dict,
        key: str,
        who: str,
        low: int,
        high: int,
        default: int | None = None,
    ) -> int:
        """The whole number at `key`, `low`..`high` (host/core/numbers.py); `default` where
        the key is absent (None: it must be there)."""
        if key not in data and default is None:
            raise self.fail(table, index, None, f"{who}: {key} is missing")
        value: Any = data.get(key, default)
        if not numbers.is_whole(value, low, high):
            said = f"{who}: {key} must be a whole number {low}..{high}, not {value!r}"
            raise self.fail(table, index, key, said)
        return int(value)

    def choice(
        self,
        table: str,
        index: int,
        data: dict,
        key: str,
        who: str,
        allowed: tuple[str, ...],
        default: str | None = None,
    ) -> str:
        """The text at `key`, one of `allowed`."""
        value = self.text(table, index, data, key, who, default)
        if value not in allowed:
            raise self.fail(table, index, key, f"{who}: {key} must be {' or '.join(allowed)}")
        return value

    def words(
        self,
        table: str,
        index: int,
        data: dict,
        key: str,
        who: str,
        clean: Callable[[str], str] = str.strip,
    ) -> tuple[str, ...]:
        """The list of names at `key` (none where it is absent), each made `clean`."""
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.fail(table, index, key, f"{who}: {key} must be a list of names")
        return tuple(clean(v) for v in value)

    def flag(self, table: str, index: int, data: dict, key: str, who: str) -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise self.fail(table, index, key, f"{who}: {key} must be true or false")
        return value

    def named(
        self, table: str, index: int, data: dict, teams: tuple[str, ...]
    ) -> tuple[str, str, str, int]:
        """A `[[creature]]` table's name, the words its refusals start with (`who`), its
        label (by default its name's first three letters) and its team (by name, the
        first by default): (name, who, label, team)."""
        name = self.text(table, index, data, "name", table)
        who = f"{table} {name!r}"
        label = self.text(table, index, data, "label", who, name[:3].upper())
        team_name = self.text(table, index, data, "team", who, teams[0])
        by_name = {names.plain(t): n for n, t in enumerate(teams)}
        if names.plain(team_name) not in by_name:
            raise self.fail(table, index, "team", f"{who}: team must be one of {', '.join(teams)}")
        return name, who, label, by_name[names.plain(team_name)]

    def members(
        self, table: str, index: int, who: str, name: str, label: str, count: int
    ) -> list[tuple[str, str]]:
        """The name and label of each of a group's `count` like creatures (`Goblin 1`,
        `GO1`; one creature keeps its own), each label one the board takes."""
        if count > 1 and len(label) > 2:
            label = label[:2]
        out: list[tuple[str, str]] = []
        for n in range(count):
            each_name = f"{name} {n + 1}" if count > 1 else name
            each_label = f"{label}{n + 1}" if count > 1 else label
            try:
                check_label(each_label)
            except ValueError as err:
                raise self.fail(table, index, "label", f"{who}: {err}") from None
            out.append((each_name, each_label))
        return out

    def head(
        self, doc: dict, ruleset_id: str, teams: tuple[str, ...]
    ) -> tuple[str, tuple[str, ...]]:
        """A file of `[[creature]]` tables and their `[[template]]`s (d20's, pf2's): its keys
        known, its ruleset `ruleset_id`'s, and its name and teams (`teams` by default)."""
        keys = ("ruleset", "name", "teams", "options", "creature", "template")
        self.known("", 0, doc, keys, "the file")
        if doc.get("ruleset", ruleset_id) != ruleset_id:
            raise self.fail("", 0, "ruleset", f"not a {ruleset_id} encounter")
        name = self.text("", 0, doc, "name", "the encounter", "encounter")
        named = doc.get("teams", list(teams))
        if (
            not isinstance(named, list)
            or not 2 <= len(named) <= MAX_TEAMS
            or not all(isinstance(t, str) and t.strip() for t in named)
            or len({names.plain(t) for t in named}) != len(named)
        ):
            raise self.fail("", 0, "teams", f"teams must be 2..{MAX_TEAMS} different names")
        return name, tuple(t.strip() for t in named)

    def options(self, doc: dict, make: Callable[..., T], choices: dict[str, tuple[str, ...]]) -> T:
        """A file's `[options]` table of words: each key of `choices` one of its words (the
        dataclass `make`'s default where absent), no other key; `make(**those)`."""
        data = doc.get("options", {})
        self.known("options", 0, data, tuple(choices), "options")
        base = make()
        return make(
            **{
                key: self.choice("options", 0, data, key, "options", allowed, getattr(base, key))
                for key, allowed in choices.items()
            }
        )

    def creatures(
        self, doc: dict, read: Callable[[str, int, Any], list[Any]], most: int
    ) -> tuple[list[Any], list[Any]]:
        """The `[[creature]]` tables (at most `most` entries, a group one) and the
        `[[template]]`s of a `head` file, each table read by `read(table, index, data)` (its
        creatures, each with a `team`, `name` and `label`): on two teams at least, no name or
        label naming two, a template one creature (no count)."""
        entries = doc.get("creature", [])
        if not isinstance(entries, list) or not entries:
            raise self.fail("", 0, None, "the encounter needs its creatures as [[creature]] tables")
        if len(entries) > most:
            # (entries in the order: a group is one)
            raise self.fail(
                "creature",
                most,
                None,
                f"a fight holds at most {most} [[creature]] entries, not {len(entries)}"
                " (a group of like creatures is one: count=N)",
            )
        creatures: list[Any] = []
        for index, data in enumerate(entries):
            creatures += read("creature", index, data)
        if len({c.team for c in creatures}) < 2:
            raise self.fail("creature", 0, None, "the encounter needs creatures on two teams")
        seen: set[str] = set()
        for c in creatures:
            for word in {names.plain(c.name), names.plain(c.label)}:
                if word in seen:
                    raise self.fail("creature", 0, None, f"{word!r} names two creatures")
                seen.add(word)
        templates: list[Any] = []
        raw = doc.get("template", [])
        if not isinstance(raw, list):
            raise self.fail("", 0, "template", "templates are written as [[template]] tables")
        for index, data in enumerate(raw):
            if isinstance(data, dict) and "count" in data:
                raise self.fail("template", index, "count", "a template is one creature: no count")
            templates += read("template", index, data)
        return creatures, templates


R = TypeVar("R", bound=TableReader)


def creature_reader(
    reader: Callable[[str, str], R],
    ruleset_id: str,
    teams: tuple[str, ...],
    options: tuple[Callable[..., Any], dict[str, tuple[str, ...]]],
    read: Callable[[R, str, int, Any, tuple[str, ...]], list[Any]],
    most: int,
    encounter: Callable[..., T],
) -> Callable[[str, str], T]:
    """A creature encounter's `parse(text, filename)` (d20's, pf2's), which reads a file of
    `[[creature]]` tables: its `head` (ruleset `ruleset_id`'s, `teams` by default) with
    the ruleset's `reader` (a TableReader), its `options` (the dataclass and its words,
    read by `TableReader.options`), its creatures and templates (`creatures`: each table
    read by `read(r, table, index, data, teams)`, at most `most`), as `encounter(name,
    creatures, options, teams, templates, text, filename)`."""

    def parse(text: str, filename: str) -> T:
        doc = read_toml(text, filename)
        r = reader(text, filename)
        name, named = r.head(doc, ruleset_id, teams)
        chosen = r.options(doc, *options)
        creatures, templates = r.creatures(
            doc, lambda table, index, data: read(r, table, index, data, named), most
        )
        return encounter(name, tuple(creatures), chosen, named, tuple(templates), text, filename)

    return parse


def _brackets(text: str, end: int) -> Iterator[tuple[str, int]]:
    """The brackets of `text` up to offset `end` that are not inside a string or comment,
    with their lines; ends with ('"', line) at a string that never closes."""
    i, line, end = 0, 1, min(end, len(text))
    while True:
        found = _STRUCTURE.search(text, i, end)
        if found is None:
            return
        i = found.start()
        ch = text[i]
        if ch == "\n":
            line += 1
        elif ch == "#":
            newline = text.find("\n", i, end)
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
                yield '"', line  # the string never ends
                return
            line += text.count("\n", i, j)
            i = j + len(quote)
            continue
        else:
            yield ch, line
        i += 1


def _still_open(text: str, end: int) -> int | None:
    """The line of the innermost array, inline table or string still open at offset `end`
    (brackets inside strings and comments do not count)."""
    opened: list[int] = []
    for ch, line in _brackets(text, end):
        if ch == '"':
            return line
        if ch in "[{":
            opened.append(line)
        elif opened:
            opened.pop()
    return opened[-1] if opened else None


def nesting(text: str) -> int:
    """How deep arrays and inline tables nest in TOML text (up to one past MAX_NESTING),
    counted without reading it: the TOML reader, and write_toml after it, recurse once per
    level, so text nested deeper than MAX_NESTING is refused before either sees it."""
    return _deepest(text)[0]


def _deepest(text: str) -> tuple[int, int]:
    """How deep arrays and tables nest (up to one past MAX_NESTING), and the line where
    that depth is first reached."""
    depth, deepest, where = 0, 0, 1
    for ch, line in _brackets(text, len(text)):
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest, where = depth, line
                if depth > MAX_NESTING:
                    break
        elif ch in "]}":
            depth = max(0, depth - 1)
    return deepest, where


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


TEMPLATE = "template"  # the table of a fighter that may join a fight under way


def take_templates(doc: dict[str, Any], text: str, filename: str) -> list[dict[str, Any]]:
    """Take the `[[template]]` tables out of a read file (the ruleset reads the rest) and
    check what every template needs whatever the game: a name, none twice."""
    found = doc.pop(TEMPLATE, [])
    lines = Lines(text)
    if not isinstance(found, list) or not all(isinstance(t, dict) for t in found):
        raise EncounterError(
            f"{filename}:{lines.of('', 0, TEMPLATE)}: templates are written as"
            f" [[{TEMPLATE}]] tables"
        )
    seen: set[str] = set()
    for index, data in enumerate(found):
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            raise EncounterError(f"{filename}:{lines.of(TEMPLATE, index)}: a template needs a name")
        if name.lower() in seen:
            raise EncounterError(
                f"{filename}:{lines.of(TEMPLATE, index, 'name')}: template {name!r} is"
                " written twice"
            )
        seen.add(name.lower())
    return found


def templates_of(text: str) -> list[dict[str, Any]]:
    """The templates of an encounter file's text (one already read and checked)."""
    found = read_toml(text, "<encounter>").get(TEMPLATE, [])
    return found if isinstance(found, list) else []


class _Read(str):
    """A file's text with a document made from what it read (`check_templates`' trials):
    `read_toml` gives a copy of the document, not the text's TOML read again. Each trial was
    a whole file written and read (two templates: 5 ms of a resume), though every value in
    it was read and checked with the file."""

    doc: dict[str, Any]

    def __new__(cls, text: str, doc: dict[str, Any]) -> _Read:
        made = super().__new__(cls, text)
        made.doc = doc
        return made


def check_templates(
    doc: dict[str, Any],
    templates: list[dict[str, Any]],
    text: str,
    filename: str,
    table_of: Callable[[dict[str, Any]], tuple[str, str]],
    parse: Callable[[str, str], object],
    most: int,
    fighter_tables: tuple[str, ...],
) -> None:
    """Read each template as the ruleset reads a fighter: the file (its templates taken
    out, `doc`) with the template put among its fighters, given to `parse` as read (`_Read`:
    not written as TOML and read again). `table_of`
    gives a template's fighter table and the key naming its team ("" where the table
    names it, and the template's `team` picks the table); a template that names no team
    is read on the first fighter's. Where the file already has `most` fighters (in all of
    `fighter_tables`), the template takes the place of the first of its team. An error is
    the template's, on its line. A file whose templates fit is not tried again: a resume
    reads its encounter three times."""
    key = (str(text), parse, tuple(table_of(t) for t in templates), most, fighter_tables)
    if key in _FIT:
        return
    lines = Lines(text)
    for index, template in enumerate(templates):
        table, team_key = table_of(template)
        fighters = doc.get(table)
        if not isinstance(fighters, list) or not fighters:
            continue  # (the ruleset says what is wrong with the file's own fighters)
        trial = {k: v for k, v in doc.items()}
        entry = dict(template)
        if not team_key:
            entry.pop("team", None)  # (the table names the team: table_of read it)
        elif team_key not in entry and isinstance(fighters[0], dict):
            entry[team_key] = fighters[0].get(team_key)
        kept = list(fighters)
        everyone = sum(len(doc.get(t, ())) for t in fighter_tables)
        if everyone >= most:
            team = entry.get(team_key) if team_key else None
            del kept[next((n for n, f in enumerate(kept) if f.get(team_key) == team), 0)]
        trial[table] = [*kept, entry]
        try:
            parse(_Read(text, trial), filename)
        except EncounterError as err:
            what = str(err).split(": ", 1)[-1]
            raise EncounterError(
                f"{filename}:{lines.of(TEMPLATE, index)}: template {template['name']!r}: {what}"
            ) from None
    if len(_FIT) >= 8:
        _FIT.pop(next(iter(_FIT), ()), None)
    _FIT[key] = None


# The files whose templates were tried and fit, by their text and how they were read (the
# latest 8): the same file read again needs no trial.
_FIT: dict[tuple, None] = {}


def write_toml(doc: dict[str, Any]) -> str:
    """A read document written back as TOML: its keys, then its tables, then its arrays of
    tables, each as it was read (a table inside one is written inline)."""
    out: list[str] = []
    tables = {k: v for k, v in doc.items() if isinstance(v, dict)}
    arrays = {
        k: v
        for k, v in doc.items()
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)
    }
    for key, value in doc.items():
        if key not in tables and key not in arrays:
            out.append(f"{_key(key)} = {_value(value)}")
    for key, value in tables.items():
        out.append(f"\n[{_key(key)}]")
        out.extend(f"{_key(k)} = {_value(v)}" for k, v in value.items())
    for key, entries in arrays.items():
        for entry in entries:
            out.append(f"\n[[{_key(key)}]]")
            out.extend(f"{_key(k)} = {_value(v)}" for k, v in entry.items())
    return "\n".join(out) + "\n"


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + "}"
    return json.dumps(str(value))  # dates and times: written as text
