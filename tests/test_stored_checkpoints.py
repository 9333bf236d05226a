"""Checkpoints in the journal (issue #17, docs/checkpoints.md): a resume starts from the latest
stored checkpoint that checks and replays only what came after it, and gives exactly the
game a full replay of the journal gives, for every ruleset there is; a damaged, foreign or
outdated checkpoint is refused and the game is replayed instead, with the same result."""

from __future__ import annotations

import json
import random
import sqlite3
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from demo_games import play, replayed, seen
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from tiny_ruleset import TINY
from tiny_units import TINY_STEPS, TINY_TEAMS

from host.core import journal_checkpoints, memory_checkpoints, plain_data, registry
from host.core.interface import IllegalAction
from host.core.journal import Journal
from host.core.session import HOLE, Session, _replay_events, resume
from host.lab.bench_engine import _attack_line

TEST_RULESETS = (TINY, TINY_TEAMS, TINY_STEPS)


@pytest.fixture(autouse=True)
def small_checkpoints(monkeypatch) -> Iterator[None]:
    # Close together, so short games store several and holes appear before the recent ones.
    monkeypatch.setattr(journal_checkpoints, "EVERY", 4)
    monkeypatch.setattr(journal_checkpoints, "RECENT", 5)
    monkeypatch.setattr(journal_checkpoints, "TAIL", 3)
    monkeypatch.setattr(journal_checkpoints, "KEEP", 2)
    monkeypatch.setattr(memory_checkpoints, "EVERY", 3)
    for ruleset in TEST_RULESETS:
        registry.register(ruleset)
    yield
    for ruleset in TEST_RULESETS:
        registry.unregister(ruleset.id)


def every_ruleset() -> list[str]:
    return registry.ids() + [r.id for r in TEST_RULESETS]  # those registered when it runs


def fresh(ruleset_id: str, seed: int, journal: Journal | None) -> Session:
    ruleset = registry.get(ruleset_id)
    path = ruleset.example_path()
    enc = ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path))
    return Session(enc, seed, journal)


def full_replay(session: Session) -> str:
    """The game replayed from its start, every event of its journal read and every action
    replayed, as a session with no checkpoint at all would."""
    assert session.journal is not None and session.game_id is not None
    journal = Journal(session.journal.path, write=False)
    checked = journal.checked(session.game_id)
    journal.close()
    assert checked is not None and checked.problem is None
    done: list = []
    _replay_events(session.ruleset, checked.events, done, [], {}, [])
    return replayed(session, done)


def history(session: Session, holes: list) -> tuple:
    """The session's history, the entries where `holes` has a HOLE left out."""
    waiting = {k: list(v) for k, v in session.ruleset.waiting(session.game).items()}
    return (
        len(session.done),
        [e.text for e, h in zip(session.done, holes, strict=True) if h is not HOLE],
        [e.text for e in session.undone],
        waiting,
    )


def stored(path: Path, game: int) -> list[journal_checkpoints.Stored]:
    journal = Journal(path, write=False)
    try:
        return journal_checkpoints.stored(journal, game)
    finally:
        journal.close()


@pytest.mark.parametrize("ruleset_id", every_ruleset())
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a failure is shown as found
)
@given(data=st.data())
def test_a_resume_from_a_stored_checkpoint_gives_exactly_the_full_replays_game(
    tmp_path_factory, ruleset_id: str, data
) -> None:
    path = tmp_path_factory.mktemp("cp") / "j.sqlite"
    seed = data.draw(st.integers(1, 50))
    rng = random.Random(seed)
    played = fresh(ruleset_id, seed, Journal(path))
    for _ in range(data.draw(st.integers(1, 3))):  # resumed at random points, and played on
        play(played, rng, len(played.done) + data.draw(st.integers(5, 30)), undo_rate=0.08)
        played.journal.close()  # type: ignore[union-attr]
        back = resume(Journal(path), played.game_id)
        assert back.notices == []
        assert seen(back) == seen(played) == full_replay(played)
        # Compared where both hold the action: either may have a HOLE where the other has
        # read it (played is itself resumed after the first round).
        assert len(back.done) == len(played.done)
        pairs = zip(back.done, played.done, strict=True)
        holes = [HOLE if a is HOLE or b is HOLE else a for a, b in pairs]
        assert history(back, holes) == history(played, holes)
        played = back
    if len(played.done) > journal_checkpoints.RECENT + journal_checkpoints.EVERY:
        assert stored(path, played.game_id)  # type: ignore[arg-type]
        assert any(e is HOLE for e in played.done)  # what came before was not read
    # An undo as far back as it goes reads the rest of the journal, and still agrees.
    steps = data.draw(st.integers(1, max(1, len(played.done))))
    if played.done:
        played.undo(steps)
        assert seen(played) == full_replay(played)
        played.redo(data.draw(st.integers(0, steps)))
        assert seen(played) == full_replay(played)
    played.journal.close()  # type: ignore[union-attr]


def _long_game(tmp_path: Path, actions: int = 30) -> tuple[Path, Session]:
    path = tmp_path / "j.sqlite"
    played = fresh("korxsol", 3, Journal(path))
    played.execute("initiative")
    while len(played.done) < actions:
        played.execute("end")
    played.journal.close()  # type: ignore[union-attr]
    return path, played


def _resumed_from(path: Path, game: int) -> tuple[Session, list[int | None]]:
    """A resume, and the `after` of each chain check it asked the journal for."""
    asked: list[int | None] = []
    journal = Journal(path)
    real = journal.checked

    def checked(game_id: int, after: int = 0):
        asked.append(after)
        return real(game_id, after)

    journal.checked = checked  # type: ignore[method-assign]
    return resume(journal, game), asked


def test_a_resume_reads_only_the_events_after_the_latest_stored_checkpoint(tmp_path) -> None:
    path, played = _long_game(tmp_path)
    found = stored(path, played.game_id)  # type: ignore[arg-type]
    assert [f.actions for f in found] == [28, 24]  # every EVERY actions, the KEEP latest
    back, asked = _resumed_from(path, played.game_id)  # type: ignore[arg-type]
    assert asked == [found[0].seq]  # after the latest
    assert seen(back) == seen(played)
    assert back.done[:20] == [HOLE] * 20 and back.done[-2:] == played.done[-2:]


def test_older_checkpoints_are_kept_every_far_actions(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(journal_checkpoints, "FAR", 12)
    path, played = _long_game(tmp_path, 40)
    found = stored(path, played.game_id)  # type: ignore[arg-type]
    assert [f.actions for f in found] == [40, 36, 24, 12]  # the KEEP latest, and every FAR


def test_an_undo_far_back_after_a_resume_replays_from_a_far_checkpoint(
    tmp_path, monkeypatch
) -> None:
    monkeypatch.setattr(journal_checkpoints, "FAR", 12)
    path, played = _long_game(tmp_path, 40)
    journal = Journal(path)
    back = resume(journal, played.game_id)
    started: list[int | None] = []
    real = journal_checkpoints.nearest

    def nearest(session: Session, end: int, below: int):
        found = real(session, end, below)
        started.append(None if found is None else found[0])
        return found

    monkeypatch.setattr(journal_checkpoints, "nearest", nearest)
    back.undo(14)  # to 26: before the resumed checkpoint's recent actions
    journal.close()
    assert started[-1] == 24  # not the game's start
    assert seen(back) == full_replay(back)


def test_a_resume_past_a_damaged_latest_checkpoint_reads_from_the_next_older_one(
    tmp_path, monkeypatch
) -> None:
    monkeypatch.setattr(journal_checkpoints, "FAR", 12)
    path, played = _long_game(tmp_path, 40)
    found = stored(path, played.game_id)  # type: ignore[arg-type]
    _rewrite(path, "UPDATE checkpoints SET body = ? WHERE seq = ?", (b"x", found[0].seq))
    back, asked = _resumed_from(path, played.game_id)  # type: ignore[arg-type]
    assert asked == [found[0].seq, found[1].seq]  # not the oldest's (a far one), nor 0
    assert seen(back) == seen(played)


def test_a_far_checkpoint_of_a_history_undone_since_is_dropped(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(journal_checkpoints, "FAR", 12)
    path, played = _long_game(tmp_path, 30)
    journal = Journal(path)
    played = resume(journal, played.game_id)
    played.undo(20)  # to 10: before both far checkpoints (12 and 24)
    while len(played.done) < 32:
        played.execute("end")
    journal.close()
    found = stored(path, played.game_id)  # type: ignore[arg-type]
    assert [f.actions for f in found] == [32, 28, 24, 12]
    assert all(f.entry == played.done[f.actions - 1].seq for f in found)  # all of this history


def _rewrite(path: Path, sql: str, args: tuple = ()) -> None:
    con = sqlite3.connect(path)
    con.execute(sql, args)
    con.commit()
    con.close()


def _check_falls_back(path: Path, played: Session, why: str) -> Session:
    back, asked = _resumed_from(path, played.game_id)  # type: ignore[arg-type]
    assert asked[-1] == 0  # the whole journal was read after all
    assert any(why in notice for notice in back.notices), back.notices
    assert seen(back) == seen(played) == full_replay(played)
    assert HOLE not in back.done
    return back


def test_a_damaged_checkpoint_is_refused_and_the_game_replayed(tmp_path) -> None:
    path, played = _long_game(tmp_path)
    con = sqlite3.connect(path)
    for seq, body in con.execute("SELECT seq, body FROM checkpoints").fetchall():
        damaged = body[:40] + bytes([body[40] ^ 1]) + body[41:]  # one bit flipped
        con.execute("UPDATE checkpoints SET body = ? WHERE seq = ?", (damaged, seq))
    con.commit()
    con.close()
    back = _check_falls_back(path, played, "does not match its digest")
    assert stored(path, back.game_id)[0].actions == 30  # given a fresh one  # type: ignore[arg-type]
    back.journal.close()  # type: ignore[union-attr]
    again, asked = _resumed_from(path, played.game_id)  # type: ignore[arg-type]
    assert again.notices == [] and asked[-1] != 0 and seen(again) == seen(played)


def _forge(path: Path, change: dict | None = None, body=None) -> None:
    """Rewrite every stored checkpoint as another program would have written it: its header
    changed, its digest made to match, so only the check of what it says refuses it."""
    con = sqlite3.connect(path)
    rows = con.execute("SELECT game, seq, header, history, body FROM checkpoints").fetchall()
    for game, seq, header, hist, old_body in rows:
        fields = json.loads(header)
        fields.update(change or {})
        header = json.dumps(fields, sort_keys=True, separators=(",", ":"))
        new_body = body(old_body) if body else old_body
        event = con.execute(
            "SELECT hash FROM events WHERE game = ? AND seq = ?", (game, seq)
        ).fetchone()[0]
        digest = journal_checkpoints._digest(header, hist, new_body, event)
        con.execute(
            "UPDATE checkpoints SET header = ?, body = ?, digest = ? WHERE game = ? AND seq = ?",
            (header, new_body, digest, game, seq),
        )
    con.commit()
    con.close()


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"ruleset": "stones"}, "is of ruleset 'stones', not 'korxsol'"),
        ({"state": 0}, f"is of state 0, not {registry.get('korxsol').state_version}"),
        ({"format": 99}, "is of format 99, not 1"),
    ],
)
def test_a_foreign_or_old_version_checkpoint_is_refused(tmp_path, change, why) -> None:
    path, played = _long_game(tmp_path)
    _forge(path, change)
    _check_falls_back(path, played, why)


def test_a_checkpoint_naming_a_class_from_elsewhere_is_refused_and_nothing_imported(
    tmp_path,
) -> None:
    path, played = _long_game(tmp_path)

    def foreign(body: bytes) -> bytes:
        data = json.loads(zlib.decompress(body))
        data[2]["roller"] = ["O", "subprocess:Popen", {}]
        return zlib.compress(json.dumps(data).encode())

    _forge(path, body=foreign)
    _check_falls_back(path, played, "class subprocess:Popen is from a module the state")


def test_a_game_whose_shape_changed_without_a_new_state_version_is_refused(
    tmp_path, monkeypatch
) -> None:
    path, played = _long_game(tmp_path)
    ruleset = registry.get("korxsol")
    real = type(ruleset).new_game

    def grown(self, encounter, seed):
        game = real(self, encounter, seed)
        game.added_since = 0  # a new attribute, its state_version not raised
        return game

    monkeypatch.setattr(type(ruleset), "new_game", grown)
    back, _ = _resumed_from(path, played.game_id)  # type: ignore[arg-type]
    assert any("has other attributes than today's" in n for n in back.notices)
    assert back.game.added_since == 0  # replayed from a new game of today's shape


def test_a_checkpoint_of_a_history_undone_since_is_not_used(tmp_path) -> None:
    path, played = _long_game(tmp_path)
    journal = Journal(path)
    played = resume(journal, played.game_id)
    played.undo(7)  # back past the latest stored checkpoint (28)
    played.execute("end")
    journal.close()
    back, _ = _resumed_from(path, played.game_id)  # type: ignore[arg-type]
    assert back.notices == []
    assert seen(back) == seen(played) == full_replay(played)


def test_a_game_the_state_format_does_not_take_is_replayed_without_checkpoints(
    tmp_path, monkeypatch
) -> None:
    ruleset = registry.get("korxsol")
    real = type(ruleset).new_game

    def with_a_function(self, encounter, seed):
        game = real(self, encounter, seed)
        game.helper = lambda: None
        return game

    monkeypatch.setattr(type(ruleset), "new_game", with_a_function)
    path, played = _long_game(tmp_path)
    assert stored(path, played.game_id) == []  # type: ignore[arg-type]
    back, asked = _resumed_from(path, played.game_id)  # type: ignore[arg-type]
    assert asked == [0] and seen(back) == seen(played)


def test_damage_before_a_checkpoint_shows_when_an_undo_reaches_it(tmp_path) -> None:
    # A resume checks the chain from its checkpoint on; the events before it are checked
    # when they are read: an undo reaching back past the checkpoint.
    path, played = _long_game(tmp_path)
    _rewrite(path, "UPDATE events SET payload = replace(payload, 'end', 'End') WHERE seq = 3")
    back = resume(Journal(path), played.game_id)
    assert seen(back) == seen(played)
    back.undo(2)  # within what the checkpoint holds in full
    with pytest.raises(IllegalAction, match="earlier actions cannot be read: event 3 is damaged"):
        back.undo(25)
    assert len(back.done) == 28  # nothing changed


def test_a_journal_from_before_checkpoints_opens_resumes_and_is_given_them(tmp_path) -> None:
    path, played = _long_game(tmp_path)
    con = sqlite3.connect(path)  # as the journal schema version 2 left it
    con.execute("DROP TABLE checkpoints")
    con.execute("PRAGMA user_version = 2")
    con.commit()
    con.close()
    back, asked = _resumed_from(path, played.game_id)  # type: ignore[arg-type]
    assert asked == [0] and seen(back) == seen(played) and back.notices == []
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 3
    con.close()
    assert [f.actions for f in stored(path, played.game_id)] == [30]  # type: ignore[arg-type]


def test_the_state_format_keeps_what_is_shared_and_cycles() -> None:
    shared = [1, 2]
    view_base = bytearray(b"abcdef")
    root: dict = {"a": shared, "b": shared, (1, "k"): {3, 4}, "view": memoryview(view_base)[2:5]}
    root["me"] = root
    root["base"] = view_base
    back = plain_data.decode(json.loads(json.dumps(plain_data.encode(root))))
    assert back["a"] is back["b"] and back["me"] is back
    assert back[(1, "k")] == {3, 4}
    assert bytes(back["view"]) == b"cde" and back["view"].obj is back["base"]
    back["base"][2] = ord("X")
    assert bytes(back["view"]) == b"Xde"


def test_the_state_format_takes_no_class_from_outside_host_and_shared() -> None:
    with pytest.raises(plain_data.Unsupported, match="not a class the state takes"):
        plain_data.encode(Path("x"))
    with pytest.raises(plain_data.Unsupported, match="from a module the state does not take"):
        plain_data.decode(["O", "os:PathLike", {}])
    with pytest.raises(plain_data.Unsupported):
        plain_data.encode({"f": print})


def test_a_checkpoint_row_naming_an_event_that_is_not_there_is_ignored(tmp_path) -> None:
    path, played = _long_game(tmp_path)
    _rewrite(path, "UPDATE checkpoints SET seq = seq + 1000")
    back, asked = _resumed_from(path, played.game_id)  # type: ignore[arg-type]
    assert asked[-1] == 0 and seen(back) == seen(played) == full_replay(played)


def test_rolls_waiting_at_a_checkpoint_wait_again_after_a_resume(tmp_path) -> None:
    # Entered dice waiting for the rules' next hit roll are in the checkpoint's history.
    path = tmp_path / "j.sqlite"
    played = fresh("korxsol", 3, Journal(path))
    played.execute("initiative")
    while len(played.done) < 30:
        if len(played.done) % 7 == 3:
            played.execute("dice hit 3 3")
        played.execute("end")
    assert played.ruleset.waiting(played.game)
    played.journal.close()  # type: ignore[union-attr]
    back, asked = _resumed_from(path, played.game_id)  # type: ignore[arg-type]
    assert asked[0] != 0 and back.notices == []
    waiting = {k: list(v) for k, v in back.ruleset.waiting(back.game).items()}
    assert waiting == {k: list(v) for k, v in played.ruleset.waiting(played.game).items()}
    assert seen(back) == seen(played) == full_replay(played)


def test_an_action_waiting_for_its_roll_waits_again_after_a_resume_from_a_checkpoint(
    tmp_path,
) -> None:
    # A resume that replayed more than TAIL actions stores a checkpoint with the action
    # still waiting for its roll; the next resume starts there and waits for the same roll.
    path = tmp_path / "j.sqlite"
    played = fresh("korxsol", 3, Journal(path))
    played.execute("initiative")
    while len(played.done) < 10:
        played.execute("end")
    played.dice_from = "entered"
    played.execute("end")
    line = _attack_line(played.game)
    assert line is not None
    assert "waits for" in played.execute(line)[0]
    played.journal.close()  # type: ignore[union-attr]
    con = sqlite3.connect(path)  # no checkpoint yet: the next resume replays and stores one
    con.execute("DELETE FROM checkpoints")
    con.commit()
    con.close()
    first = resume(Journal(path), played.game_id, dice_from="entered")
    assert first.wanted_lines() == played.wanted_lines()
    first.journal.close()  # type: ignore[union-attr]
    found = stored(path, played.game_id)  # type: ignore[arg-type]
    assert found and json.loads(found[0].history)["pending"][0] == line
    back, asked = _resumed_from(path, played.game_id)  # type: ignore[arg-type]
    assert asked[0] == found[0].seq and back.notices == []
    back.dice_from = "entered"  # (as `play --resume --dice entered` says)
    assert back.wanted_lines() == played.wanted_lines()
    assert seen(back) == seen(played)
    count = played.pending.wanted.count  # type: ignore[union-attr]
    back.execute("dice " + " ".join(["3"] * count))  # applied, or its next roll is wanted
    assert back.pending is None or back.pending.supplied == [("hit", (3,) * count, "entered")]


@pytest.mark.parametrize("column", ["header", "history", "body", "digest", "seq"])
def test_any_byte_of_a_checkpoint_row_changed_and_the_game_still_resumes_the_same(
    tmp_path, column
) -> None:
    path, played = _long_game(tmp_path)
    rng = random.Random(column)
    for trial in range(4):
        copy = tmp_path / f"{column}{trial}.sqlite"
        con = sqlite3.connect(path)
        con.execute("VACUUM INTO ?", (str(copy),))
        con.close()
        con = sqlite3.connect(copy)
        for game, seq, value in con.execute(f"SELECT game, seq, {column} FROM checkpoints"):
            if isinstance(value, int):
                changed: object = value + rng.choice([-3, -1, 1, 2, 500])
            else:
                data = bytearray(value if isinstance(value, bytes) else value.encode())
                at = rng.randrange(len(data))
                data[at] = (data[at] + rng.randrange(1, 256)) % 256
                changed = bytes(data) if isinstance(value, bytes) else data.decode("latin-1")
            con.execute(
                f"UPDATE OR IGNORE checkpoints SET {column} = ? WHERE game = ? AND seq = ?",
                (changed, game, seq),
            )
        con.commit()
        con.close()
        back = resume(Journal(copy), played.game_id)
        assert seen(back) == seen(played)
        assert all("\n" not in notice for notice in back.notices)
        back.journal.close()  # type: ignore[union-attr]


def test_an_action_its_roll_resolved_is_stored_done_not_waiting(tmp_path) -> None:
    # The action that fills a checkpoint's interval was waiting for its roll until the
    # roll came: the checkpoint stored with it must hold it done, or a resume would try it
    # again (journalling a drop, or applying it twice).
    path = tmp_path / "j.sqlite"
    played = fresh("korxsol", 3, Journal(path))
    played.execute("initiative")
    played.dice_from = "entered"
    while True:
        line = _attack_line(played.game)
        if line is not None and (len(played.done) + 1) % journal_checkpoints.EVERY == 0:
            break
        played.execute("end")
    assert "waits for" in played.execute(line)[0]
    while played.pending is not None:
        count = played.pending.wanted.count  # type: ignore[union-attr]
        played.execute("dice " + " ".join(["1"] * count))  # a face every kind of die has
    found = stored(path, played.game_id)  # type: ignore[arg-type]
    assert found[0].actions == len(played.done)
    assert json.loads(found[0].history)["pending"] is None
    played.journal.close()  # type: ignore[union-attr]
    back, asked = _resumed_from(path, played.game_id)  # type: ignore[arg-type]
    assert asked == [found[0].seq] and back.notices == [] and back.pending is None
    assert seen(back) == seen(played) and len(back.done) == len(played.done)


def test_a_checkpoint_that_cannot_be_written_never_blocks_the_action(tmp_path, monkeypatch):
    def fails(session, seq) -> None:
        raise RecursionError("a game too deep to walk")

    monkeypatch.setattr(journal_checkpoints, "write", fails)
    path, played = _long_game(tmp_path, actions=10)
    assert len(played.done) == 10 and stored(path, played.game_id) == []  # type: ignore[arg-type]
    assert played.notices == [  # said once, though two were due
        "korxsol's game was not checkpointed: a game too deep to walk; play goes on, and a"
        " resume replays the game"
    ]
    back = resume(Journal(path), played.game_id)
    assert seen(back) == seen(played) == full_replay(played)


def test_a_checkpoint_naming_a_module_not_loaded_is_refused_and_it_is_not_imported(
    tmp_path, monkeypatch
) -> None:
    path, played = _long_game(tmp_path)
    name = "host.core.textfile"  # a real module of the project, made not loaded for this test
    monkeypatch.delitem(sys.modules, name, raising=False)

    def unloaded(body: bytes) -> bytes:
        data = json.loads(zlib.decompress(body))
        data[2]["roller"] = ["O", f"{name}:Thing", {}]
        return zlib.compress(json.dumps(data).encode())

    _forge(path, body=unloaded)
    _check_falls_back(path, played, f"class {name}:Thing is not there")
    assert name not in sys.modules  # the file made nothing import


@pytest.mark.parametrize(
    "data",
    [
        ["T", [["L", [["R", 0]]]]],  # a cycle through a tuple: the tuple is not made yet
        ["L", [["R", -1]]],
        ["L", [["R", 5]]],
        ["Q", 10**30, []],  # a deque longer than any memory
    ],
)
def test_the_state_format_refuses_what_encode_never_writes(data) -> None:
    with pytest.raises((plain_data.Unsupported, OverflowError, ValueError)):
        plain_data.decode(data)
