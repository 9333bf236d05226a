"""Checkpoints another program wrote into the journal (issue #27, findings 3.3 and 3.5):
the digest is not keyed, so whoever can write the journal can store a checkpoint whose
digest checks. Whatever it holds is refused in one line, before it costs more than a
bounded time and memory, and the game is replayed from the journal (docs/reliability.md,
"Forged checkpoints")."""

from __future__ import annotations

import json
import random
import re
import shutil
import sqlite3
import tracemalloc
import zlib
from pathlib import Path

import pytest
from demo_games import seen

from host import cli
from host.core import journal_checkpoints, plain_data
from host.core.journal import Journal
from host.core.session import HOLE, Session, resume
from host.lab import forged

ACTIONS = 30


@pytest.fixture(autouse=True)
def small_checkpoints(monkeypatch) -> None:
    monkeypatch.setattr(journal_checkpoints, "EVERY", 4)
    monkeypatch.setattr(journal_checkpoints, "RECENT", 5)
    monkeypatch.setattr(journal_checkpoints, "TAIL", 3)


def _long_game(tmp_path: Path, ruleset_id: str = "korxsol") -> tuple[Path, Session]:
    from host.core import registry

    path = tmp_path / "j.sqlite"
    ruleset = registry.get(ruleset_id)
    example = ruleset.example_path()
    enc = ruleset.parse_encounter(example.read_text(encoding="utf-8"), str(example))
    played = Session(enc, 3, Journal(path))
    played.execute("initiative")
    while len(played.done) < ACTIONS:
        played.execute("end")
    played.journal.close()  # type: ignore[union-attr]
    return path, played


def _rows(path: Path) -> list[tuple]:
    con = sqlite3.connect(path)
    rows = con.execute("SELECT game, seq, header, history, body FROM checkpoints").fetchall()
    con.close()
    assert rows
    return rows


def _store(path: Path, game: int, seq: int, header: str, history: str, body: bytes) -> None:
    """Rewrite one checkpoint as a forger would: its digest made to match what it holds."""
    con = sqlite3.connect(path)
    forged.store(con, game, seq, header, history, body)
    con.commit()
    con.close()


def _replayed_with_notice(path: Path, played: Session, why: str) -> Session:
    back = resume(Journal(path), played.game_id)
    assert any(why in notice for notice in back.notices), back.notices
    assert all("\n" not in notice for notice in back.notices)
    assert seen(back) == seen(played)
    assert HOLE not in back.done  # replayed from the start: no checkpoint was used
    back.journal.close()  # type: ignore[union-attr]
    return back


def test_a_header_nested_too_deep_is_refused_and_the_game_replayed(
    tmp_path, capsys, monkeypatch
) -> None:
    path, played = _long_game(tmp_path)
    deep = "[" * 2000 + "]" * 2000  # the JSON reader recursed per bracket: a RecursionError
    for game, seq, _, history, body in _rows(path):
        _store(path, game, seq, deep, history, body)
    assert cli.main(["export", "--db", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["partial"] is None
    second = tmp_path / "copy.sqlite"
    shutil.copy(path, second)  # the resume below stores a good checkpoint in its place
    _replayed_with_notice(path, played, "its header is not text of at most 1,000 characters")
    monkeypatch.setattr(journal_checkpoints, "HEADER_CHARS", 10_000)  # read: too deep still
    _replayed_with_notice(second, played, "its header is nested too deep")
    assert cli.main(["export", "--db", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["partial"] is None


def _forge_bodies(path: Path, change) -> None:
    """Every checkpoint's game decoded, changed by `change(game)` and stored again with a
    digest that matches: what a forger who can write the journal can do."""
    from host.core import registry

    for game_id, seq, header, history, body in _rows(path):
        ruleset = registry.get(json.loads(header)["ruleset"])
        modules = ruleset.state_modules
        game = plain_data.decode(json.loads(zlib.decompress(body)), modules)
        change(game)
        data = json.dumps(plain_data.encode(game, modules), separators=(",", ":"))
        _store(path, game_id, seq, header, history, zlib.compress(data.encode(), 1))


def _forge_json(path: Path, body=None, history=None, header=None) -> None:
    """Every checkpoint's parts rewritten as raw JSON: `body(data)` and `history(data)`
    return the new JSON text; `header(fields)` changes the header in place."""
    for game_id, seq, old_header, old_history, old_body in _rows(path):
        fields = json.loads(old_header)
        if header is not None:
            header(fields)
        new_header = json.dumps(fields, sort_keys=True, separators=(",", ":"))
        new_history = old_history if history is None else history(json.loads(old_history))
        new_body = old_body
        if body is not None:
            new_body = body(json.loads(zlib.decompress(old_body)))
        _store(path, game_id, seq, new_header, new_history, new_body)


def _peak_mib(action) -> float:
    """The most memory Python held while `action` ran, above what it held before, in MiB."""
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


BUDGET_MIB = 100  # what a forged checkpoint may cost before it is refused (issue #27)


def _bomb(_data) -> bytes:
    """A body of about 200 KB that inflates to 200 MB of valid JSON (spaces): the probe's
    204 KB body cost 1.67 GB and 20.5 s before it was refused."""
    pack = zlib.compressobj(9)
    parts = [pack.compress(b"[0" + b" " * 2**20)]
    parts += [pack.compress(b" " * 2**20) for _ in range(200)]
    parts.append(pack.compress(b"]") + pack.flush())
    return b"".join(parts)


def test_a_body_that_inflates_past_its_bound_is_refused_within_the_budget(tmp_path) -> None:
    path, played = _long_game(tmp_path)
    _forge_json(path, body=_bomb)
    assert max(len(row[4]) for row in _rows(path)) < 300_000  # a small body, compressed
    peak = _peak_mib(lambda: _replayed_with_notice(path, played, "its body inflates past"))
    assert peak < BUDGET_MIB


def test_a_body_of_too_many_values_is_refused_before_they_are_built(tmp_path) -> None:
    path, played = _long_game(tmp_path)
    many = "[" + "[]," * 2_000_000 + "[]]"  # 6 MB: 2,000,000 lists of 64 bytes each

    _forge_json(path, body=lambda _: zlib.compress(many.encode(), 1))
    peak = _peak_mib(lambda: _replayed_with_notice(path, played, "more than 250,000"))
    assert peak < BUDGET_MIB


def test_a_history_claiming_more_actions_than_events_is_refused(tmp_path) -> None:
    # 10**9 actions made a list of 10**9 before (15.3 GB and 53 s).
    path, played = _long_game(tmp_path)

    def claims(history: dict) -> str:
        history["done"] = 10**9
        return json.dumps(history, sort_keys=True, separators=(",", ":"))

    def header(fields: dict) -> None:
        fields["actions"] = 10**9

    _forge_json(path, history=claims, header=header)
    peak = _peak_mib(lambda: _replayed_with_notice(path, played, "claims 1000000000 actions"))
    assert peak < BUDGET_MIB


def test_a_set_of_colliding_ints_is_refused_before_it_is_built(tmp_path) -> None:
    # n and n + (2**61 - 1) hash alike: 40,000 of them in a set took 16.5 s to build.
    path, played = _long_game(tmp_path)
    colliding = ["S", [k * (2**61 - 1) for k in range(40_000)]]

    def with_a_set(data: list) -> bytes:
        data[2]["roller"] = colliding
        return zlib.compress(json.dumps(data).encode(), 1)

    _forge_json(path, body=with_a_set)
    _replayed_with_notice(path, played, "more than 1,024 items in sets and dicts")


def _korxsol_spec_swapped(game) -> None:
    # Another object the state holds: an AttributeError traceback on resume before.
    game.fighters[0].spec = game.roller


@pytest.mark.parametrize(
    ("ruleset_id", "change", "why"),
    [
        ("korxsol", lambda g: setattr(g.fighters[0], "sol", -1), "a Fighter's sol is -1"),
        ("korxsol", lambda g: setattr(g.fighters[0], "armor", "lots"), "a Fighter's armor is text"),
        ("korxsol", lambda g: setattr(g.fighters[1], "armor", 999), "a Fighter's armor is 999"),
        ("korxsol", _korxsol_spec_swapped, "spec is a Roller, not a Solighter as in a new"),
        (
            "korxsol",
            lambda g: setattr(g.fighters[1], "index", 0),
            "fighters 1 calls itself fighters 0",
        ),
        ("advance", lambda g: setattr(g, "step", 7), "a Game's step is 7, outside 0..4"),
        ("advance", lambda g: setattr(g.fighters[0], "status", "asleep"), "status is 'asleep'"),
        ("flare", lambda g: setattr(g, "turns", -1), "a Game's turns is -1"),
        ("flare", lambda g: setattr(g, "current", 9), "its current is player 9"),
        ("stones", lambda g: setattr(g, "player", 99), "its player is 99"),
        ("stones", lambda g: setattr(g, "hands", "none"), "a Game's hands is text"),
        ("forms", lambda g: setattr(g, "mode", "party"), "a Game's mode is 'party'"),
        ("forms", lambda g: setattr(g, "step", 9), "a Game's step is 9"),
    ],
)
def test_a_game_outside_its_rulesets_state_schema_is_refused_and_replayed(
    tmp_path, ruleset_id, change, why
) -> None:
    path, played = _demo_game(tmp_path, ruleset_id)
    _forge_bodies(path, change)
    back = _replayed_with_notice(path, played, why)
    assert all("holds a game no event makes: " in notice for notice in back.notices)


def _demo_game(tmp_path: Path, ruleset_id: str) -> tuple[Path, Session]:
    """A game of the ruleset's demo AI long enough to store checkpoints."""
    if ruleset_id == "korxsol":
        return _long_game(tmp_path)
    from demo_games import play

    from host.core import registry

    path = tmp_path / "j.sqlite"
    ruleset = registry.get(ruleset_id)
    example = ruleset.example_path()
    enc = ruleset.parse_encounter(example.read_text(encoding="utf-8"), str(example))
    for seed in range(1, 20):
        path.unlink(missing_ok=True)
        played = Session(enc, seed, Journal(path))
        play(played, random.Random(seed), ACTIONS)
        played.journal.close()  # type: ignore[union-attr]
        if len(played.done) >= 12:
            return path, played
    raise AssertionError(f"no {ruleset_id} demo game of 12 actions")


def test_a_game_past_what_a_checkpoint_may_hold_is_not_stored(tmp_path, monkeypatch) -> None:
    # A checkpoint that would be refused when read is not written: the game replays.
    monkeypatch.setattr(journal_checkpoints, "MAX_BODY", 10_000)
    path, played = _long_game(tmp_path)
    con = sqlite3.connect(path)
    assert con.execute("SELECT count(*) FROM checkpoints").fetchone() == (0,)
    con.close()
    assert len(played.notices) == 1  # said once
    assert re.fullmatch(
        "korxsol's game cannot be checkpointed: its state is [0-9,]+ bytes, past 10,000;"
        " play goes on, and a resume replays the game",
        played.notices[0],
    )


def test_a_history_whose_actions_are_not_the_journals_is_refused(tmp_path) -> None:
    # Found by the `checkpoints` fuzz target: a recent action's line changed in the history
    # resumed into a game whose undo would replay a line never played.
    path, played = _long_game(tmp_path)

    def changed(history: dict) -> str:
        history["recent"][-1][0] = "adjust Kaelen sol +5"
        return json.dumps(history, sort_keys=True, separators=(",", ":"))

    _forge_json(path, history=changed)
    _replayed_with_notice(path, played, "action at event")


def test_an_attribute_none_in_a_new_game_holds_only_what_it_may(tmp_path) -> None:
    # Found by the `checkpoints` fuzz target: a winner made a list gave a TypeError.
    path, played = _long_game(tmp_path)
    _forge_bodies(path, lambda game: setattr(game, "winner", [1]))
    _replayed_with_notice(path, played, "a Game's winner is a sequence, not int or None")


def test_a_game_that_fits_but_does_not_take_the_actions_after_it_is_replayed(tmp_path) -> None:
    # Found by the `checkpoints` fuzz target: a winner set (a value the schema allows) made
    # the actions after the checkpoint refused, and the resume failed: "its journal does
    # not replay". Now the session reads no stored checkpoint again and replays it all.
    path, played = _long_game(tmp_path)
    _forge_bodies(path, lambda game: setattr(game, "winner", 0))
    back = _replayed_with_notice(path, played, "its game does not take the actions after it")
    assert back.stored_checkpoints_off
