"""What a resume does, and no more (issue #36, item 8: a 100,000-action game resumed in
about 380 ms where it took 230 before, the bench's `resume_ms_100k`). Its time is the
bench's business (docs/benchmarks.md); these count the work that made it: the settings read
back by walking every event of the game, twice; each of a checkpoint's 2,048 recent actions
written as JSON twice to be compared with the journal; a cast made for every replayed action
whose effects' tick said nothing; every replayed line parsed again. And they check that
what the cheaper ways give is what the old ones gave."""

from __future__ import annotations

import dataclasses
import json
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from demo_games import seen

from host.core import effects, journal_checkpoints, registry, session, timeline
from host.core.journal import Journal
from host.core.session import Session, resume
from host.lab import forged
from host.lab.bench_engine import _attack_line

OLD_JOURNALS = Path(__file__).parent / "old_journals"
INDEX = "events_settings"
SETTINGS = ("dice-from", "secrets", "web")  # what a resume and the web console read back


@pytest.fixture(autouse=True)
def small_checkpoints(monkeypatch) -> None:
    # A checkpoint every 8 actions holding its latest 40 in full: the history check has
    # dozens of actions to compare in a short game.
    monkeypatch.setattr(journal_checkpoints, "EVERY", 8)
    monkeypatch.setattr(journal_checkpoints, "RECENT", 40)
    monkeypatch.setattr(journal_checkpoints, "TAIL", 8)


def _played(path: Path, actions: int = 60, attacks: bool = False) -> Session:
    """The bundled korxsol encounter, seed 3: `initiative`, then turns (an attack first in
    each where `attacks`, so the actions have rolls), journalled in `path`."""
    ruleset = registry.get("korxsol")
    example = ruleset.example_path()
    enc = ruleset.parse_encounter(example.read_text(encoding="utf-8"), str(example))
    played = Session(enc, 3, Journal(path))
    played.execute("initiative")
    while len(played.done) < actions and not played.over:
        line = _attack_line(played.game) if attacks else None
        played.execute(line if line and played.done[-1].text == "end" else "end")
    played.journal.close()  # type: ignore[union-attr]
    return played


def _plans(journal: Journal, call) -> list[str]:
    """SQLite's plan of each SELECT the journal ran during `call()`."""
    statements: list[str] = []
    journal.db.set_trace_callback(statements.append)
    try:
        call()
    finally:
        journal.db.set_trace_callback(None)
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert selects
    return [
        " ".join(str(row[-1]) for row in journal.db.execute("EXPLAIN QUERY PLAN " + s))
        for s in selects
    ]


def test_a_setting_is_read_back_through_its_index_not_by_walking_the_games_events(
    tmp_path,
) -> None:
    played = _played(tmp_path / "j.sqlite")
    journal = Journal(tmp_path / "j.sqlite")
    for kind in SETTINGS:
        plans = _plans(journal, lambda kind=kind: journal.last_event(played.game_id, kind))  # type: ignore[misc]
        assert all("kind=?" in plan for plan in plans), plans
    journal.close()


def test_the_settings_index_holds_every_kind_read_back_by_its_latest_event() -> None:
    from host.core import journal
    from host.web import hub

    assert set(journal.SETTINGS) == {"dice-from", "secrets", hub.TOKEN_EVENT}
    assert SETTINGS == journal.SETTINGS


def test_an_older_journal_is_given_the_settings_index_when_opened_for_writing(tmp_path) -> None:
    copy = tmp_path / "korxsol.sqlite"
    shutil.copy(OLD_JOURNALS / "korxsol.sqlite", copy)

    def indexed() -> bool:
        con = sqlite3.connect(copy)
        try:
            return bool(
                con.execute(f"SELECT 1 FROM sqlite_master WHERE name = '{INDEX}'").fetchall()
            )
        finally:
            con.close()

    assert not indexed()
    Journal(copy, write=False).close()
    assert not indexed()  # (read-only: nothing written)
    Journal(copy).close()
    assert indexed()


def _dumps_while_checking(monkeypatch) -> list[int]:
    """How many times JSON is written during each check of a history against the journal."""
    counts: list[int] = []
    real_dumps, real_check = json.dumps, journal_checkpoints._agrees_with_events

    def dumps(*args, **kwargs):
        counts[-1] += 1
        return real_dumps(*args, **kwargs)

    def check(*args, **kwargs):
        counts.append(0)
        monkeypatch.setattr(json, "dumps", dumps)
        try:
            return real_check(*args, **kwargs)
        finally:
            monkeypatch.setattr(json, "dumps", real_dumps)

    monkeypatch.setattr(journal_checkpoints, "_agrees_with_events", check)
    return counts


def test_a_checkpoints_history_is_checked_writing_its_rolls_as_json_once_a_side(
    tmp_path, monkeypatch
) -> None:
    # Before: each recent action's rolls and the journal's were written as JSON one by one,
    # 4,096 texts at a resume of a long game.
    played = _played(tmp_path / "j.sqlite", attacks=True)
    counts = _dumps_while_checking(monkeypatch)
    back = resume(Journal(tmp_path / "j.sqlite"))
    assert counts == [2]  # one checkpoint checked, one JSON text a side
    assert session.HOLE in back.done  # resumed from it
    assert seen(back) == seen(played)
    back.journal.close()  # type: ignore[union-attr]


def _forge_history(path: Path, change) -> list[int]:
    """Every checkpoint's history changed by `change(history)`, its digest made to match;
    the seqs of the latest one's recent actions, as it held them."""
    con = sqlite3.connect(path)
    rows = con.execute("SELECT game, seq, header, history, body FROM checkpoints").fetchall()
    latest = max(rows, key=lambda row: row[1])
    recent = [item[3] for item in json.loads(latest[3])["recent"]]
    for game, seq, header, history, body in rows:
        data = json.loads(history)
        change(data)
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        forged.store(con, game, seq, header, text, body)
    con.commit()
    con.close()
    return recent


def test_a_checkpoints_history_is_checked_on_its_recent_actions_not_its_whole_length(
    tmp_path, monkeypatch
) -> None:
    # Before: the whole history went to the check, 100,000 places all but 2,048 of them
    # HOLEs (actions before the checkpoint's near end, not read).
    _played(tmp_path / "j.sqlite", actions=200)
    given: list[int] = []
    real = journal_checkpoints._agrees_with_events

    def check(journal, game_id, ruleset, found, entries):  # noqa: ANN001
        given.append(len(entries))
        return real(journal, game_id, ruleset, found, entries)

    monkeypatch.setattr(journal_checkpoints, "_agrees_with_events", check)
    back = resume(Journal(tmp_path / "j.sqlite"))
    assert given == [journal_checkpoints.RECENT]
    back.journal.close()  # type: ignore[union-attr]


def _forge_latest_history(path: Path, change) -> list[int]:
    """The latest checkpoint's history changed by `change(recent)` (its recent actions as
    [line, rolls, player, seq]), its digest made to match; the seqs of those actions."""
    con = sqlite3.connect(path)
    game, seq, header, history, body = con.execute(
        "SELECT game, seq, header, history, body FROM checkpoints ORDER BY seq DESC LIMIT 1"
    ).fetchone()
    data = json.loads(history)
    change(data["recent"])
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    forged.store(con, game, seq, header, text, body)
    con.commit()
    con.close()
    return [item[3] for item in data["recent"]]


@pytest.mark.parametrize("first", ["rolls", "line"])
def test_a_history_whose_actions_are_not_the_journals_names_the_first_that_differs(
    tmp_path, first
) -> None:
    played = _played(tmp_path / "j.sqlite", attacks=True)
    picked: list[int] = []

    def change(recent: list) -> None:
        rolled = [i for i, item in enumerate(recent) if item[1]]
        assert len(rolled) >= 3
        picked.append(rolled[-3])
        rolls_at, line_at = (rolled[-3], rolled[-1])[:: 1 if first == "rolls" else -1]
        record = recent[rolls_at][1][0]
        record["faces"] = [face % 3 + 1 for face in record["faces"]]  # other dice
        recent[line_at][0] = "adjust Kaelen sol +5"  # a line never played

    seqs = _forge_latest_history(tmp_path / "j.sqlite", change)
    back = resume(Journal(tmp_path / "j.sqlite"))
    said = [n for n in back.notices if "is not the journal's" in n]
    assert said and f"action at event {seqs[picked[0]]} is not" in said[0], back.notices
    assert seen(back) == seen(played)  # from the checkpoint before it
    back.journal.close()  # type: ignore[union-attr]


def test_a_replayed_action_whose_tick_ends_no_effect_makes_no_cast(tmp_path, monkeypatch) -> None:
    # Before: each replayed action's effects' tick was told with the fighters' cast, even
    # with no line to tell, and a rebuild threw the lines away.
    played = _played(tmp_path / "j.sqlite")
    made: list[int] = []
    real = session.cast_of

    def cast_of(ruleset, game):
        made.append(1)
        return real(ruleset, game)

    monkeypatch.setattr(session, "cast_of", cast_of)
    back = resume(Journal(tmp_path / "j.sqlite"))
    assert made == []
    assert seen(back) == seen(played)
    back.journal.close()  # type: ignore[union-attr]


def test_a_redone_action_still_tells_the_effect_its_tick_ends(tmp_path) -> None:
    _played(tmp_path / "j.sqlite", actions=6)
    back = resume(Journal(tmp_path / "j.sqlite"))
    back.execute(f"effect {back.ruleset.fighter_names(back.game)[0]} Haste rounds=1")
    said: list[str] = []
    while not any("Haste" in line for line in said):
        said = back.execute("end")
    back.undo(1)
    redone = back.redo(1)
    ended, again = [x for x in said if "Haste" in x], [x for x in redone if "Haste" in x]
    assert again == ended
    assert [x.about for x in again] == [x.about for x in ended]  # type: ignore[attr-defined]
    back.journal.close()  # type: ignore[union-attr]


def test_a_replay_parses_each_lines_text_once(tmp_path, monkeypatch) -> None:
    played = _played(tmp_path / "j.sqlite")
    language = played.ruleset.language
    session._read_once.cache_clear()
    parsed: list[str] = []
    real = type(language).parse

    def parse(self, line, max_length=None):  # noqa: ANN001
        parsed.append(line)
        return real(self, line, max_length)

    monkeypatch.setattr(type(language), "parse", parse)
    back = resume(Journal(tmp_path / "j.sqlite"))
    assert sorted(set(parsed)) == sorted(parsed) == ["end"]  # (no `initiative`: before it)
    assert seen(back) == seen(played)
    back.journal.close()  # type: ignore[union-attr]


def test_each_replay_of_a_line_gets_its_own_words_and_options() -> None:
    language = registry.get("korxsol").language
    line = 'attack Kae "Flame Slash" Orn fulldraw=2'
    one, two = session._journalled(language, line), session._journalled(language, line)
    assert one == two == language.parse(line, max_length=None)
    assert one.args is not two.args and one.opts is not two.opts
    one.args.append("x")
    one.opts["y"] = ""
    assert session._journalled(language, line) == two


@pytest.mark.parametrize("seed", range(20))
def test_a_timeline_gives_back_the_points_appended(seed) -> None:
    rnd = random.Random(seed)

    def number():
        return rnd.choice([rnd.randint(-9, 9), rnd.randint(-9, 9), True, 1.5, 2**64, None])

    def point() -> dict:
        keys = ["turn", "round", "kor", "score"][: rnd.randint(1, 4)]
        out: dict = {}
        for key in keys if rnd.random() < 0.8 else reversed(keys):
            if key in ("kor", "score"):
                names = ["Kae", "Vex", "Orn"][: rnd.randint(0, 3)]
                out[key] = {n: number() for n in names}
            else:
                out[key] = number()
        return out

    line = timeline.Timeline()
    base = point()
    appended = []
    for _ in range(rnd.randint(1, 40)):
        one = dict(base) if rnd.random() < 0.7 else point()
        line.append(one)
        appended.append(one)
    assert line.points() == appended


@pytest.mark.parametrize("seed", range(10))
def test_a_body_is_refused_past_its_values_as_the_counts_of_its_marks_say(
    seed, monkeypatch
) -> None:
    monkeypatch.setattr(journal_checkpoints, "MAX_VALUES", 50)
    rnd = random.Random(seed)
    items = [rnd.choice(["[]", "{}", '"a,b[c{"', "1", '"' + "ab" * 500 + '"']) for _ in range(60)]
    text = ("[" + ",".join(items[: rnd.randint(1, 60)]) + "]").encode()
    marks = sum(text.count(mark) for mark in (b",", b"[", b"{"))
    if marks > 50:
        with pytest.raises(journal_checkpoints.Unfit, match=f"holds {marks:,} values"):
            journal_checkpoints._bounded_json(text, "body", 10**6)
    else:
        assert journal_checkpoints._bounded_json(text, "body", 10**6) == json.loads(text)


def _books_equal(one: Session, other: Session) -> None:
    a, b = (getattr(s.game, effects.BOOK) for s in (one, other))
    assert dataclasses.asdict(a) == dataclasses.asdict(b)


def test_a_replayed_action_with_an_empty_effect_book_asks_no_effect_of_its_turns(
    tmp_path, monkeypatch
) -> None:
    # Before: each of a replayed action's turn moments went through `_at`, which made the
    # moment's text and copied the book's (empty) list of effects.
    played = _played(tmp_path / "j.sqlite", attacks=True)
    asked: list[Any] = []
    real = effects._at

    def at(book, moment):  # noqa: ANN001
        asked.append(moment)
        return real(book, moment)

    monkeypatch.setattr(effects, "_at", at)
    back = resume(Journal(tmp_path / "j.sqlite"))
    assert asked == []
    _books_equal(back, played)
    back.execute(f"effect {back.ruleset.fighter_names(back.game)[0]} Haste rounds=1")
    back.execute("end")
    assert asked  # (an effect in the book: its turns are asked about)
    back.journal.close()  # type: ignore[union-attr]


@pytest.mark.parametrize("ruleset_id", ["korxsol", "d20", "forms"])
def test_an_empty_book_counts_the_turns_as_asking_each_moment_counts_them(
    tmp_path, monkeypatch, ruleset_id
) -> None:
    # Knock-outs (fighters out of play, passed over) included: the game is played by attacks.
    def play() -> Session:
        ruleset = registry.get(ruleset_id)
        example = ruleset.example_path()
        enc = ruleset.parse_encounter(example.read_text(encoding="utf-8"), str(example))
        game = Session(enc, 5, None)
        if "initiative" in ruleset.language.verbs:
            game.execute("initiative")
        while len(game.done) < 150 and not game.over:
            line = _attack_line(game.game) if ruleset_id == "korxsol" else None
            try:
                game.execute(line if line and game.done and game.done[-1].text == "end" else "end")
            except Exception:  # noqa: BLE001 - (an attack another ruleset refuses: end the turn)
                game.execute("end")
        return game

    counted = play()
    monkeypatch.setattr(
        effects,
        "_counted",
        lambda book, before, now, passed: [
            effects._at(book, m) for m in effects.moments(before, now, passed)
        ],
    )
    asked = play()
    _books_equal(counted, asked)
    assert getattr(counted.game, effects.BOOK).starts


def test_check_templates_reads_the_encounter_files_toml_once(monkeypatch) -> None:
    # Before: each of the bundled encounter's two templates was tried as a whole file,
    # written as TOML and read again: three reads of the file a parse.
    from host.core import encounter_files

    reads: list[int] = []
    real = encounter_files.tomllib.loads

    def loads(text, **kwargs):  # noqa: ANN001
        reads.append(1)
        return real(text, **kwargs)

    monkeypatch.setattr(encounter_files.tomllib, "loads", loads)
    ruleset = registry.get("korxsol")
    example = ruleset.example_path()
    text = example.read_text(encoding="utf-8")
    assert len(encounter_files.templates_of(text)) == 2
    reads.clear()
    ruleset.parse_encounter(text, str(example))
    assert reads == [1]


def test_a_files_lines_are_found_once_however_many_read_it(monkeypatch) -> None:
    # Before: a parse with two templates scanned the file's lines nine times.
    from host.core import encounter_files

    scanned: list[str] = []
    real = encounter_files.Lines._HEADER

    class Header:
        def match(self, line: str):  # noqa: ANN201
            scanned.append(line)
            return real.match(line)

    monkeypatch.setattr(encounter_files.Lines, "_HEADER", Header())
    monkeypatch.setattr(encounter_files.Lines, "_last", None)
    ruleset = registry.get("korxsol")
    example = ruleset.example_path()
    text = example.read_text(encoding="utf-8")
    ruleset.parse_encounter(text, str(example))
    assert len(scanned) == len(text.splitlines())


def test_a_history_check_reads_each_payload_text_once(tmp_path, monkeypatch) -> None:
    # Before: each of the recent actions' payloads was read, though most are the same text.
    _played(tmp_path / "j.sqlite")
    read: list[str] = []
    real = journal_checkpoints._loads

    def loads(text):  # noqa: ANN001
        read.append(text)
        return real(text)

    monkeypatch.setattr(journal_checkpoints, "_loads", loads)
    back = resume(Journal(tmp_path / "j.sqlite"))
    assert session.HOLE in back.done
    assert read and sorted(set(read)) == sorted(read)
    back.journal.close()  # type: ignore[union-attr]


def test_the_state_check_reads_each_objects_attributes_once(tmp_path, monkeypatch) -> None:
    # Before: the walk read an object's attributes for its children, the check again.
    from host.core import state_check

    played = _played(tmp_path / "j.sqlite", attacks=True)
    read: list[int] = []
    real = state_check._attributes

    def attributes(value):  # noqa: ANN001
        read.append(id(value))
        return real(value)

    monkeypatch.setattr(state_check, "_attributes", attributes)
    state_check.kinds(played.game)
    assert len(read) == len(set(read)) > 100
    fresh = played._new_game()
    assert state_check.problem(played.game, fresh, played.ruleset.state_schema()) is None


def test_a_checkpoints_body_is_inflated_a_piece_at_a_time_into_one_buffer(monkeypatch) -> None:
    # Before: zlib was asked for the whole body at once and copied its blocks into the text
    # at the end, 13 MB of fresh memory touched twice at a resume of a long game.
    import zlib

    text = json.dumps([[n, "c0ff" * 200] for n in range(3_000)]).encode()
    body = zlib.compress(text, 1)
    asked: list[int] = []
    real = zlib.decompressobj

    class Inflate:
        def __init__(self) -> None:
            self.real = real()

        def decompress(self, data: bytes, most: int = 0) -> bytes:
            asked.append(most)
            return self.real.decompress(data, most)

        @property
        def unconsumed_tail(self) -> bytes:
            return self.real.unconsumed_tail

    monkeypatch.setattr(zlib, "decompressobj", Inflate)
    assert journal_checkpoints._decompressed(body) == text
    assert len(asked) > 1 and max(asked) <= journal_checkpoints.INFLATE_PIECE
