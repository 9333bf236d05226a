"""The README's first game, typed as written into `turnlight play` in a real 80x24 terminal
(tmux), as a newcomer would (issue #28, "Tested as a person would"): after each command the
screen's visible text is read, and what the command did must be on it, whole.

Every wait polls the pane until the text appears, with a generous timeout, so a busy machine
only makes it slower. Without tmux (apt-get install tmux) the test is skipped."""

from __future__ import annotations

import io
import re
import shlex
import shutil
import time
from pathlib import Path

import pytest
from rich.console import Console
from tmux_terminal import Tmux

from host.core import registry
from host.core.session import Session
from host.screens.play_ui import PlayUI

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


def shadow(ruleset: str, seed: int) -> PlayUI:
    """The same game played headless beside the terminal's (the same bundled encounter,
    seed and commands, the engine's dice): what the last action said, to look for."""
    rules = registry.get(ruleset)
    path = rules.example_path()
    session = Session(rules.parse_encounter(path.read_text(), str(path)), seed)
    return PlayUI(session, Console(file=io.StringIO(), width=80))


def last_action_whole(t: Tmux, twin: PlayUI, line: str) -> list[str]:
    """Type `line` and wait until every line of what it did (its twin's last action's
    lines) is on the screen, whole, with the scores; returns them."""
    twin.handle(line)
    last = twin.messages[twin.last_mark :]
    type_line(t, line)
    shown(t, *last, twin.session.ruleset.score_line(twin.session.game))
    return last


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
    assert start[start.index("--seed") + 1] == "3", "the README's seed changed: change the twin"
    twin = shadow("korxsol", 3)
    t = Tmux(tmp_path)
    try:
        t.start("play", *start, "--db", str(tmp_path / "j.sqlite"), stay=True)
        # The engine rolls; the screen says how to roll on the board instead.
        shown(t, "linked", "engine dice (`dice from board`")
        last_action_whole(t, twin, commands[0])
        shown(t, "round 1: Kaelen's turn", "initiative 1. Kaelen")

        t.keys("play", "attack Kaelen ")
        t.press("play", "Tab")  # the moves, in a menu on the screen
        shown(t, "Flame Slash", "Rally Cry", "Heavy Charge")
        t.press("play", "C-c")  # the line cleared, as a person would
        type_line(t, "help attack")
        shown(t, "attack for Kaelen: Flame Slash, Rally Cry, Heavy Charge")

        # Every line of the attack at once: its odds, its use, the hit, the damage, its burn.
        last = last_action_whole(t, twin, commands[1])
        assert any("Kaelen hits Orrin" in x for x in last) and any("burn" in x for x in last)
        last_action_whole(t, twin, commands[2])
        shown(t, "Kaelen moves 2 spaces")
        last_action_whole(t, twin, commands[3])
        shown(t, "Kaelen ends the turn", "round 1: Brimm's turn")
        last_action_whole(t, twin, commands[4])
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


# A d20 fight of eight (the bundled encounter and its Goblin Boss, who joins) with a
# condition on each: its roster is taller than the lines an 80x24 screen has for it.
D20_SEED = 10  # Mirel's Fire Bolt is a critical hit: its roll wraps, and three lines follow
D20_FIGHT = [
    'add "Goblin Boss"',
    "initiative",
    "concentrate Oswin Bless",
    "condition Brenna blessed rounds=10 by=Oswin concentration",
    "condition Lira blessed rounds=10 by=Oswin concentration",
    "condition Mirel blessed rounds=10 by=Oswin concentration",
    'condition "Goblin 1" frightened rounds=2',
    'condition "Goblin 2" frightened rounds=2',
    'condition "Ember the Wyrmling" poisoned rounds=2',
    'condition "Goblin Boss" poisoned rounds=2',
    'attack Mirel "Goblin Boss"',
]


def test_a_d20_fight_of_eight_in_an_80x24_terminal_shows_each_action_s_lines_whole(
    tmp_path: Path,
) -> None:
    """Issue #38, item 2: the attack's roll ("d20 ... vs AC 18: hit") was cut, only its
    damage lines shown, while blank lines sat under the scores. The last action's lines
    come first, whole, after every command; the roster marks whose turn it is, with each
    creature's initiative and the spell it concentrates on."""
    twin = shadow("d20", D20_SEED)
    t = Tmux(tmp_path)
    try:
        db = str(tmp_path / "j.sqlite")
        t.start("play", "play", "--ruleset", "d20", "--sim", "--seed", str(D20_SEED), "--db", db)
        shown(t, "linked")
        for line in D20_FIGHT:
            last = last_action_whole(t, twin, line)
            if line.startswith("concentrate"):  # (the roster is cut before Oswin later)
                shown(t, "Oswin 27 17 10", "conc: Bless")  # (HP, AC, initiative)
        assert len(twin.session.ruleset.fighter_names(twin.session.game)) == 8
        assert last[0].startswith("Mirel attacks Goblin Boss with Fire Bolt: d20 20")
        assert len(last) >= 4  # the roll, the damage, the hit points, the death
        screen = t.lines("play")
        # Whose turn, its HP, AC and initiative.
        assert any(line.split()[:5] == [">", "Mirel", "20", "12", "22"] for line in screen)
        assert all(len(line) <= 80 for line in screen)
    finally:
        t.close()
