"""A port that echoes (issue 17): the board's REPL console, opened by mistake, gives back
every byte it is sent. Over real ptys through the fault proxy's echo fault: a host never
applies its own frames read back, says why nothing links, and a soak over ports that echo
loses and repeats nothing."""

from __future__ import annotations

import pytest
from waiting import until

from host.board.bridge import BoardLink, EchoingPortError
from host.board.fault_proxy import FaultProxy, Faults
from host.board.link_board import LinkBoard
from host.lab.bench_link import soak
from shared import codec
from shared.link.host import ECHO_TEXT
from shared.reference import build_reference_state


def test_a_host_on_the_console_port_applies_none_of_its_own_frames_and_says_why() -> None:
    applied: list[bytes] = []
    with FaultProxy(Faults(echo="instead")) as proxy:
        board = LinkBoard(proxy.board_path, build_reference_state(), nonce=2)
        host = BoardLink(
            proxy.host_path,
            build_reference_state(),
            on_event=lambda record, ok, why: applied.append(record),
        )
        with board, host:
            state = codec.encode(build_reference_state())
            # The host says so once it has heard its own frames: wait for that, then ask.
            until(
                lambda: host.session.echoes >= 2 and host.session.error_text == ECHO_TEXT,
                "the host hearing its own frames twice",
            )
            with pytest.raises(EchoingPortError) as raised:
                host.wait_linked(0.1)
            line = str(raised.value)
            assert line.endswith(ECHO_TEXT) and "\n" not in line
            with host.lock:
                assert host.session.echoes >= 2 and host.session.handshakes == 0
                assert host.problem == ECHO_TEXT
                assert applied == [] and codec.encode(host.session.state) == state
            assert proxy.counts.echoed_frames >= 2
            with board.lock:
                assert not board.session.linked  # nothing reached it


def test_a_soak_over_ports_that_echo_loses_and_repeats_nothing() -> None:
    # Each end reads back every frame it sends besides its peer's, with the soak's damage.
    faults = Faults(corrupt=0.01, drop=0.01, echo="added")
    result = soak(events=400, faults=faults, seed=5, timeout=300)  # bounds a hang only
    assert not result.timed_out
    assert result.events == 400
    assert (result.lost, result.stalled, result.duplicated, result.out_of_order) == (0, 0, 0, 0)
    assert result.digest_mismatches == 0
    assert result.faults.echoed_frames > 400
    assert result.echoes > 0 and result.board_refused > 0  # refused, never applied
