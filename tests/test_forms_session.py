"""Forms through the host's generic parts: refusals in one line that change nothing, undo
and redo to any depth, the journal and resume, every roll checked and journalled, the
encounter files and template, `run --script`, `demo`, `export` and the score table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forms_fixtures import HALL, HIT, fight, hall, run, seen, vault
from table_dice import TableSession

from host import cli
from host.core import encounter_files
from host.core.interface import EncounterError, IllegalAction
from host.core.journal import Journal
from host.core.session import Session, resume
from host.rulesets.forms.encounter_schema import example_path

SCRIPT = Path(__file__).parent / "scripts" / "forms_sunken_vault.txt"


def play_out(s: Session, limit: int = 400) -> None:
    for _ in range(limit):
        if s.over:
            return
        for line in s.ruleset.plan_turn(s.game):
            s.execute(line)
            if s.over:
                return
    raise AssertionError("the demo AI did not finish the encounter")


def test_an_illegal_action_is_one_line_and_changes_nothing() -> None:
    s = hall()
    run(s, "check Bo Genius")
    for line, said in (
        ("form Ann Charm", "an Active Form is declared first"),
        ("form Bo Mend", "Bo does not know the Form Mend"),
        ("check Zed Genius", "unknown unit 'Zed'"),
        ("check Bo Luck", "'Luck' is not an attribute"),
        ("check Bo trap dc=3", "the trap check's difficulty is the area's"),
        ("check Bo Passion vs=Bo", "Bo cannot challenge itself"),
        ("attack Ann Cy", "attack belongs to combat"),
        ("fight", "fight: 1 check(s) of this round still to roll"),
        ("done Ann", "done ends a unit's part of a combat step"),
    ):
        before = seen(s)
        with pytest.raises(IllegalAction) as err:
            s.execute(line)
        assert said in str(err.value) and "\n" not in str(err.value), line
        assert seen(s) == before, line
    # With the dice from the table the check waits for its roll: faces are checked.
    s.dice_from = "entered"
    s.execute("next")
    for line, said in (
        ("dice 11 1", "a d10 die reads 1..10"),
        ("dice 10", "Bo's Genius roll (2 D10) takes 2 dice, not 1"),
    ):
        before = seen(s)
        with pytest.raises(IllegalAction) as err:
            s.execute(line)
        assert said in str(err.value) and "\n" not in str(err.value), line
        assert seen(s) == before and s.pending is not None, line
    s.execute("cancel")
    s.dice_from = "engine"
    fight_s = hall()
    fight(fight_s)
    before = seen(fight_s)
    for line, said in (
        ("move Ann", "Di moves before Ann"),
        ("attack Ann Cy", "attack is for step 5"),
        ("form Di Fast", "Fast is declared at step 4"),
        ("end", "end belongs to a social round"),
        ("check Ann Genius", "check belongs to a social round"),
    ):
        with pytest.raises(IllegalAction, match=said):
            fight_s.execute(line)
        assert seen(fight_s) == before, line


def test_undo_and_redo_go_back_and_forth_to_any_depth() -> None:
    s = vault(5)
    states = [seen(s)]
    for _ in range(400):
        if s.over:
            break
        for line in s.ruleset.plan_turn(s.game):
            s.execute(line)
            states.append(seen(s))
            if s.over:
                break
    assert s.over
    n = len(s.done)
    s.undo(n)
    assert seen(s) == states[0]
    s.redo(n // 2)
    assert seen(s) == states[n // 2]
    s.redo(n - n // 2)
    assert seen(s) == states[-1] and s.over


def test_every_roll_is_journalled_and_a_killed_game_resumes_exactly(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    s = TableSession(encounter_files.load(example_path()), 9, journal)
    run(s, "check Bram Physique", "dice 10 10 1 1", "next", "next", "fight", "next")
    run(s, "dice 10 10 10", "next", "undo")
    records = [e.rolls for e in s.done]
    assert records[1][0]["source"] == "entered" and records[1][0]["faces"] == [10, 10, 1, 1]
    assert all(r["source"] in ("engine", "entered") for rec in records for r in rec)
    s.dice_from = "entered"
    s.execute("next")  # it waits for its roll when the game is killed
    back = resume(Journal(tmp_path / "j.sqlite"))
    assert seen(back) == seen(s)
    assert back.pending is not None and back.pending.wanted == s.pending.wanted
    faces = " ".join(["1"] * s.pending.wanted.count)
    assert back.execute(f"dice {faces}") == s.execute(f"dice {faces}")
    assert seen(back) == seen(s)


def test_an_encounter_file_error_is_one_line_at_its_line() -> None:
    for change, said in (
        (
            ("agility = 3", "agility = 16"),
            "hall.toml:33: unit 'Ann': agility must be a whole number",
        ),
        (
            ('side = "Blue"\nagility = 1', 'side = "Green"\nagility = 1'),
            "hall.toml:49: unit 'Di': side 'Green'",
        ),
        (("skip = [4, 5, 6]", "skip = [2, 7]"), "hall.toml:9: form 'Mend': it can skip or add"),
        (('name = "Mend"', 'name = "Slow"'), "hall.toml:7: form 'Slow' is built in"),
        (
            ('attribute = "Genius"', 'attribute = "Luck"'),
            "hall.toml:25: check 'trap': attribute must be an attribute",
        ),
    ):
        text = HALL.replace(*change)
        assert text != HALL, change
        with pytest.raises(EncounterError) as err:
            encounter_files.parse(text, "hall.toml")
        assert str(err.value).startswith(said) and "\n" not in str(err.value)


def test_the_template_parses_and_encounter_new_writes_it(tmp_path: Path, capsys) -> None:
    assert cli.main(["encounter", "new", "--ruleset", "forms"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[7].startswith('ruleset = "forms"')
    enc = encounter_files.parse(text, "new.toml")
    assert enc.ruleset == "forms" and len(enc.units) == 2
    out = tmp_path / "mine.toml"
    assert cli.main(["encounter", "new", "--ruleset", "forms", "--out", str(out)]) == 0
    assert cli.main(["encounter", "check", str(out)]) == 0


def test_run_plays_the_example_script(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "j.sqlite")
    args = ["run", "--ruleset", "forms", "--script", str(SCRIPT), "--seed", "7", "--json"]
    assert cli.main([*args, "--db", db]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["mode"] == "combat" and state["round"] == 3
    assert [e["kind"] for e in state["encounters"]] == ["social", "form", "social", "combat"]
    assert cli.main(["export", "--db", db, "--format", "json"]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert "Vault" in json.dumps(exported)


def test_the_demo_plays_a_whole_encounter_through_the_simulated_board(capsys) -> None:
    assert cli.main(["demo", "--ruleset", "forms", "--seed", "4", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "simulated trellis_m4 board" in out
    assert out.rstrip().splitlines()[-1].startswith("winner: ")


def test_the_ai_finishes_every_seed_and_the_scores_add_up() -> None:
    for seed in range(1, 9):
        s = vault(seed)
        play_out(s)
        summary = s.ruleset.summary(s.game)
        teams = summary["teams"]
        assert sum(t["damage_dealt"] for t in teams.values()) == sum(
            t["damage_taken"] for t in teams.values()
        )
        assert s.ruleset.winner(s.game) in ("Party", "Wardens", "nobody")
        table = s.ruleset.score_table(s.game)
        assert table.headers == ["who", "dealt", "taken", "checks"]
        assert HIT  # the fixtures' dice are the tests' only fixed ones


def test_play_shows_it_and_export_draws_its_chart(tmp_path: Path) -> None:
    from io import StringIO

    from rich.console import Console

    from host.screens.play_ui import PlayUI

    buf = StringIO()
    journal = Journal(tmp_path / "j.sqlite")
    s = TableSession(encounter_files.load(example_path()), 3, journal)
    ui = PlayUI(s, Console(file=buf, width=80, color_system=None), "no board")
    ui.handle("check Bram Physique")
    ui.handle("scores")
    ui.handle("order")
    ui.handle("bogus")
    out = buf.getvalue()
    assert "round 1: Bram's Physique check next" in out
    assert "damage dealt: Party 0 · Wardens 0" in out
    assert "1. Bram (Agility 2, no Agility roll yet)" in out
    assert "refused: unknown command 'bogus'" in out
    play_out(s)
    png = tmp_path / "chart.png"
    assert (
        cli.main(
            ["export", "--db", str(tmp_path / "j.sqlite"), "--format", "png", "--out", str(png)]
        )
        == 0
    )
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_the_legal_action_check_refuses_without_playing() -> None:
    s = hall()
    fight(s)
    before = seen(s)
    with pytest.raises(IllegalAction, match="Di moves before Ann"):
        s.ruleset.check(s.game, s.ruleset.language.parse("move Ann"))
    s.ruleset.check(s.game, s.ruleset.language.parse("move Di"))  # allowed, not played
    assert seen(s) == before
