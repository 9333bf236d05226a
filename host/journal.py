"""The event journal: SQLite in WAL mode, one row per event, committed before it is
acknowledged (to the board or to the person typing).

A game is rebuilt from its row in `games` (its ruleset, the encounter text and the seed)
and its events in order, which is how `turnlight play --resume` continues a killed session
exactly. What an event's payload holds is the session's business (host/session.py); the
journal only keeps it.

A tethered session also keeps its link's resume point in `link_points` (the board
session's nonce and the next board seq), written in the same transaction as the rows of
each board event: a resumed session's link then knows which board events it already has,
and applies none twice when the board resends what was never acknowledged.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from host.registry import DEFAULT

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
    ruleset TEXT NOT NULL DEFAULT '{DEFAULT}'
);
CREATE TABLE IF NOT EXISTS events (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS link_points (
    session TEXT PRIMARY KEY,
    nonce INTEGER NOT NULL,
    next_seq INTEGER NOT NULL,
    game INTEGER,
    at TEXT NOT NULL
);
"""


def default_path() -> Path:
    """The per-user data directory: $XDG_DATA_HOME/turnlight (or ~/.local/share/turnlight)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "turnlight" / "journal.sqlite"


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


class Journal:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # The link's thread applies board events while the UI's thread types commands: one
        # connection, shared, with every use under `lock`.
        self.lock = threading.RLock()
        self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # an acknowledged event survives power loss
        self.db.executescript(SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(games)")}
        if "rules" not in columns:  # a journal written before games had a rules version
            self.db.execute("ALTER TABLE games ADD COLUMN rules INTEGER NOT NULL DEFAULT 1")
        if "ruleset" not in columns:  # written when the default was the only game
            self.db.execute(
                f"ALTER TABLE games ADD COLUMN ruleset TEXT NOT NULL DEFAULT '{DEFAULT}'"
            )
        self._depth = 0  # transactions open (the outermost is BEGIN, the others savepoints)

    def close(self) -> None:
        with self.lock:
            self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything written inside commits together, or (on an exception) not at all.
        Nested uses are savepoints of the outermost; the lock is held throughout."""
        with self.lock:
            self._depth += 1
            savepoint = f"sp{self._depth}"
            self.db.execute("BEGIN IMMEDIATE" if self._depth == 1 else f"SAVEPOINT {savepoint}")
            try:
                yield
            except BaseException:
                if self._depth == 1:
                    self.db.execute("ROLLBACK")
                else:
                    self.db.execute(f"ROLLBACK TO {savepoint}")
                    self.db.execute(f"RELEASE {savepoint}")
                raise
            else:
                self.db.execute("COMMIT" if self._depth == 1 else f"RELEASE {savepoint}")
            finally:
                self._depth -= 1

    def save_link_point(self, session: str, game: int | None, point: tuple[int, int]) -> None:
        """The link's resume point (board nonce, next board seq) for a session's board."""
        with self.transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO link_points (session, nonce, next_seq, game, at)"
                " VALUES (?, ?, ?, ?, ?)",
                (session, point[0], point[1], game, _now()),
            )

    def link_point(self, session: str) -> tuple[int, int] | None:
        """The last resume point saved for a session's board link, if any."""
        rows = self._rows("SELECT nonce, next_seq FROM link_points WHERE session = ?", (session,))
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    def new_game(
        self,
        session: str,
        encounter_name: str,
        path: str,
        toml: str,
        seed: int,
        rules: int = 1,
        ruleset: str = DEFAULT,
    ) -> int:
        """A new game of `ruleset`; `rules` is the rules version its events replay under."""
        with self.lock:
            cur = self.db.execute(
                "INSERT INTO games (session, created, encounter, encounter_path, encounter_toml,"
                " seed, rules, ruleset) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (session, _now(), encounter_name, path, toml, seed, rules, ruleset),
            )
        return int(cur.lastrowid or 0)

    def append(self, game: int, kind: str, payload: dict) -> int:
        """Commit one event; when this returns, the event is on disk (or, inside a
        `transaction()`, it commits with the rest)."""
        with self.transaction():
            row = self.db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game = ?", (game,)
            ).fetchone()
            seq = int(row[0])
            self.db.execute(
                "INSERT INTO events (game, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)",
                (game, seq, kind, json.dumps(payload, separators=(",", ":")), _now()),
            )
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

    def _rows(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self.lock:
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
        return cur.rowcount > 0

    def latest_game(self) -> int | None:
        """The latest game that has events or a link resume point (one with neither has
        nothing to resume or export)."""
        row = self._rows(
            "SELECT MAX(g.id) FROM games g"
            " WHERE EXISTS (SELECT 1 FROM events e WHERE e.game = g.id)"
            " OR EXISTS (SELECT 1 FROM link_points p WHERE p.game = g.id)"
        )[0]
        return None if row[0] is None else int(row[0])

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
        return [
            {"id": r[0], "winner": r[1], "summary": json.loads(r[2]) if r[2] else None}
            for r in rows
        ]

    def events(self, game: int) -> list[tuple[int, str, dict, str]]:
        rows = self._rows(
            "SELECT seq, kind, payload, at FROM events WHERE game = ? ORDER BY seq", (game,)
        )
        return [(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]
