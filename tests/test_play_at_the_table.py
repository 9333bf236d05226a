"""`turnlight play` at the table (issue #15): what quit says, the board's undo key under
--board-undo, and a screen that keeps up with the board (its presses and their refusals
redraw the live view without a typed command)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from tmux_terminal import Tmux
from waiting import until

from host.board.fault_proxy import FaultProxy
from host.board.link_board import LinkBoard
from host.board.tether import Tether
from host.core.journal import Journal
from host.core.session import Session, resume
from host.rulesets.korxsol import encounter_schema
from host.rulesets.korxsol.device import FROST
from host.screens.play_ui import PlayUI
from shared import dice
from shared import events as ev
from shared.host_only import make_event
from shared.limits import NO_SLOT
from shared.link.digest import state_digest
from shared.state import GameState


def play(*args: str, typed: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", "play", *args],
        input=typed,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "TERM": "dumb", **(env or {})},
    )


def test_quit_says_which_game_was_saved_and_how_to_resume_it(tmp_path: Path) -> None:
    done = play("--no-board", typed="initiative\nquit\n", env={"XDG_DATA_HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == (
        "game 1 saved; resume with: turnlight play --resume 1 --no-board"
    )
    printed = done.stderr.splitlines()[-1].split("turnlight play ")[1].split()
    resumed = play(*printed, typed="quit\n", env={"XDG_DATA_HOME": str(tmp_path)})
    assert resumed.returncode == 0 and "(game 1)" in resumed.stderr


def test_quit_names_the_journal_when_it_is_not_the_default(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite"
    done = play("--no-board", "--db", str(db), typed="initiative\n")  # Ctrl-D: the input ends
    assert done.stderr.splitlines()[-1] == (
        f"game 1 saved; resume with: turnlight play --resume 1 --db {db} --no-board"
    )


def test_quit_of_a_game_with_nothing_in_it_says_it_was_removed_not_saved(tmp_path: Path) -> None:
    done = play("--no-board", "--db", str(tmp_path / "j.sqlite"), typed="quit\n")
    assert "had no events: removed" in done.stderr and "saved" not in done.stderr


# ---------------------------------------------------------------- the board's undo key
@contextmanager
def tethered(tmp_path: Path, board_undo: str = "own") -> Iterator[tuple[LinkBoard, Tether]]:
    journal = Journal(str(tmp_path / "journal.sqlite"))
    session = Session(encounter_schema.load(encounter_schema.example_path()), 5, journal)
    with FaultProxy(None) as proxy:
        with LinkBoard(proxy.board_path, GameState(), nonce=9) as board:
            with Tether(session, proxy.host_path, board_undo) as tether:
                settle(board, tether)
                yield board, tether


def settle(board: LinkBoard, tether: Tether) -> None:
    def in_sync() -> bool:
        with board.lock, tether.lock:
            return (
                board.idle()
                and tether.link.session.quiet()
                and state_digest(board.session.state) == state_digest(tether.link.session.state)
            )

    until(in_sync, "board and host agreeing")


def press(board: LinkBoard, tether: Tether, *records: bytes) -> None:
    board.press(*records)
    settle(board, tether)


def typed(tether: Tether, line: str) -> None:
    tether.guard(lambda: tether.session.execute(line))


def test_the_board_s_undo_takes_back_a_board_press(tmp_path: Path) -> None:
    with tethered(tmp_path) as (board, tether):
        typed(tether, "initiative")
        press(board, tether, make_event(ev.COUNTER_UP, 2, FROST))
        press(board, tether, make_event(ev.UNDO))
        assert [e.text for e in tether.session.done] == ["initiative"]
        assert tether.link.session.events_rejected == 0


def test_the_board_s_undo_never_takes_back_a_typed_command_by_default(tmp_path: Path) -> None:
    with tethered(tmp_path) as (board, tether):
        press(board, tether, make_event(ev.NEXT_TURN))  # initiative, from the board
        typed(tether, "adjust Orn frost +1")
        press(board, tether, make_event(ev.UNDO))
        assert [e.text for e in tether.session.done] == ["initiative", "adjust Orn frost +1"]
        assert tether.link.session.events_rejected == 1
        assert list(tether.lines)[-1] == (
            "board: refused: the board's undo takes back only board presses, and `adjust Orn"
            " frost +1` was typed: undo it on the laptop (or play with --board-undo all)"
        )
        typed(tether, "undo")  # the laptop's undo takes it back; then the key may go on
        press(board, tether, make_event(ev.UNDO))
        assert tether.session.done == []


def test_the_board_s_undo_right_after_its_roll_takes_back_the_roll_not_the_action_before(
    tmp_path: Path,
) -> None:
    # The board's undo restores what it showed before its last press; after a roll that is
    # the roll, so the host withdraws the waiting roll and keeps the board's `initiative`.
    with tethered(tmp_path) as (board, tether):
        press(board, tether, make_event(ev.NEXT_TURN))  # initiative, from the board
        press(board, tether, make_event(ev.ROLL_ACTION, NO_SLOT, dice.KIND_ACTION_D3, (3, 1)))
        ruleset, session = tether.session.ruleset, tether.session
        assert [list(q) for q in ruleset.waiting(session.game).values() if q]
        press(board, tether, make_event(ev.UNDO))
        assert [e.text for e in session.done] == ["initiative"]
        assert not any(ruleset.waiting(session.game).values())
        assert tether.link.session.events_rejected == 0
        assert list(tether.lines)[-1] == "board: board next roll withdrawn: 3 1"
        assert journal_rows(session)[-1][1] == "dice-withdraw"
        resumed = resume(session.journal, session.game_id)
        assert not any(resumed.ruleset.waiting(resumed.game).values())
        # A second undo is the board's undo of the press before: `initiative`.
        press(board, tether, make_event(ev.UNDO))
        assert session.done == []


def test_the_board_s_undo_after_a_roll_only_shown_takes_back_no_action(tmp_path: Path) -> None:
    with tethered(tmp_path) as (board, tether):
        press(board, tether, make_event(ev.NEXT_TURN))
        press(board, tether, make_event(ev.D100, NO_SLOT, 0, (4, 2)))
        press(board, tether, make_event(ev.UNDO))
        assert [e.text for e in tether.session.done] == ["initiative"]


def journal_rows(session: Session) -> list[tuple]:
    assert session.journal is not None and session.game_id is not None
    return list(session.journal.events(session.game_id))


def test_board_undo_all_takes_back_a_typed_command(tmp_path: Path) -> None:
    with tethered(tmp_path, "all") as (board, tether):
        typed(tether, "initiative")
        press(board, tether, make_event(ev.UNDO))
        assert tether.session.done == [] and tether.link.session.events_rejected == 0


def test_board_undo_off_refuses_the_key(tmp_path: Path) -> None:
    with tethered(tmp_path, "off") as (board, tether):
        press(board, tether, make_event(ev.NEXT_TURN))
        press(board, tether, make_event(ev.UNDO))
        assert [e.text for e in tether.session.done] == ["initiative"]
        assert "undo key is off (--board-undo off)" in list(tether.lines)[-1]


def test_a_resumed_game_still_knows_which_actions_came_from_the_board(tmp_path: Path) -> None:
    with tethered(tmp_path) as (board, tether):
        press(board, tether, make_event(ev.NEXT_TURN))
        typed(tether, "end")
        journal = tether.session.journal
        assert journal is not None
        again = resume(journal)
    assert [(e.text, e.by) for e in again.done] == [("initiative", "board"), ("end", "laptop")]


def test_play_s_board_undo_choices_are_the_tether_s() -> None:
    from host.board.tether import BOARD_UNDO
    from host.commands import play as play_command

    assert play_command.BOARD_UNDO == BOARD_UNDO


# ---------------------------------------------------------------- a screen that keeps up
def test_a_board_press_redraws_the_live_view_without_a_typed_command(tmp_path: Path) -> None:
    with tethered(tmp_path) as (board, tether):
        buf = StringIO()
        ui = PlayUI(tether.session, Console(file=buf, width=80, color_system=None), tether=tether)
        press(board, tether, make_event(ev.NEXT_TURN))
        assert ui.echo_board() == [line for line in ui.messages if line.startswith("board: ")]
        view = buf.getvalue()
        assert "Ember Ridge, round 1:" in view  # the headline, redrawn: initiative was rolled
        assert "board: " in view
        buf.truncate(0)
        buf.seek(0)
        assert ui.echo_board() == [] and buf.getvalue() == ""  # nothing new: no redraw


def test_a_refused_board_press_gives_its_reason_in_play(tmp_path: Path) -> None:
    with tethered(tmp_path) as (board, tether):
        buf = StringIO()
        ui = PlayUI(tether.session, Console(file=buf, width=80, color_system=None), tether=tether)
        press(board, tether, make_event(ev.END_COMBAT))
        ui.echo_board()
        out = " ".join(buf.getvalue().split())  # the log wraps at the console's width
        assert (
            "board: refused: end combat is the game master's call while tethered: use the laptop"
            in out
        )
        assert "1 press refused" in out


# ---------------------------------------------------------------- in a real terminal
@contextmanager
def sim_and_play(tmp_path: Path, *play_args: str) -> Iterator[Tmux]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (apt-get install tmux)")
    t = Tmux(tmp_path)
    try:
        t.start("sim", "sim", "--seconds", "120")
        port = re.search(r"\(turnlight play --port (\S+)\)", t.wait("sim", "turnlight play"))
        assert port is not None
        db = str(tmp_path / "j.sqlite")
        # These tests are about presses and undo: the engine rolls (with a board the default
        # is the board's dice, tests/test_wanted_rolls.py).
        args = ("--dice", "engine", *play_args)
        t.start("play", "play", "--port", port.group(1), "--db", db, "--seed", "5", *args)
        t.wait("play", ": linked")
        yield t
    finally:
        t.close()


def test_in_a_terminal_board_presses_redraw_play_and_refusals_say_why(tmp_path: Path) -> None:
    with sim_and_play(tmp_path) as t:
        t.keys("sim", "n")  # next turn: initiative, from the board; nothing typed
        t.wait("play", "Ember Ridge, round 1:")
        t.keys("play", "end\r")
        t.wait("play", "ends the turn")
        t.keys("sim", "u")  # the board's undo may not take back the typed `end`
        t.wait(
            "play",
            "board: refused: the board's undo takes back only board presses, and `end` was"
            " typed: undo it on the laptop (or play with --board-undo all)",
        )
        t.keys("sim", "E")  # end combat, held: the game master's call
        t.wait("play", "board: refused: end combat is the game master's call while tethered")
        t.wait("play", "2 presses refused")


def test_in_a_terminal_board_undo_all_takes_back_a_typed_command(tmp_path: Path) -> None:
    with sim_and_play(tmp_path, "--board-undo", "all") as t:
        t.keys("play", "initiative\r")
        t.wait("play", "Ember Ridge, round 1:")
        t.keys("sim", "u")
        t.wait("play", "board: undone: initiative")


def test_the_simulated_board_of_play_sim_follows_board_undo(tmp_path: Path) -> None:
    from host.board.tethered_sim import TetheredSim
    from host.core.interface import IllegalAction

    for board_undo, undone in (("own", False), ("all", True)):
        session = Session(encounter_schema.load(encounter_schema.example_path()), 3)
        with TetheredSim(session, board_undo=board_undo) as table:
            table.execute("initiative")
            if undone:
                assert table.press("undo") == ["board: undone: initiative"]
            else:
                with pytest.raises(IllegalAction, match="refused: the board's undo takes back"):
                    table.press("undo")
            assert [e.text for e in session.done] == ([] if undone else ["initiative"])
