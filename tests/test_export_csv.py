"""`turnlight export --format csv`: one row per event and one column per field, for a
spreadsheet, instead of escaped JSON in one `payload` column (issue #15)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from host import cli
from host.screens.event_table import events_csv

FIGHT = Path(__file__).parent / "scripts" / "ember_ridge_fight.txt"


def exported(tmp_path: Path, capsys: pytest.CaptureFixture[str], script: str) -> list[dict]:
    db = str(tmp_path / "j.sqlite")
    assert cli.main(["run", "--script", script, "--seed", "7", "--db", db]) == 0
    capsys.readouterr()
    assert cli.main(["export", "--db", db, "--format", "csv"]) == 0
    return list(csv.DictReader(io.StringIO(capsys.readouterr().out)))


def test_each_payload_field_is_a_column_of_its_own(tmp_path: Path, capsys) -> None:
    rows = exported(tmp_path, capsys, str(FIGHT))
    assert "payload" not in rows[0]
    assert list(rows[0])[:5] == ["seq", "at", "kind", "text", "rolls.purpose"]
    assert rows[0]["text"] == "order Kae Orn Vex Brm"
    assert rows[1]["text"] == 'attack Kae "Flame Slash" Brm'
    assert not any("{" in cell or '"faces"' in cell for row in rows for cell in row.values())


def test_an_action_s_rolls_line_up_across_their_columns(tmp_path: Path, capsys) -> None:
    attack = exported(tmp_path, capsys, str(FIGHT))[1]
    columns = [c for c in attack if c.startswith("rolls.") and attack[c]]
    counts = {c: len(attack[c].split("; ")) for c in columns}
    assert len(set(counts.values())) == 1, counts
    assert attack["rolls.purpose"].split("; ")[:2] == ["hit", "dodge"]
    assert all(f in "123" for f in attack["rolls.faces"].split("; ")[0].split())


def test_entered_dice_and_undo_have_their_own_columns(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.txt"
    script.write_text("dice initiative 1 2 3\ninitiative\nundo\n")
    rows = exported(tmp_path, capsys, str(script))
    assert [r["kind"] for r in rows] == ["dice", "action", "undo"]
    assert (rows[0]["purpose"], rows[0]["faces"], rows[0]["source"]) == (
        "initiative",
        "1 2 3",
        "entered",
    )
    assert rows[2]["steps"] == "1" and rows[0]["steps"] == ""


def test_a_field_named_like_the_event_s_own_columns_keeps_both() -> None:
    text = events_csv([(1, "roll-shown", {"kind": "d100", "faces": [4, 2]}, "now")])
    header, row = text.splitlines()
    assert header == "seq,at,kind,payload.kind,faces"
    assert row == "1,now,roll-shown,d100,4 2"
