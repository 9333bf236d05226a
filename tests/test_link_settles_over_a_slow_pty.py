"""The simulated board (the real firmware App) and the host's BoardLink over a pty paced as a
9600-baud UART, with an empty game: the descriptor is acknowledged and the link settles, as
with a full table (#26, item 15)."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from waiting import wait_for

from host.board.bridge import BoardLink
from host.board.fault_proxy import FaultProxy, Faults
from host.board.simulated_board import SimulatedBoard
from shared.reference import build_reference_state
from shared.state import GameState


@pytest.mark.parametrize("state", [GameState, build_reference_state], ids=["empty", "full"])
def test_the_link_settles_over_a_slow_line_whatever_the_state(
    state: Callable[[], GameState],
) -> None:
    sim = SimulatedBoard("pico_matrix", seed=3)
    proxy = FaultProxy(Faults(baud=9600)).start()
    sim.start(proxy.board_path)
    link = BoardLink(proxy.host_path, state()).start()
    try:
        session = link.session
        assert wait_for(lambda: link.linked and session._snap is None and not session._dirty)
        assert wait_for(lambda: sim.app.session.snapshots >= 1)
        sent, handshakes = session.descriptors_sent, session.handshakes
        time.sleep(3)  # settled: nothing resent, no new handshake
        assert (session.descriptors_sent, session.handshakes) == (sent, handshakes)
        assert sim.app.session.described and sim.app.state.count == link.session.state.count
    finally:
        link.stop()
        sim.stop()
        proxy.stop()
