"""Stones through the generic host: the registry, encounter files and the template, the
session's undo and redo to any depth, the journal and resume (after a kill too), refusals
that change nothing, `run`, `demo`, `export`, `games` and the play UI."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from stones_fixtures import encounter_text, play, session
from table_dice import TableSession

from host import cli
from host.commands import demo
from host.core import encounter_files, registry
from host.core.interface import EncounterError, IllegalAction
from host.core.journal import Journal
from host.core.session import Session, resume
from host.rulesets.stones.ruleset import RULESET
from host.screens.play_ui import PlayUI
from shared import codec

SCRIPT = Path(__file__).parent / "scripts" / "stones_mossy_ford.txt"


def example(seed: int = 1, journal: Journal | None = None) -> Session:
    return TableSession(encounter_files.load(RULESET.example_path(), "stones"), seed, journal)


def seen(s: Session) -> tuple[str, bytes]:
    return json.dumps(RULESET.snapshot(s.game), sort_keys=True), codec.encode(s.game.state)


def ai_lines(s: Session, count: int) -> list[str]:
    """Play `count` of the demo AI's actions (fewer if the game ends); returns them."""
    done: list[str] = []
    while len(done) < count and not s.over:
        for line in RULESET.plan_turn(s.game):
            s.execute(line)
            done.append(line)
            if len(done) == count or s.over:
                break
    return done


def test_stones_is_built_in_with_an_example_and_a_template_that_parse() -> None:
    assert registry.get("stones") is RULESET and "stones" in registry.ids()
    enc = encounter_files.load(RULESET.example_path())
    assert enc.ruleset == "stones" and enc.teams == ("Dawn", "Dusk")
    template = RULESET.parse_encounter(RULESET.template(), "template.toml")
    assert template.status("Poison") is not None and len(template.characters) == 2


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("hp = 20", "hp = 0"), "Kaelen: hp must be a whole number 1..255"),
        (('class = "warrior"', 'class = "bard"'), "Kaelen: class must be one of cleric,"),
        (('player = "Ann"\nclass', 'player = "Zed"\nclass'), "Kaelen: player 'Zed' is not"),
        (("[On 1-50]", "[On 60-50]"), "Flame Slash: [On 60-50] is not a range within 1-100"),
        (("adds [Burn]", "adds [Blaze]"), "Flame Slash: unknown keyword 'adds [Blaze]' (statuses:"),
        (('deck_out = "stop"', 'deck_out = "later"'), "deck_out must be one of reshuffle, stop"),
    ],
)
def test_a_bad_encounter_is_one_line_at_its_line(change: tuple[str, str], said: str) -> None:
    text = encounter_text(options='deck_out = "stop"').replace(*change, 1)
    with pytest.raises(EncounterError) as err:
        encounter_files.parse(text, "test_ford.toml")
    name, line, what = str(err.value).split(":", 2)
    assert name == "test_ford.toml" and what.strip().startswith(said) and "\n" not in what
    # The line is the changed one's, or for an ability the table it is in.
    lines = text.splitlines()
    changed = next(n for n, t in enumerate(lines) if change[1].split("\n")[0] in t)
    table = max(n for n in range(changed + 1) if lines[n] == "[[character.abilities]]" or n == 0)
    assert int(line) - 1 in (changed, table)


def test_refusals_are_one_line_and_change_neither_the_game_nor_the_journal(tmp_path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    s = session(journal=journal)
    play(s, "move Kae 2")
    before = seen(s), len(journal.events(s.game_id or 0))
    for line, said in (
        ("move Kae 1", "Kaelen's move has ended"),
        ("attack Kae Zed", "unknown character 'Zed'"),
        ("attack Kaelenn Orr", "did you mean 'Kaelen'?"),
        ('ability Kae "Flame Slsh" Orr', "did you mean 'Flame Slash'?"),
        ("shoot Kae", "unknown command 'shoot'"),
        ("discard", "discard: a card is missing"),
    ):
        with pytest.raises(IllegalAction) as err:
            s.execute(line)
        assert said in str(err.value) and "\n" not in str(err.value)
        assert (seen(s), len(journal.events(s.game_id or 0))) == before
    with pytest.raises(IllegalAction, match="move has ended"):
        RULESET.check(s.game, RULESET.language.parse("move Kae 1"))  # type: ignore[arg-type]
    assert seen(s)[0] == before[0][0]


def test_an_ability_of_several_words_may_be_typed_without_quotes() -> None:
    s = session()
    play(s, "dice d100 9 9", "dice d100 9 9")
    assert "Kaelen uses Flame Slash on Orrin" in s.execute("ability Kae Flame Slash Orr")[1]


def test_undo_and_redo_to_any_depth_rebuild_the_game_exactly() -> None:
    s = example(5)
    states = [seen(s)]
    for _ in ai_lines(s, 40):
        pass
    # Replay the same lines one at a time to keep each state.
    t = example(5)
    for entry in s.done:
        t.execute(entry.text)
        states.append(seen(t))
    assert states[-1] == seen(s)
    for depth in range(1, len(s.done) + 1):
        s.undo(1)
        assert seen(s) == states[-1 - depth]
    s.redo(len(states) - 1)
    assert seen(s) == states[-1]


def test_a_killed_play_session_resumes_exactly(tmp_path) -> None:
    db = tmp_path / "play.sqlite"
    # The attack waits for its crit d100 (--dice entered), and `dice` gives it.
    lines = ["move Kae 2", "attack Kae Orr", "dice d100 0 5", "end"]
    events = 5  # move, want, want-dice, the attack, end
    proc = subprocess.Popen(
        [sys.executable, "-m", "host.cli", "play", "--ruleset", "stones", "--db", str(db)]
        + ["--seed", "11", "--no-board", "--dice", "entered"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=dict(os.environ, TERM="dumb"),
    )
    assert proc.stdin is not None
    proc.stdin.write(("\n".join(lines) + "\n").encode())
    proc.stdin.flush()
    deadline, count = time.monotonic() + 60, 0
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
    fresh = example(11)
    play(fresh, "move Kae 2", "dice d100 0 5", "attack Kae Orr", "end")
    assert seen(back) == seen(fresh)
    assert back.done[1].rolls == [[0, 5, "entered"]]


def test_the_demo_plays_whole_games_to_a_winner_the_journal_keeps(tmp_path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    out: list[str] = []
    for seed in (1, 2, 3):
        s = demo.play(example(seed).encounter, seed, out.append, journal=journal)
        assert s.over and RULESET.winner(s.game) in ("Dawn", "Dusk")
    assert not [line for line in out if "refused" in line]
    games = journal.games()
    assert len(games) == 3 and all(g["winner"] in ("Dawn", "Dusk") for g in games)
    assert out[-1].startswith("\nwinner: ")


def test_run_plays_the_example_script_to_its_winner(tmp_path, capsys) -> None:
    db = str(tmp_path / "j.sqlite")
    args = ["run", "--ruleset", "stones", "--script", str(SCRIPT), "--seed", "7", "--json"]
    assert cli.main([*args, "--db", db]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["winner"] == "Dawn"
    losers = [c for c in state["characters"] if c["team"] == "Dusk"]
    assert all(c["hp"] == 0 for c in losers)
    assert cli.main(["export", "--db", db, "--format", "scores-csv"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header.startswith("game,kind,name,team,damage_dealt,damage_taken")
    assert cli.main(["games", "--db", db]) == 0
    assert "stones" in capsys.readouterr().out
    assert cli.main(["export", "--db", db, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)


def test_run_stops_at_a_refused_line_with_file_and_line(tmp_path, capsys) -> None:
    script = tmp_path / "s.txt"
    script.write_text("move Kae 2\nmove Kae 1\n")
    assert cli.main(["run", "--ruleset", "stones", "--script", str(script)]) == 2
    assert f"{script}:2: Kaelen's move has ended (2 of 4 spaces)" in capsys.readouterr().err


def test_the_play_ui_shows_it() -> None:
    buf = StringIO()
    ui = PlayUI(session(), Console(file=buf, width=80, color_system=None), "no board")
    ui.handle("dice d100 2 0")
    ui.handle("attack Kae Orr")
    ui.handle("scores")
    ui.handle("bogus")
    out = buf.getvalue()
    assert "Test Ford, round 1: Ann's turn (Dawn)" in out
    assert "critical (d100 20 <= CRT 20)" in out and "damage dealt: Dawn 11 · Dusk 0" in out
    assert "refused: unknown command 'bogus'" in out
    # The usage is made from the grammar, as docs/commands.md's stones table writes it.
    assert "ability CHAR ABILITY [TARGET] [pay=CARDS] [range=N]" in ui.help_text(None)


def test_the_odds_of_an_attack_or_an_ability_are_said_before_it() -> None:
    s = session()
    assert RULESET.before(s.game, "attack Kae Orr") == ["odds: crit 20%: 11 damage, else 5"]
    assert RULESET.before(s.game, "ability Kae Flame Slash Orr") == [
        "odds: crit 20%: 11 damage, else 5; [On 1-50] 50%"
    ]
    assert RULESET.before(s.game, "attack Zed Orr") == []  # the action will say why


def test_a_name_or_label_two_characters_would_share_is_refused() -> None:
    text = encounter_text().replace('name = "Mira"\nlabel = "Mir"', 'name = "Kae"\nlabel = "Mir"')
    with pytest.raises(EncounterError, match="Kae: its name or label is Kaelen's"):
        encounter_files.parse(text, "test_ford.toml")
