"""A stored checkpoint rewritten as whoever can write the journal could: its parts
changed, its digest made to match (docs/reliability.md, "Forged checkpoints"). The
fuzzer, the bench and the tests forge with it."""

from __future__ import annotations

import sqlite3

from host.core import journal_checkpoints


def store(
    con: sqlite3.Connection, game: int, seq: int, header: str, history: str, body: bytes
) -> None:
    """Write one checkpoint row's parts with a digest that checks (commit is the caller's)."""
    event = con.execute("SELECT hash FROM events WHERE game = ? AND seq = ?", (game, seq))
    digest = journal_checkpoints._digest(header, history, body, event.fetchone()[0])
    con.execute(
        "UPDATE checkpoints SET header = ?, history = ?, body = ?, digest = ?"
        " WHERE game = ? AND seq = ?",
        (header, history, body, digest, game, seq),
    )
