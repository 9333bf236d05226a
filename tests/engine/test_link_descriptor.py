"""The ruleset descriptor on the link (docs/protocol.md, DESCRIPTOR): the host describes its
game once per link, before its first snapshot, reliably; the board checks it like a state,
refuses snapshots it cannot show under it, asks while it has none, and keeps the last one
untethered. The same tests run on the MicroPython VM."""

from linkcheck import Table

from shared import codec, descriptor, host_only, roster
from shared import events as ev
from shared.descriptor_pack import counter, encoded, pack
from shared.host_only import make_event
from shared.link import framing
from shared.link import messages as m
from shared.link.digest import state_digest
from shared.reference import build_reference_descriptor
from shared.state import GameState

OTHER = pack("other", 2, counters=(counter("a", 9), counter("b", 9)))


def _frame(mtype, body=b"", seq=0, ack=0xFF):
    return host_only.frame(bytes((mtype, seq, ack)) + body)


def _types(wire_frames):
    """A recorder for Wire.rewrite: the message type of each frame the wire carries, and
    for an ERROR (type, code)."""

    def record(frame):
        payload = bytearray(frame[:-1])
        n = framing.cobs_decode_in_place(payload, len(payload))
        if n > 2:
            mtype = payload[0] & ~m.FROM_BOARD  # either direction
            wire_frames.append((mtype, payload[3]) if mtype == m.ERROR else mtype)
        return frame

    return record


ASKS = (m.ERROR, m.E_NO_DESCRIPTOR)


def _fresh_board_table():
    """A table whose board has just booted: an empty state and the default descriptor."""
    table = Table()
    table.board.state.reset()
    table.board.state.rules.load(descriptor.DEFAULT, 0, len(descriptor.DEFAULT))
    return table


def _linked_without_host(table):
    """Link the board by hand (a host HELLO ACCEPT), with the host kept off the cable."""
    table.board.poll(table.now)
    hello = bytearray(m.HEADER + m.HELLO_BODY)
    m.pack_hello(hello, 0xFF, 0xFF, m.ROLE_HOST, m.HELLO_ACCEPT, 0, 1, 0, 0, 0, 0, 0, 0)
    table.down.inject(host_only.frame(bytes(hello)))
    table.board.poll(table.now)
    assert table.board.linked and not table.board.described


def test_the_host_describes_its_game_before_its_first_snapshot():
    table = _fresh_board_table()
    sent = []
    table.down.rewrite = _types(sent)
    assert table.settle()
    assert table.board.described and table.board.descriptors == 1
    assert encoded(table.board.state.rules) == build_reference_descriptor()
    sequenced = [t for t in sent if t in (m.DESCRIPTOR, m.SNAPSHOT)]
    assert sequenced[0] == m.DESCRIPTOR and m.SNAPSHOT in sequenced
    assert state_digest(table.board.state) == state_digest(table.host.state)


def test_a_lost_descriptor_is_sent_again_and_the_snapshot_waits_for_it():
    table = _fresh_board_table()
    dropped = []

    def drop_first_descriptor(frame):
        payload = bytearray(frame[:-1])
        n = framing.cobs_decode_in_place(payload, len(payload))
        if n > 2 and payload[0] == m.DESCRIPTOR and not dropped:
            dropped.append(frame)
            return b""
        return frame

    table.down.rewrite = drop_first_descriptor
    assert table.settle()
    assert dropped and table.board.described
    assert table.host.descriptors_sent >= 2
    assert state_digest(table.board.state) == state_digest(table.host.state)


def test_a_snapshot_before_any_descriptor_is_refused_and_the_board_asks():
    table = _fresh_board_table()
    _linked_without_host(table)
    version = table.board.state.version
    refusals = []
    table.up.rewrite = _types(refusals)
    table.down.inject(_frame(m.SNAPSHOT, codec.encode(table.host.state), seq=0))
    table.board.poll(table.now)
    assert refusals == [ASKS]
    assert table.board.state.count == 0 and table.board.state.version == version
    asked = []
    table.up.rewrite = _types(asked)
    table.down.inject(_frame(m.PING, b"\x00\x00\x00\x00\x00"))  # a heartbeat: asks again
    table.board.poll(table.now)
    assert asked.count(ASKS) == 1


def test_a_board_with_no_descriptor_keeps_asking_and_the_host_keeps_describing():
    table = _fresh_board_table()
    from_board = []

    def swallow_descriptors(frame):
        payload = bytearray(frame[:-1])
        n = framing.cobs_decode_in_place(payload, len(payload))
        return b"" if n > 2 and payload[0] == m.DESCRIPTOR else frame

    table.down.rewrite = swallow_descriptors
    table.up.rewrite = _types(from_board)
    table.run(4000)
    assert table.board.linked and not table.board.described
    assert from_board.count(ASKS) >= 2  # with each heartbeat
    assert table.host.descriptors_sent >= 3
    assert table.board.state.count == 0  # no snapshot was taken meanwhile
    table.down.rewrite = None
    assert table.settle(5000)
    assert table.board.described


def test_a_bad_descriptor_is_counted_refused_and_the_last_good_one_kept():
    table = _fresh_board_table()
    _linked_without_host(table)
    good = encoded(table.board.state.rules)
    bad = bytearray(build_reference_descriptor())
    bad[0] = 99  # another descriptor version
    problems = table.board.bad_messages
    table.down.inject(_frame(m.DESCRIPTOR, bytes(bad), seq=0))
    table.board.poll(table.now)
    assert table.board.bad_messages == problems + 1
    assert encoded(table.board.state.rules) == good and not table.board.described
    table.down.inject(_frame(m.DESCRIPTOR, OTHER, seq=0))  # the resend, intact
    table.board.poll(table.now)
    assert table.board.described and encoded(table.board.state.rules) == OTHER


def test_a_snapshot_of_another_ruleset_than_the_descriptor_is_refused():
    table = Table()
    assert table.settle()
    board = table.board
    state = GameState()
    roster.copy_state(state, board.state)
    state.ruleset = 2
    problems = board.bad_messages
    version = board.state.version
    table.down.inject(_frame(m.SNAPSHOT, codec.encode(state), seq=table.board.rx_next))
    board.poll(table.now)
    assert board.bad_messages == problems + 1
    assert board.state.ruleset == 1 and board.state.version == version


def test_the_host_never_sends_a_state_that_does_not_fit_its_own_rules():
    table = Table()
    assert table.settle()
    table.host.state.ruleset = 2
    table.host.state_changed()
    table.run(200)
    assert "ruleset 2" in table.host.error_text
    assert table.board.state.ruleset == 1


def test_the_host_describes_again_when_its_rules_change():
    table = Table()
    assert table.settle()
    host = table.host.state
    host.reset()
    host.rules.load(OTHER, 0, len(OTHER))
    host.ruleset = 2
    host.phase_count = 1
    roster.add_slot(host, "New", 0, 1, 2, 5)
    table.host.state_changed()
    assert table.settle()
    assert encoded(table.board.state.rules) == OTHER
    assert table.board.state.ruleset == 2 and table.board.state.count == 1


def test_untethered_the_board_keeps_the_last_descriptor_and_plays_by_it():
    table = _fresh_board_table()
    assert table.settle()
    table.plug(False)
    table.run(4000)
    assert not table.board.linked
    state = table.board.state
    assert encoded(state.rules) == build_reference_descriptor()
    following = state.order[state.turn + 1]
    slot = state.slots[following]
    for k in range(len(slot.counters)):
        slot.counters[k] = 0
    slot.flags &= 7  # no marks
    state.add_counter(slot, 0, 1)  # the reference's counter that drains the allowance
    assert table.board.submit_record(table.now, make_event(ev.NEXT_TURN)) == 1  # ACCEPTED
    assert state.active == following
    assert slot.actions == slot.actions_max - 1


def test_a_host_that_adopts_the_boards_state_adopts_its_rules_too():
    table = Table(host_state=None)
    sent = []
    table.down.rewrite = _types(sent)
    table.run(500)
    assert table.host.state is not None and table.board.described
    assert m.DESCRIPTOR not in sent
    assert encoded(table.board.state.rules) == build_reference_descriptor()


def test_a_descriptor_resent_later_acknowledges_the_events_applied_since():
    # A descriptor goes on being resent until the board has it, while the board's events
    # keep coming: an ack as old as the first send would, 256 events later, read as an ack
    # of events the host never applied (the board would drop them from its journal).
    table = _fresh_board_table()
    acks = []

    def swallow_descriptors(frame):
        payload = bytearray(frame[:-1])
        n = framing.cobs_decode_in_place(payload, len(payload))
        if n > 2 and payload[0] == m.DESCRIPTOR:
            acks.append(payload[2])
            return b""
        return frame

    table.down.rewrite = swallow_descriptors
    table.run(200)
    first = acks[-1]
    for _ in range(12):  # the board's table is empty: chance flips are what it can play
        table.board.submit_record(table.now, make_event(ev.CHANCE, 255, 0, (1,)))
        table.run(100)
    table.run(1000)  # at least one more resend
    assert table.host.events_applied == 12
    assert acks[-1] == (table.host.rx_next - 1) & 0xFF != first
