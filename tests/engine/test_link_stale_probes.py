"""Probes that wait in the board's input while it starts (docs/protocol.md, Handshake): the
board answers each with a HELLO, and the host, already linked by the first, takes the others
for what they are, repeats of what it knows: one handshake and one descriptor per link. The
link still recovers from an ACCEPT that is really lost and from a board that resets. The same
tests run on the MicroPython VM."""

from linkcheck import Table

from shared import events as ev
from shared import host_only
from shared.host_only import make_event
from shared.link import framing
from shared.link import messages as m
from shared.link.digest import state_digest

NEXT = make_event(ev.NEXT_TURN)


def _agree(table):
    return state_digest(table.board.state) == state_digest(table.host.state)


def _host_alone(table, probes):
    """The board is compiling code.py: only the host runs, until `probes` of its HELLO
    probes wait unread in the board's input."""
    sent = table.down.frames
    while table.down.frames - sent < probes:
        table.host.poll(table.now)
        table.now += 5
    assert not table.host.linked


def _drop_first_accept(table):
    """Lose the host's first HELLO ACCEPT on its way to the board; returns a list that
    holds True once one was lost."""
    lost = []

    def rewrite(frame):
        payload = bytearray(frame[:-1])
        n = framing.cobs_decode_in_place(payload, len(payload))
        if (
            not lost
            and n > m.HEADER + 2
            and payload[0] == m.HELLO
            and payload[m.HEADER + 2] & m.HELLO_ACCEPT
        ):
            lost.append(True)
            return b"\x00"
        return frame

    table.down.rewrite = rewrite
    return lost


def test_probes_queued_before_the_board_starts_give_one_handshake_and_one_descriptor():
    # 12 probes are more than the board reads in one poll (256 bytes).
    for probes in (6, 1, 2, 12):
        table = Table()
        _host_alone(table, probes)
        assert table.settle(5000), probes
        host = table.host
        assert (host.handshakes, host.descriptors_sent, table.board.descriptors) == (1, 1, 1), (
            probes,
            host.handshakes,
            host.descriptors_sent,
            table.board.descriptors,
        )
        assert host.accepts_repeated == probes - 1  # the board answered every probe
        assert table.board.linked and table.board.described and _agree(table)


def test_a_repeated_accept_leaves_a_linked_board_its_descriptor_and_numbers():
    table = Table()
    assert table.settle()
    board = table.board
    accept = bytearray(m.HEADER + m.HELLO_BODY)
    m.pack_hello(
        accept,
        (table.host.tx_next - 2) & 0xFF,  # before the descriptor and snapshot it took
        0xFF,
        m.ROLE_HOST,
        m.HELLO_ACCEPT,
        0,
        1,
        0,
        0,
        0,
        0,
        0,
        0,
    )
    rx_next = board.rx_next
    table.down.inject(host_only.frame(bytes(accept)))
    board.poll(table.now)
    assert board.linked and board.described
    assert board.rx_next == rx_next
    assert table.settle()
    assert table.host.handshakes == 1 and table.host.descriptors_sent == 1


def test_a_lost_accept_still_links_with_one_handshake():
    for probes in (1, 6):
        table = Table()
        lost = _drop_first_accept(table)
        _host_alone(table, probes)
        assert table.settle(5000), probes
        assert lost == [True]
        host = table.host
        assert host.handshakes == 1 and host.accepts_repeated >= 1, probes
        assert table.board.linked and table.board.descriptors == 1 and _agree(table)


def test_a_host_without_state_whose_accept_is_lost_still_adopts_the_boards_state():
    table = Table(host_state=None)
    lost = _drop_first_accept(table)
    table.plug(False)
    table.board.submit_record(table.now, NEXT)
    table.plug(True)
    _host_alone(table, 3)
    assert table.settle(5000)
    assert lost == [True]
    assert table.host.state is not None and _agree(table)
    assert table.host.handshakes == 1
    assert table.applied == []  # the board's state already holds that press


def test_a_board_reset_during_play_while_the_host_probes_relinks_once():
    table = Table()
    table.board.submit_record(table.now, NEXT)
    assert table.settle()
    handshakes = table.host.handshakes
    described = table.host.descriptors_sent
    table.restart_board(nonce=99)
    # The new board compiles code.py while the host's pings, then (once the link times
    # out) its probes, wait in its input.
    while table.host.linked:
        table.host.poll(table.now)
        table.now += 5
    _host_alone(table, 4)
    assert table.settle(5000)
    host = table.host
    assert host.board_nonce == 99
    assert host.handshakes == handshakes + 1
    assert host.descriptors_sent == described + 1
    assert table.board.descriptors == 1 and _agree(table)
