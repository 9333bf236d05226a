"""The point of the ruleset seam: a ruleset defined only in the tests (tests/tiny_ruleset.py),
registered here, plays through the host's generic parts (the session with undo and redo,
the journal and resume, the play UI, scores and the command line) with no change to the
host's code."""

from __future__ import annotations

import json
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from tiny_ruleset import EXAMPLE, TINY

from host import cli
from host.core import encounter_files, registry
from host.core.interface import IllegalAction
from host.core.journal import Journal
from host.core.session import Session, resume
from host.rulesets.korxsol import encounter_schema
from host.screens.play_ui import PlayUI
from shared import codec


@pytest.fixture(autouse=True)
def tiny() -> Iterator[None]:
    registry.register(TINY)
    yield
    registry.unregister(TINY.id)


def duel(seed: int = 1, journal: Journal | None = None) -> Session:
    return Session(encounter_files.load(EXAMPLE), seed, journal)


def seen(s: Session) -> tuple[str, bytes]:
    return json.dumps(TINY.snapshot(s.game), sort_keys=True), codec.encode(s.game.state)


def test_the_registry_lists_a_ruleset_registered_in_a_test() -> None:
    # The installed rulesets first (korxsol, the default, leads), then those registered.
    assert registry.ids()[-1] == "tiny" and registry.ids()[0] == "korxsol"
    assert set(registry.built_in()) < set(registry.ids())
    assert registry.get("tiny") is TINY
    assert dict(registry.described())["tiny"] == TINY.description


def test_an_encounter_file_that_names_it_is_read_by_it() -> None:
    enc = encounter_files.load(EXAMPLE)
    assert enc.ruleset == "tiny" and enc.teams == ("Red", "Blue")
    with pytest.raises(Exception, match="this encounter is for ruleset 'tiny', not 'korxsol'"):
        encounter_files.load(EXAMPLE, "korxsol")


def test_it_plays_undoes_and_redoes_through_the_generic_session() -> None:
    s = duel()
    assert s.ruleset is TINY
    s.execute("dice coin 1")
    assert s.execute("hit Bo") == ["heads: Bo takes hit 1 of 2"]
    after_hit = seen(s)
    s.execute("end")
    s.execute("end")
    assert TINY.snapshot(s.game)["round"] == 2
    final = seen(s)
    assert s.execute("undo 2") == ["undone: end", "undone: end"]
    assert seen(s) == after_hit
    s.execute("redo 2")
    assert seen(s) == final
    assert s.game.taken == [0, 1, 0]  # the hit did not land twice


def test_its_refusals_are_one_line_and_change_nothing() -> None:
    s = duel()
    s.execute("dice coin 0")
    s.execute("hit Cy")
    before = seen(s)
    for line, said in (
        ("hit Cy", "Red has hit once this turn"),
        ("hit Ann", "Ann is on Red's own team"),
        ("hit Zed", "unknown player 'Zed'"),
        ("attack Cy", "unknown command 'attack'"),
        ("dice coin 2", "a coin must be 0..1, not 2"),
        ("end now", "end: unexpected 'now' (usage: end)"),
    ):
        with pytest.raises(IllegalAction) as err:
            s.execute(line)
        assert said in str(err.value) and "\n" not in str(err.value)
        assert seen(s) == before
    # The legal-action check says the same without playing.
    with pytest.raises(IllegalAction, match="has hit once"):
        TINY.check(s.game, TINY.language.parse("hit Bo"))
    assert seen(s) == before


def test_it_is_journalled_and_resumes_exactly_with_its_waiting_coins(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    s = duel(3, journal)
    for line in ("hit Bo", "end", "end", "dice coin 1", "hit Bo", "undo", "dice coin 0"):
        s.execute(line)
    assert (journal.game(s.game_id or 0) or {})["ruleset"] == "tiny"
    back = resume(Journal(tmp_path / "j.sqlite"))
    assert back.ruleset is TINY and seen(back) == seen(s)
    # The entered heads went with the hit (undo gives no entered coin back: redo replays
    # the hit with it); the tails entered after the undo waits.
    assert [f for f, _ in back.game.waiting["coin"]] == [(0,)]
    assert back.execute("redo") == s.execute("redo")
    assert seen(back) == seen(s)


def test_it_plays_to_a_winner_that_the_journal_and_the_session_table_keep(tmp_path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    first = duel(5, journal)
    games = [first, first.next_game()]
    for game in games:
        while not game.over:
            for line in TINY.plan_turn(game.game):
                game.execute(line)
                if game.over:
                    break
    winners = [g["winner"] for g in journal.games()]
    assert len(winners) == 2 and set(winners) <= {"Red", "Blue"}
    table = {row["team"]: row for row in first.session_table()}
    assert sum(row["wins"] for row in table.values()) == 2
    for team in ("Red", "Blue"):
        landed = [TINY.summary(g.game)["teams"][team]["landed"] for g in games]
        assert table[team]["landed"] == sum(landed)


def test_the_play_ui_shows_it(tmp_path: Path) -> None:
    buf = StringIO()
    ui = PlayUI(duel(), Console(file=buf, width=80, color_system=None), "no board")
    ui.handle("dice coin 1")
    ui.handle("hit Bo")
    ui.handle("scores")
    ui.handle("bogus")
    out = buf.getvalue()
    assert "Duel, round 1: Red's turn" in out
    assert "heads: Bo takes hit 1 of 2" in out and "scores: Red 1 · Blue 0" in out
    assert "landed" in out  # the scores command's table
    assert "refused: unknown command 'bogus'" in out and "hit, end" in out
    assert "hit NAME" in ui.help_text(None)


def test_the_command_line_runs_exports_and_lists_it(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.txt"
    script.write_text("dice coin 1\nhit Bo\nend\n")
    db = str(tmp_path / "j.sqlite")
    args = ["run", "--ruleset", "tiny", "--script", str(script), "--db", db, "--json"]
    assert cli.main(args) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["turn"] == "Blue" and state["players"][1]["taken"] == 1
    assert cli.main(["export", "--db", db, "--format", "scores-csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "game,kind,name,team,landed,taken"
    assert cli.main(["games", "--db", db]) == 0
    assert "tiny" in capsys.readouterr().out
    assert cli.main(["rulesets"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert any(ln.split()[:2] == ["tiny", "v1"] and "a test's game" in ln for ln in listed)


def test_an_encounter_of_another_ruleset_than_asked_is_refused_in_one_line(tmp_path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("end\n")
    korxsol_file = encounter_schema.example_path()
    for ruleset, path, named in (("tiny", korxsol_file, "korxsol"), ("korxsol", EXAMPLE, "tiny")):
        args = ["run", "--ruleset", ruleset, "--encounter", str(path), "--script", str(script)]
        assert cli.main(args) == 2
        line = path.read_text().splitlines().index(f'ruleset = "{named}"') + 1
        err = capsys.readouterr().err
        assert err.splitlines() == [
            f"turnlight: {path}:{line}: this encounter is for ruleset {named!r}, not {ruleset!r}"
        ]


def test_play_resume_refuses_a_ruleset_other_than_the_games_in_one_line(tmp_path, capsys):
    db = tmp_path / "j.sqlite"
    duel(2, Journal(db)).execute("end")
    assert cli.main(["play", "--db", str(db), "--resume", "--ruleset", "korxsol"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "turnlight: --ruleset korxsol: game 1 is played under tiny (resume it without --ruleset)"
    ]
    assert [k for _, k, _, _ in Journal(db).events(1)] == ["action"]  # nothing was added
