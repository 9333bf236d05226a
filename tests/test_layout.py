"""Everything `turnlight play` prints fits 80 columns in one style (issue #15): `help`
never breaks a word, `scores` never cuts a column or splits a row's name, and `table` has
human headers in the same plain style."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from host import cli
from host.rulesets.korxsol import language
from host.rulesets.korxsol.ruleset import RULESET
from host.screens.play_ui import LEAVE_HINT, UI_VERBS


def play(tmp_path: Path, typed: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "play", "--no-board", "--seed", "2"]
        + ["--db", str(tmp_path / "j.sqlite")],
        input=typed + "quit\n",
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "TERM": "dumb", "COLUMNS": "80", "LINES": "24"},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    assert "…" not in done.stdout
    return lines


def after(lines: list[str], title: str) -> list[str]:
    """The lines after the last one that is exactly `title`, up to a blank or the prompt."""
    start = len(lines) - 1 - lines[::-1].index(title)
    block = []
    for line in lines[start + 1 :]:
        if not line.strip() or line.startswith("turnlight>"):
            break
        block.append(line)
    return block


def test_help_fits_80_columns_and_never_breaks_a_word(tmp_path: Path) -> None:
    lines = play(tmp_path, "help\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("initiative [sol="))
    said = " ".join(lines[start:])
    grammar = language.LANGUAGE.grammar  # every verb help lists, its usage made from it
    text = [language.LANGUAGE.usage(v) for v in grammar]
    text += [verb.help for verb in grammar.values()]
    text += list(UI_VERBS) + list(UI_VERBS.values()) + RULESET.help_notes() + [LEAVE_HINT]
    words = set(" ".join(text).split()) | {"(the", "journal", "already", "holds", "everything)"}
    for description in text:
        for word in description.split():
            assert word in said.split(), word  # each word whole, on one line
    broken = [
        w for w in " ".join(lines[start:]).split() if w not in words and "turnlight>" not in w
    ]
    assert broken == [], broken


def test_scores_keeps_every_column_whole_and_each_team_on_one_line(tmp_path: Path) -> None:
    block = after(play(tmp_path, "initiative\nscores\n"), "scores")
    header = block[0].split()
    assert header == ["who", "score", "dealt", "taken", "hits", "dodges", "blocked", "crits"] + [
        "KOs",
        "luck",
    ]
    assert set(block[1]) == {"-", " "}
    teams = [line for line in block if line.startswith("team ")]
    assert [t.split()[:2] for t in teams] == [["team", "Dawn"], ["team", "Dusk"]]
    assert all(len(t.split()) == len(header) + 1 for t in teams)  # every figure on its line


def test_table_has_human_headers_in_the_same_plain_style(tmp_path: Path) -> None:
    block = after(play(tmp_path, "initiative\ntable\n"), "session table")
    assert re.split(r"\s{2,}", block[0]) == ["team", "games", "wins", "damage dealt", "KOs"]
    assert set(block[1]) == {"-", " "}  # the rule under the headers, as in `scores`
    assert [row.split()[0] for row in block[2:]] == ["Dawn", "Dusk"]
    assert not any(ch in "".join(block) for ch in "┏│┃━_")


def test_games_fits_80_columns_with_a_six_digit_seed(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.txt"
    script.write_text("initiative\n")
    db = str(tmp_path / "j.sqlite")
    assert cli.main(["run", "--script", str(script), "--seed", "999999", "--db", db]) == 0
    capsys.readouterr()
    assert cli.main(["games", "--db", db]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "999999" in lines[2].split()
    assert all(len(line) <= 80 for line in lines), lines
