"""Mistyped names (issue #15): a misspelt move or character gets a suggestion, and a move of
several words typed without quotes is read as one where that is unambiguous (else the
quotes are suggested). The helper is generic (host/core/names.py); korxsol calls it."""

from __future__ import annotations

from pathlib import Path

import pytest

from host import cli
from host.core import names
from host.core.interface import IllegalAction
from host.core.journal import Journal
from host.rulesets.korxsol import encounter_schema


def run(tmp_path: Path, capsys, *lines: str, enc: Path | None = None) -> tuple[int, str]:
    script = tmp_path / "s.txt"
    script.write_text("\n".join(("order Kae Orn Vex Brm",) + lines) + "\n")
    args = ["run", "--script", str(script), "--seed", "3", "--db", str(tmp_path / "j.sqlite")]
    status = cli.main(args + (["--encounter", str(enc)] if enc else []))
    return status, capsys.readouterr().err


def test_a_misspelt_move_gets_a_suggestion(tmp_path: Path, capsys) -> None:
    status, err = run(tmp_path, capsys, 'attack Kae "Flame Slsh" Orn')
    assert status == 2
    assert ":2: unknown move 'Flame Slsh'; did you mean 'Flame Slash'?" in err


def test_a_misspelt_move_typed_without_quotes_gets_the_same_suggestion(tmp_path, capsys):
    status, err = run(tmp_path, capsys, "attack Kae Flame Slsh Orn")
    assert status == 2
    assert ":2: unknown move 'Flame Slsh'; did you mean 'Flame Slash'?" in err


def test_a_move_of_several_words_is_taken_without_quotes(tmp_path: Path, capsys) -> None:
    status, err = run(
        tmp_path, capsys, "attack Kae Flame Slash Orn", "end", "odds Orn Rock Smash Kae"
    )
    assert status == 0, err
    events = Journal(tmp_path / "j.sqlite").events(1)
    attack = events[1][2]
    assert attack["text"] == "attack Kae Flame Slash Orn"
    assert [r["purpose"] for r in attack["rolls"]][:2] == ["hit", "dodge"]


def test_an_unquoted_move_that_reads_two_ways_asks_for_quotes(tmp_path: Path, capsys) -> None:
    text = encounter_schema.example_path().read_text()
    text = text.replace(
        'moves = ["Flame Slash", "Rally Cry", "Heavy Charge"]',
        'moves = ["Flame", "Flame Slash", "Rally Cry"]',
    )
    text += '\n[[move]]\nname = "Flame"\ntype = "melee"\ncooldown = 1\nhit = 1\ndamage = 1\n'
    enc = tmp_path / "two_flames.toml"
    enc.write_text(text)
    status, err = run(tmp_path, capsys, "attack Kae Flame Slash Orn", enc=enc)
    assert status == 2
    assert (
        "'Flame Slash' reads as more than one move ('Flame', 'Flame Slash'):"
        ' put the one you mean in quotes, as in "Flame Slash"'
    ) in err
    status, err = run(tmp_path, capsys, 'attack Kae "Flame Slash" Orn', enc=enc)
    assert status == 0, err
    status, err = run(tmp_path, capsys, 'attack Kae "Flame" Orn', enc=enc)
    assert status == 0, err


def test_a_misspelt_character_gets_a_suggestion(tmp_path: Path, capsys) -> None:
    status, err = run(tmp_path, capsys, "attack Kaelan Flame Slash Orn")
    assert ":2: unknown character 'Kaelan'; did you mean 'Kaelen'?" in err
    status, err = run(tmp_path, capsys, "attack Kae Flame Slash Orrn")
    assert ":2: unknown character 'Orrn'; did you mean 'Orrin'?" in err


def test_a_name_close_to_none_keeps_the_rules_own_words(tmp_path: Path, capsys) -> None:
    status, err = run(tmp_path, capsys, "attack Kae Fireball Orn")
    assert status == 2
    assert ":2: Kaelen has no combat move 'Fireball' (has: Flame Slash, " in err


def test_the_helper_reads_names_for_any_ruleset() -> None:
    known = ["Hit", "Hit Hard", "Tonic"]
    assert names.take_name(["Bo", "Tonic", "Al"], 1, known, "thing") == ["Bo", "Tonic", "Al"]
    with pytest.raises(IllegalAction, match="'hit hard' reads as more than one thing"):
        names.take_name(["Bo", "hit", "hard"], 1, known, "thing")
    assert names.take_name(["Bo", "hit", "hard"], 1, known, "thing", quoted=True) == [
        "Bo",
        "hit",
        "hard",
    ]
    with pytest.raises(IllegalAction, match="unknown thing 'Tonc'; did you mean 'Tonic'"):
        names.take_name(["Bo", "Tonc"], 1, known, "thing")
    assert names.quoted_words('use Bo "Hit Hard" x=1 Al', ()) == [False, True, False]


def test_a_name_only_somewhat_alike_is_not_suggested() -> None:
    # 'Fireball' shares letters with 'Rally' (a ratio of 0.62) but nobody meant it.
    names.suggest("move", "Fireball", ["Rally", "Strike"])  # says nothing: not close
    assert names.closest("Fireball", ["Rally"]) is None
