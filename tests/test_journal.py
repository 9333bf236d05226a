"""The journal (host/core/journal.py) records which ruleset each game is played under; a journal
written before it did (when korxsol was the only game) still opens, and its games resume
as korxsol."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from host.core.journal import Journal
from host.core.session import Session, resume
from host.rulesets.korxsol import encounter_schema
from shared import codec

# The games table as journals were written until the ruleset column came (rules was the
# last column added before it); events and link_points are unchanged.
OLD_SCHEMA = """
CREATE TABLE games (
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
    rules INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE events (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE TABLE link_points (
    session TEXT PRIMARY KEY,
    nonce INTEGER NOT NULL,
    next_seq INTEGER NOT NULL,
    game INTEGER,
    at TEXT NOT NULL
);
"""
LINES = ["initiative", "end", "dice power 3 3", "end", "undo"]


def _old_journal(path: Path) -> Session:
    """A journal of the old schema holding one game of LINES, written with raw SQL as the
    old turnlight wrote it; returns the same game played without a journal."""
    enc = encounter_schema.load(encounter_schema.example_path())
    played = Session(enc, 6)
    events: list[tuple[str, dict]] = []
    for line in LINES:
        played.execute(line)
        if line == "undo":
            events.append(("undo", {"steps": 1}))
        elif line.startswith("dice "):
            events.append(("dice", {"purpose": "power", "faces": [3, 3], "source": "entered"}))
        else:
            rolls = played.ruleset.record_json(played.done[-1].rolls)
            events.append(("action", {"text": line, "rolls": rolls}))
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.execute(
        "INSERT INTO games (session, created, encounter, encounter_path, encounter_toml, seed,"
        " rules) VALUES ('old', '2026-01-01T00:00:00', ?, ?, ?, 6, ?)",
        (enc.name, enc.path, enc.source, played.ruleset.rules_version),
    )
    for seq, (kind, payload) in enumerate(events, start=1):
        db.execute(
            "INSERT INTO events (game, seq, kind, payload, at) VALUES (1, ?, ?, ?, 'then')",
            (seq, kind, json.dumps(payload)),
        )
    db.commit()
    db.close()
    return played


def test_a_journal_from_before_rulesets_opens_and_its_games_are_korxsol(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    _old_journal(db)
    journal = Journal(db)
    assert (journal.game(1) or {})["ruleset"] == "korxsol"
    assert [g["ruleset"] for g in journal.games()] == ["korxsol"]


def test_a_game_in_a_journal_from_before_rulesets_resumes_exactly(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    played = _old_journal(db)
    back = resume(Journal(db))
    assert back.ruleset.id == "korxsol"
    assert json.dumps(back.game.snapshot(), sort_keys=True) == json.dumps(
        played.game.snapshot(), sort_keys=True
    )
    assert codec.encode(back.game.state) == codec.encode(played.game.state)
    assert back.game.roller.pending() == {"power": 1}
    back.execute("redo")  # the undone end comes back from the old journal's events
    played.execute("redo")
    assert codec.encode(back.game.state) == codec.encode(played.game.state)


def test_a_new_game_records_its_ruleset(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    s = Session(encounter_schema.load(encounter_schema.example_path()), 3, journal)
    assert s.game_id is not None
    assert (journal.game(s.game_id) or {})["ruleset"] == "korxsol"
    other = journal.new_game("s", "duel", "duel.toml", "", 1, 1, "tiny")
    assert (journal.game(other) or {})["ruleset"] == "tiny"
