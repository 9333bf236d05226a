"""`turnlight play --sim` on a terminal is one full-screen app: the live view, the simulated
board's grid drawn live, and the prompt; the keyboard's letters press the board's keys
after Tab (#15, "One terminal should be enough"). Driven with prompt_toolkit's own pipe
input, and in a real terminal under tmux at 80x24."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console
from tmux_terminal import Tmux

from host.board.tethered_sim import TetheredSim
from host.core.session import Session
from host.rulesets.korxsol import encounter_schema
from host.screens.play_screen import PlayScreen
from host.screens.play_ui import PlayUI

WAIT = 20.0  # seconds: generous, for a busy machine; each wait returns as soon as it holds


class Output80x24(DummyOutput):
    def get_size(self) -> Size:
        return Size(rows=24, columns=80)


def until(holds: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if holds():
            return
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


@contextmanager
def screen_on_a_board(tmp_path: Path) -> Iterator[tuple[PlayScreen, TetheredSim, object]]:
    session = Session(encounter_schema.load(encounter_schema.example_path()), seed=3)
    table = TetheredSim(session).start(10)
    try:
        with create_pipe_input() as pipe:
            ui = PlayUI(session, Console(), tether=table.tether)
            screen = PlayScreen(ui, table.sim, input=pipe, output=Output80x24())
            runner = threading.Thread(target=screen.run, daemon=True)
            runner.start()
            try:
                yield screen, table, pipe
            finally:
                if runner.is_alive():
                    pipe.send_text("\x1b")  # leave board keys, if on
                    time.sleep(0.1)
                    pipe.send_text("\x15quit\r")  # Ctrl-U clears the line
                runner.join(WAIT)
                assert not runner.is_alive(), "the screen did not end on quit"
    finally:
        table.stop()


def test_a_typed_command_runs_and_the_view_shows_its_result(tmp_path: Path) -> None:
    with screen_on_a_board(tmp_path) as (screen, table, pipe):
        pipe.send_text("initiative\r")
        until(lambda: screen.ui.session.ruleset.started(screen.ui.session.game), "started")
        until(lambda: "round 1" in screen._view_text().value, "the view shows round 1")


def test_tab_on_an_empty_line_hands_the_letters_to_the_board(tmp_path: Path) -> None:
    with screen_on_a_board(tmp_path) as (screen, table, pipe):
        session = screen.ui.session
        pipe.send_text("\t")
        until(lambda: screen.board_keys, "board keys on")
        pipe.send_text("n")  # the board's next turn: it starts the fight, nothing typed
        until(lambda: session.ruleset.started(session.game), "the board's press started it")
        until(lambda: "board: " in screen._view_text().value, "the view shows the board's press")
        assert screen.buffer.text == ""  # the letter went to the board, not the prompt
        pipe.send_text("\x1b")
        until(lambda: not screen.board_keys, "Esc gives the letters back to the prompt")


def test_a_refusal_is_shown_under_the_view_and_changes_nothing(tmp_path: Path) -> None:
    with screen_on_a_board(tmp_path) as (screen, table, pipe):
        before = len(screen.ui.session.done)
        pipe.send_text("attack Nobody Fireball Orrin\r")
        until(lambda: "refused" in screen.notes, "the refusal is shown")
        assert len(screen.ui.session.done) == before


def test_a_letter_the_board_has_no_key_for_says_so(tmp_path: Path) -> None:
    with screen_on_a_board(tmp_path) as (screen, table, pipe):
        pipe.send_text("\x02")  # Ctrl-B
        until(lambda: screen.board_keys, "board keys on")
        pipe.send_text("z")
        until(lambda: "not a key" in screen.status, "the status line says why")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_in_a_real_80x24_terminal_the_grid_the_view_and_the_prompt_share_the_screen(
    tmp_path: Path,
) -> None:
    t = Tmux(tmp_path)
    try:
        db = str(tmp_path / "j.sqlite")
        # The engine rolls: this test is about the screen (board dice: test_wanted_rolls.py).
        args = ("--sim", "--db", db, "--seed", "3", "--dice", "engine")
        t.start("play", "play", *args, stay=True)
        t.wait("play", "linked", WAIT)
        t.keys("play", "initiative")
        t.press("play", "Enter")
        t.wait("play", "round 1", WAIT)
        t.press("play", "C-b")
        t.wait("play", "board keys>", WAIT)
        t.keys("play", "n")  # the board ends the first turn
        t.wait("play", "board: ", WAIT)
        lines = t.lines("play")
        assert all(len(line) <= 80 for line in lines)
        assert any("██" in line and "│" in line for line in lines)  # the grid, beside the view
        t.press("play", "Tab")
        t.keys("play", "quit")
        t.press("play", "Enter")
        t.wait("play", "resume with: turnlight play --resume 1", WAIT)
    finally:
        t.close()
