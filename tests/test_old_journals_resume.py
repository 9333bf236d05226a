"""Journals written before the house move (issue #25) still resume: tests/old_journals holds
one game of each built-in ruleset, journalled by the code of the commit before the move,
with checkpoints stored in the journal that name their classes by the old module paths
(`host.korxsol.fighter`, ...). Each must resume from its latest stored checkpoint (the
old paths mapped to the new, host/core/plain_data.py MOVED_MODULES) to the very game it
was, and a new journal of the same game must resume the same way."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from demo_games import play, seen

from host.core import journal_checkpoints, memory_checkpoints, registry
from host.core.journal import Journal
from host.core.session import Session, resume

OLD = Path(__file__).parent / "old_journals"
EXPECTED = json.loads((OLD / "expected.json").read_text(encoding="utf-8"))


@pytest.fixture
def begun(monkeypatch) -> list[Any]:
    """What each resume began from: a stored checkpoint's Start, or None (a full replay)."""
    found: list[Any] = []
    real = journal_checkpoints.begin

    def spy(*args: Any) -> Any:
        start = real(*args)
        found.append(start)
        return start

    monkeypatch.setattr(journal_checkpoints, "begin", spy)
    return found


def written_under(path: Path) -> tuple[int, int]:
    """The rules and state versions the journal's latest checkpoint was written under."""
    with closing(sqlite3.connect(path)) as db:
        header = db.execute("SELECT header FROM checkpoints ORDER BY seq DESC").fetchone()[0]
    return json.loads(header)["rules"], json.loads(header)["state"]


@pytest.mark.parametrize("ruleset_id", sorted(EXPECTED))
def test_a_journal_written_before_the_move_resumes_from_its_stored_checkpoint(
    ruleset_id: str, tmp_path: Path, begun: list[Any]
) -> None:
    path = tmp_path / "old.sqlite"
    shutil.copy(OLD / f"{ruleset_id}.sqlite", path)
    journal = Journal(path, write=False)
    try:
        session = resume(journal)
    finally:
        journal.close()
    assert session.ruleset.id == ruleset_id
    assert len(session.done) == EXPECTED[ruleset_id]["actions"]
    assert seen(session) == EXPECTED[ruleset_id]["snapshot"]
    ruleset = session.ruleset
    if written_under(path) != (ruleset.rules_version, ruleset.state_version):
        # Its rules or its game's shape have changed since (issue #26: advance's rules v2,
        # flare's encounter options): its checkpoints are refused, and the game replays to
        # the very game it was.
        assert not any(begun), "a checkpoint of other rules or another shape was taken"
    else:
        assert begun and begun[0] is not None, "the old checkpoint was refused: it replayed"
    assert "host.rulesets." not in (OLD / f"{ruleset_id}.sqlite").read_bytes().decode("latin-1")


@pytest.mark.parametrize("ruleset_id", sorted(EXPECTED))
def test_a_journal_written_after_the_move_resumes_to_the_same_game(
    ruleset_id: str, tmp_path: Path, monkeypatch, begun: list[Any]
) -> None:
    # The same game, played again with the same seed and the same small checkpoint spacing
    # the old journals were written with.
    monkeypatch.setattr(journal_checkpoints, "EVERY", 4)
    monkeypatch.setattr(journal_checkpoints, "RECENT", 5)
    monkeypatch.setattr(journal_checkpoints, "TAIL", 3)
    monkeypatch.setattr(journal_checkpoints, "KEEP", 2)
    monkeypatch.setattr(memory_checkpoints, "EVERY", 3)
    ruleset = registry.get(ruleset_id)
    example = ruleset.example_path()
    encounter = ruleset.parse_encounter(example.read_text(encoding="utf-8"), str(example))
    journal = Journal(tmp_path / "new.sqlite")
    play(Session(encounter, 7, journal), random.Random(3), 30)
    journal.close()
    journal = Journal(tmp_path / "new.sqlite", write=False)
    try:
        session = resume(journal)
    finally:
        journal.close()
    assert seen(session) == EXPECTED[ruleset_id]["snapshot"]
    assert begun and begun[0] is not None
