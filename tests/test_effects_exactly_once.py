"""An effect ends exactly once (issue #29, item 4): the line saying it ended belongs to the
action that ended it; undo, redo and resume (from the whole journal, or from a checkpoint
stored in it) rebuild the effects the history makes, never ending one twice, reviving one
or skipping one. tests/test_effects_properties.py checks the same over random games."""

from __future__ import annotations

import contextlib

import pytest
from effects_fixtures import next_turn, session_of

from host.core import effects, journal_checkpoints, memory_checkpoints
from host.core.journal import Journal
from host.core.session import resume


def _book(session) -> str:
    book = effects.book_of(session.ruleset, session.game)
    return repr((book.effects, book.ended, book.actions, book.starts, book.ends))


def test_the_end_is_said_once_by_the_action_that_ended_it() -> None:
    s = session_of("korxsol")
    s.execute("effect Kaelen Bless rounds=1")
    endings = []
    for _ in range(8):
        lines = s.execute("end")
        endings += [len(s.done)] * sum("Bless on Kaelen ends" in line for line in lines)
    assert len(endings) == 1
    assert [e.at for e in effects.ended(s.game)] == endings


def test_undo_of_the_ending_action_brings_the_effect_back_and_redo_ends_it_once() -> None:
    s = session_of("korxsol")
    s.execute("effect Kaelen Dodge until=end")
    while effects.in_play(s.game):
        next_turn(s)
    ended_at = effects.ended(s.game)[0].at
    assert ended_at == len(s.done)
    s.undo(1)
    assert [e.name for e in effects.in_play(s.game)] == ["Dodge"] and not effects.ended(s.game)
    lines = s.redo(1)
    assert sum("Dodge on Kaelen ends" in line for line in lines) == 1
    assert [(e.effect.name, e.at) for e in effects.ended(s.game)] == [("Dodge", ended_at)]


def test_undo_of_a_later_action_never_revives_an_ended_effect() -> None:
    s = session_of("korxsol")
    s.execute("effect Kaelen Dodge until=end")
    while effects.in_play(s.game):
        next_turn(s)
    next_turn(s)
    next_turn(s)
    s.undo(2)
    assert not effects.in_play(s.game) and len(effects.ended(s.game)) == 1


def test_a_resumed_game_has_the_effects_it_had(tmp_path) -> None:
    path = tmp_path / "game.sqlite"
    s = session_of("stones", Journal(path))
    s.execute("effect Mira Hex save=end")
    s.execute("effect Kaelen Bless rounds=1")
    for _ in range(5):
        next_turn(s)
    before = _book(s)
    s.journal.close()
    with contextlib.redirect_stderr(None):
        again = resume(Journal(path), s.game_id)
    assert _book(again) == before
    again.journal.close()


@pytest.fixture
def close_checkpoints(monkeypatch):
    monkeypatch.setattr(journal_checkpoints, "EVERY", 4)
    monkeypatch.setattr(journal_checkpoints, "RECENT", 5)
    monkeypatch.setattr(journal_checkpoints, "TAIL", 3)
    monkeypatch.setattr(memory_checkpoints, "EVERY", 3)


def test_a_game_resumed_from_a_stored_checkpoint_has_the_effects_it_had(
    tmp_path, close_checkpoints
) -> None:
    path = tmp_path / "game.sqlite"
    s = session_of("forms", Journal(path))
    s.execute("effect Bram Hex save=end")
    s.execute("effect Ayla Bless rounds=3")
    for _ in range(9):
        next_turn(s)
        asking = effects.asking(s.game)
        if asking:
            s.execute(f"effect save {asking[0].target} {asking[0].name} no")
    assert journal_checkpoints.stored(s.journal, s.game_id), "no checkpoint was stored"
    before = _book(s)
    s.journal.close()  # (as after a kill -9: what is committed is all there is)
    with contextlib.redirect_stderr(None):
        again = resume(Journal(path), s.game_id)
    assert _book(again) == before
    again.undo(6)  # back past the checkpoint: the earlier actions read from the journal
    again.redo(6)
    assert _book(again) == before
    again.journal.close()
