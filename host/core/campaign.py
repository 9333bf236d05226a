"""Campaigns: a party that plays fight after fight, its state carried from one to the next.

A campaign lives in the journal's own file (host/core/journal.py), in three tables of its
own: `campaigns` (its name, its ruleset and its party file's text), `campaign_events` (what
happened to it, in order, each chained to the one before as the journal's events are) and
`campaign_holders` (the one session that may change it now). Its events are:

- `fight` {"game": id, "encounter": path, "monsters": "..."}: a fight began, the journal's
  game `id`, against the encounter file's other side or the book's monsters (`play
  --monsters`; the path "" without a file). It is written in the same transaction as the
  game's row, so a crash leaves both or neither;
- `rest` {"kind": ..., "heal": {name: hp}}: a rest the ruleset offers (Carry.rest);
- `adjust` {"who": name, "set": {key: value}}: what the table decided;
- `join` {"lines": [stat line, ...]} and `leave` {"who": name}: the party changes.

**The journal stays the only truth.** Nothing of a fight's outcome is copied here: the
party's state is folded from these events, each fight's state read by replaying its game from
the journal (Carry.after), so an undo, a resume and an export all agree with the campaign,
and a crash at any point loses nothing that was journalled. A fight whose game has no events
was never played (`play` removes it): it counts for nothing.

What carries is each ruleset's (`Ruleset.carry()`, host/core/campaign_carry.py); this module
holds no rule of any game.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host.core import encounter_files, registry, textfile
from host.core.campaign_carry import Carry, Line
from host.core.encounter_files import Lines, read_toml, write_toml
from host.core.errors import EncounterError, IllegalAction, OneLineError
from host.core.journal import Journal, _alive, _safe_digest, _this_process
from host.core.newcomers import typed_value

SCHEMA = """
CREATE TABLE IF NOT EXISTS campaigns (
    name TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    party_path TEXT NOT NULL,
    party_toml TEXT NOT NULL,
    created TEXT NOT NULL,
    hash TEXT
);
CREATE TABLE IF NOT EXISTS campaign_events (
    campaign TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at TEXT NOT NULL,
    hash TEXT,
    PRIMARY KEY (campaign, seq)
);
CREATE TABLE IF NOT EXISTS campaign_holders (
    campaign TEXT PRIMARY KEY,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started TEXT NOT NULL,
    since TEXT NOT NULL
);
"""
KINDS = ("fight", "rest", "adjust", "join", "leave")
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _-]{0,63}$")
PATH_CHARACTERS = "/\\:"
TOP_KEYS = ("ruleset", "name", "teams")  # a party file's keys beside its fighters' tables


class CampaignError(OneLineError):
    """A campaign cannot be made, read or changed as asked: one line that names a way on."""


def check_name(name: str) -> str:
    """A campaign's name, or CampaignError: letters, digits, spaces, - and _ (64 at most),
    never a path (a name may become a file's, `campaign stats --chart`)."""
    if any(c in name for c in PATH_CHARACTERS) or ".." in name or name.startswith("."):
        raise CampaignError(
            f"campaign name {name!r} has path characters (/ \\ : ..): a name is letters,"
            " digits, spaces, - and _"
        )
    if not NAME.match(name):
        raise CampaignError(
            f"campaign name {name!r}: a name is 1..64 letters, digits, spaces, - and _,"
            " starting with a letter or a digit"
        )
    return name


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


def carry_of(ruleset_id: str) -> Carry:
    """The ruleset's Carry; CampaignError for a game that has no campaign."""
    carry = registry.get(ruleset_id).carry()
    if carry is None or carry.roster is None:
        raise CampaignError(
            f"ruleset {ruleset_id} has no campaign: its Ruleset.carry() names no Carry roster"
            " (d20, korxsol and advance have one)"
        )
    return carry


# ---------------------------------------------------------------------------- party files
def party_text(path: str | Path) -> str:
    """A party file's text; CampaignError (one line) when it cannot be read."""
    path = Path(path)
    try:
        data = path.read_bytes()[: encounter_files.MAX_BYTES + 1]
        if len(data) > encounter_files.MAX_BYTES:
            raise CampaignError(f"{path}: more than {encounter_files.MAX_BYTES:,} bytes")
        return textfile.decode(data, str(path))
    except OSError as err:
        raise CampaignError(f"{path}: cannot read the party file: {err.strerror}") from None
    except textfile.TextFileError as err:
        raise CampaignError(str(err)) from None


def party_lines(ruleset_id: str, text: str, filename: str, tried: bool = False) -> list[Line]:
    """A party file's stat lines: the ruleset's encounter format, its fighters' tables only
    (and `ruleset`, `name`, `teams`, and the Carry's shared tables), each key one the
    ruleset's fighters take, each line read by the ruleset's own encounter reader in a trial
    fight (unless `tried`: a party read when its campaign was made). CampaignError otherwise."""
    carry = carry_of(ruleset_id)
    roster = carry.roster
    assert roster is not None
    try:
        doc = read_toml(text, filename)
        named, line = encounter_files.ruleset_named(doc, text, filename)
    except EncounterError as err:
        raise CampaignError(str(err)) from None
    if named != ruleset_id:
        raise CampaignError(
            f"{filename}:{line or 1}: this party is for ruleset {named!r}, not {ruleset_id!r}"
            f' (a party file for {ruleset_id} starts with ruleset = "{ruleset_id}")'
        )
    lines = Lines(text)
    tables = roster.tables()[:1]
    for key in doc:
        if key not in TOP_KEYS + tables + carry.shared_tables:
            raise CampaignError(
                f"{filename}:{lines.of(key if isinstance(doc[key], dict | list) else '', 0, key)}:"
                f" unknown key {key!r}: a party file holds {', '.join(tables)} tables"
                f" (and {', '.join(TOP_KEYS)})"
            )
    fighters = doc.get(tables[0], [])
    if not isinstance(fighters, list) or not fighters:
        raise CampaignError(f"{filename}:1: the party needs its fighters as [[{tables[0]}]] tables")
    known = set(roster.keys)
    out: list[Line] = []
    seen: set[str] = set()
    for index, fighter in enumerate(fighters):
        if not isinstance(fighter, dict):
            raise CampaignError(f"{filename}:{lines.of(tables[0], index)}: not a table")
        for key in fighter:
            if key not in known:
                raise CampaignError(
                    f"{filename}:{lines.of(tables[0], index, key)}: {tables[0]}"
                    f" {fighter.get('name', index + 1)!r}: unknown key {key!r}, which {ruleset_id}"
                    f" does not take (known: {', '.join(roster.keys)})"
                )
        name = fighter.get("name")
        if not isinstance(name, str) or not name.strip():
            raise CampaignError(
                f"{filename}:{lines.of(tables[0], index)}: {tables[0]} {index + 1} needs a name"
            )
        if name.lower() in seen:
            raise CampaignError(f"{filename}:{lines.of(tables[0], index)}: {name!r} twice")
        seen.add(name.lower())
        line_ = {k: v for k, v in fighter.items() if k != roster.team_key}
        out.append(line_)
    if not tried:
        party = {str(f["name"]): f for f in out}
        trial(ruleset_id, party, filename, shared_of(carry, doc), text)
    return out


def shared_of(carry: Carry, doc: dict) -> dict[str, list[dict]]:
    """A party file's tables beside its fighters (Carry.shared_tables)."""
    return {
        t: [x for x in doc.get(t, []) if isinstance(x, dict)]
        for t in carry.shared_tables
        if isinstance(doc.get(t), list)
    }


def trial(
    ruleset_id: str,
    party: dict[str, Line],
    filename: str,
    shared: dict | None = None,
    party_text: str | None = None,
) -> None:
    """Read the party by the ruleset's encounter reader, against its bundled example's other
    side: a stat it does not take (a number out of range, a word it does not know) is
    refused here, in the reader's words, naming `filename` (and the line of `party_text`,
    the party file, where the stat is)."""
    carry = carry_of(ruleset_id)
    roster = carry.roster
    doc, first, _ = _encounter_doc(ruleset_id, carry, registry.get(ruleset_id).example_path())
    # One foe is enough to read the party by (the board's slots are the party's).
    if roster.team_tables:
        for table in roster.team_tables[1:]:
            doc[table] = doc.get(table, [])[:1]
    else:
        doc[roster.table] = [
            {k: v for k, v in f.items() if k != "count"} for _, f in _others(doc, roster, first)[:1]
        ]
    where = Where(filename, None, party_text)  # (the example's lines are not the file's)
    try:
        _fight(ruleset_id, carry, party, doc, first, shared or {}, where)
    except EncounterError as err:
        raise CampaignError(str(err)) from None


def _first_team(doc: dict, carry: Carry) -> str | None:
    """The party's team in an encounter file that has no fighter of it: the first of its
    `teams`, or of its `[[team]]` tables, else the ruleset's first by default."""
    teams = doc.get("teams")
    if isinstance(teams, list) and teams and isinstance(teams[0], str):
        return teams[0]
    tables = doc.get("team")
    if isinstance(tables, list) and tables and isinstance(tables[0], dict):
        name = tables[0].get("name")
        return name if isinstance(name, str) else None
    return carry.first_team or None


def fight_text(
    ruleset_id: str,
    party: dict[str, Line],
    encounter_path: str | Path | None,
    shared: dict[str, list[dict]] | None = None,
    monsters: str | None = None,
    title: str = "",
) -> Any:
    """The encounter of a campaign's fight: the encounter file with the party (`party`: the
    living characters' stat lines, carried keys applied) in place of its first team's
    fighters. `shared`: the party file's tables its lines name (Carry.shared_tables).
    `monsters` ("4 goblin, bugbear"): the other side from the ruleset's book of monsters
    (Ruleset.with_monsters) in place of the file's; the file may then be None (a fight of
    the party against them alone, named `title`). Read by the ruleset's reader, which raises
    EncounterError naming the file's line (IllegalAction for a monster not in the book)."""
    carry = carry_of(ruleset_id)
    if monsters is None:
        if encounter_path is None:
            raise EncounterError("a campaign's fight needs an encounter file or --monsters")
        doc, first, source = _encounter_doc(ruleset_id, carry, encounter_path)
        where = Where(str(encounter_path), source)
    else:
        if encounter_path is None:
            source = f"ruleset = {json.dumps(ruleset_id)}\nname = {json.dumps(title)}\n"
            filename, shown = "--monsters", None
        else:
            filename = str(encounter_path)
            source = shown = _file_text(encounter_path)
            read_toml(source, filename)  # (its own errors at its own lines)
        text = registry.get(ruleset_id).with_monsters(source, monsters)
        doc = read_toml(text, filename)
        first = _first_team(doc, carry) or ""
        where = Where(filename, shown, book=True)
    return _fight(ruleset_id, carry, party, doc, first, shared or {}, where)


def _file_text(path: str | Path) -> str:
    try:
        return textfile.decode(Path(path).read_bytes(), str(path))
    except OSError as err:
        raise EncounterError(f"{path}: cannot read the encounter file: {err.strerror}") from None
    except textfile.TextFileError as err:
        raise EncounterError(str(err)) from None


def _encounter_doc(ruleset_id: str, carry: Carry, path: str | Path) -> tuple[dict, str, str]:
    """An encounter file read as TOML, the party's team in it (its first) and its text."""
    try:
        enc = encounter_files.load(path, ruleset_id)
        return read_toml(enc.source, str(path)), enc.teams[0], enc.source
    except EncounterError as err:
        # A file of the other side alone (no party to stand in: the campaign brings it).
        try:
            text = textfile.decode(Path(path).read_bytes(), str(path))
        except (OSError, textfile.TextFileError):
            raise err from None
        doc = read_toml(text, str(path))
        first = _first_team(doc, carry)
        if first is None:
            raise
        return doc, first, text


class Where:
    """Where each line of a campaign fight's encounter came from, so the reader's error
    names the line of the file it is about (FILE:LINE), not of the text the campaign wrote:
    the fight is written again (host/core/encounter_files.write_toml) with the party in
    place of the file's first team, so its lines are not the file's."""

    def __init__(
        self,
        filename: str,
        source: str | None,
        party_text: str | None = None,
        book: bool = False,
    ) -> None:
        self.filename, self.source, self.party_text, self.book = filename, source, party_text, book
        # (table, index) in the written text -> ("file", index) | ("party", index) | ("book", 0)
        self.origin: dict[tuple[str, int], tuple[str, int]] = {}

    def said(self, message: str, text: str) -> str:
        """The reader's `message` about the written `text`, its line the file's."""
        match = re.match(re.escape(self.filename) + r":(\d+): (.*)$", message, re.S)
        if match is None:
            return message
        table, index, key = _at(Lines(text), int(match[1]))
        what = match[2]
        kind, which = self.origin.get((table, index), ("file", index))
        if kind == "book":
            return f"--monsters: {what}"
        if kind == "party" and self.party_text is not None:
            return f"{self.filename}:{_line(self.party_text, table, which, key, what)}: {what}"
        if kind == "party" or self.source is None:  # (the reader's words name who it is)
            return f"{self.filename}: {what}"
        return f"{self.filename}:{_line(self.source, table, which, key, what)}: {what}"


def _line(text: str, table: str, index: int, key: str | None, what: str) -> int:
    """The line of `text` where its `table` number `index` writes `key`: the key's own line,
    or, for a list of tables the written text put on one line (d20's attacks), the line of
    the one `what` names (else the first), or the table's."""
    lines = Lines(text)
    if key is None or (table, index, key) in lines.keys:
        return lines.of(table, index, key)
    start = lines.of(table, index)
    ends = [n for (t, _), n in lines.tables.items() if t == table and n > start]
    inner = sorted(
        (n, i) for (t, i), n in lines.tables.items() if t == f"{table}.{key}" and start < n
    )
    inner = [(n, i) for n, i in inner if not ends or n < min(ends)]
    if not inner:
        return start
    try:
        doc = read_toml(text, "")
        entries = doc[table][index][key]
        for (n, _), entry in zip(inner, entries, strict=False):
            if isinstance(entry, dict) and str(entry.get("name", "\0")) in what:
                return n
    except (EncounterError, LookupError, TypeError):
        pass
    return inner[0][0]


def _at(lines: Lines, number: int) -> tuple[str, int, str | None]:
    """The table (its name and index) and the key written at line `number` of a text."""
    for (table, index, key), at in lines.keys.items():
        if at == number:
            return table, index, key
    for (table, index), at in lines.tables.items():
        if at == number:
            return table, index, None
    return "", 0, None


def _fight(
    ruleset_id: str,
    carry: Carry,
    party: dict[str, Line],
    doc: dict,
    first: str,
    shared: dict[str, list[dict]],
    where: Where,
) -> Any:
    roster = carry.roster
    for table in carry.shared_tables:  # what the party's lines name (korxsol's moves)
        have = {str(t.get("name")) for t in doc.get(table, []) if isinstance(t, dict)}
        doc[table] = list(doc.get(table, [])) + [
            t for t in shared.get(table, []) if str(t.get("name")) not in have
        ]
    lines = [{k: v for k, v in line.items() if k not in carry.apart} for line in party.values()]
    party_table = roster.team_tables[0] if roster.team_tables else roster.table
    for n in range(len(lines)):
        where.origin[(party_table, n)] = ("party", n)
    if roster.team_tables:
        doc[roster.team_tables[0]] = lines
    else:
        others = _others(doc, roster, first)
        doc[roster.table] = [{**line, roster.team_key: first} for line in lines] + [
            f for _, f in others
        ]
        for n, (index, _) in enumerate(others, len(lines)):
            where.origin[(roster.table, n)] = ("book", 0) if where.book else ("file", index)
    text = write_toml(doc)
    try:
        return registry.get(ruleset_id).parse_encounter(text, where.filename)
    except EncounterError as err:
        raise EncounterError(where.said(str(err), text)) from None


def _others(doc: dict, roster: Any, first: str) -> list[tuple[int, dict]]:
    """The fighters of an encounter's document who are not on the party's team, each with
    its index among the document's fighters."""
    return [
        (index, f)
        for index, f in enumerate(doc.get(roster.table, []))
        if isinstance(f, dict)
        and str(f.get(roster.team_key, first)).strip().lower() != first.lower()
    ]


# ---------------------------------------------------------------------------- the state
@dataclass
class Fight:
    game: int
    encounter: str
    winner: str | None  # None: under way
    scores: dict[str, dict[str, int]]  # each party member's statistics in it
    timeline: list[dict] = field(default_factory=list)
    panels: tuple = ()


@dataclass
class State:
    """A campaign as its events and its fights' journals say."""

    name: str
    ruleset: str
    carry: Carry
    party: dict[str, Line]  # name -> stat line, carried keys applied, in the party's order
    shared: dict[str, list[dict]]  # the party file's tables beside its fighters
    fights: list[Fight]
    history: list[str]  # one line an event

    def alive(self) -> dict[str, Line]:
        return {n: line for n, line in self.party.items() if not self.carry.dead(line)}

    def under_way(self) -> Fight | None:
        return self.fights[-1] if self.fights and self.fights[-1].winner is None else None


class Book:
    """The campaigns kept in one journal's file."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal

    def _make_tables(self) -> None:
        """The campaign tables, made with the first campaign (a journal that never had one
        is left as it is)."""
        with self.journal.transaction():
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.journal.db.execute(statement)

    def _has_tables(self) -> bool:
        rows = self.journal._rows("SELECT COUNT(*) FROM sqlite_master WHERE name = 'campaigns'")
        return bool(rows[0][0])

    def names(self) -> list[dict]:
        if not self._has_tables():
            return []
        rows = self.journal._rows(
            "SELECT c.name, c.ruleset, c.created, (SELECT COUNT(*) FROM campaign_events e"
            " WHERE e.campaign = c.name AND e.kind = 'fight') FROM campaigns c ORDER BY c.created"
        )
        keys = ("name", "ruleset", "created", "fights")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def row(self, name: str) -> dict:
        check_name(name)
        rows = (
            self.journal._rows(
                "SELECT name, ruleset, party_path, party_toml, created, hash FROM campaigns"
                " WHERE name = ?",
                (name,),
            )
            if self._has_tables()
            else []
        )
        if not rows:
            known = ", ".join(c["name"] for c in self.names()) or "none yet"
            raise CampaignError(
                f"no campaign {name!r} in {self.journal.path} (campaigns: {known});"
                " `turnlight campaign new NAME --ruleset ID --party FILE` makes one"
            )
        keys = ("name", "ruleset", "party_path", "party_toml", "created", "hash")
        row = dict(zip(keys, rows[0], strict=True))
        if row["hash"] != _safe_digest("campaign", *(row[k] for k in keys[:5])):
            raise CampaignError(
                f"{self.journal.path}: campaign {name!r} is damaged (its row does not check)"
            )
        return row

    def new(self, name: str, ruleset_id: str, party_path: str, party_text: str) -> list[Line]:
        """Make a campaign: its party's stat lines, read and checked."""
        check_name(name)
        lines = party_lines(ruleset_id, party_text, party_path)
        created = _now()
        self._make_tables()
        with self.journal.transaction():
            if self.journal.db.execute(
                "SELECT 1 FROM campaigns WHERE name = ?", (name,)
            ).fetchone():
                raise CampaignError(
                    f"campaign {name!r} already exists (`turnlight campaign show {name}`);"
                    " choose another name"
                )
            self.journal.db.execute(
                "INSERT INTO campaigns (name, ruleset, party_path, party_toml, created, hash)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    name,
                    ruleset_id,
                    party_path,
                    party_text,
                    created,
                    _safe_digest("campaign", name, ruleset_id, party_path, party_text, created),
                ),
            )
        return lines

    # -------------------------------------------------------------------- events
    def append(self, name: str, kind: str, payload: dict) -> int:
        """Journal one of the campaign's events (inside the caller's transaction, if any)."""
        assert kind in KINDS
        text = json.dumps(payload, separators=(",", ":"), sort_keys=True)
        at = _now()
        with self.journal.transaction():
            self._check_holder(name)
            row = self.journal.db.execute(
                "SELECT seq, hash FROM campaign_events WHERE campaign = ? ORDER BY seq DESC"
                " LIMIT 1",
                (name,),
            ).fetchone()
            seq, prev = (int(row[0]) + 1, row[1]) if row else (1, None)
            self.journal.db.execute(
                "INSERT INTO campaign_events (campaign, seq, kind, payload, at, hash)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    name,
                    seq,
                    kind,
                    text,
                    at,
                    _safe_digest("cevent", prev, name, seq, kind, text, at),
                ),
            )
        return seq

    def events(self, name: str) -> list[tuple[int, str, dict]]:
        rows = self.journal._rows(
            "SELECT seq, kind, payload, at, hash FROM campaign_events WHERE campaign = ?"
            " ORDER BY seq",
            (name,),
        )
        out: list[tuple[int, str, dict]] = []
        prev = None
        for seq, kind, payload, at, stored in rows:
            ok = stored == _safe_digest("cevent", prev, name, seq, kind, payload, at)
            try:
                data = json.loads(payload) if ok else None
            except ValueError:
                data = None
            if not ok or not isinstance(data, dict) or kind not in KINDS:
                raise CampaignError(
                    f"{self.journal.path}: campaign {name!r}: its event {seq} is damaged (it"
                    " does not check): the campaign cannot be read past it"
                )
            out.append((int(seq), str(kind), data))
            prev = stored
        return out

    def fight_of(self, game: int) -> str | None:
        """The campaign whose fight game `game` is, if any."""
        if not self._has_tables():
            return None
        rows = self.journal._rows(
            "SELECT campaign, payload FROM campaign_events WHERE kind = 'fight'"
        )
        for campaign, payload in rows:
            try:
                if json.loads(payload).get("game") == game:
                    return str(campaign)
            except (ValueError, AttributeError):
                continue
        return None

    # -------------------------------------------------------------------- the hold
    def hold(self, name: str) -> None:
        """Take the campaign for this process: one session changes a campaign at a time (a
        hold whose process is gone, a crash, is taken over)."""
        me = _this_process()
        with self.journal.transaction():
            row = self.journal.db.execute(
                "SELECT pid, host, started, since FROM campaign_holders WHERE campaign = ?",
                (name,),
            ).fetchone()
            if (
                row is not None
                and (row[1], row[0], row[2]) != me
                and _alive(row[1], row[0], row[2])
            ):
                raise CampaignError(
                    f"campaign {name!r} is in use by turnlight pid {row[0]} on {row[1]} (since"
                    f" {str(row[3])[:19]} UTC): one session at a time; end that one first"
                )
            self.journal.db.execute(
                "INSERT OR REPLACE INTO campaign_holders (campaign, pid, host, started, since)"
                " VALUES (?, ?, ?, ?, ?)",
                (name, me[1], me[0], me[2], _now()),
            )

    def release(self, name: str) -> None:
        host, pid, started = _this_process()
        with self.journal.transaction():
            self.journal.db.execute(
                "DELETE FROM campaign_holders WHERE campaign = ? AND host = ? AND pid = ?"
                " AND started = ?",
                (name, host, pid, started),
            )

    @contextmanager
    def held(self, name: str) -> Iterator[None]:
        self.hold(name)
        try:
            yield
        finally:
            self.release(name)

    def _check_holder(self, name: str) -> None:
        row = self.journal.db.execute(
            "SELECT pid, host, started FROM campaign_holders WHERE campaign = ?", (name,)
        ).fetchone()
        if row is not None and (row[1], row[0], row[2]) != _this_process():
            if _alive(row[1], row[0], row[2]):
                raise CampaignError(
                    f"campaign {name!r} is in use by turnlight pid {row[0]} on {row[1]}:"
                    " one session at a time; end that one first"
                )

    # -------------------------------------------------------------------- folding
    def state(self, name: str, with_timelines: bool = False) -> State:
        """The campaign as its events and its fights' journals say now."""
        from host.core.session import resume

        row = self.row(name)
        ruleset_id = str(row["ruleset"])
        carry = carry_of(ruleset_id)
        ruleset = registry.get(ruleset_id)
        party = {
            str(line["name"]): dict(line)
            for line in party_lines(
                ruleset_id, str(row["party_toml"]), str(row["party_path"]), tried=True
            )
        }
        shared = shared_of(carry, read_toml(str(row["party_toml"]), str(row["party_path"])))
        history = [f"party of {len(party)}: {', '.join(party)}"]
        fights: list[Fight] = []
        reader = Journal(self.journal.path, write=False)
        try:
            for _seq, kind, data in self.events(name):
                if kind == "fight":
                    game_id = data.get("game")
                    if not isinstance(game_id, int) or reader.game(game_id) is None:
                        continue
                    try:
                        session = resume(reader, game_id)
                    except (IllegalAction, OneLineError) as err:
                        raise CampaignError(
                            f"campaign {name!r}: fight {len(fights) + 1} (game {game_id}) cannot"
                            f" be read: {str(err).split(': ', 1)[-1]}"
                        ) from None
                    game = session.game
                    names = [n for n in ruleset.fighter_names(game) if n in party]
                    for who, carried in carry.after(game, names).items():
                        party[who].update(carried)
                    winner = ruleset.winner(game)
                    fight = Fight(
                        game_id,
                        str(data.get("encounter") or f"--monsters {data.get('monsters', '')}"),
                        winner,
                        carry.scores(game, ruleset.summary(game), names),
                    )
                    if with_timelines:
                        fight.timeline = ruleset.timeline(game)
                        fight.panels = ruleset.chart_panels
                    fights.append(fight)
                    how = f"won by {winner}" if winner else "under way"
                    history.append(f"fight {len(fights)}: game {game_id}, {how}")
                elif kind == "rest":
                    heal = {str(k): int(v) for k, v in dict(data.get("heal", {})).items()}
                    changed, lines = carry.rest(str(data.get("kind")), party, heal)
                    for who, carried in changed.items():
                        party[who].update(carried)
                    history.append(f"{data.get('kind')} rest: " + "; ".join(lines))
                elif kind == "adjust":
                    who = str(data.get("who"))
                    if who in party:
                        party[who].update(dict(data.get("set", {})))
                        said = " ".join(f"{k}={v}" for k, v in dict(data.get("set", {})).items())
                        history.append(f"adjust {who}: {said}")
                elif kind == "join":
                    for line in list(data.get("lines", [])):
                        party[str(line["name"])] = dict(line)
                        history.append(f"{line['name']} joins the party")
                elif kind == "leave":
                    who = str(data.get("who"))
                    party.pop(who, None)
                    history.append(f"{who} leaves the party")
        finally:
            reader.close()
        return State(name, ruleset_id, carry, party, shared, fights, history)

    # -------------------------------------------------------------------- between fights
    def between(self, name: str) -> State:
        """The campaign's state, which must be between fights: CampaignError while one is
        under way."""
        state = self.state(name)
        fight = state.under_way()
        if fight is not None:
            raise CampaignError(
                f"campaign {name!r}: fight {len(state.fights)} (game {fight.game}) is not over:"
                f" `turnlight play --resume {fight.game}` and end it first"
            )
        return state

    def rest(self, name: str, kind: str, heal: dict[str, int]) -> list[str]:
        with self.held(name):
            state = self.between(name)
            if kind not in state.carry.rests:
                offered = (
                    ", ".join(state.carry.rests)
                    or "none: `campaign adjust` sets what the table decides"
                )
                raise CampaignError(f"{state.ruleset} has no {kind} rest (its rests: {offered})")
            try:
                _, lines = state.carry.rest(kind, state.party, heal)
            except IllegalAction as err:
                raise CampaignError(str(err)) from None
            self.append(name, "rest", {"kind": kind, "heal": heal})
        return lines

    def adjust(self, name: str, who: str, typed: dict[str, str]) -> str:
        """Set what the table decides on a character: `typed` {key: text}, each text read as
        `add` reads a typed value (host/core/newcomers.typed_value: a list where the line
        holds one), then checked by the Carry and the ruleset's encounter reader."""
        with self.held(name):
            state = self.between(name)
            found = _member(state, who)
            roster = state.carry.roster
            assert roster is not None
            allowed = tuple(k for k in roster.keys if k not in ("name", roster.team_key))
            allowed += tuple(k for k in state.carry.keys if k not in allowed)
            values: dict[str, Any] = {}
            for key, text in typed.items():
                if key not in allowed:
                    raise CampaignError(
                        f"adjust: {state.ruleset} takes no {key!r} (keys: {', '.join(allowed)})"
                    )
                try:
                    like = state.party[found].get(key, [] if key in state.carry.lists else None)
                    value = values[key] = typed_value(key, text, like, verb="adjust")
                except IllegalAction as err:
                    raise CampaignError(str(err)) from None
                wrong = state.carry.check_adjust(key, value)  # (its own kinds of value)
                if wrong:
                    raise CampaignError(f"adjust: {wrong}")
            line = {**state.party[found], **values}
            trial(state.ruleset, {found: line}, f"adjust {found}", state.shared)
            self.append(name, "adjust", {"who": found, "set": values})
        return f"{found}: " + ", ".join(f"{k}={v}" for k, v in values.items())

    def join(self, name: str, party_path: str, text: str) -> list[str]:
        with self.held(name):
            state = self.between(name)
            lines = party_lines(state.ruleset, text, party_path)
            for line in lines:
                if str(line["name"]).lower() in {n.lower() for n in state.party}:
                    raise CampaignError(
                        f"{party_path}: {line['name']!r} is already in the party"
                        f" (`campaign leave {name} {line['name']}` first)"
                    )
            self.append(name, "join", {"lines": lines})
        return [str(line["name"]) for line in lines]

    def leave(self, name: str, who: str) -> str:
        with self.held(name):
            state = self.between(name)
            found = _member(state, who)
            self.append(name, "leave", {"who": found})
        return found

    def start_fight(
        self, name: str, encounter_path: str | Path | None, monsters: str | None = None
    ) -> tuple[State, Any]:
        """The next fight's encounter (the party as it last stood against the encounter's
        other side, or against `monsters` from the ruleset's book), with the campaign's
        state; CampaignError while a fight is under way, when nobody of the party can fight,
        or for an encounter the ruleset's reader refuses (FILE:LINE) or a monster not in the
        book."""
        state = self.between(name)
        alive = state.alive()
        if not alive:
            raise CampaignError(
                f"campaign {name!r}: nobody of the party can fight (the dead stay dead:"
                f" `turnlight campaign adjust {name} NAME dead=false`)"
            )
        title = f"{name}, fight {len(state.fights) + 1}"
        try:
            encounter = fight_text(
                state.ruleset, alive, encounter_path, state.shared, monsters, title
            )
        except EncounterError as err:
            raise CampaignError(str(err)) from None
        except IllegalAction as err:  # (a monster not in the book)
            raise CampaignError(f"--monsters: {err}") from None
        return state, encounter


def _member(state: State, who: str) -> str:
    found = next((n for n in state.party if n.lower() == who.lower()), None)
    if found is None:
        raise CampaignError(
            f"{who!r} is not in campaign {state.name!r}'s party ({', '.join(state.party)})"
        )
    return found
