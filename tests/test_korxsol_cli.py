"""The korxsol commands: run (with its stable JSON), demo, games, export, odds and the
interactive play UI driven headlessly."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from host.commands import demo
from host.core.session import Session
from host.rulesets.korxsol import encounter_schema
from host.screens.play_ui import CommandCompleter, PlayUI, make_prompt

FIGHT = Path(__file__).parent / "scripts" / "ember_ridge_fight.txt"


def turnlight(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args], capture_output=True, text=True, check=False
    )


def test_a_scripted_whole_fight_ends_with_a_winner_and_stable_json():
    done = turnlight("run", "--ruleset", "korxsol", "--script", str(FIGHT), "--seed", "7", "--json")
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    assert state["winner"] in ("Dawn", "Dusk")
    for key in ("round", "turn", "order", "fighters", "teams", "log", "errors", "last_roll"):
        assert key in state
    losers = [f for f in state["fighters"] if f["team"] != state["winner"]]
    assert losers and all(f["down"] and f["kor"] == 0 for f in losers)
    again = turnlight("run", "--script", str(FIGHT), "--seed", "7", "--json")
    assert again.stdout == done.stdout


def test_run_stops_at_an_illegal_line_with_file_and_line(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("initiative\nmove Nobody\n")
    done = turnlight("run", "--script", str(script))
    assert done.returncode == 2
    assert f"{script}:2: unknown character 'Nobody'" in done.stderr


def test_run_rejects_a_bad_encounter_with_file_and_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[encounter]\nname = "x"\nbogus = 1\n')
    script = tmp_path / "s.txt"
    script.write_text("initiative\n")
    done = turnlight("run", "--encounter", str(bad), "--script", str(script))
    assert done.returncode == 2
    assert f"{bad}:3: encounter: unknown key 'bogus'" in done.stderr


def _game_lines(lines: list[str]) -> list[str]:
    """The demo's account of the game, without the board's LEDs (their blink phase depends
    on the wall clock) and the pty's path (each grid is printed as one block)."""
    return [line for line in lines if not line.startswith(("board, ", "simulated "))]


def test_the_demo_plays_a_whole_encounter_the_same_way_for_the_same_seed():
    enc = encounter_schema.load(encounter_schema.example_path())
    a: list[str] = []
    b: list[str] = []
    c: list[str] = []
    first = demo.play(enc, 5, a.append, board="trellis_m4")
    second = demo.play(enc, 5, b.append, board="trellis_m4")
    demo.play(enc, 6, c.append, board="trellis_m4")
    assert _game_lines(a) == _game_lines(b) and _game_lines(a) != _game_lines(c)
    assert first.game.snapshot() == second.game.snapshot()
    assert a[-1].strip().startswith("winner:")
    assert any(line.strip().startswith("odds vs ") for line in a)  # exact odds before attacks


def test_the_demo_runs_through_the_simulated_board_and_draws_its_leds():
    enc = encounter_schema.load(encounter_schema.example_path())
    out: list[str] = []
    session = demo.play(enc, 4, out.append, board="trellis_m4")
    lines = "\n".join(out).splitlines()
    assert lines[0].startswith("simulated trellis_m4 board on /dev/")
    # The board's next-turn key rolled initiative and ended every turn.
    ends = sum(1 for e in session.done if e.text == "end")
    assert ends > 0
    assert sum(1 for line in lines if "board: " in line and "ends the turn" in line) == ends
    # The page the board shows: the dice page once its roll key has rolled a turn's dice.
    grids = [i for i, line in enumerate(lines) if re.fullmatch(r"board, \w+ page:", line)]
    assert len(grids) >= ends
    rows = lines[grids[0] + 1 : grids[0] + 5]
    assert all(len(row.split()) == 8 for row in rows)  # 8x4 keys
    assert any(set(row) - set("· ") for row in rows)  # something is lit


def test_the_demo_without_a_board_draws_the_device_view():
    enc = encounter_schema.load(encounter_schema.example_path())
    out: list[str] = []
    demo.play(enc, 5, out.append)
    lines = "\n".join(out).splitlines()
    assert any(line.startswith("turn |") for line in lines)
    assert lines[-1].strip().startswith("winner:")


def test_games_and_export_list_and_write_a_saved_game(tmp_path):
    db = str(tmp_path / "j.sqlite")
    done = turnlight("run", "--script", str(FIGHT), "--seed", "7", "--db", db)
    assert done.returncode == 0, done.stderr
    listing = turnlight("games", "--db", db)
    assert "Ember Ridge" in listing.stdout
    exported = json.loads(turnlight("export", "--db", db).stdout)
    assert exported["final"]["winner"] and exported["events"][0]["kind"] == "action"
    assert len(exported["timeline"]) > 2
    events_csv = turnlight("export", "--db", db, "--format", "csv").stdout.splitlines()
    # One column per field (issue #15), no longer the payload as JSON in one column.
    assert events_csv[0].startswith("seq,at,kind,text,rolls.purpose,")
    assert len(events_csv) == len(exported["events"]) + 1
    scores = turnlight("export", "--db", db, "--format", "scores-csv").stdout.splitlines()
    assert scores[0].startswith("game,kind,name,team,damage_dealt")
    png = tmp_path / "chart.png"
    assert turnlight("export", "--db", db, "--format", "png", "--out", str(png)).returncode == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_odds_command_prints_the_exact_chance():
    done = turnlight("odds", "--hit", "1", "--agility", "1", "--json")
    # one die each: a miss only when the dodge succeeds and the hit does not: 1 - 2/9
    assert json.loads(done.stdout)["hit"] == "7/9"


# ---------------------------------------------------------------- play, headless
def _ui() -> tuple[PlayUI, StringIO]:
    buf = StringIO()
    enc = encounter_schema.load(encounter_schema.example_path())
    # 40 lines: room for the odds under every line of the initiative (on 24, the odds give
    # way to the last action's lines: issue #28).
    console = Console(file=buf, width=160, height=40, color_system=None)
    ui = PlayUI(Session(enc, 2), console, "no board")
    return ui, buf


def test_play_shows_initiative_reasons_turn_ap_cooldowns_odds_and_scores():
    ui, buf = _ui()
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text("initiative\nhelp attack\nbogus\nscores\nquit\n")
        ui.loop(make_prompt(ui, input=pipe, output=DummyOutput()))
    out = buf.getvalue()
    assert "placed by" in out and ("successes" in out or "base agility" in out)
    assert "'s turn (Action Phase)" in out
    assert "chance to hit" in out  # odds for the active fighter's first ready attack
    assert "scores: Dawn 0 (" in out  # the live view's line
    assert "luck" in out  # the `scores` command's whole table
    assert "attack NAME MOVE [TARGET ...]" in out  # help, not eaten as markup
    assert "refused: unknown command 'bogus'" in out


def test_play_completes_verbs_names_and_moves():
    ui, _ = _ui()
    ui.handle("initiative")
    comp = CommandCompleter(ui)

    def complete(text: str) -> list[str]:
        return [c.text for c in comp.get_completions(Document(text), CompleteEvent())]

    assert "attack" in complete("att")
    assert "Kae" in complete("attack K")
    assert '"Flame Slash"' in complete("attack Kae Fl")


def test_play_starts_the_next_game_of_the_session_and_shows_the_table(tmp_path):
    from host.core.journal import Journal

    buf = StringIO()
    enc = encounter_schema.load(encounter_schema.example_path())
    session = Session(enc, 2, Journal(tmp_path / "j.sqlite"))
    ui = PlayUI(session, Console(file=buf, width=160, color_system=None))
    ui.handle("initiative")
    ui.handle("new")
    assert ui.session.seed == 3 and ui.session.session_id == session.session_id
    assert not ui.session.game.started
    ui.handle("table")
    assert "session table" in buf.getvalue()


def test_play_resume_continues_the_latest_saved_game(tmp_path):
    db = str(tmp_path / "j.sqlite")
    script = tmp_path / "s.txt"
    script.write_text("initiative\nend\n")
    assert turnlight("run", "--script", str(script), "--db", db).returncode == 0
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "play", "--db", db, "--resume", "--no-board"],
        input="end\nquit\n",
        capture_output=True,
        text=True,
        check=False,
        env={**__import__("os").environ, "TERM": "dumb"},
    )
    assert done.returncode == 0, done.stderr
    assert "(game 1)" in done.stderr
    assert "game 1 resumed: 2 actions replayed" in done.stdout  # the log does not start empty
    from host.core.journal import Journal

    events = Journal(db).events(1)
    assert [p.get("text") for _, _, p, _ in events] == ["initiative", "end", "end"]


def test_the_grid_shows_the_turn_kor_ap_and_stacks_in_turn_order():
    from host.rulesets.korxsol import tables

    s = Session(encounter_schema.load(encounter_schema.example_path()), 1)
    s.execute("order Kae Orn Vex Brm")
    s.execute("adjust Orn frost +2")
    s.execute("adjust Brm kor -14")
    rows = tables.render_grid(s.game.state).splitlines()
    cells = [row.split("|")[1].split() for row in rows]
    assert cells[0][:4] == ["KA", "or", "ve", "br"]  # upper case: whose turn it is
    assert cells[1][3] == "xx"  # Brimm collapsed
    assert cells[2][0] == "3"  # Kaelen's action points (2 + Tactician)
    assert cells[3][1] == "F2"


# ---------------------------------------------------------------- empty games
def _play(*args: str, typed: str = "quit\n") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", "play", *args],
        input=typed,
        capture_output=True,
        text=True,
        check=False,
        env={**__import__("os").environ, "TERM": "dumb"},
    )


def test_a_play_that_never_got_going_leaves_no_game_in_the_journal(tmp_path):
    from host.core.journal import Journal

    db = str(tmp_path / "j.sqlite")
    failed = _play("--db", db, "--port", str(tmp_path / "no-such-port"))
    assert failed.returncode == 2
    quit_at_once = _play("--db", db, "--no-board")
    assert quit_at_once.returncode == 0, quit_at_once.stderr
    assert "had no events: removed" in quit_at_once.stderr
    assert Journal(db).games() == []
    # A game that was played is kept.
    played = _play("--db", db, "--no-board", typed="initiative\nquit\n")
    assert played.returncode == 0, played.stderr
    assert [g["events"] for g in Journal(db).games()] == [1]


def test_resume_export_and_games_pass_over_an_empty_game(tmp_path):
    from host.core.journal import Journal

    db = str(tmp_path / "j.sqlite")
    script = tmp_path / "s.txt"
    script.write_text("initiative\nend\n")
    assert turnlight("run", "--script", str(script), "--db", db).returncode == 0
    # An empty game after it, as an older turnlight's failed start left one.
    enc = encounter_schema.load(encounter_schema.example_path())
    empty = Journal(db).new_game("old", enc.name, enc.path, enc.source, 1)
    assert empty == 2
    exported = json.loads(turnlight("export", "--db", db).stdout)
    assert exported["game"]["id"] == 1 and len(exported["events"]) == 2
    resumed = _play("--db", db, "--resume", "--no-board")
    assert resumed.returncode == 0, resumed.stderr
    assert "(game 1)" in resumed.stderr
    listing = turnlight("games", "--db", db).stdout.splitlines()
    assert [line.split()[0] for line in listing[2:-1]] == ["1"]
    assert listing[-1] == "(1 game with no events not listed)"


def test_the_example_fight_says_plainly_that_it_needs_seed_7():
    first = FIGHT.read_text().splitlines()[0]
    assert first.startswith("# Run with --seed 7")
    root = Path(__file__).parent.parent
    mentions = []
    for doc in [root / "README.md", *sorted((root / "docs").rglob("*.md"))]:
        # An example may wrap over lines: read each paragraph as one line.
        for paragraph in doc.read_text().split("\n\n"):
            text = " ".join(paragraph.split())
            if "ember_ridge_fight.txt" in text:
                mentions.append(doc.name)
                assert "--seed 7" in text, (doc, text)
    assert "README.md" in mentions


def test_a_run_that_stops_part_way_says_which_game_it_left_in_the_journal(tmp_path):
    from host.core.journal import Journal

    db = tmp_path / "j.sqlite"
    script = tmp_path / "s.txt"
    script.write_text("initiative\nmove Nobody\n")
    done = turnlight("run", "--script", str(script), "--db", str(db))
    assert done.returncode == 2
    assert f"game 1 is left in {db} with 1 event (the lines before the refused one)" in (
        done.stderr
    )
    script.write_text("bogus\n")
    done = turnlight("run", "--script", str(script), "--db", str(db))
    assert done.returncode == 2
    assert f"nothing was journalled: game 2 removed from {db}" in done.stderr
    assert [g["id"] for g in Journal(db).games()] == [1]


def test_ctrl_c_in_play_clears_the_line_and_only_ctrl_d_or_quit_leave():
    ui, buf = _ui()
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        # A half-typed command, Ctrl-C, Ctrl-C on the empty line, then a whole command and
        # Ctrl-D.
        pipe.send_text("attack Kae Fla\x03\x03initiative\n\x04")
        ui.loop(make_prompt(ui, input=pipe, output=DummyOutput()))
    assert ui.session.game.started  # the session went on after both Ctrl-Cs
    assert [e.text for e in ui.session.done] == ["initiative"]  # the cleared line never ran
    out = buf.getvalue()
    assert out.count("Ctrl-C clears the line; Ctrl-D or `quit` ends the session") == 1
    assert "Ctrl-D or `quit` ends the session" in ui.help_text(None)


def test_export_to_a_file_it_cannot_write_is_one_line(tmp_path):
    db = str(tmp_path / "j.sqlite")
    script = tmp_path / "s.txt"
    script.write_text("initiative\nend\n")
    assert turnlight("run", "--script", str(script), "--db", db).returncode == 0
    folder = tmp_path / "somedir"
    folder.mkdir()
    for fmt in ("png", "json", "csv"):
        missing = tmp_path / "nodir" / f"x.{fmt}"
        for out, why in ((missing, "No such file or directory"), (folder, "Is a directory")):
            done = turnlight("export", "--db", db, "--format", fmt, "--out", f"{out}")
            assert done.returncode == 2, (fmt, out)
            assert done.stderr.splitlines() == [f"turnlight: cannot write {out}: {why}"]


def test_export_from_a_journal_without_games_names_the_file(tmp_path):
    from host.core.journal import Journal

    db = tmp_path / "empty.sqlite"
    Journal(db).close()
    done = turnlight("export", "--db", str(db))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"turnlight: no saved game in {db}"]


def test_a_toml_mistake_is_reported_on_the_line_where_it_is(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[encounter]\nname = "x"\ndice = "d3"\nsuccess_faces = [3\n\n[[team]]\n')
    script = tmp_path / "s.txt"
    script.write_text("initiative\n")
    done = turnlight("run", "--encounter", str(bad), "--script", str(script))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"turnlight: {bad}:4: not valid TOML: Unclosed array: opened on this line, still open "
        "at line 6"
    ]
    bad.write_text('[encounter]\nname = "x"\nsuccess_faces = [3, 2')  # open at the end
    done = turnlight("run", "--encounter", str(bad), "--script", str(script))
    assert f"{bad}:3: not valid TOML: Unclosed array" in done.stderr


def test_play_suggests_the_command_a_typo_was_meant_to_be():
    ui, buf = _ui()
    ui.handle("intiative")
    out = " ".join(buf.getvalue().split())
    assert "refused: unknown command 'intiative': did you mean initiative?" in out
    known = out.split("(known: ", 1)[1]
    for verb in ("initiative", "attack", "undo", "help", "table", "quit"):
        assert verb in known
    assert not ui.session.game.started
    ui.handle("# a note to myself")  # a comment is still nothing at all
    assert "unknown command '#" not in buf.getvalue()


def test_run_suggests_the_command_a_typo_was_meant_to_be(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("intiative\n")
    done = turnlight("run", "--script", str(script))
    assert f"{script}:1: unknown command 'intiative': did you mean initiative?" in done.stderr


def test_odds_help_shows_every_default_and_what_the_hit_bonus_adds_to():
    text = " ".join(turnlight("odds", "--help").stdout.split())
    for option in ("hit", "agility", "base", "power", "resist", "armor", "hit-bonus", "burn"):
        part = text.split(f"--{option} N ", 1)[1]
        assert "(default " in part.split("--", 1)[0], option
    assert "(default 1)" in text.split("--success-faces", 2)[2]
    assert "added to the attacker's hit successes, not a percentage" in text


def test_odds_checks_its_ranges_in_one_line():
    for args, said in (
        (("--hit-bonus", "11"), "--hit-bonus must be -10..10, not 11"),
        (("--hit-bonus", "-11"), "--hit-bonus must be -10..10, not -11"),
        (("--base", "-1"), "--base must be 0 or more, not -1"),
        (("--burn", "4"), "--burn must be 0..3, not 4"),
        (("--burn", "-1"), "--burn must be 0..3, not -1"),
    ):
        done = turnlight("odds", *args)
        assert done.returncode == 2, args
        assert done.stderr.splitlines() == [f"turnlight: {said}"]


def test_odds_says_which_dice_it_assumed():
    lines = turnlight("odds", "--hit", "1").stdout.splitlines()
    assert lines[0] == (
        "assuming 1 HIT die against 3 AGILITY dice; damage 2 base + 3 POWER dice - "
        "2 RESIST dice - 0 ARMOR dice; 1 D3 face succeeds"
    )
    doc = json.loads(turnlight("odds", "--json", "--burn", "2").stdout)
    assert doc["assumptions"]["burn"] == 2 and doc["assumptions"]["agility"] == 3


# ---------------------------------------------------------------- the demo's words
def test_the_demo_reads_cleanly_and_fits_100_columns():
    enc = encounter_schema.load(encounter_schema.example_path())
    for seed in (2, 5):
        out: list[str] = []
        demo.play(enc, seed, out.append)
        lines = "\n".join(out).splitlines()
        assert any("wears off" in line for line in lines)
        for before, line in zip(lines, lines[1:], strict=False):
            assert not ("wears off" in line and line == before), line  # said once
        for line in lines:
            assert "(s)" not in line and "(es)" not in line, line
            assert " 1 successes" not in line and " 1 rerolls" not in line, line
            assert "chipped by 0" not in line, line
            assert len(line) <= 100, line
        assert lines[-1].startswith("winner:") and lines[-1].endswith(" rounds")


def test_the_demo_says_what_its_grids_show():
    from host.board.tethered_sim import SHADE_LEGEND

    enc = encounter_schema.load(encounter_schema.example_path())
    out: list[str] = []
    demo.play(enc, 5, out.append)
    lines = "\n".join(out).splitlines()
    assert lines[0].startswith("rows: turn (UPPER CASE: whose turn), KOR/9 (KOR left, 0..9")
    assert any(line.startswith("KOR/9|") for line in lines)
    out = []
    demo.play(enc, 4, out.append, board="trellis_m4")
    assert out[1] == SHADE_LEGEND and len(SHADE_LEGEND) <= 100
    for shade in "·░▒▓█":
        assert shade in SHADE_LEGEND


def test_play_s_live_view_fits_an_80x24_terminal_through_whole_2v2_fights():
    from host.rulesets.korxsol import ai

    for seed in (1, 2, 3, 4):
        buf = StringIO()
        console = Console(file=buf, width=80, height=24, color_system=None)
        ui = PlayUI(
            Session(encounter_schema.load(encounter_schema.example_path()), seed),
            console,
            "no board",
        )
        while ui.session.game.winner is None:
            plan = ai.plan_turn(ui.session.game) if ui.session.game.started else ["initiative"]
            for command in plan:
                buf.truncate(0)
                buf.seek(0)
                ui.handle(command)
                lines = buf.getvalue().rstrip("\n").splitlines()
                assert len(lines) <= 23, (seed, command, len(lines))  # the prompt takes one
                assert all(len(line) <= 80 for line in lines), (seed, command)
                assert "…" not in buf.getvalue()  # no header or cell cut short
                if ui.session.game.started and ui.session.game.winner is None:
                    assert lines[0].startswith("Ember Ridge, round ") and "'s turn" in lines[0]
                    assert lines[1].startswith("by ") and "cooldo" not in lines[1]


@pytest.mark.parametrize(
    "line, extra",
    [("initiative bogus", "'bogus'"), ("end Kae Vex", "'Vex'"), ("undo 2 3", "'3'")],
)
def test_words_a_command_does_not_take_are_refused_in_one_line(line: str, extra: str) -> None:
    from host.rulesets.korxsol import language
    from host.rulesets.korxsol.rolls import IllegalAction

    with pytest.raises(IllegalAction) as err:
        language.parse(line)
    assert extra in str(err.value) and "usage:" in str(err.value)
    assert "\n" not in str(err.value)
