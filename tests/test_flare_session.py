"""Flare through the generic host: one-line refusals that change nothing (not the game, not
the journal), undo and redo to any depth, the journal and resume, the encounter files and
template, `run --script`, `demo`, the exports and the score table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flare_fixtures import duel, text

from host import cli
from host.commands import demo
from host.core import encounter_files, registry
from host.core.interface import EncounterError, IllegalAction
from host.core.journal import Journal
from host.core.session import Session, resume
from host.rulesets.flare import encounter_schema
from shared import codec

SCRIPT = Path(__file__).parent / "scripts" / "rift_duel.txt"
RULES = registry.get("flare")


def seen(s: Session) -> tuple[str, bytes]:
    return json.dumps(RULES.snapshot(s.game), sort_keys=True), codec.encode(RULES.state(s.game))


def script_lines() -> list[str]:
    return [ln for ln in SCRIPT.read_text().splitlines() if ln and not ln.startswith("#")]


def test_flare_is_built_in_and_its_example_and_template_parse() -> None:
    assert "flare" in registry.ids()
    example = encounter_files.load(RULES.example_path())
    assert example.ruleset == "flare" and example.teams == ("Ann", "Bo")
    assert encounter_files.parse(RULES.template(), "template.toml").teams == ("Red", "Blue")


def test_an_illegal_action_is_one_line_and_changes_neither_the_game_nor_the_journal(
    tmp_path: Path,
) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    s = duel(("1c 2h . . .",), journal=journal)
    s.execute("place e5")
    before = seen(s)
    events = len(journal.events(s.game_id or 0))
    for line in (
        "place e5",
        "summon plain at=b1",
        "summon plian at=c1",
        "summon plain",
        "summon plain at=c1 by=me",
        "flare flash",
        "end",
        "discard wyrm return=wyrm",
        "place z9",
    ):
        with pytest.raises(IllegalAction) as err:
            s.execute(line)
        assert str(err.value) and "\n" not in str(err.value), line
        assert seen(s) == before, line
        with pytest.raises(IllegalAction):
            RULES.check(s.game, RULES.language.parse(line))
    assert len(journal.events(s.game_id or 0)) == events
    with pytest.raises(IllegalAction, match="unknown card 'plian'; did you mean 'plain'"):
        s.execute("summon plian at=c1")


def test_undo_and_redo_go_to_any_depth() -> None:
    s = Session(encounter_files.load(RULES.example_path()), 7, None)
    lines = script_lines()
    states = [seen(s)]
    for line in lines:
        s.execute(line)
        states.append(seen(s))
    assert s.over and RULES.winner(s.game) == "Bo"
    s.undo(len(lines))
    assert seen(s) == states[0]
    s.redo(17)
    assert seen(s) == states[17]
    s.undo(5)
    assert seen(s) == states[12]
    s.redo(len(lines) - 12)
    assert seen(s) == states[-1]


def test_a_journalled_game_resumes_exactly(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    s = Session(encounter_files.load(RULES.example_path()), 7, journal)
    for line in script_lines()[:20]:
        s.execute(line)
    s.undo(2)
    back = resume(Journal(tmp_path / "j.sqlite"))
    assert back.ruleset is RULES and seen(back) == seen(s)
    assert back.execute("redo 2") == s.execute("redo 2")
    assert seen(back) == seen(s)


def test_run_plays_the_script_and_the_exports_and_games_read_it(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "j.sqlite")
    args = ["run", "--ruleset", "flare", "--script", str(SCRIPT), "--seed", "7", "--db", db]
    assert cli.main([*args, "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["winner"] == "Bo" and state["players"][1]["score"] == 13
    assert cli.main(["export", "--db", db, "--format", "scores-csv"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head.startswith("game,kind,name,team,score,destroyed")
    assert cli.main(["games", "--db", db]) == 0
    assert "flare" in capsys.readouterr().out


def test_the_demo_plays_a_whole_game_to_its_end() -> None:
    out: list[str] = []
    enc = encounter_files.load(RULES.example_path())
    for seed in (1, 2, 3):
        session = demo.play(enc, seed, out.append)
        assert session.over, seed
    assert any(line.startswith("> summon") for line in out)


@pytest.mark.parametrize(
    "name, sides, players",
    [("rift_battle", ("Ann", "Bo", "Cy"), 3), ("rift_teams", ("Sun", "Moon"), 4)],
)
def test_the_battle_and_team_examples_play_to_their_end(name, sides, players) -> None:
    enc = encounter_files.load(encounter_schema.HERE / "encounters" / f"{name}.toml")
    assert enc.teams == sides
    session = demo.play(enc, 3, lambda line: None)
    assert session.over and RULES.state(session.game).count == players
    assert RULES.winner(session.game) in (*sides, "nobody")


def test_the_advanced_game_plays_to_its_end_claiming_tasks() -> None:
    source = RULES.example_path().read_text()
    enc = encounter_files.parse(
        source.replace('deck = "standard"', 'deck = "standard"\nadvanced = true'), "a.toml"
    )
    claimed = 0
    for seed in (1, 2):
        session = demo.play(enc, seed, lambda line: None)
        assert session.over
        claimed += sum(s["tasks"] for s in RULES.summary(session.game)["players"].values())
    assert claimed > 0


def test_encounter_new_writes_the_template_and_check_accepts_it(tmp_path: Path, capsys) -> None:
    path = tmp_path / "mine.toml"
    assert cli.main(["encounter", "new", "--ruleset", "flare", "--out", str(path)]) == 0
    assert all(len(line) <= 90 for line in path.read_text().splitlines())
    assert cli.main(["encounter", "check", str(path)]) == 0


@pytest.mark.parametrize(
    "change, said",
    [
        ({"mode": "league"}, "mode 'league' is not one of"),
        ({"columns": 12}, "columns must be a whole number 3..9, not 12"),
        ({"wings": 2}, "unknown key 'wings'"),
        ({"start": ". . ."}, "start is a list of strings"),
    ],
)
def test_a_bad_encounter_is_one_line_at_its_line(change: dict, said: str) -> None:
    settings = {"mode": "duel", **change}
    if "start" in change:
        source = text(**{k: v for k, v in settings.items() if k != "start"}).replace(
            'mode = "duel"', 'mode = "duel"\nstart = ". . ."'
        )
    else:
        source = text(**settings)
    with pytest.raises(EncounterError) as err:
        encounter_files.parse(source, "test.toml")
    assert said in str(err.value) and "\n" not in str(err.value)
    line = int(str(err.value).split(":")[1])  # the line of the key at fault
    assert source.splitlines()[line - 1].startswith(next(iter(change)))


def test_a_bad_card_is_refused_at_its_table() -> None:
    source = text().replace('pattern = ["cc", ".*"]', 'pattern = ["cc", "?*"]')
    with pytest.raises(EncounterError, match=r"test.toml:\d+: creature 6: a pattern may use only"):
        encounter_files.parse(source, "test.toml")
    three = text().replace('name = "Bo"', 'name = "Bo"\n\n[[player]]\nname = "Cy"', 1)
    with pytest.raises(EncounterError, match="a duel has two players, not 3"):
        encounter_files.parse(three, "test.toml")
    two = text(mode="battle")
    with pytest.raises(EncounterError, match="a battle has three or four players, not 2"):
        encounter_files.parse(two, "test.toml")
    assert encounter_schema.EXAMPLE.exists()


def test_the_bench_times_whole_turns_through_the_session_and_its_journal() -> None:
    from host.lab import bench_suite
    from host.rulesets.flare import bench_turn as flare_bench

    assert flare_bench.engine_turn in bench_suite.MEASUREMENTS
    figures = flare_bench.engine_turn(turns=5)
    assert list(figures) == ["engine_turn_us_flare"] and figures["engine_turn_us_flare"] > 0


def test_the_play_ui_shows_the_grid_the_turn_and_the_scores() -> None:
    from io import StringIO

    from rich.console import Console

    from host.screens.play_ui import PlayUI

    buf = StringIO()
    ui = PlayUI(duel(("2h . . . .",)), Console(file=buf, width=80, color_system=None), "no board")
    ui.handle("flare")
    ui.handle("show")
    ui.handle("scores")
    ui.handle("summon plain")
    out = buf.getvalue()
    assert "Test duel, round 1: Ann's turn: 3 action(s) left" in out
    assert "Ann calls the Flare flash (top); Bo scores 1" in out
    assert "2H" in out and "Ann's hand: stepper" in out  # the grid and the hands
    assert "scores: Ann 0 · Bo 1" in out
    assert "refused: summon: at=SQUARE is missing" in out
    assert "summon CARD at=SQUARE" in ui.help_text(None)
