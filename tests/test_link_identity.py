"""After a re-plug the host links only with the board it was linked with (issue 18): another
board given the same port name is refused in one line and gets no state. Over real ptys:
the fault proxy pulls the cable, and the board behind it is swapped meanwhile."""

from __future__ import annotations

import time

import pytest
from waiting import WAIT, wait_for

from firmware.app import App
from host.board.bridge import BoardLink, OtherBoardError
from host.board.fault_proxy import FaultProxy
from host.board.link_board import LinkBoard
from host.board.simulated_board import PtyStream, SimulatedBoard
from shared import codec
from shared import events as ev
from shared.host_only import make_event
from shared.link.digest import state_digest
from shared.link.host import OTHER_BOARD
from shared.reference import build_reference_state

NEXT = make_event(ev.NEXT_TURN)
FIRST = b"\x0a\x1b\x2c\x3d"  # the board ids the tests give their boards
OTHER = b"\x4e\x5f\x60\x71"


class NamedBoard(SimulatedBoard):
    """The simulated board (the real firmware App) named `board_id` from its first HELLO
    on, as code.py names a real board from its chip's uid."""

    def __init__(self, board_id: bytes, seed: int) -> None:
        self.board_id = board_id
        super().__init__("trellis_m4", seed=seed)

    def _new_app(self, stream: PtyStream | None) -> App:
        app = super()._new_app(stream)
        app.session.board_id = self.board_id
        return app


def simulated(proxy: FaultProxy, board_id: bytes, seed: int) -> SimulatedBoard:
    """A named simulated board on the proxy's board side."""
    sim = NamedBoard(board_id, seed)
    sim.start(proxy.board_path)
    return sim


def in_sync(sim: SimulatedBoard, host: BoardLink) -> bool:
    with sim.lock, host.lock:
        return state_digest(sim.app.state) == state_digest(host.session.state)


def test_another_board_after_a_replug_is_refused_and_given_no_state() -> None:
    applied: list[bytes] = []
    with FaultProxy() as proxy:
        first = simulated(proxy, FIRST, 11)
        host = BoardLink(
            proxy.host_path,
            build_reference_state(),
            on_event=lambda record, ok, why: applied.append(record),
        )
        other: SimulatedBoard | None = None
        with host:
            try:
                host.wait_linked(WAIT)
                assert host.session.board_id == FIRST
                assert wait_for(lambda: in_sync(first, host))  # the board has the game
                first.press(first.key_for("next_turn"))
                assert wait_for(lambda: applied == [NEXT])
                first.stop()
                with host.lock:
                    game = codec.encode(host.session.state)
                # The cable comes out; another board is plugged into the same port.
                other = simulated(proxy, OTHER, 12)
                with other.lock:
                    fresh = codec.encode(other.app.state)
                proxy.pull_cable()
                assert wait_for(lambda: host.session.other_boards >= 1)
                with pytest.raises(OtherBoardError) as refused:
                    host.wait_linked(0.2)
                line = str(refused.value)
                assert "another board is on this port" in line and "\n" not in line
                assert f"board id {OTHER.hex()}, not {FIRST.hex()}" in line
                assert host.problem == host.session.error_text
                other.press(other.key_for("next_turn"))
                time.sleep(1.5)  # HELLOs and a probe a second: still refused
                assert not host.linked and host.session.error_code == OTHER_BOARD
                assert applied == [NEXT]  # nothing of the other board's is applied ...
                with other.lock:
                    # ... and nothing of the game is synced into it.
                    assert not other.app.session.linked
                    assert other.app.session.snapshots == 0
                    assert other.app.session.descriptors == 0
                    assert codec.encode(other.app.state) == fresh  # its own empty table
                with host.lock:
                    assert codec.encode(host.session.state) == game
                # The first board comes back (restarted): it links and is brought up to date.
                other.stop()
                other = None
                first = simulated(proxy, FIRST, 11)
                proxy.pull_cable()  # (the refusal stands until the host hears it again)
                assert wait_for(lambda: host.linked and host.session.state is not None)
                assert wait_for(lambda: in_sync(first, host))
                assert host.problem == "" and applied == [NEXT]
            finally:
                first.stop()
                if other is not None:
                    other.stop()


def test_a_board_without_an_id_decides_nothing() -> None:
    # A board with no identity (0 0 0 0) cannot be told from another: the nonce and the
    # journal settle what is applied, as before.
    with FaultProxy() as proxy:
        board = LinkBoard(proxy.board_path, build_reference_state(), nonce=3)
        with board, BoardLink(proxy.host_path, build_reference_state()) as host:
            host.wait_linked(WAIT)
            proxy.pull_cable()
            assert wait_for(lambda: host.disconnects >= 1)
            host.wait_linked(WAIT)
            assert host.session.other_boards == 0


def test_another_usb_serial_number_after_a_replug_is_refused_before_any_frame() -> None:
    # A real board's port has a USB serial number (CircuitPython: its chip's uid); a pty
    # has none, so the port's number is given here, as the system would report it.
    serial = {"number": "DF6480C2"}
    with FaultProxy() as proxy:
        board = LinkBoard(proxy.board_path, build_reference_state(), nonce=5)
        host = BoardLink(proxy.host_path, build_reference_state())
        host.serial_number_of = lambda url: serial["number"]  # type: ignore[method-assign]
        with board, host:
            host.wait_linked(WAIT)
            assert host.usb_serial == "DF6480C2"
            serial["number"] = "E4617C3A"  # another board's port, under the same name
            proxy.pull_cable()
            assert wait_for(lambda: host.disconnects >= 1)
            with host.lock:
                sent = host.session.frames_sent  # nothing is sent without a port
            assert wait_for(lambda: host.refused_boards >= 2)  # and again a second later
            with pytest.raises(OtherBoardError, match="USB serial E4617C3A, not DF6480C2"):
                host.wait_linked(0.2)
            assert not host.linked and host.session.frames_sent == sent  # not even a probe
            serial["number"] = "DF6480C2"  # the board comes back
            assert wait_for(lambda: host.linked)
            assert host.problem == "" and host.session.error_code == 0
