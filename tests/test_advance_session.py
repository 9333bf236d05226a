"""Advance through the host's generic parts: refusals in one line that change nothing, undo
and redo to any depth, the journal and resume with dice waiting, `run` with a script,
`export`, `encounter new`, encounter errors with their line, and the demo to a winner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from advance_fixtures import EXAMPLE, PASS, play, session, start_round, text, who
from table_dice import TableSession

from host import cli
from host.commands import demo
from host.core import encounter_files
from host.core.interface import EncounterError, IllegalAction
from host.core.journal import Journal
from host.core.session import Session, resume
from host.rulesets.advance.ruleset import RULESET
from shared import codec

SCRIPT = Path(__file__).parent / "scripts" / "barrow_gate_fight.txt"


def seen(s: Session) -> tuple[str, bytes]:
    return json.dumps(RULESET.snapshot(s.game), sort_keys=True), codec.encode(s.game.state)


def script_lines() -> list[str]:
    out = []
    for line in SCRIPT.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def test_an_illegal_action_is_one_line_and_changes_neither_the_game_nor_the_journal(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    s = session(journal=journal)
    start_round(s, late=("Cyra",))
    play(s, PASS, "attack Ayla Cleave Snag")
    before = seen(s)
    events = len(journal.events(s.game_id or 0))
    for line, said in (
        ("wait Bren", "Snag's answer to the hit waits: `evade Snag` or `take Snag` first"),
        ("evade Grub", "the hit waiting is on Snag, not Grub"),
        ("death Snag", "Snag's answer to the hit waits"),
        ("attack Zed Cleave Snag", "Snag's answer to the hit waits"),
        ("next", "Snag's answer to the hit waits"),
        ("fullpower Grub", "only a Boss has Full Power"),
    ):
        with pytest.raises(IllegalAction) as err:
            s.execute(line)
        assert said in str(err.value) and "\n" not in str(err.value), line
        assert seen(s) == before
    play(s, "take Snag")
    after = seen(s)
    for line in ("attack Ayla Cleave Snag", "attack Bren Cleave Snag", "attack Bren Dagger Snag"):
        with pytest.raises(IllegalAction):
            s.execute(line)
        assert seen(s) == after
    assert len(journal.events(s.game_id or 0)) == events + 1  # only the take


def test_undo_and_redo_rebuild_the_game_exactly_to_any_depth() -> None:
    s = session(seed=9)
    states = [seen(s)]
    lines = script_lines()
    for line in lines:
        s.execute(line)
        states.append(seen(s))
    assert s.over
    actions = len(s.done)
    s.undo(actions)
    assert seen(s) == states[0]
    s.redo(actions)
    assert seen(s) == states[-1]
    s.undo(7)
    s.redo(3)
    s.undo(2)
    s.redo(6)
    assert seen(s) == states[-1]


def test_run_plays_a_script_to_its_end_and_export_writes_the_scores(tmp_path, capsys) -> None:
    db = str(tmp_path / "j.sqlite")
    args = ["run", "--ruleset", "advance", "--script", str(SCRIPT), "--db", db, "--json"]
    assert cli.main(args) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["winner"] == "Adventurers"
    dead = [c["name"] for c in state["characters"] if c["status"] == "dead"]
    assert dead == ["Grub", "Snag", "Mortha"]
    assert cli.main(["export", "--db", db, "--format", "scores-csv"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header == "game,kind,name,team,damage,body,hits,evasions,downs"


def test_encounter_new_writes_the_template_and_it_plays(tmp_path: Path, capsys) -> None:
    out = tmp_path / "mine.toml"
    assert cli.main(["encounter", "new", "--ruleset", "advance", "--out", str(out)]) == 0
    enc = encounter_files.load(out)
    assert enc.ruleset == "advance" and enc.name == "My Encounter"
    s = TableSession(enc, 3)
    while not s.over and len(s.done) < 400:
        for line in RULESET.plan_turn(s.game):
            s.execute(line)
    assert s.over


@pytest.mark.parametrize(
    "change, said",
    [
        (("stamina = 14", "stamina = lots"), "not valid TOML"),
        (("stamina = 14", "stamina = 0"), "adventurer 'Ayla': stamina must be a whole number"),
        (('{ roll = 6, part = "Left Leg" }', '{ roll = 5, part = "Left Leg" }'), "cover"),
        (('specialty = "Reflexes"', 'specialty = "Juggling"'), "not in the Specialty table"),
        (('death_tie = "survive"', 'death_tie = "maybe"'), "death_tie must be survive or die"),
        (("damage = 5\nrebound = 1", "damage = 5\nrebound = 1\nreach = 2"), "unknown key 'reach'"),
        (('name = "Grub"', 'name = "Ayla"'), "'Ayla' names two characters"),
        (('label = "MOR"', "label = 7"), "enemy 'Mortha': label must be a string"),
        (('label = "MOR"', 'label = "M|R"'), "enemy 'Mortha': label 'M|R' may use only"),
    ],
)
def test_an_encounter_error_is_one_line_with_its_line(change, said) -> None:
    bad = text(change)
    with pytest.raises(EncounterError) as err:
        RULESET.parse_encounter(bad, "bad.toml")
    message = str(err.value)
    assert message.startswith("bad.toml:") and said in message and "\n" not in message
    line = int(message.split(":")[1])
    assert 1 <= line <= len(bad.splitlines())


def test_the_demo_plays_a_whole_fight_to_a_winner_the_same_way_for_a_seed() -> None:
    enc = encounter_files.load(EXAMPLE)
    a: list[str] = []
    b: list[str] = []
    first = demo.play(enc, 5, a.append)
    second = demo.play(enc, 5, b.append)
    assert a == b and first.over and RULESET.snapshot(first.game) == RULESET.snapshot(second.game)
    assert a[-1].strip().startswith("winner: ")
    for seed in range(1, 9):
        assert demo.play(enc, seed, lambda _: None).over, seed


def test_the_bench_times_whole_turns_through_the_session_and_its_journal(monkeypatch) -> None:
    from host.lab import bench_suite
    from host.rulesets.advance import bench_turn as advance_bench

    assert advance_bench.engine_turn in bench_suite.MEASUREMENTS
    monkeypatch.setattr(advance_bench, "TURNS", 20)
    figures = advance_bench.engine_turn()
    assert list(figures) == ["engine_turn_us_advance"] and figures["engine_turn_us_advance"] > 0


def test_the_play_ui_shows_the_round_the_roster_and_the_help() -> None:
    from io import StringIO

    from rich.console import Console

    from host.screens.play_ui import PlayUI

    buf = StringIO()
    ui = PlayUI(session(), Console(file=buf, width=80, color_system=None), "no board")
    for line in ("dice d6 1", "next", "wait Ayla", "scores", "bogus"):
        ui.handle(line)
    out = buf.getvalue()
    assert "The Barrow Gate, round 1" in out and "Ayla takes no action" in out
    assert "refused: unknown command 'bogus'" in out and "foes down" in out
    assert "attack NAME ABILITY|WEAPON TARGET" in ui.help_text(None)


def test_names_of_several_words_need_no_quotes_and_a_misspelt_one_gets_a_suggestion() -> None:
    s = session()
    start_round(s)
    lines = play(s, PASS, "attack Bren Aimed Shot Grub evade=no")
    assert lines[1] == "Bren attacks Grub with Aimed Shot (<Bow>)"
    assert s.done[-1].text == "attack Bren Aimed Shot Grub evade=no"  # replays as typed
    for line, said in (
        ("attack Ayla Clave Grub", "unknown ability or item 'Clave'; did you mean 'Cleave'?"),
        ("wait Aila", "unknown character 'Aila'; did you mean 'Ayla'?"),
        ("attack Ayla Cleave Grubb", "unknown character 'Grubb'; did you mean 'Grub'?"),
    ):
        with pytest.raises(IllegalAction, match=said):
            s.execute(line)
    s.undo(1)
    s.redo(1)
    assert who(s, "Grub").stamina == 3


def test_the_odds_of_a_hit_check_and_of_an_evasion_are_exact() -> None:
    from host.rulesets.advance import exact_odds

    s = session()
    options = s.game.options
    # 2D6 >= 5: 30 of 36 faces; a 2 fumbles whatever the difficulty; a 12 always succeeds.
    assert exact_odds.chance(5, options) == 30 / 36
    assert exact_odds.chance(2, options) == 35 / 36 and exact_odds.chance(20, options) == 1 / 36
    start_round(s)
    assert RULESET.before(s.game, "attack Ayla Cleave Snag") == [
        "odds: Hit check on <Sword>, difficulty 5: 83%"
    ]
    play(s, "dice check 3 3", "attack Ayla Cleave Snag")
    assert RULESET.odds_preview(s.game) == ["odds: Snag's Evasion, difficulty 7: 58%"]


def test_a_killed_play_session_of_advance_resumes_exactly(tmp_path: Path) -> None:
    import os
    import signal
    import sqlite3
    import subprocess
    import sys
    import time

    db = tmp_path / "play.sqlite"
    # Step A's Initiative check waits for its dice (--dice entered): the table's D6 and
    # Ayla's check are given, and the game is killed while it waits for Bren's.
    typed = ["next", "dice 1", "dice 6 5"]
    events = 3  # want, want-dice, want-dice
    proc = subprocess.Popen(
        [sys.executable, "-m", "host.cli", "play", "--ruleset", "advance", "--db", str(db)]
        + ["--seed", "6", "--no-board", "--dice", "entered"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=dict(os.environ, TERM="dumb"),
    )
    assert proc.stdin is not None
    proc.stdin.write(("\n".join(typed) + "\n").encode())
    proc.stdin.flush()
    deadline = time.monotonic() + 60  # bounds a hang only: a busy machine starts python slowly
    count = 0
    while time.monotonic() < deadline and count < events:
        if db.exists():
            try:
                con = sqlite3.connect(db)
                count = con.execute("SELECT COUNT(*) FROM events").fetchone()[0]
                con.close()
            except sqlite3.OperationalError:
                count = 0
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert count == events
    back = resume(Journal(db))
    fresh = session(seed=6)
    fresh.dice_from = "entered"
    for line in typed:
        fresh.execute(line)
    assert back.ruleset is RULESET and seen(back) == seen(fresh)
    assert back.pending is not None and fresh.pending is not None
    assert (
        back.pending.supplied
        == fresh.pending.supplied
        == [
            ("d6", (1,), "entered"),
            ("check", (6, 5), "entered"),
        ]
    )
    assert back.pending.wanted == fresh.pending.wanted
