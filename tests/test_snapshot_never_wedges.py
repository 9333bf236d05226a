"""A snapshot that passes the CRC but carries a state the board cannot keep (issue #19,
finding 1): the board keeps its last good state, counts it, and stays linked. The same for
a ruleset descriptor the board cannot take (issue #10)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from linkcheck import Table

from shared import codec, host_only
from shared import events as ev
from shared.descriptor_pack import encoded
from shared.host_only import make_event
from shared.link import board as b
from shared.link import messages as m
from shared.link.digest import state_digest
from shared.reference import build_reference_descriptor, build_reference_state
from shared.state import GameState


def out_of_range_score_state(monkeypatch: pytest.MonkeyPatch) -> bytes:
    """The reference state with a team score no 16-bit field holds, written by an encoder
    whose range check is lifted (a damaged frame or a broken host could send these bytes)."""
    state = build_reference_state()
    state.scores[0] = -69076
    with monkeypatch.context() as patch:
        patch.setattr(codec.limits, "MIN_SCORE", -(1 << 30))  # where the codec reads it
        return codec.encode(state)


def send_snapshot(table: Table, body: bytes, ack: int | None = None) -> None:
    """A SNAPSHOT frame the board takes as the next one, acknowledging through `ack` (by
    default everything the board has sent)."""
    board = table.board
    payload = bytearray(m.HEADER + len(body))
    ack = board.tx_next - 1 if ack is None else ack
    m.put_header(payload, m.SNAPSHOT, board.rx_next, ack)
    payload[m.HEADER :] = body
    table.down.inject(host_only.frame(bytes(payload)))


def test_decode_refuses_a_team_score_that_encode_refuses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = out_of_range_score_state(monkeypatch)
    with pytest.raises(codec.CodecError, match="score"):
        codec.decode(data, GameState())


def test_a_snapshot_with_an_out_of_range_score_leaves_the_board_linked_and_playing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = Table()
    table.run(200)
    assert table.board.linked and table.settle()
    before = state_digest(table.board.state)
    bad = table.board.bad_messages

    send_snapshot(table, out_of_range_score_state(monkeypatch))
    table.run(50)

    assert table.board.linked
    assert table.board.bad_messages == bad + 1
    assert state_digest(table.board.state) == before
    # It still answers the host and takes presses, which reach the host's rules.
    press = make_event(ev.NEXT_TURN)
    assert table.board.submit_record(table.now, press) == b.ACCEPTED
    assert table.settle()
    assert table.applied[-1] == press
    assert state_digest(table.board.state) == state_digest(table.host.state)
    # And a good snapshot after that is taken.
    taken = table.board.snapshots
    send_snapshot(table, codec.encode(table.host.state))
    table.run(50)
    assert table.board.snapshots > taken
    assert state_digest(table.board.state) == state_digest(table.host.state)


def test_a_failure_while_rebasing_a_snapshot_keeps_the_hosts_state_and_the_link(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Anything raised while the board applies its pending presses on top of a snapshot
    (past the rules' own checks) costs that snapshot's rebase, never the link."""
    table = Table()
    table.run(200)
    assert table.settle()
    table.plug(False)
    acked = table.board.tx_next - 1
    assert table.board.submit_record(table.now, make_event(ev.NEXT_TURN)) == b.ACCEPTED
    host_state = codec.encode(table.host.state)

    def broken_apply(state: GameState, record: bytes, undo: object = None) -> bool:
        raise RuntimeError("an unexpected fault")

    monkeypatch.setattr(ev, "apply_event", broken_apply)  # the board calls it as ev.apply_event
    send_snapshot(table, host_state, ack=acked)
    table.board.poll(table.now)

    assert codec.encode(table.board.state) == host_state
    assert table.board.journal.count == 1  # the press is still on its way to the host
    monkeypatch.undo()
    table.plug(True)
    assert table.settle()
    assert table.board.linked
    assert state_digest(table.board.state) == state_digest(table.host.state)


def send_descriptor(table: Table, body: bytes) -> None:
    """A DESCRIPTOR frame the board takes as the next sequenced one."""
    board = table.board
    payload = bytearray(m.HEADER + len(body))
    m.put_header(payload, m.DESCRIPTOR, board.rx_next, board.tx_next - 1)
    payload[m.HEADER :] = body
    table.down.inject(host_only.frame(bytes(payload)))


def test_a_descriptor_that_fails_the_check_is_counted_and_the_last_good_one_kept() -> None:
    table = Table()
    assert table.settle()
    rules = encoded(table.board.state.rules)
    bad = table.board.bad_messages
    broken = bytearray(rules)
    broken[3] = 0x99  # nine counters and nine marks (byte 3)
    send_descriptor(table, bytes(broken))
    table.run(50)
    assert table.board.linked and table.board.bad_messages == bad + 1
    assert encoded(table.board.state.rules) == rules
    press = make_event(ev.NEXT_TURN)
    assert table.board.submit_record(table.now, press) == b.ACCEPTED
    assert table.settle()
    assert state_digest(table.board.state) == state_digest(table.host.state)


@given(st.integers(0, 10_000), st.integers(1, 255))
@settings(max_examples=150, deadline=None)
def test_any_damaged_descriptor_never_wedges_the_board(where: int, flip: int) -> None:
    """A descriptor damaged anywhere that still passes the CRC: refused and counted, or (if
    it still describes some game) taken; either way the board stays linked, and a board
    described with another game asks again and ends up with the host's rules and state."""
    table = Table()
    assert table.settle()
    damaged = bytearray(build_reference_descriptor())
    damaged[where % len(damaged)] ^= flip
    send_descriptor(table, bytes(damaged))
    table.run(50)
    assert table.board.linked
    press = make_event(ev.NEXT_TURN)
    assert table.board.submit_record(table.now, press) == b.ACCEPTED
    assert table.settle(10000)
    assert table.applied[-1] == press
    assert state_digest(table.board.state) == state_digest(table.host.state)
