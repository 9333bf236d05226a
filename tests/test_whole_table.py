"""The whole table (the big-table issue, item 1): every game but flare holds MOST_FIGHTERS
fighters (host/core/newcomers.py: entries in the order, a d20 or pf2 group one), korxsol,
d20 and pf2 included. The encounter reader takes that many and refuses one more; `add` brings one up
to it; undo takes it out again; the journal resumes the game; the board's state holds the
first of them, as many as it has slots (shared/limits.py MAX_SLOTS), and the rest are
`off_board`. flare's rules set four players at most (docs/rulesets/flare.md)."""

from __future__ import annotations

import importlib
import re

import pytest
from demo_games import replayed, seen
from small_board import SLOTS, small_board

from host.core import journal_checkpoints, registry
from host.core.encounter_files import read_toml, write_toml
from host.core.errors import EncounterError
from host.core.interface import IllegalAction
from host.core.journal import Journal
from host.core.newcomers import MOST_FIGHTERS
from host.core.session import Session, resume
from shared.limits import MAX_SLOTS

BIG = ("advance", "d20", "forms", "korxsol", "pf2", "stones")  # flare: docs/rulesets/flare.md


def roster(ruleset_id: str):
    return importlib.import_module(f"host.rulesets.{ruleset_id}.language").ROSTER


def grown(ruleset_id: str, entries: int) -> str:
    """The ruleset's bundled example grown to `entries` fighter tables: its own fighters'
    tables again (each with a name and label of its own, a group as one creature)."""
    text = registry.get(ruleset_id).example_path().read_text(encoding="utf-8")
    doc = read_toml(text, "example")
    doc.pop("template", None)
    tables = roster(ruleset_id).tables()
    theirs = [(t, f) for t in tables for f in doc.get(t, [])]
    k = 0
    while sum(len(doc.get(t, [])) for t in tables) < entries:
        table, fighter = theirs[k % len(theirs)]
        copy = {key: value for key, value in fighter.items() if key != "count"}
        copy["name"] = f"Extra{k}"
        copy["label"] = f"X{k}"
        doc[table].append(copy)
        k += 1
    return write_toml(doc)


def encounter_of(ruleset_id: str, entries: int = MOST_FIGHTERS):
    ruleset = registry.get(ruleset_id)
    return ruleset.parse_encounter(grown(ruleset_id, entries), f"{ruleset_id}-{entries}.toml")


def entries_of(ruleset_id: str, encounter) -> int:
    doc = read_toml(encounter.source, "encounter")
    return sum(len(doc.get(t, [])) for t in roster(ruleset_id).tables())


@pytest.mark.parametrize("ruleset_id", BIG)
def test_an_encounter_of_most_fighters_is_read_and_one_more_is_refused(ruleset_id: str) -> None:
    assert entries_of(ruleset_id, encounter_of(ruleset_id)) == MOST_FIGHTERS
    with pytest.raises(EncounterError) as err:
        encounter_of(ruleset_id, MOST_FIGHTERS + 1)
    assert str(MOST_FIGHTERS) in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("ruleset_id", ["d20", "korxsol"])
def test_the_bundled_big_table_has_most_fighters_entries(ruleset_id: str) -> None:
    ruleset = registry.get(ruleset_id)
    path = ruleset.example_path().parent / "big_table.toml"
    encounter = ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path))
    assert entries_of(ruleset_id, encounter) == MOST_FIGHTERS


@pytest.mark.parametrize("ruleset_id", BIG)
def test_the_board_holds_the_first_fighters_and_counts_the_rest_off_board(
    ruleset_id: str,
) -> None:
    ruleset = registry.get(ruleset_id)
    s = Session(encounter_of(ruleset_id), 3)
    names = ruleset.fighter_names(s.game)
    state = ruleset.state(s.game)
    assert state.count == min(len(names), MAX_SLOTS)
    off = [f.name for f in ruleset.off_board(s.game)]
    assert off == names[state.count :]
    shown = {f.name for f in ruleset.fighters(s.game)}
    assert shown == set(names)  # the screens show everyone, on the board or not


@pytest.mark.parametrize("board_slots", [MAX_SLOTS, SLOTS])
@pytest.mark.parametrize("ruleset_id", BIG)
def test_add_brings_the_last_fighter_undo_takes_it_out_and_one_more_is_refused(
    ruleset_id: str, board_slots: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last fighter comes on the board while it has a slot left (the board of MAX_SLOTS
    has one for each of MOST_FIGHTERS entries, unless a d20 group took several), past its
    slots on the screens only (a board of fewer: tests/small_board.py)."""
    if board_slots != MAX_SLOTS:
        small_board(monkeypatch, board_slots)
    ruleset = registry.get(ruleset_id)
    s = Session(encounter_of(ruleset_id, MOST_FIGHTERS - 1), 3)
    before = list(ruleset.fighter_names(s.game))
    had = ruleset.state(s.game).count
    line = _stat_line(ruleset_id, s)
    s.execute(line.format(name="Latecomer", label="LAT"))
    assert ruleset.fighter_names(s.game) == [*before, "Latecomer"]
    off = {f.name for f in ruleset.off_board(s.game)}
    state = ruleset.state(s.game)
    if had < board_slots:
        assert "Latecomer" not in off and state.count == had + 1
        assert state.slots[had].label == "LAT"
    else:
        assert "Latecomer" in off and state.count == board_slots
    with pytest.raises(IllegalAction, match=f"a fight holds at most {MOST_FIGHTERS} fighters"):
        s.execute(line.format(name="Onemore", label="ONE"))
    s.undo(1)
    assert ruleset.fighter_names(s.game) == before


def turns(s: Session, count: int) -> None:
    """`count` turns of the demo AI, as `turnlight demo` plays them (a refused move is
    passed over; the turn's end is not)."""
    ruleset = s.ruleset
    if ruleset.start_command and not ruleset.started(s.game):
        s.execute(ruleset.start_command)
    for _ in range(count):
        if s.over:
            return
        for line in ruleset.plan_turn(s.game):
            try:
                s.execute(line)
            except IllegalAction:
                if line in ruleset.next_turn_commands:
                    raise
            if s.over:
                return


@pytest.mark.parametrize("ruleset_id", BIG)
def test_a_fight_of_most_fighters_plays_undoes_and_resumes_from_the_journal(
    ruleset_id: str, tmp_path, monkeypatch
) -> None:
    # Checkpoints stored close together: the resume starts from one of the whole table.
    monkeypatch.setattr(journal_checkpoints, "EVERY", 8)
    monkeypatch.setattr(journal_checkpoints, "RECENT", 3)
    journal = Journal(tmp_path / "j.sqlite")
    s = Session(encounter_of(ruleset_id), 4, journal)
    turns(s, MOST_FIGHTERS + 4)  # past a whole round of them
    assert len(s.done) > MOST_FIGHTERS
    played = seen(s)
    s.undo(3)
    assert seen(s) == replayed(s, s.done) != played
    s.redo(3)
    assert seen(s) == played == replayed(s, s.done)
    journal.close()
    journal = Journal(tmp_path / "j.sqlite", write=False)
    try:
        back = resume(journal)
    finally:
        journal.close()
    assert seen(back) == played
    assert back.ruleset.fighter_names(back.game) == s.ruleset.fighter_names(s.game)
    assert journal_checkpoints.stored(Journal(tmp_path / "j.sqlite", write=False), 1)
    assert not [n for n in back.notices if "checkpoint" in n]  # none refused


def _stat_line(ruleset_id: str, s: Session) -> str:
    """`add` of a copy of the file's first fighter, typed key by key (NAME and LABEL left
    to fill)."""
    r = roster(ruleset_id)
    doc = read_toml(s.encounter.source, "encounter")
    table = r.tables()[0]
    fighter = doc[table][0]
    words = ["add {name}", "label={label}"]
    if r.team_tables:
        words.append(f"team={s.encounter.teams[0]}")
    for key, value in fighter.items():
        if key in ("name", "label", "count") or isinstance(value, dict):
            continue
        if isinstance(value, list):
            if not value or not all(isinstance(v, str) for v in value):
                continue
            value = ",".join(value)
        text = str(value).lower() if isinstance(value, bool) else str(value)
        if re.search(r"\s", text):
            text = f'"{text}"'
        words.append(f"{key}={text}")
    return " ".join(words)


WIDE_BOARD = """
import sys
sys.path.insert(0, "tests")
from shared.limits import MAX_SLOTS
from small_board import SLOTS, small_board
from host.core.session import Session
from host.lab.bench_whole_table import whole_table
from test_whole_table import encounter_of
assert MAX_SLOTS == 24, MAX_SLOTS
for rid in ("advance", "d20", "forms", "korxsol", "stones"):
    # d20: 23 entries, a group of two among them: 24 creatures (a slot each; its big
    # table's groups make 36)
    s = Session(encounter_of(rid, 23) if rid == "d20" else whole_table(rid), 3)
    r = s.ruleset
    if r.start_command:
        s.execute(r.start_command)
    for _ in range(30):
        for line in r.plan_turn(s.game):
            try:
                s.execute(line)
            except Exception:
                pass
    names = r.fighter_names(s.game)
    board = [r.state(s.game).slots[i].label for i in range(r.state(s.game).count)]
    assert len(names) == 24 and len(board) == 24 and not r.off_board(s.game), (rid, board)
print("ok")
"""


def test_a_board_of_24_slots_holds_every_fighter_with_no_change_in_a_ruleset(tmp_path) -> None:
    """When the board's state has 24 slots (shared/limits.py MAX_SLOTS, the other half of
    the big-table issue), every game's projection puts all 24 fighters on it: a copy of the
    project with that one constant changed plays each game's whole table."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for part in ("host", "shared", "firmware", "tests"):
        shutil.copytree(root / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
    limits = tmp_path / "shared" / "limits.py"
    text, n = re.subn(r"MAX_SLOTS = const\(\d+\)", "MAX_SLOTS = const(24)", limits.read_text())
    assert n == 1
    limits.write_text(text)
    done = subprocess.run(
        [sys.executable, "-c", WIDE_BOARD],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("ok")
