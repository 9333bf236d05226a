"""The journal's chain (issue #19, finding 6): every event carries a hash of its content and
of the hash before it, a game's row a hash of what defines it and a seal over its last
event. `play --resume`, `export` and `games` check it and name the first bad event in one
line; `export` writes the events that check, marked partial. A journal written before
chains is given them the first time it is opened for writing, and is never refused."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from host import cli
from host.core.interface import IllegalAction
from host.core.journal import Journal, digest
from host.core.session import Session, resume
from host.rulesets.korxsol import encounter_schema

LINES = ["initiative", "end", "dice power 3 3", "end", "end", "undo"]


def _played(db: Path) -> tuple[Session, int]:
    journal = Journal(db)
    s = Session(encounter_schema.load(encounter_schema.example_path()), 6, journal)
    for line in LINES:
        s.execute(line)
    assert s.game_id is not None
    journal.close()
    return s, s.game_id


def _sql(db: Path, statement: str, *args: object) -> None:
    con = sqlite3.connect(db)
    con.execute(statement, args)
    con.commit()
    con.close()


def _resume_refusal(db: Path, game: int) -> str:
    with pytest.raises(IllegalAction) as err:
        resume(Journal(db), game)
    message = str(err.value)
    assert "\n" not in message
    return message


def test_every_event_hashes_its_content_and_the_hash_before_it(tmp_path) -> None:
    db = tmp_path / "j.sqlite"
    _, game = _played(db)
    con = sqlite3.connect(db)
    cols = "id, session, created, encounter, encounter_path, encounter_toml, seed, ruleset"
    row = con.execute(f"SELECT {cols}, hash, seal FROM games").fetchone()
    assert row[-2] == digest("game", *row[:-2])
    prev = row[-2]
    events = con.execute("SELECT seq, kind, payload, at, hash FROM events ORDER BY seq").fetchall()
    for seq, kind, payload, at, stored in events:
        assert stored == digest("event", prev, game, seq, kind, payload, at)
        prev = stored
    assert row[-1] == digest("seal", row[-2], prev)
    assert len(events) == len(LINES)


def test_a_changed_event_is_named_by_resume_games_and_export(tmp_path, capsys) -> None:
    db = tmp_path / "j.sqlite"
    _, game = _played(db)
    # One die changed on disk: the game would resume into another state.
    _sql(db, "UPDATE events SET payload = replace(payload, '3,3', '3,2') WHERE seq = 3")
    bad = "event 3 is damaged (it does not match its hash); the 2 events before it check"
    assert bad in _resume_refusal(db, game)

    assert cli.main(["games", "--db", str(db)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"turnlight: game {game} is damaged: {bad}"]

    out = tmp_path / "partial.json"
    assert cli.main(["export", "--db", str(db), "--out", str(out)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"turnlight: {db}: game {game}: {bad}: writing the 2 events that check, marked partial",
        f"wrote {out}",
    ]
    doc = json.loads(out.read_text())
    assert doc["partial"] == bad and [e["seq"] for e in doc["events"]] == [1, 2]
    assert doc["final"] is None


def test_a_lost_event_in_the_middle_is_named(tmp_path) -> None:
    db = tmp_path / "j.sqlite"
    _, game = _played(db)
    _sql(db, "DELETE FROM events WHERE seq = 4")
    assert "event 4 is missing; the 3 events before it check" in _resume_refusal(db, game)


def test_lost_last_events_are_noticed(tmp_path) -> None:
    db = tmp_path / "j.sqlite"
    _, game = _played(db)
    _sql(db, "DELETE FROM events WHERE seq >= 5")
    message = _resume_refusal(db, game)
    assert f"game {game} ends after event 4 in its record but not in its events" in message


def test_a_changed_seed_or_encounter_is_noticed(tmp_path) -> None:
    db = tmp_path / "j.sqlite"
    _, game = _played(db)
    _sql(db, "UPDATE games SET seed = 7")
    message = _resume_refusal(db, game)
    assert f"game {game}'s own record (its encounter, seed or ruleset) is damaged" in message


def test_a_complete_export_says_it_is_not_partial(tmp_path, capsys) -> None:
    db = tmp_path / "j.sqlite"
    _played(db)
    assert cli.main(["export", "--db", str(db)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["partial"] is None and len(doc["events"]) == len(LINES)


def _unchained_copy(db: Path, old: Path) -> None:
    """`db` as a turnlight from before chains would have left it: no hash columns."""
    con = sqlite3.connect(db)
    con.execute("VACUUM INTO ?", (str(old),))
    con.close()
    con = sqlite3.connect(old)
    for table, column in (("games", "hash"), ("games", "seal"), ("events", "hash")):
        con.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    con.execute("DROP TABLE holders")
    con.execute("PRAGMA user_version = 0")  # as every journal before chains
    con.commit()
    con.close()


def test_a_journal_from_before_chains_is_read_as_it_is_and_chained_when_written(
    tmp_path, capsys
) -> None:
    db, old = tmp_path / "j.sqlite", tmp_path / "old.sqlite"
    played, game = _played(db)
    _unchained_copy(db, old)
    before = old.read_bytes()
    # Reading changes nothing and refuses nothing.
    assert cli.main(["games", "--db", str(old)]) == 0
    assert cli.main(["export", "--db", str(old), "--format", "csv"]) == 0
    capsys.readouterr()
    assert old.read_bytes() == before
    # The first open for writing gives it its chain; then it checks like any other.
    back = resume(Journal(old), game)
    assert back.game.snapshot() == played.game.snapshot()
    checked = Journal(old, write=False).checked(game)
    assert checked is not None and checked.chained and checked.problem is None
    _sql(old, "UPDATE events SET payload = replace(payload, '3,3', '3,2') WHERE seq = 3")
    assert "event 3 is damaged" in _resume_refusal(old, game)


def test_a_journal_cut_short_still_exports_what_remains(tmp_path, capsys) -> None:
    # SQLite refuses a file cut short whole ("database disk image is malformed"); export
    # reads a mended copy, and the chain decides how much of it is the game.
    db = tmp_path / "j.sqlite"
    _played(db)
    assert cli.main(["export", "--db", str(db)]) == 0
    whole = json.loads(capsys.readouterr().out)["events"]
    data = db.read_bytes()
    db.write_bytes(data[: len(data) - 4096])  # the last page lost
    status = cli.main(["export", "--db", str(db)])
    out, err = capsys.readouterr()
    assert status in (0, 1), err
    assert err.splitlines()[0] == (
        f"turnlight: {db} is damaged (database disk image is malformed): reading what remains of it"
    )
    events = json.loads(out)["events"]
    assert events and events == whole[: len(events)]


def test_a_chained_journal_whose_hashes_are_lost_does_not_pass_for_an_old_one(
    tmp_path, capsys
) -> None:
    # Found by `make fuzz`: a damaged schema without the hash columns read as a journal
    # from before chains, and its game was exported with nothing checked.
    db = tmp_path / "j.sqlite"
    _, game = _played(db)
    con = sqlite3.connect(db)
    con.execute("ALTER TABLE games DROP COLUMN hash")  # user_version still says: chained
    con.commit()
    con.close()
    assert cli.main(["export", "--db", str(db)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(
        f"turnlight: {db}: game {game}: game {game}'s own record has lost its hash"
    )
