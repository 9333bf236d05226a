"""The README's first game, typed as written into `turnlight play` in a real 80x24 terminal
(tmux), as a newcomer would (issue #28, "Tested as a person would"): after each command the
screen's visible text is read, and what the command did must be on it, whole.

Every wait polls the pane until the text appears, with a generous timeout, so a busy machine
only makes it slower. Without tmux (apt-get install tmux) the test is skipped."""

from __future__ import annotations

import re
import shlex
import shutil
import time
from pathlib import Path

import pytest
from tmux_terminal import Tmux

ROOT = Path(__file__).resolve().parent.parent
WAIT = 60.0  # seconds: generous for two busy cores; each wait returns as soon as it holds
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def readme_first_game() -> tuple[list[str], list[str]]:
    """The `turnlight play ...` command of the README's "Play one" and the commands of its
    table, in order, as written."""
    text = (ROOT / "README.md").read_text()
    part = text[text.index("**2. Play one.**") : text.index("A refused command")]
    start = re.search(r"`turnlight (play [^`]+)`", part)
    assert start is not None, "the README's Play one names no play command"
    typed = re.findall(r"^\| `([^`]+)` \|", part, re.MULTILINE)
    return shlex.split(start.group(1)), typed


def visible(t: Tmux) -> str:
    """The pane's visible text with no spaces or line ends: a line wrapped at the 80th
    column (a long path) reads on unbroken."""
    return "".join("".join(t.lines("play")).split())


def shown(t: Tmux, *texts: str) -> None:
    wanted = ["".join(x.split()) for x in texts]
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        screen = visible(t)
        if all(x in screen for x in wanted):
            return
        time.sleep(0.1)
    missing = [x for x, w in zip(texts, wanted, strict=True) if w not in visible(t)]
    raise AssertionError(f"{missing} never showed: {chr(10).join(t.lines('play'))}")


def type_line(t: Tmux, line: str) -> None:
    t.keys("play", line)
    t.press("play", "Enter")


def test_the_readme_s_first_game_typed_in_an_80x24_terminal_shows_each_result(
    tmp_path: Path,
) -> None:
    start, commands = readme_first_game()
    assert commands[:5] == [
        "initiative",
        'attack Kaelen "Flame Slash" Orrin',
        "move Kaelen 2",
        "end",
        "undo",
    ], "the README's first game changed: change this test with it"
    t = Tmux(tmp_path)
    try:
        t.start("play", *start, "--db", str(tmp_path / "j.sqlite"), stay=True)
        # The engine rolls; the screen says how to roll on the board instead.
        shown(t, "linked", "engine dice (`dice from board`")
        type_line(t, commands[0])
        shown(t, "round 1: Kaelen's turn", "initiative 1. Kaelen")

        t.keys("play", "attack Kaelen ")
        t.press("play", "Tab")  # the moves, in a menu on the screen
        shown(t, "Flame Slash", "Rally Cry", "Heavy Charge")
        t.press("play", "C-c")  # the line cleared, as a person would
        type_line(t, "help attack")
        shown(t, "attack for Kaelen: Flame Slash, Rally Cry, Heavy Charge")

        type_line(t, commands[1])
        # Every line of the attack at once: its use, the hit, the damage and its burn.
        shown(
            t,
            "Kaelen uses Flame Slash on Orrin",
            "Kaelen hits Orrin",
            "damage 2 (2 base + 0 power)",
            "burn: Orrin flips",
            "scores: Dawn",
        )
        type_line(t, commands[2])
        shown(t, "Kaelen moves 2 spaces")
        type_line(t, commands[3])
        shown(t, "Kaelen ends the turn", "round 1: Brimm's turn")
        type_line(t, commands[4])
        shown(t, "undone: end", "Kaelen's turn")

        type_line(t, "help")  # longer than the screen: it pages
        shown(t, "lines 1-22 of", "PgDn/PgUp")
        t.press("play", "Escape")
        shown(t, "undone: end")
        assert all(len(line) <= 80 for line in t.lines("play"))

        type_line(t, "quit")
        # The command that goes on with the same setup: the board too.
        shown(t, f"resume with: turnlight play --resume 1 --db {tmp_path / 'j.sqlite'} --sim")
    finally:
        t.close()
