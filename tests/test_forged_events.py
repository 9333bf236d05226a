"""An event rewritten as whoever can write the journal could (its hash made to match: the
chain is not keyed), holding JSON nested far deeper than any event: the journal says the
event cannot be read, in one line, instead of a RecursionError traceback (issue #27, the
finding 3.3's case for an event rather than a checkpoint's header)."""

from __future__ import annotations

import sqlite3

import pytest

from host.core import registry
from host.core.journal import Journal, JournalError, digest
from host.core.session import Session


def test_an_event_nested_too_deep_is_a_journal_error_not_a_traceback(tmp_path) -> None:
    path = tmp_path / "j.sqlite"
    ruleset = registry.get("korxsol")
    example = ruleset.example_path()
    played = Session(ruleset.parse_encounter(example.read_text(), str(example)), 3, Journal(path))
    played.execute("initiative")
    played.execute("end")
    played.journal.close()  # type: ignore[union-attr]
    con = sqlite3.connect(path)
    rows = con.execute(
        "SELECT seq, kind, payload, at, hash FROM events WHERE game = ? ORDER BY seq",
        (played.game_id,),
    ).fetchall()
    seq, kind, _, at, _ = rows[-1]
    deep = '{"x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    forged = digest("event", rows[-2][4], played.game_id, seq, kind, deep, at)
    con.execute(
        "UPDATE events SET payload = ?, hash = ? WHERE game = ? AND seq = ?",
        (deep, forged, played.game_id, seq),
    )
    con.commit()
    con.close()
    with pytest.raises(JournalError, match=f"event {seq} cannot be read") as refused:
        Journal(path).events(played.game_id)
    assert "\n" not in str(refused.value)


def test_games_spells_out_a_control_character_a_journal_row_holds(tmp_path) -> None:
    """A name in an old journal (or a forger's) never reaches the terminal as an escape
    code: `games` spells it out (issue #27, 3.6)."""
    import subprocess
    import sys

    path = tmp_path / "j.sqlite"
    ruleset = registry.get("korxsol")
    example = ruleset.example_path()
    played = Session(ruleset.parse_encounter(example.read_text(), str(example)), 3, Journal(path))
    played.execute("initiative")
    played.journal.close()  # type: ignore[union-attr]
    con = sqlite3.connect(path)
    title = "Ridge\x1b]0;pwned\x07\x1b[2J"
    con.execute("UPDATE games SET encounter = ? WHERE id = ?", (title, played.game_id))
    con.commit()
    con.close()
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "games", "--db", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "\x1b" not in done.stdout + done.stderr and "\x07" not in done.stdout
    assert "\\x1b" in done.stdout
