"""The event journal: SQLite in WAL mode, one row per event, committed before it is
acknowledged (to the board or to the person typing).

A game is rebuilt from its row in `games` (its ruleset, the encounter text and the seed)
and its events in order, which is how `turnlight play --resume` continues a killed session
exactly. What an event's payload holds is the session's business (host/core/session.py); the
journal only keeps it.

A tethered session also keeps its link's resume point in `link_points` (the board
session's nonce and the next board seq), written in the same transaction as the rows of
each board event: a resumed session's link then knows which board events it already has,
and applies none twice when the board resends what was never acknowledged.

The chain (docs/reliability.md): a game's row carries `hash`, a hash of what defines the
game (its encounter, seed, ruleset, session and start); each event carries a hash of its
content and of the hash before it (the game's for event 1); the game's `seal` is a hash of
the game's hash and its last event's, so a lost tail shows too. `checked()` walks the chain
and stops at the first event that does not match: what comes before it is intact. A journal
written before there were chains is given them the first time it is opened for writing.

Holds: a game is played by one session at a time. Starting or resuming a game takes its row
in `holders` (the session, the process id, its host and the process's start time); the
hold goes when the journal is closed or the process ends, and a hold whose process is gone
(a crash) is stale and taken over.

Reading commands (`games`, `export`) open the journal read-only (`write=False`): they
change nothing in it, and read a journal they may not write.
"""

from __future__ import annotations

import atexit
import datetime as _dt
import hashlib
import json
import os
import shutil
import socket
import sqlite3
import sys
import tempfile
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from host.core.errors import OneLineError

# The ruleset of a game whose row names none: journals written before games named their
# ruleset were all korxsol's.
UNNAMED_RULESET = "korxsol"

# PRAGMA user_version: 0 = written before chains (given them on open); 2 = chained; 3 = with
# the `checkpoints` table (host/core/journal_checkpoints.py; a version-2 journal is given it on
# open, as CREATE TABLE IF NOT EXISTS below, and needs nothing else).
FORMAT = 3
CHAINED = 2  # the first version whose games and events carry their hashes

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    session TEXT NOT NULL,
    created TEXT NOT NULL,
    encounter TEXT NOT NULL,
    encounter_path TEXT NOT NULL,
    encounter_toml TEXT NOT NULL,
    seed INTEGER NOT NULL,
    winner TEXT,
    finished TEXT,
    summary TEXT,
    rules INTEGER NOT NULL DEFAULT 1,
    ruleset TEXT NOT NULL DEFAULT '{UNNAMED_RULESET}',
    hash TEXT,
    seal TEXT
);
CREATE TABLE IF NOT EXISTS events (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at TEXT NOT NULL,
    hash TEXT,
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS link_points (
    session TEXT PRIMARY KEY,
    nonce INTEGER NOT NULL,
    next_seq INTEGER NOT NULL,
    game INTEGER,
    at TEXT NOT NULL,
    hash TEXT
);
CREATE TABLE IF NOT EXISTS checkpoints (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    header TEXT NOT NULL,
    history TEXT NOT NULL,
    body BLOB NOT NULL,
    digest TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS holders (
    game INTEGER PRIMARY KEY,
    session TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started TEXT NOT NULL,
    since TEXT NOT NULL
);
"""
# Columns added since the first journals: (table, column, its definition when added, the
# value an older journal's rows read as).
ADDED_COLUMNS = (
    ("games", "rules", "INTEGER NOT NULL DEFAULT 1", "1"),
    ("games", "ruleset", f"TEXT NOT NULL DEFAULT '{UNNAMED_RULESET}'", f"'{UNNAMED_RULESET}'"),
    ("games", "hash", "TEXT", "NULL"),
    ("games", "seal", "TEXT", "NULL"),
    ("events", "hash", "TEXT", "NULL"),
    ("link_points", "hash", "TEXT", "NULL"),
)
# Settings journalled whole and read back by their latest event (Journal.last_event): the
# session's `dice-from` and `secrets`, the web console's `web` token. A partial index finds
# them without walking every event of a long game, and costs nothing for the rest.
SETTINGS = ("dice-from", "secrets", "web")
_SETTING = "kind IN ({})".format(", ".join(f"'{kind}'" for kind in SETTINGS))
INDEXES = f"CREATE INDEX IF NOT EXISTS events_settings ON events (game, kind, seq) WHERE {_SETTING}"
RECORD = "id, session, created, encounter, encounter_path, encounter_toml, seed, ruleset"


class JournalError(OneLineError):
    """The journal cannot be opened, read or written as asked; one line naming the file.
    `damaged`: SQLite found the file itself damaged (Journal.salvaged may read the rest)."""

    def __init__(self, message: str, damaged: bool = False) -> None:
        super().__init__(message)
        self.damaged = damaged


class GameHeld(JournalError):
    """Another live session plays this game."""


@dataclass
class Checked:
    """A game's events as far as its chain checks, and what is wrong with the next one
    (`problem`, one line; None when every event and the seal check)."""

    events: list[tuple[int, str, dict, str]]
    problem: str | None
    chained: bool  # False: a game from a journal before chains, read as it is


def default_path() -> Path:
    """The per-user data directory: $XDG_DATA_HOME/turnlight (or ~/.local/share/turnlight)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "turnlight" / "journal.sqlite"


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


class _Unhashable(Exception):
    """A value of a type the journal never writes there: the row is damaged."""


def digest(*values: object) -> str:
    """The chain's hash of a row's values: each is NULL, an integer or text; anything else
    (what a damaged file can hold) raises _Unhashable."""
    h = hashlib.blake2b(digest_size=16)
    for value in values:
        if value is None:
            h.update(b"n;")
        elif isinstance(value, int) and not isinstance(value, bool):
            h.update(b"i%d;" % value)
        elif isinstance(value, str):
            data = value.encode("utf-8", "surrogateescape")
            h.update(b"s%d:" % len(data) + data)
        else:
            raise _Unhashable(type(value).__name__)
    return h.hexdigest()


def _safe_digest(*values: object) -> str | None:
    try:
        return digest(*values)
    except _Unhashable:
        return None


def _text(data: bytes) -> str:
    # Text that is not UTF-8 (a damaged file) is kept byte for byte, so its hash tells.
    return data.decode("utf-8", "surrogateescape")


def _why(path: Path, err: sqlite3.Error) -> str:
    """What SQLite said, as one line for a person."""
    text = " ".join(str(err).split())  # a damaged schema's SQL comes with its newlines
    if len(text) > 160:
        text = text[:160] + "..."
    if "not a database" in text:
        return f"{path} is not a turnlight journal, or is damaged past reading ({text})"
    if "malformed" in text or getattr(err, "sqlite_errorname", "") == "SQLITE_CORRUPT":
        return f"{path} is damaged ({text})"
    if "readonly" in text:
        return f"cannot write the journal {path}: it is read-only ({text})"
    if "unable to open" in text:
        return f"cannot open the journal {path} ({text})"
    if "locked" in text or "busy" in text:
        return f"the journal {path} is busy: another program kept it locked ({text})"
    if "no such table" in text or "no such column" in text:
        return f"{path} is not a turnlight journal ({text})"
    return f"the journal {path}: {text}"


def _forget_lost_tables(copy: Path, pages: int) -> None:
    """Drop from a salvage copy's schema the tables and indexes whose first page is gone
    (SQLite refuses a whole schema for one): what is left of the others can be read."""
    try:
        db = sqlite3.connect(str(copy), isolation_level=None)
        try:
            db.execute("PRAGMA writable_schema=ON")
            db.execute(
                "DELETE FROM sqlite_master WHERE typeof(rootpage) != 'integer'"
                " OR rootpage < 1 OR rootpage > ?",
                (pages,),
            )
        finally:
            db.close()
    except (sqlite3.Error, UnicodeDecodeError):
        pass  # the schema itself is unreadable: the copy is read as it is, or not at all


def _damaged(err: sqlite3.Error) -> bool:
    text = str(err)
    return "malformed" in text or getattr(err, "sqlite_errorname", "") == "SQLITE_CORRUPT"


class Journal:
    def __init__(self, path: str | Path, write: bool = True):
        self.path = Path(path)
        self.writable = write
        # The link's thread applies board events while the UI's thread types commands: one
        # connection, shared, with every use under `lock`.
        self.lock = threading.RLock()
        self._depth = 0  # transactions open (the outermost is BEGIN, the others savepoints)
        self._held: set[int] = set()  # games this journal holds for this process
        self._format = 0  # PRAGMA user_version as found: CHAINED and later are chained
        if write:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                folder = err.filename or self.path.parent
                raise JournalError(
                    f"cannot create the folder {folder} for the journal: {err.strerror or err}"
                ) from None
        with self._sqlite():
            if write:
                self.db = sqlite3.connect(
                    str(self.path), isolation_level=None, check_same_thread=False
                )
            else:
                uri = "file:" + quote(str(self.path.resolve())) + "?mode=ro"
                self.db = sqlite3.connect(
                    uri, uri=True, isolation_level=None, check_same_thread=False
                )
        self.db.text_factory = _text
        # Whatever ends this journal (close, garbage collection, the end of the process),
        # its holds go with it.
        self._let_go = weakref.finalize(self, _let_go, self.db, self.lock, self._held)
        try:
            with self._sqlite():
                if write:
                    self._open_for_writing()
                else:
                    self._open_for_reading()
        except BaseException:
            self.close()
            raise

    def _open_for_writing(self) -> None:
        self._format = self._version()
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # an acknowledged event survives power loss
        with self.transaction():
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            for table, column, definition, _ in ADDED_COLUMNS:
                if column not in self._columns(table):  # a journal from before the column
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")
            self.db.execute(INDEXES)
            # Only a journal from before chains is given them: in a chained one, a row
            # without a hash is damage, to be reported, not covered over.
            if self._format < CHAINED:
                self._chain_old_games()
            # Also the first write: a journal that cannot be written says so here, before
            # a game starts, not at its first event.
            self.db.execute(f"PRAGMA user_version = {FORMAT}")
            self._format = FORMAT

    def _open_for_reading(self) -> None:
        """Read a journal as it is: an older one's missing tables and columns read as
        empty and as their defaults (through temporary views that change nothing on disk)."""
        self.db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        self._format = self._version()
        for statement in SCHEMA.split(";"):
            if not statement.strip():
                continue
            table = statement.split("EXISTS", 1)[1].split("(", 1)[0].strip()
            have = self._columns(table)
            if not have:
                self.db.execute(
                    statement.replace("CREATE TABLE IF NOT EXISTS", "CREATE TEMP TABLE")
                )
                continue
            added = [
                f"{default} AS {column}"
                for t, column, _, default in ADDED_COLUMNS
                if t == table and column not in have
            ]
            if added:
                self.db.execute(
                    f"CREATE TEMP VIEW {table} AS SELECT *, {', '.join(added)} FROM main.{table}"
                )

    @classmethod
    def salvaged(cls, path: str | Path) -> Journal:
        """A read-only journal over a mended copy of a damaged file: its whole pages, with
        the header's page count set to what is there and its WAL flag cleared, so SQLite
        reads whatever pages remain (a file cut short is refused whole otherwise). The
        chain still decides which events are the game's."""
        path = Path(path)
        try:
            data = bytearray(path.read_bytes())
        except OSError as err:
            raise JournalError(f"cannot read the journal {path}: {err.strerror}") from None
        size = int.from_bytes(data[16:18], "big") if len(data) >= 100 else 0
        size = 65536 if size == 1 else size
        if not data.startswith(b"SQLite format 3\x00") or size < 512 or size & (size - 1):
            raise JournalError(f"{path} is damaged past reading: its header is gone")
        pages = len(data) // size
        if pages < 1:
            raise JournalError(f"{path} is damaged past reading: not one page is left")
        del data[pages * size :]
        data[28:32] = pages.to_bytes(4, "big")
        data[18] = data[19] = 1  # a rollback journal: no -wal or -shm file is wanted
        folder = Path(tempfile.mkdtemp(prefix="turnlight-salvage-"))
        atexit.register(shutil.rmtree, folder, True)
        copy = folder / path.name
        copy.write_bytes(bytes(data))
        _forget_lost_tables(copy, pages)
        try:
            journal = cls(copy, write=False)
        except JournalError as err:
            raise JournalError(str(err).replace(str(copy), str(path)), err.damaged) from None
        journal.path = path  # what every message names
        return journal

    def _version(self) -> int:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        return version if isinstance(version, int) else 0

    def _columns(self, table: str) -> set[str]:
        return {row[1] for row in self.db.execute(f"PRAGMA main.table_info({table})")}

    def close(self) -> None:
        """Let go of the games this journal holds, and close it."""
        self._let_go()

    @contextmanager
    def _sqlite(self) -> Iterator[None]:
        """SQLite's errors (a damaged, read-only or locked file) as one JournalError line."""
        try:
            yield
        except sqlite3.Error as err:
            raise JournalError(_why(self.path, err), _damaged(err)) from None
        except UnicodeDecodeError:  # SQLite's message quotes bytes from a damaged schema
            raise JournalError(
                f"{self.path} is damaged (its schema cannot be read)", True
            ) from None

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything written inside commits together, or (on an exception) not at all.
        Nested uses are savepoints of the outermost; the lock is held throughout."""
        with self.lock, self._sqlite():
            self._depth += 1
            savepoint = f"sp{self._depth}"
            try:
                self.db.execute("BEGIN IMMEDIATE" if self._depth == 1 else f"SAVEPOINT {savepoint}")
                try:
                    yield
                    self.db.execute("COMMIT" if self._depth == 1 else f"RELEASE {savepoint}")
                except BaseException:
                    self._roll_back(savepoint)
                    raise
            finally:
                self._depth -= 1

    def _roll_back(self, savepoint: str) -> None:
        try:
            if self._depth == 1:
                self.db.execute("ROLLBACK")
            else:
                self.db.execute(f"ROLLBACK TO {savepoint}")
                self.db.execute(f"RELEASE {savepoint}")
        except sqlite3.Error:  # SQLite already rolled back (a failed COMMIT, a full disk)
            pass

    @contextmanager
    def _snapshot(self) -> Iterator[None]:
        """Reads that see one state of the file, even while another process writes."""
        with self.lock, self._sqlite():
            if self._depth:
                yield
                return
            self.db.execute("BEGIN")
            try:
                yield
            finally:
                try:
                    self.db.execute("COMMIT")
                except sqlite3.Error:
                    pass

    # ------------------------------------------------------------------ the chain
    def _chain_old_games(self) -> None:
        """Give the games of a journal written before chains theirs (each game whose row
        and events have no hash yet), and hash its link points."""
        old = self.db.execute(
            "SELECT id FROM games WHERE hash IS NULL AND NOT EXISTS"
            " (SELECT 1 FROM events e WHERE e.game = games.id AND e.hash IS NOT NULL)"
        ).fetchall()
        for (game,) in old:
            row = self.db.execute(f"SELECT {RECORD} FROM games WHERE id = ?", (game,)).fetchone()
            record = _safe_digest("game", *row) if row is not None else None
            if record is None:
                continue  # damaged already: left unchained, and reported when read
            last = record
            events = self.db.execute(
                "SELECT seq, kind, payload, at FROM events WHERE game = ? ORDER BY seq", (game,)
            ).fetchall()
            for seq, kind, payload, at in events:
                last = _safe_digest("event", last, game, seq, kind, payload, at) or ""
                self.db.execute(
                    "UPDATE events SET hash = ? WHERE game = ? AND seq = ?", (last, game, seq)
                )
            seal = digest("seal", record, last if events else None)
            self.db.execute(
                "UPDATE games SET hash = ?, seal = ? WHERE id = ?", (record, seal, game)
            )
        points = self.db.execute(
            "SELECT session, nonce, next_seq, game, at FROM link_points WHERE hash IS NULL"
        ).fetchall()
        for point in points:
            self.db.execute(
                "UPDATE link_points SET hash = ? WHERE session = ?",
                (_safe_digest("link", *point) or "", point[0]),
            )

    def checked(self, game: int, after: int = 0) -> Checked | None:
        """A game's events in order as far as the chain checks (None: no such game). A
        game from before chains (no hashes at all) is read as it is. With `after`, only
        the events after that seq, their chain taken from event `after`'s stored hash (a
        stored checkpoint's digest covers that hash: host/core/journal_checkpoints.py)."""
        with self._snapshot():
            row = self.db.execute(
                f"SELECT {RECORD}, hash, seal FROM games WHERE id = ?", (game,)
            ).fetchone()
            if row is None:
                return None
            record, seal = row[-2], row[-1]
            # In a chained journal every game has its hash: one without (a damaged row or
            # schema) must not pass for a game from before chains.
            chained = record is not None or self._format >= CHAINED
            problem = None
            if record is None and chained:
                problem = f"game {game}'s own record has lost its hash (the journal is damaged)"
            elif chained and _safe_digest("game", *row[:-2]) != record:
                problem = f"game {game}'s own record (its encounter, seed or ruleset) is damaged"
            start = record
            if after:
                found = self.db.execute(
                    "SELECT hash FROM events WHERE game = ? AND seq = ?", (game, after)
                ).fetchone()
                start = found[0] if found is not None else None
                if found is None and problem is None:
                    problem = f"event {after} is missing"
            events, last, problem = self._walk(game, start, chained, problem, after)
            if after and last is None:
                last = start
            if problem is None and chained and seal != _safe_digest("seal", record, last):
                n = after + len(events)
                problem = (
                    f"game {game} ends after event {n} in its record but not in its events:"
                    f" events after {n} are missing, or the record is damaged"
                )
        return Checked(events, problem, chained)

    def _walk(
        self, game: int, record: str | None, chained: bool, problem: str | None, after: int = 0
    ) -> tuple[list[tuple[int, str, dict, str]], str | None, str | None]:
        """The events that check (after seq `after`, the chain starting at `record`), the
        last one's hash, and what is wrong after them."""
        events: list[tuple[int, str, dict, str]] = []
        last: str | None = None
        prev = record
        try:
            cursor = self.db.execute(
                "SELECT seq, kind, payload, at, hash FROM events WHERE game = ? AND seq > ?"
                " ORDER BY seq",
                (game, after),
            )
            while problem is None:
                row = cursor.fetchone()
                if row is None:
                    break
                seq, kind, payload, at, stored = row
                want = after + len(events) + 1
                if chained or stored is not None:
                    if stored is None or _safe_digest("event", prev, game, *row[:4]) != stored:
                        later = isinstance(seq, int) and seq > want and stored is not None
                        what = "is missing" if later else "is damaged (it does not match its hash)"
                        problem = f"event {want} {what}"
                        break
                try:
                    payload = json.loads(payload)
                    if not (isinstance(payload, dict) and isinstance(kind, str)):
                        raise ValueError("not an event")
                except (TypeError, ValueError, RecursionError):  # deep nesting: a forger's
                    problem = f"event {want} cannot be read"
                    break
                events.append((seq, kind, payload, str(at)))
                prev = last = stored
        except sqlite3.Error as err:
            problem = f"the journal is damaged after event {len(events)} ({err})"
        if problem is not None and events:
            since = f" after event {after}" if after else ""
            problem += f"; the {len(events)} events{since} before it check"
        return events, last, problem

    def _seal(self, game: int) -> None:
        """Seal a game's row over its last event (inside a write transaction)."""
        record = self.db.execute("SELECT hash FROM games WHERE id = ?", (game,)).fetchone()
        last = self.db.execute(
            "SELECT hash FROM events WHERE game = ? ORDER BY seq DESC LIMIT 1", (game,)
        ).fetchone()
        if record is not None and record[0] is not None:
            seal = _safe_digest("seal", record[0], last[0] if last else None)
            self.db.execute("UPDATE games SET seal = ? WHERE id = ?", (seal, game))

    # ------------------------------------------------------------------ holds
    def hold(self, game: int, session: str) -> str | None:
        """Take `game` for this process, or raise GameHeld naming the session that has it.
        Returns a notice when the hold of a process that is gone (a crash) was taken over."""
        me = _this_process()
        notice = None
        with self.transaction():
            row = self.db.execute(
                "SELECT session, pid, host, started, since FROM holders WHERE game = ?", (game,)
            ).fetchone()
            if row is not None and (row[2], row[1], row[3]) != me:
                other, pid, host, started, since = row
                if _alive(host, pid, started):
                    raise GameHeld(
                        f"game {game} is being played by another session: turnlight pid {pid}"
                        f" on {host} (session {other}, since {str(since)[:19]} UTC); a game is"
                        " played by one session at a time: end that one first"
                    )
                notice = (
                    f"game {game} was held by turnlight pid {pid} on {host}, which ended"
                    " without letting go (a crash?): this session takes it over"
                )
            self.db.execute(
                "INSERT OR REPLACE INTO holders (game, session, pid, host, started, since)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game, session, me[1], me[0], me[2], _now()),
            )
        self._held.add(game)
        return notice

    def _check_not_taken(self, game: int) -> None:
        """Raise GameHeld if another process holds `game` now (it took over a hold it
        judged stale): two sessions must never interleave one game's events."""
        if game not in self._held:
            return
        row = self.db.execute(
            "SELECT session, pid, host, started FROM holders WHERE game = ?", (game,)
        ).fetchone()
        if row is not None and (row[2], row[1], row[3]) != _this_process():
            raise GameHeld(
                f"game {game} was taken over by turnlight pid {row[1]} on {row[2]} (session"
                f" {row[0]}): this session's event is not journalled; end this session"
            )

    def release(self, game: int) -> None:
        """Let go of a game this process holds (another session may then resume it)."""
        if game in self._held:
            _release(self.db, self.lock, game)
            self._held.discard(game)

    # ------------------------------------------------------------------ writing
    def save_link_point(self, session: str, game: int | None, point: tuple[int, int]) -> None:
        """The link's resume point (board nonce, next board seq) for a session's board."""
        at = _now()
        with self.transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO link_points (session, nonce, next_seq, game, at, hash)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (session, point[0], point[1], game, at, digest("link", session, *point, game, at)),
            )

    def link_point(self, session: str) -> tuple[int, int] | None:
        """The last resume point saved for a session's board link, if any."""
        rows = self._rows(
            "SELECT session, nonce, next_seq, game, at, hash FROM link_points WHERE session = ?",
            (session,),
        )
        if not rows:
            return None
        row = rows[0]
        if row[5] is not None and _safe_digest("link", *row[:5]) != row[5]:
            raise JournalError(
                f"{self.path}: the board link's resume point for session {session} is damaged:"
                " `turnlight play --resume --no-board` continues the game without the board"
            )
        return (int(row[1]), int(row[2]))

    def new_game(
        self,
        session: str,
        encounter_name: str,
        path: str,
        toml: str,
        seed: int,
        rules: int = 1,
        ruleset: str = UNNAMED_RULESET,
    ) -> int:
        """A new game of `ruleset`, held by this process; `rules` is the rules version its
        events replay under."""
        created = _now()
        with self.transaction():
            cur = self.db.execute(
                "INSERT INTO games (session, created, encounter, encounter_path, encounter_toml,"
                " seed, rules, ruleset) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (session, created, encounter_name, path, toml, seed, rules, ruleset),
            )
            game = int(cur.lastrowid or 0)
            record = digest(
                "game", game, session, created, encounter_name, path, toml, seed, ruleset
            )
            self.db.execute(
                "UPDATE games SET hash = ?, seal = ? WHERE id = ?",
                (record, digest("seal", record, None), game),
            )
            self.hold(game, session)
        return game

    def append(self, game: int, kind: str, payload: dict) -> int:
        """Commit one event; when this returns, the event is on disk (or, inside a
        `transaction()`, it commits with the rest)."""
        text = json.dumps(payload, separators=(",", ":"))
        at = _now()
        with self.transaction():
            self._check_not_taken(game)
            row = self.db.execute(
                "SELECT seq, hash FROM events WHERE game = ? ORDER BY seq DESC LIMIT 1", (game,)
            ).fetchone()
            if row is None:
                seq = 1
                prev = self.db.execute("SELECT hash FROM games WHERE id = ?", (game,)).fetchone()
                prev_hash = prev[0] if prev else None
            else:
                seq, prev_hash = int(row[0]) + 1, row[1]
            self.db.execute(
                "INSERT INTO events (game, seq, kind, payload, at, hash) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    game,
                    seq,
                    kind,
                    text,
                    at,
                    _safe_digest("event", prev_hash, game, seq, kind, text, at),
                ),
            )
            self._seal(game)
        return seq

    def finish(self, game: int, winner: str, summary: dict) -> None:
        with self.transaction():
            self.db.execute(
                "UPDATE games SET winner = ?, finished = ?, summary = ? WHERE id = ?",
                (winner, _now(), json.dumps(summary), game),
            )

    def unfinish(self, game: int) -> None:
        with self.transaction():
            self.db.execute(
                "UPDATE games SET winner = NULL, finished = NULL, summary = NULL WHERE id = ?",
                (game,),
            )

    def set_rules(self, game: int, rules: int) -> None:
        """The rules version a game's events replay under, from now on (a resumed game
        from other rules that replays the same continues under these)."""
        with self.transaction():
            self.db.execute("UPDATE games SET rules = ? WHERE id = ?", (rules, game))

    def discard_if_empty(self, game: int) -> bool:
        """Remove a game that has no events (a `play` that never got going: its port did
        not open, or it was quit at once); True if it was removed. A game with events, or
        with a link resume point (a refused board press), is never touched."""
        with self.transaction():
            cur = self.db.execute(
                "DELETE FROM games WHERE id = ? AND NOT EXISTS"
                " (SELECT 1 FROM events WHERE events.game = games.id) AND NOT EXISTS"
                " (SELECT 1 FROM link_points WHERE link_points.game = games.id)",
                (game,),
            )
            removed = cur.rowcount > 0
            if removed:
                self.db.execute("DELETE FROM holders WHERE game = ?", (game,))
        if removed:
            self._held.discard(game)
        return removed

    # ------------------------------------------------------------------ reading
    def _rows(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self.lock, self._sqlite():
            return self.db.execute(sql, args).fetchall()

    def game(self, game: int) -> dict | None:
        rows = self._rows(
            "SELECT id, session, created, encounter, encounter_path, encounter_toml, seed, winner,"
            " finished, summary, rules, ruleset FROM games WHERE id = ?",
            (game,),
        )
        if not rows:
            return None
        row = rows[0]
        keys = (
            "id",
            "session",
            "created",
            "encounter",
            "encounter_path",
            "encounter_toml",
            "seed",
            "winner",
            "finished",
            "summary",
            "rules",
            "ruleset",
        )
        return dict(zip(keys, row, strict=False))

    def latest_game(self) -> int | None:
        """The latest game that has events or a link resume point (one with neither has
        nothing to resume or export)."""
        row = self._rows(
            "SELECT MAX(g.id) FROM games g"
            " WHERE EXISTS (SELECT 1 FROM events e WHERE e.game = g.id)"
            " OR EXISTS (SELECT 1 FROM link_points p WHERE p.game = g.id)"
        )[0]
        return None if not isinstance(row[0], int) else int(row[0])

    def games(self) -> list[dict]:
        rows = self._rows(
            "SELECT g.id, g.session, g.created, g.ruleset, g.encounter, g.seed, g.winner,"
            " g.finished, (SELECT COUNT(*) FROM events e WHERE e.game = g.id)"
            " FROM games g ORDER BY g.id"
        )
        keys = (
            "id",
            "session",
            "created",
            "ruleset",
            "encounter",
            "seed",
            "winner",
            "finished",
            "events",
        )
        return [dict(zip(keys, r, strict=False)) for r in rows]

    def session_games(self, session: str) -> list[dict]:
        rows = self._rows(
            "SELECT id, winner, summary FROM games WHERE session = ? ORDER BY id", (session,)
        )
        return [{"id": r[0], "winner": r[1], "summary": _summary(r[2])} for r in rows]

    def last_event(self, game: int, kind: str) -> dict | None:
        """The payload of a game's latest event of `kind` (None: none, or not a JSON
        object). Settings journalled whole (the session's `secrets`) are read so, before
        any checkpoint a resume starts from. One of SETTINGS is found through its index (the
        index is used only when the query repeats its condition word for word)."""
        setting = f" AND {_SETTING}" if kind in SETTINGS else ""
        rows = self._rows(
            f"SELECT payload FROM events WHERE game = ? AND kind = ?{setting}"
            " ORDER BY seq DESC LIMIT 1",
            (game, kind),
        )
        if not rows:
            return None
        try:
            payload = json.loads(_text(rows[0][0]) if isinstance(rows[0][0], bytes) else rows[0][0])
        except (TypeError, ValueError, RecursionError):
            return None
        return payload if isinstance(payload, dict) else None

    def events(self, game: int) -> list[tuple[int, str, dict, str]]:
        """A game's events; raises JournalError at the first that does not check."""
        checked = self.checked(game)
        if checked is None:
            return []
        if checked.problem is not None:
            raise JournalError(f"{self.path}: game {game}: {checked.problem}")
        return checked.events


def _summary(text: object) -> dict | None:
    """A finished game's recorded statistics (None: none, or not readable)."""
    try:
        summary = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        return None
    return summary if isinstance(summary, dict) else None


# ---------------------------------------------------------------------- holders' liveness
def _this_process() -> tuple[str, int, str]:
    return socket.gethostname(), os.getpid(), _started(os.getpid())


def _started(pid: int) -> str:
    """When process `pid` started, as the system counts it (Linux: /proc/PID/stat, field
    22), to tell a process from a later one given the same id; '' where it is not known."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[19].decode()
    except (OSError, IndexError, UnicodeDecodeError):
        return ""


def _alive(host: object, pid: object, started: object) -> bool:
    """Whether the process that took a hold still runs. One on another host is not: a
    journal in WAL mode cannot be shared between machines (SQLite's WAL needs memory both
    processes share), so such a hold came with a copied file."""
    if host != socket.gethostname() or not isinstance(pid, int) or pid <= 0:
        return False
    if not _running(pid):
        return False
    now = _started(pid)
    return not (now and isinstance(started, str) and started and now != started)


def _running(pid: int) -> bool:
    if sys.platform == "win32":  # os.kill would end the process there
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        handle = kernel32.OpenProcess(0x1000, False, pid)  # QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        code = ctypes.c_ulong()
        kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
        kernel32.CloseHandle(handle)
        return code.value == 259  # STILL_ACTIVE
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it runs
        return True
    except (OSError, OverflowError):
        return False
    return True


def _release(db: sqlite3.Connection, lock: threading.RLock, game: int) -> None:
    host, pid, started = _this_process()
    with lock:
        db.execute(
            "DELETE FROM holders WHERE game = ? AND host = ? AND pid = ? AND started = ?",
            (game, host, pid, started),
        )


def _let_go(db: sqlite3.Connection, lock: threading.RLock, held: set[int]) -> None:
    """Release a journal's holds and close it (at close, collection or exit)."""
    try:
        for game in sorted(held):
            _release(db, lock, game)
    except sqlite3.Error:
        pass  # a journal that cannot be written: the hold is stale once this process ends
    held.clear()
    with lock:
        db.close()
