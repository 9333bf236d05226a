"""d20 through the host's generic parts: refusals in one line that change nothing, undo and
redo to any depth, resume after the process is killed, `run` with a script and `export`,
`encounter new`, encounter errors with their line, the demo to a winner (on the laptop and
through the simulated board) and the bench figure."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from host import cli
from host.commands import demo
from host.core import encounter_files
from host.core.interface import EncounterError, IllegalAction
from host.core.journal import Journal
from host.core.session import Session, resume
from host.rulesets.d20 import encounter_schema
from host.rulesets.d20.ruleset import RULESET
from shared import codec

EXAMPLE = encounter_schema.example_path()


def example(text: str | None = None) -> encounter_schema.Encounter:
    return RULESET.parse_encounter(text or EXAMPLE.read_text(), "wyrmling_den.toml")


def seen(s: Session) -> tuple[str, bytes]:
    return json.dumps(RULESET.snapshot(s.game), sort_keys=True), bytes(codec.encode(s.game.state))


def played(seed: int, most: int = 2000) -> list[str]:
    """The demo AI's commands of a whole fight of the bundled encounter."""
    s = Session(example(), seed)
    lines: list[str] = []
    while not s.over and len(lines) < most:
        for line in RULESET.plan_turn(s.game):
            s.execute(line)
            lines.append(line)
    assert s.over
    return lines


def test_a_refused_action_is_one_line_and_changes_neither_the_game_nor_the_journal(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    s = Session(example(), 4, journal)
    s.execute("initiative")
    before = seen(s)
    events = len(journal.events(s.game_id or 0))
    acting = s.game.fighters[s.game.entry().members[0]]
    other = next(f for f in s.game.fighters if f.index not in s.game.entry().members)
    for line, said in (
        (f"act {other.label}", f"not {other.name}'s"),
        ("attack Nobody BRN", "unknown creature 'Nobody'"),
        (f"save {acting.label} luck 10", "unknown ability 'luck'"),
        (f"condition {acting.label} prone rounds=2 save=con:10", "one duration at a time"),
        (f"stabilize {acting.label} {other.label}", "is not dying"),
        ("initiative", "initiative is rolled once"),
        ("finish Dragons", "unknown team 'Dragons'"),
        (f"end {s.game.teams[0]}", f"to end the fight: `finish {s.game.teams[0]}`"),
        (f"end {other.label}", f"it is not {other.name}'s turn"),
    ):
        with pytest.raises(IllegalAction) as err:
            s.execute(line)
        assert said in str(err.value) and "\n" not in str(err.value), line
        assert seen(s) == before
    assert len(journal.events(s.game_id or 0)) == events


def test_undo_and_redo_rebuild_the_game_exactly_to_any_depth() -> None:
    lines = played(9)
    s = Session(example(), 9)
    states = [seen(s)]
    for line in lines:
        s.execute(line)
        states.append(seen(s))
    s.undo(len(lines))
    assert seen(s) == states[0]
    s.redo(len(lines))
    assert seen(s) == states[-1]
    s.undo(7)
    assert seen(s) == states[-8]
    s.redo(3)
    s.undo(2)
    s.redo(6)
    assert seen(s) == states[-1]


def test_a_killed_play_session_of_d20_resumes_exactly(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite"
    typed = ["initiative", "condition GB1 frightened save=wis:12", "temp BRN 5", "next"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "host.cli", "play", "--ruleset", "d20", "--db", str(db)]
        + ["--seed", "6", "--no-board"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=dict(os.environ, TERM="dumb"),
    )
    assert proc.stdin is not None
    proc.stdin.write(("\n".join(typed) + "\n").encode())
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    count = 0
    while time.monotonic() < deadline and count < len(typed):
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
    assert count == len(typed)
    back = resume(Journal(db))
    fresh = Session(example(), 6)
    for line in typed:
        fresh.execute(line)
    assert back.ruleset is RULESET and seen(back) == seen(fresh)
    assert back.game.effects and back.game.fighter("BRN").temp == 5


def test_run_plays_a_script_to_its_end_and_export_writes_the_scores(tmp_path, capsys) -> None:
    script = tmp_path / "fight.txt"
    script.write_text("\n".join(played(3)) + "\n")
    db = str(tmp_path / "j.sqlite")
    args = ["run", "--ruleset", "d20", "--seed", "3", "--script", str(script), "--db", db]
    assert cli.main([*args, "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["winner"] in ("Adventurers", "Monsters")
    losers = [c for c in state["creatures"] if c["team"] != state["winner"]]
    assert all(c["state"] in ("dead", "dying", "stable", "knocked out", "fled") for c in losers)
    assert cli.main(["export", "--db", db, "--format", "scores-csv"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header == (
        "game,kind,name,team,damage_dealt,damage_taken,hits,misses,crits,downs,healed"
    )


def test_encounter_new_writes_the_template_and_it_plays_to_its_end(tmp_path: Path) -> None:
    out = tmp_path / "mine.toml"
    assert cli.main(["encounter", "new", "--ruleset", "d20", "--out", str(out)]) == 0
    enc = encounter_files.load(out)
    assert enc.ruleset == "d20" and enc.name == "My Encounter"
    assert [t.name for t in enc.templates] == ["Bandit Captain"]
    s = Session(enc, 3)
    while not s.over and len(s.done) < 500:
        for line in RULESET.plan_turn(s.game):
            s.execute(line)
    assert s.over


@pytest.mark.parametrize(
    "change, said",
    [
        (("hp = 34", "hp = lots"), "not valid TOML"),
        (("hp = 34", "hp = 0"), "creature 'Brenna': hp must be a whole number 1..999"),
        (('damage = "1d8+4"', 'damage = "1d7+4"'), "damage must be dice such as"),
        (('ties = "gm"', 'ties = "coin"'), "options: ties must be gm or roll or dex"),
        (('team = "Adventurers"', 'team = "Heroes"'), "team must be one of Adventurers"),
        (("speed = 30\nsaves", "reach = 5\nsaves"), "unknown key 'reach'"),
        (('name = "Oswin"', 'name = "Brenna"'), "'brenna' names two creatures"),
        (('label = "BRN"', 'label = "B|N"'), "label 'B|N' may use only"),
        (("count = 2", "count = 9"), "count must be a whole number 1..8"),
        (('condition = "prone"', 'condition = "sleepy"'), "lair condition must be one of"),
        (("saves = { str = 5", "saves = { luck = 5"), "saves: unknown key 'luck'"),
    ],
)
def test_an_encounter_error_is_one_line_with_its_line(change, said) -> None:
    good = EXAMPLE.read_text()
    assert change[0] in good
    bad = good.replace(change[0], change[1], 1)
    with pytest.raises(EncounterError) as err:
        RULESET.parse_encounter(bad, "bad.toml")
    message = str(err.value)
    assert message.startswith("bad.toml:") and said in message and "\n" not in message
    line = int(message.split(":")[1])
    assert 1 <= line <= len(bad.splitlines())


def test_a_monster_group_is_identical_creatures_with_numbered_names_and_labels() -> None:
    goblins = [c for c in example().creatures if c.name.startswith("Goblin")]
    assert [(c.name, c.label) for c in goblins] == [
        ("Goblin 1", "GB1"),
        ("Goblin 2", "GB2"),
    ]
    assert len({c.group for c in goblins}) == 1 and goblins[0].group >= 0


def test_the_demo_plays_a_whole_fight_to_a_winner_the_same_way_for_a_seed() -> None:
    enc = encounter_files.load(EXAMPLE)
    a: list[str] = []
    b: list[str] = []
    first = demo.play(enc, 5, a.append)
    second = demo.play(enc, 5, b.append)
    assert a == b and first.over
    assert RULESET.snapshot(first.game) == RULESET.snapshot(second.game)
    assert a[-1].strip().startswith("winner: ")
    assert not any("refused" in line for line in a)
    for seed in range(1, 9):
        assert demo.play(enc, seed, lambda _: None).over, seed


def test_the_demo_plays_to_its_end_through_the_simulated_board_with_its_dice() -> None:
    enc = encounter_files.load(EXAMPLE)
    said: list[str] = []
    session = demo.play(enc, 2, said.append, board="trellis_m4")
    assert session.over and said[-1].strip().startswith("winner: ")
    assert not any("refused" in line for line in said)


def test_the_bench_times_whole_turns_through_the_session_and_its_journal(monkeypatch) -> None:
    from host.lab import bench_suite
    from host.rulesets.d20 import bench_turn

    monkeypatch.setattr(bench_turn, "TURNS", 20)
    assert bench_turn.engine_turn_d20 in bench_suite.ruleset_measurements()
    figures = bench_turn.engine_turn_d20()
    assert list(figures) == ["engine_turn_us_d20"] and figures["engine_turn_us_d20"] > 0


def test_end_ends_the_turn_in_d20_as_in_every_game_and_finish_ends_the_fight() -> None:
    """The first-hour issue, item 1: one word means one thing in every game. `end` ends the
    turn (as `next`); ending the fight (d20-srd-combat.txt [29], the game master's call) is
    `finish`, and its line says that `undo` takes it back."""
    from host.core import registry

    ruleset = registry.get("d20")
    s = Session(ruleset.parse_encounter(ruleset.example_path().read_text(), "x.toml"), 3)
    s.execute("initiative")
    first = s.game.entry()
    acting = s.game.fighters[first.members[0]]
    s.execute(f"end {acting.label}")
    assert s.game.over is None and s.game.entry() is not first
    said = s.execute("finish nobody")
    assert s.game.over == "nobody" and any("`undo` takes it back" in line for line in said)
    s.execute("undo")
    assert s.game.over is None


def test_a_group_s_turn_names_only_those_still_in_the_fight() -> None:
    """The first-hour issue, item 9: "Goblin 1, Goblin 2's turn" named a dead goblin. A
    group plays as one (d20-srd-combat.txt [2]); its dead take no turn ([6])."""
    from d20_fixtures import ANA, WOLVES, Table

    t = Table(ANA, WOLVES)
    t.start(15, 2)  # Ana 18, the wolves 4
    t.play("damage WF1 11")  # Wolf 1 dies
    lines = t.play("next")
    assert any(line.endswith(": Wolf 2's turn") for line in lines), lines
    assert not any("Wolf 1" in line and "turn" in line for line in lines), lines


def test_a_group_s_name_alone_suggests_its_members_and_their_labels() -> None:
    """The first-hour issue, item 6: "unknown creature 'Wolf'" said nothing of Wolf 1 and
    Wolf 2, which Tab offers; a refusal names what would work."""
    from d20_fixtures import ANA, WOLVES, Table

    t = Table(ANA, WOLVES)
    t.start(15, 2)
    said = t.refused("attack Ana Wolf")
    assert said == "unknown creature 'Wolf'; did you mean 'Wolf 1' (WF1) or 'Wolf 2' (WF2)?"
    assert "did you mean 'Wolf 1'?" in t.refused("attack Ana Wolf1")
