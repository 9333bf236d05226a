"""The tether (host/board/tether.py), driven by a korxsol session tethered to a board over real
pseudo-terminals: board presses become korxsol actions (host/rulesets/korxsol/board_presses.py) in
the journal, laptop commands reach the board, and a press the full rules refuse changes nothing on
either side. The board end is the link-only board (host/board/link_board.py) running the shared
BoardSession; tests/test_board_e2e.py drives the real firmware."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from waiting import wait_for

from host.board.fault_proxy import FaultProxy
from host.board.link_board import LinkBoard
from host.board.tether import Tether
from host.core.journal import Journal
from host.core.session import Session, resume
from host.rulesets.korxsol import encounter_schema
from host.rulesets.korxsol.device import BURN, FROST
from shared import dice
from shared import events as ev
from shared.host_only import make_event
from shared.limits import NO_SLOT
from shared.link.digest import state_digest
from shared.state import GameState


@contextmanager
def tethered(tmp_path: Path) -> Iterator[tuple[LinkBoard, Tether]]:
    journal = Journal(str(tmp_path / "journal.sqlite"))
    session = Session(encounter_schema.load(encounter_schema.example_path()), 5, journal)
    with FaultProxy(None) as proxy:
        with LinkBoard(proxy.board_path, GameState(), nonce=9) as board:
            with Tether(session, proxy.host_path) as tether:
                yield board, tether


def in_sync(board: LinkBoard, tether: Tether) -> bool:
    with board.lock, tether.lock:
        return (
            board.idle()
            and tether.link.session.quiet()
            and state_digest(board.session.state) == state_digest(tether.link.session.state)
        )


def settle(board: LinkBoard, tether: Tether) -> None:
    assert wait_for(lambda: in_sync(board, tether)), "board and host did not agree"


def test_the_board_shows_the_session_once_linked(tmp_path: Path) -> None:
    with tethered(tmp_path) as (board, tether):
        settle(board, tether)
        fighters = tether.session.game.fighters
        assert board.session.state.count == len(fighters)
        assert [board.session.state.slots[i].label for i in range(len(fighters))] == [
            f.spec.label for f in fighters
        ]


def test_next_turn_on_the_board_rolls_initiative_then_ends_turns(tmp_path: Path) -> None:
    with tethered(tmp_path) as (board, tether):
        settle(board, tether)
        board.press(make_event(ev.NEXT_TURN))
        settle(board, tether)
        game = tether.session.game
        assert game.started and game.active is not None
        first = game.active.spec.name
        board.press(make_event(ev.NEXT_TURN))
        settle(board, tether)
        assert tether.session.game.active is not None
        assert tether.session.game.active.spec.name != first
        assert board.session.state.active == tether.session.game.state.active
        assert [e.text for e in tether.session.done] == ["initiative", "end"]


def test_board_presses_are_journalled_and_a_resume_has_them(tmp_path: Path) -> None:
    with tethered(tmp_path) as (board, tether):
        settle(board, tether)
        board.press(make_event(ev.NEXT_TURN), make_event(ev.COUNTER_UP, 1, FROST))
        settle(board, tether)
        journal = tether.session.journal
        assert journal is not None
        again = resume(journal)
    assert again.game.state.slots[1].counters[FROST] == 1
    assert state_digest(again.game.state) == state_digest(tether.session.game.state)


def test_a_board_d100_is_journalled_though_korxsol_has_no_use_for_it(tmp_path: Path) -> None:
    # Every roll is journalled, whoever made it (issue: rolls by the engine, the board or
    # physical dice); korxsol rolls no d100, so it waits for nothing and replays as nothing.
    with tethered(tmp_path) as (board, tether):
        settle(board, tether)
        board.press(make_event(ev.D100, NO_SLOT, 0, (4, 2)))
        settle(board, tether)
        journal = tether.session.journal
        game = tether.session.game_id
        assert journal is not None and game is not None
        shown = [p for _, kind, p, _ in journal.events(game) if kind == "roll-shown"]
        assert shown == [{"kind": "d100", "faces": [4, 2], "source": "board"}]
        again = resume(journal)
        assert again.game.roller.pending() == {}


def test_frost_and_burn_keys_adjust_the_selected_character(tmp_path: Path) -> None:
    with tethered(tmp_path) as (board, tether):
        settle(board, tether)
        board.press(make_event(ev.COUNTER_UP, 2, BURN), make_event(ev.COUNTER_UP, 2, BURN))
        board.press(make_event(ev.COUNTER_UP, 1, FROST), make_event(ev.COUNTER_DOWN, 2, BURN))
        settle(board, tether)
        slot = tether.session.game.state.slots
        assert (slot[2].counters[BURN], slot[1].counters[FROST]) == (1, 1)
        assert board.session.state.slots[2].counters[BURN] == 1
        # Kaelen (slot 0) is a fire class: Inner Fire refuses frost from the board's key too.
        board.press(make_event(ev.COUNTER_UP, 0, FROST))
        settle(board, tether)
        assert slot[0].counters[FROST] == 0 and board.session.state.slots[0].counters[FROST] == 0


def test_a_board_roll_waits_for_the_next_action_dice_and_stays_shown(tmp_path: Path) -> None:
    with tethered(tmp_path) as (board, tether):
        settle(board, tether)
        board.press(make_event(ev.ROLL_ACTION, NO_SLOT, dice.KIND_ACTION_D6, (6, 1, 4)))
        settle(board, tether)
        queued = tether.session.game.roller.queued["next"]
        assert list(queued) == [((3, 1, 2), "board")]
        shown = board.session.state.roll
        assert (shown.kind, shown.count, bytes(shown.faces[:3])) == (
            dice.KIND_ACTION_D6,
            3,
            bytes((6, 1, 4)),
        )


def test_a_laptop_command_reaches_the_board(tmp_path: Path) -> None:
    with tethered(tmp_path) as (board, tether):
        settle(board, tether)
        tether.guard(lambda: tether.session.execute("initiative"))
        tether.guard(lambda: tether.session.execute("end"))
        settle(board, tether)
        assert board.session.state.round == tether.session.game.state.round == 1
        assert board.session.state.active == tether.session.game.state.active


def test_a_press_the_rules_refuse_changes_nothing_on_either_side(tmp_path: Path) -> None:
    with tethered(tmp_path) as (board, tether):
        settle(board, tether)
        before = state_digest(tether.session.game.state)
        # The board's own rules take both; korxsol leaves them to the game master.
        board.press(make_event(ev.END_COMBAT), make_event(ev.RESET))
        settle(board, tether)
        assert tether.link.session.events_rejected == 2
        assert state_digest(tether.session.game.state) == before
        assert tether.session.done == []
        assert board.session.state.slots[0].counters[FROST] == 0


def test_undo_on_the_board_undoes_the_last_action(tmp_path: Path) -> None:
    with tethered(tmp_path) as (board, tether):
        settle(board, tether)
        board.press(make_event(ev.NEXT_TURN), make_event(ev.COUNTER_UP, 2, FROST))
        settle(board, tether)
        assert tether.session.game.state.slots[2].counters[FROST] == 1
        board.press(make_event(ev.UNDO))
        settle(board, tether)
        assert tether.session.game.state.slots[2].counters[FROST] == 0
        assert board.session.state.slots[2].counters[FROST] == 0
        assert [e.text for e in tether.session.done] == ["initiative"]


def test_the_play_ui_tethered_sends_its_commands_and_shows_the_presses(tmp_path: Path) -> None:
    from io import StringIO

    from rich.console import Console

    from host.screens.play_ui import PlayUI

    with tethered(tmp_path) as (board, tether):
        settle(board, tether)
        buf = StringIO()
        ui = PlayUI(tether.session, Console(file=buf, width=160, color_system=None), tether=tether)
        ui.handle("initiative")
        settle(board, tether)
        assert board.session.state.round == 1
        board.press(make_event(ev.COUNTER_UP, 1, BURN))
        settle(board, tether)
        ui.show()
        out = buf.getvalue()
        assert f"board on {tether.url}: linked" in out
        assert "board: " in out and "burn" in out
        board.press(make_event(ev.COUNTER_UP, 1, FROST))
        settle(board, tether)
        echoed = ui.echo_board()  # what the prompt prints while it waits
        assert len(echoed) == 1 and "frost" in echoed[0] and echoed[0].startswith("board: ")
        assert ui.echo_board() == []
        ui.handle("new")
        settle(board, tether)
        assert tether.session is ui.session
        assert board.session.state.round == 0


def test_play_with_a_port_that_does_not_exist_is_a_one_line_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "play", "--db", str(tmp_path / "j.sqlite")]
        + ["--port", str(tmp_path / "no-such-tty"), "--link-timeout", "0.3"],
        input="quit\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1].startswith("turnlight: port ")
    assert "does not exist" in done.stderr


def test_play_with_sim_starts_a_simulated_board_and_links_to_it(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    db = tmp_path / "j.sqlite"
    done = subprocess.run(
        # The engine rolls (with a board the default is its dice: tests/test_wanted_rolls.py).
        [sys.executable, "-m", "host.cli", "play", "--db", str(db), "--sim", "--dice", "engine"],
        input="initiative\nend\nquit\n",
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "TERM": "dumb"},
    )
    assert done.returncode == 0, done.stderr
    assert "simulated trellis_m4 board on /dev/" in done.stderr
    assert "board on /dev/" in done.stdout and ": linked" in done.stdout
    events = Journal(str(db)).events(1)
    assert [p.get("text") for _, _, p, _ in events] == ["initiative", "end"]
