"""The game master's session (host/core/session.py), driven by korxsol: one-line errors that
change nothing, undo and redo by replay (across a cooldown and across frost), the journal,
and resuming a killed session.

Rules source: korxsol-players-guide.txt ("3. ON YOUR TURN", COOLDOWN TIMER, FROST).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from korxsol_fixtures import FAIL, STRIKE, SUCCESS, enter, hits, session, slot

from host.core.journal import Journal
from host.core.session import Session, resume
from host.rulesets.korxsol import device, encounter_schema
from host.rulesets.korxsol.rolls import IllegalAction
from shared import codec

FROST = {"name": "Chill", "type": "range", "cooldown": 2, "hit": 1, "frost": 2}
RALLY = {"name": "Rally", "type": "buff", "cooldown": 1}


def table(journal=None):
    return session(
        [
            {"name": "Ash", "team": "A", "moves": ["Strike", "Chill", "Rally"], "actions": 2},
            {"name": "Bo", "team": "B", "moves": ["Strike"], "actions": 2},
        ],
        (STRIKE, FROST, RALLY),
        journal=journal,
    )


def state_of(s: Session):
    return json.dumps(s.game.snapshot(), sort_keys=True), codec.encode(s.game.state)


# ---------------------------------------------------------------- illegal actions
def _out_of_turn(s):
    s.execute("move Bo")


def _no_action_points(s):
    s.execute("move Ash 2")
    s.execute("move Ash")


def _move_on_cooldown(s):
    enter(s, "hit", *hits(0, 2))
    enter(s, "dodge", *hits(2, 2))
    s.execute("attack Ash Strike Bo")
    s.execute("end")
    s.execute("end")
    s.execute("attack Ash Strike Bo")


def _second_combat_move(s):
    s.execute("attack Ash Rally")
    s.execute("attack Ash Strike Bo")


def _unknown_character(s):
    s.execute("attack Zed Strike Bo")


def _unknown_move(s):
    s.execute("attack Ash Fireball Bo")


def _unknown_command(s):
    s.execute("teleport Ash")


def _frozen_character_acting(s):
    enter(s, "hit", SUCCESS)
    enter(s, "dodge", FAIL, FAIL)
    enter(s, "chance", 1, 1)
    s.execute("attack Ash Chill Bo")
    s.execute("end")
    s.execute("attack Bo Strike Ash")


def _dice_count_beyond_its_limits(s):
    s.execute("dice hit " + " ".join(["3"] * 16))


def _entered_dice_of_the_wrong_count(s):
    enter(s, "hit", 3, 3, 3)
    s.execute("attack Ash Strike Bo")


def _impossible_face(s):
    s.execute("dice power 4 1")


ILLEGAL = [
    (_out_of_turn, "it is Ash's turn, not Bo's"),
    (_no_action_points, "has 0 action point"),
    (_move_on_cooldown, "on cooldown"),
    (_second_combat_move, "already used a combat move this turn"),
    (_unknown_character, "unknown character 'Zed'"),
    (_unknown_move, "no combat move 'Fireball'"),
    (_unknown_command, "unknown command 'teleport'"),
    (_frozen_character_acting, "Bo is frozen"),
    (_dice_count_beyond_its_limits, "1..15 dice"),
    (_entered_dice_of_the_wrong_count, "has 3 dice; this hit roll takes 2"),
    (_impossible_face, "a d3 die reads 1..3"),
]


@pytest.mark.parametrize(("action", "message"), ILLEGAL, ids=[a.__name__[1:] for a, _ in ILLEGAL])
def test_an_illegal_action_gets_a_one_line_error_and_changes_nothing(action, message):
    s = table()
    calls = []

    def record(line, _orig=s.execute):
        calls.append(state_of(s))
        return _orig(line)

    s.execute = record  # type: ignore[method-assign]
    with pytest.raises(IllegalAction) as err:
        action(s)
    assert message in str(err.value)
    assert "\n" not in str(err.value)
    assert state_of(s) == calls[-1]


def test_before_initiative_no_one_may_act():
    enc = encounter_schema.load(encounter_schema.example_path())
    s = Session(enc, 1)
    with pytest.raises(IllegalAction, match="roll initiative first"):
        s.execute("move Kae")


# ---------------------------------------------------------------- undo and redo
def test_undo_and_redo_across_a_cooldown_are_exact():
    # COOLDOWN TIMER: undoing the turn ends brings the cooldown back to where it was.
    s = table()
    enter(s, "hit", *hits(2, 2))
    enter(s, "dodge", *hits(0, 2))
    enter(s, "power", *hits(1, 2))
    enter(s, "resist", FAIL)
    s.execute("attack Ash Strike Bo")
    after_attack = state_of(s)
    s.execute("end")
    s.execute("end")
    s.execute("end")
    s.execute("end")
    final = state_of(s)
    s.execute("undo 4")
    assert state_of(s) == after_attack
    s.execute("redo 4")
    assert state_of(s) == final
    assert s.game.fighter("Ash").stats.damage_dealt == 3  # nothing fired twice


def test_undo_and_redo_across_frost_are_exact():
    # FROST: the drained action points and the thawed stack come back exactly.
    s = table()
    enter(s, "hit", SUCCESS)
    enter(s, "dodge", FAIL, FAIL)
    enter(s, "chance", 1, 0)
    s.execute("attack Ash Chill Bo")
    before_end = state_of(s)
    s.execute("end")  # Bo starts with 1 frost: 2 - 1 = 1 AP
    assert slot(s, "Bo").actions == 1
    s.execute("end")  # one stack thaws
    thawed = state_of(s)
    assert slot(s, "Bo").counters[device.FROST] == 0
    s.execute("undo 2")
    assert state_of(s) == before_end
    assert slot(s, "Bo").counters[device.FROST] == 1
    s.execute("redo 2")
    assert state_of(s) == thawed


def test_a_new_action_after_undo_clears_the_redo_list():
    s = table()
    s.execute("move Ash")
    s.execute("undo")
    s.execute("end")
    with pytest.raises(IllegalAction, match="nothing to redo"):
        s.execute("redo")


# ---------------------------------------------------------------- journal and resume
def test_every_event_is_in_the_journal_before_execute_returns(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    enc = encounter_schema.load(encounter_schema.example_path())
    s = Session(enc, 3, journal)
    s.execute("initiative")
    s.apply_board_event({"type": "roll", "purpose": "hit", "faces": [3, 1, 2]})
    other = sqlite3.connect(tmp_path / "j.sqlite")  # a second reader sees it committed
    kinds = [r[0] for r in other.execute("SELECT kind FROM events ORDER BY seq")]
    assert kinds == ["action", "dice"]
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_resume_rebuilds_undo_redo_and_waiting_dice(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    enc = encounter_schema.load(encounter_schema.example_path())
    s = Session(enc, 4, journal)
    for line in ("initiative", "end", "end", "undo", "dice power 3 3"):
        s.execute(line)
    back = resume(Journal(tmp_path / "j.sqlite"))
    assert state_of(back) == state_of(s)
    assert back.game.roller.pending() == {"power": 1}
    back.execute("redo")
    s.execute("redo")
    assert state_of(back) == state_of(s)


SCRIPT = ["initiative", "end", "end", "end", "end", "end"]


def test_a_killed_play_session_resumes_exactly(tmp_path):
    db = tmp_path / "play.sqlite"
    env = dict(os.environ, TERM="dumb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "host.cli", "play", "--db", str(db), "--seed", "9", "--no-board"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdin is not None
    proc.stdin.write(("\n".join(SCRIPT) + "\n").encode())
    proc.stdin.flush()
    deadline = time.monotonic() + 60  # bounds a hang only: a busy machine starts python slowly
    count = 0
    while time.monotonic() < deadline:
        if db.exists():
            try:
                con = sqlite3.connect(db)
                count = con.execute("SELECT COUNT(*) FROM events").fetchone()[0]
                con.close()
            except sqlite3.OperationalError:
                count = 0
        if count >= len(SCRIPT):
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert count == len(SCRIPT)
    back = resume(Journal(db))
    fresh = Session(encounter_schema.load(encounter_schema.example_path()), 9)
    for line in SCRIPT:
        fresh.execute(line)
    assert state_of(back) == state_of(fresh)


def _finish(s: Session) -> None:
    """Play the game to its end with the demo AI."""
    from host.rulesets.korxsol import ai

    s.execute("initiative")
    while s.game.winner is None:
        for line in ai.plan_turn(s.game):
            s.execute(line)
            if s.game.winner is not None:
                break


def test_the_winner_is_recorded_and_a_session_keeps_a_table_across_games(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    first = Session(encounter_schema.load(encounter_schema.example_path()), 2, journal)
    _finish(first)
    second = first.next_game()
    _finish(second)
    winners = [g["winner"] for g in journal.games()]
    assert all(w in ("Dawn", "Dusk") for w in winners) and len(winners) == 2
    table = {row["team"]: row for row in second.session_table()}
    assert sum(row["wins"] for row in table.values()) == 2
    assert all(row["games"] == 2 for row in table.values())
    dealt = sum(f.stats.damage_dealt for s in (first, second) for f in s.game.fighters)
    assert sum(row["damage_dealt"] for row in table.values()) == dealt


def test_undoing_the_winning_blow_reopens_the_game(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    s = Session(encounter_schema.load(encounter_schema.example_path()), 3, journal)
    _finish(s)
    s.execute("undo")
    assert s.game.winner is None
    assert journal.games()[0]["winner"] is None


def test_team_scores_are_projected_onto_the_device_state_for_the_board():
    s = Session(encounter_schema.load(encounter_schema.example_path()), 5)
    _finish(s)
    for t, name in enumerate(s.encounter.teams):
        assert s.game.state.scores[t] == s.game.team_stats()[name].score
    assert max(s.game.state.scores[:2]) > 0


def test_a_board_command_event_is_applied_and_journalled_before_it_returns(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    s = Session(encounter_schema.load(encounter_schema.example_path()), 3, journal)
    s.apply_board_event({"type": "command", "text": "initiative"})
    assert s.game.started
    assert [k for _, k, _, _ in journal.events(s.game_id)] == ["action"]
    with pytest.raises(IllegalAction, match="unknown board event"):
        s.apply_board_event({"type": "bogus"})


def test_board_rolls_feed_the_next_rolls_in_order_and_survive_a_resume(tmp_path):
    # Every roll may come from the board: its faces wait, in order, for the engine's next
    # action-dice rolls (hit, then dodge, ...) and are journalled with their source.
    journal = Journal(tmp_path / "j.sqlite")
    s = table(journal)
    s.apply_board_event({"type": "roll", "purpose": "next", "faces": [3, 3]})  # Ash's hit
    s.apply_board_event({"type": "roll", "purpose": "next", "faces": [1, 1]})  # Bo's dodge
    s.apply_board_event({"type": "roll", "purpose": "next", "faces": [1, 1]})  # Ash's power
    s.apply_board_event({"type": "roll", "purpose": "next", "faces": [3]})  # Bo's resist
    s.apply_board_event({"type": "roll", "purpose": "next", "faces": [3, 3]})  # waits
    s.execute("attack Ash Strike Bo")
    rolls = s.done[-1].rolls
    assert [(r.purpose, r.source) for r in rolls] == [
        ("hit", "board"),
        ("dodge", "board"),
        ("power", "board"),
        ("resist", "board"),
    ]
    assert slot(s, "Bo").health == 12 - 1
    back = resume(journal, s.game_id)
    assert back.game.roller.pending() == {"next": 1}


def test_the_journal_takes_events_from_the_links_thread(tmp_path):
    # The link's bridge applies board events on its own thread while the UI types commands.
    import threading

    journal = Journal(tmp_path / "j.sqlite")
    s = Session(encounter_schema.load(encounter_schema.example_path()), 3, journal)
    errors: list[BaseException] = []

    def board_thread() -> None:
        try:
            s.apply_board_event({"type": "roll", "purpose": "next", "faces": [3, 3]})
        except BaseException as err:  # pragma: no cover - the failure is the assertion below
            errors.append(err)

    worker = threading.Thread(target=board_thread)
    worker.start()
    worker.join()
    assert not errors
    assert [k for _, k, _, _ in journal.events(s.game_id)] == ["dice"]


def test_an_initiative_from_entered_dice_resumes_and_undoes_exactly(tmp_path):
    # TURN ORDER from dice rolled at the table: journalled roll by roll with the source.
    journal = Journal(tmp_path / "j.sqlite")
    s = Session(encounter_schema.load(encounter_schema.example_path()), 4, journal)
    for faces in ("3 3 1", "1 1 1 1", "1 1", "3 1 1"):  # Kae, Vex, Orn, Brm (Agility)
        s.execute("dice initiative " + faces)
    s.execute("initiative")
    assert [r.source for r in s.done[-1].rolls][:4] == ["entered"] * 4
    started = state_of(s)
    back = resume(Journal(tmp_path / "j.sqlite"))
    assert state_of(back) == started and back.game.roller.pending() == {}
    s.execute("end")
    s.execute("undo")
    assert state_of(s) == started


def test_a_journal_with_the_old_single_initiative_record_still_replays():
    # Journals written before initiative rolls were recorded per fighter hold one record of
    # the generator's raw draws; they must rebuild the same order.
    from host.rulesets.korxsol.engine import Game
    from host.rulesets.korxsol.language import parse
    from host.rulesets.korxsol.rolls import RollRecord
    from shared import dice

    enc = encounter_schema.load(encounter_schema.example_path())
    new = Game(enc, 5)
    new.apply(parse("initiative"))
    draws = tuple(f - 1 for r in new.roller.records for f in r.faces)  # D3 faces 1..3
    old = Game(enc, 5)
    old.apply(
        parse("initiative"),
        replay=[RollRecord("initiative", -1, dice.KIND_NONE, draws, "engine", 0)],
    )
    assert old.snapshot()["order"] == new.snapshot()["order"]


def test_initiative_dice_after_the_fight_has_started_are_refused():
    # An initiative roll entered once the turn order is set would never be used.
    s = table()
    with pytest.raises(IllegalAction, match="initiative is already rolled"):
        s.execute("dice initiative 3 3")


def test_a_game_records_the_rules_version_it_was_played_under(tmp_path):
    from host.rulesets.korxsol.engine import RULES_VERSION

    journal = Journal(tmp_path / "j.sqlite")
    s = Session(encounter_schema.load(encounter_schema.example_path()), 3, journal)
    assert s.game_id is not None
    assert (journal.game(s.game_id) or {})["rules"] == RULES_VERSION


def test_a_journal_from_before_rules_versions_opens_and_counts_as_version_1(tmp_path):
    db = tmp_path / "old.sqlite"
    old = sqlite3.connect(db)
    old.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY, session TEXT NOT NULL, created TEXT NOT"
        " NULL, encounter TEXT NOT NULL, encounter_path TEXT NOT NULL, encounter_toml TEXT NOT"
        " NULL, seed INTEGER NOT NULL, winner TEXT, finished TEXT, summary TEXT);"
        "INSERT INTO games (session, created, encounter, encounter_path, encounter_toml, seed)"
        " VALUES ('s', 'then', 'x', '', '', 1);"
    )
    old.commit()
    old.close()
    assert (Journal(db).game(1) or {})["rules"] == 1


def test_a_game_that_no_longer_replays_is_refused_in_one_line_and_still_exports(tmp_path):
    db = tmp_path / "j.sqlite"
    journal = Journal(db)
    s = Session(encounter_schema.load(encounter_schema.example_path()), 3, journal)
    s.execute("initiative")
    assert s.game_id is not None
    # As an older turnlight could have written it: rules v1, a command today's rules refuse.
    journal.db.execute("UPDATE games SET rules = 1 WHERE id = ?", (s.game_id,))
    journal.append(s.game_id, "action", {"text": "move Kae fall=3", "rolls": []})
    with pytest.raises(IllegalAction) as err:
        resume(Journal(db), s.game_id)
    message = str(err.value)
    assert "\n" not in message and "rules v1" in message and "cannot be resumed" in message
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "export", str(s.game_id), "--db", str(db)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    exported = json.loads(done.stdout)
    assert exported["final"] is None and len(exported["events"]) == 2
    assert "journalled events only" in done.stderr


def test_a_move_that_gave_two_changes_wears_off_in_one_line():
    s = Session(encounter_schema.load(encounter_schema.example_path()), 1)
    s.execute("order Kae Orn Vex Brm")
    s.execute('attack Kae "Rally Cry"')  # power +1 and agility +1 on Kaelen
    said: list[str] = []
    for _ in range(12):
        said += s.execute("end")
    assert said.count("Rally Cry wears off Kaelen") == 1


def test_a_sunder_that_chips_nothing_says_nothing():
    s = Session(encounter_schema.load(encounter_schema.example_path()), 1)
    s.execute("order Orn Kae Vex Brm")
    s.execute("adjust Vex armor -1")  # Vexa has no armor left to chip
    enter(s, "hit", *hits(3, 3))
    enter(s, "dodge", *hits(0, 4))
    lines = s.execute('attack Orn "Sundering Blow" Vex')
    assert any("hits Vexa" in line for line in lines)
    assert not any("chipped by" in line for line in lines)


class FailingJournal:
    """A journal whose next append fails, as a full disk would make it."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.fail_next = False

    def __getattr__(self, name):
        return getattr(self.journal, name)

    def append(self, game_id, kind, payload):
        if self.fail_next:
            self.fail_next = False
            raise sqlite3.OperationalError("database or disk is full")
        return self.journal.append(game_id, kind, payload)


@pytest.mark.parametrize(
    "line", ["attack Ash Strike Bo", "end", "dice hit 3 3", "undo", "redo"], ids=str.split
)
def test_what_the_journal_fails_to_keep_is_not_kept_in_the_game_either(tmp_path, line) -> None:
    # A board press is acknowledged only once journalled; one that could not be journalled
    # must not stay in the running game, or later events are journalled on top of it.
    journal = FailingJournal(Journal(tmp_path / "j.sqlite"))
    s = table(journal=journal)  # type: ignore[arg-type]
    s.execute("move Ash 1")
    if line == "redo":
        s.execute("undo")
    before = (json.dumps(s.ruleset.snapshot(s.game)), len(s.done), len(s.undone))
    waiting = {k: list(v) for k, v in s.ruleset.waiting(s.game).items()}
    journal.fail_next = True
    with pytest.raises(sqlite3.OperationalError):
        s.execute(line)
    assert (json.dumps(s.ruleset.snapshot(s.game)), len(s.done), len(s.undone)) == before
    assert {k: list(v) for k, v in s.ruleset.waiting(s.game).items()} == waiting
    s.execute("end")  # the game goes on, and resumes as it is
    resumed = resume(journal.journal, s.game_id)
    assert json.dumps(resumed.ruleset.snapshot(resumed.game)) == json.dumps(
        s.ruleset.snapshot(s.game)
    )
