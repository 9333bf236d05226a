"""The board's rolls that no rule uses are journalled at most UNUSED_ROLLS_A_TURN in a turn
(issue #37 item 8): a stuck roll key sent 300 in 1.7 s, each journalled, so a fault could
grow the journal without bound. Past the limit the log says so once, and the rest are
only shown on the board until the turn moves on. Driven over real pseudo-terminals: the
link-only board (host/board/link_board.py) presses, the tether journals (as
tests/test_tether.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from waiting import wait_for

from host.board.fault_proxy import FaultProxy
from host.board.link_board import LinkBoard
from host.board.tether import UNUSED_ROLLS_STOP, Tether
from host.core.journal import Journal
from host.core.session import UNUSED_ROLLS_A_TURN, Session
from host.rulesets.korxsol import encounter_schema
from shared import dice
from shared import events as ev
from shared.host_only import make_event
from shared.limits import NO_SLOT
from shared.link.digest import state_digest
from shared.state import GameState

STUCK = 300  # a stuck roll key's presses, as the finding counted them


@contextmanager
def tethered(tmp_path: Path, dice_from: str) -> Iterator[tuple[LinkBoard, Tether]]:
    journal = Journal(str(tmp_path / "journal.sqlite"))
    session = Session(encounter_schema.load(encounter_schema.example_path()), 5, journal)
    session.execute("initiative")
    session.dice_from = dice_from
    with FaultProxy(None) as proxy:
        with LinkBoard(proxy.board_path, GameState(), nonce=9) as board:
            with Tether(session, proxy.host_path) as tether:
                yield board, tether


def settle(board: LinkBoard, tether: Tether) -> None:
    def in_sync() -> bool:
        with board.lock, tether.lock:
            return (
                board.idle()
                and tether.link.session.quiet()
                and state_digest(board.session.state) == state_digest(tether.link.session.state)
            )

    assert wait_for(in_sync, 120), "board and host did not agree"


def shown(tether: Tether) -> list[dict]:
    journal, game = tether.session.journal, tether.session.game_id
    assert journal is not None and game is not None
    return [p for _, kind, p, _ in journal.events(game) if kind == "roll-shown"]


def said(tether: Tether) -> list[str]:
    with tether.lock:
        lines = list(tether.lines)
        tether.lines.clear()
    return lines


def test_a_stuck_roll_key_journals_at_most_the_turn_s_limit_and_says_so_once(
    tmp_path: Path,
) -> None:
    with tethered(tmp_path, "board") as (board, tether):
        settle(board, tether)
        said(tether)
        roll = make_event(ev.ROLL_ACTION, 0, dice.KIND_ACTION_D3, (1, 2, 3))
        board.press(*[roll] * STUCK)  # nothing waits for a roll: each fits nothing
        settle(board, tether)
        assert len(shown(tether)) == UNUSED_ROLLS_A_TURN
        lines = said(tether)
        assert lines.count("board: " + UNUSED_ROLLS_STOP) == 1
        assert len(lines) == UNUSED_ROLLS_A_TURN + 1  # each journalled roll, then the notice
        assert all("fits no wanted roll" in line for line in lines[:-1])
        # The turn moves on: its own rolls are journalled and said again.
        board.press(make_event(ev.NEXT_TURN), roll)
        settle(board, tether)
        assert len(shown(tether)) == UNUSED_ROLLS_A_TURN + 1
        assert "fits no wanted roll" in said(tether)[-1]


def test_a_ruleset_s_own_unused_rolls_are_bounded_the_same_way(tmp_path: Path) -> None:
    # korxsol has no use for a board's d100 (host/rulesets/korxsol/board_presses.py):
    # its rules journal it through Session.note_roll, which keeps the limit.
    with tethered(tmp_path, "engine") as (board, tether):
        settle(board, tether)
        said(tether)
        board.press(*[make_event(ev.D100, NO_SLOT, 0, (4, 2))] * (UNUSED_ROLLS_A_TURN + 10))
        settle(board, tether)
        assert len(shown(tether)) == UNUSED_ROLLS_A_TURN
        assert said(tether).count("board: " + UNUSED_ROLLS_STOP) == 1
