"""The link's reliability (shared/link/board.py and host.py) on an in-memory cable with a
fake clock: handshake, exactly-once delivery, retransmission, the offline journal,
resynchronisation and the errors. The same tests run on the MicroPython VM."""

from linkcheck import End, Table
from vmcheck import snapshot

from host.rulesets.korxsol.device import BURN, FROST
from shared import codec, dice, host_only, roster, turns
from shared import events as ev
from shared.host_only import make_event
from shared.link import board as b
from shared.link import framing
from shared.link import messages as m
from shared.link.digest import state_digest
from shared.link.framing import WINDOW
from shared.link.host import ECHO_TEXT, HostSession
from shared.reference import build_reference_state

ROLL = make_event(ev.ROLL_ACTION, 0, dice.KIND_ACTION_D3, (3, 1, 2, 3, 3, 2))
NEXT = make_event(ev.NEXT_TURN)


def _press(table, record):
    return table.board.submit_record(table.now, record)


def _agree(table):
    return state_digest(table.board.state) == state_digest(table.host.state)


def test_the_board_and_host_link_after_the_hello_exchange():
    table = Table()
    table.run(100)
    assert table.board.linked and table.host.linked
    assert table.host.board.profile_name() == "simulated"
    assert table.host.board.grid_w == 8 and table.host.board.grid_h == 4


def test_a_press_reaches_the_host_exactly_once_and_leaves_the_journal():
    table = Table()
    table.run(100)
    assert _press(table, ROLL) == b.ACCEPTED
    assert _press(table, NEXT) == b.ACCEPTED
    assert table.settle()
    assert table.applied == [ROLL, NEXT]
    assert table.board.journal.count == 0
    assert _agree(table)


def test_a_roll_shows_on_the_board_before_the_host_answers():
    table = Table()
    table.run(100)
    _press(table, ROLL)
    assert bytes(table.board.state.roll.faces[:6]) == bytes((3, 1, 2, 3, 3, 2))
    assert table.applied == []  # nothing has crossed the cable yet


def test_a_lost_event_is_sent_again_after_the_timeout():
    table = Table()
    table.run(100)
    table.up.drop_next_frames = 1
    _press(table, ROLL)
    assert table.settle()
    assert table.applied == [ROLL]
    assert table.board.retransmits >= 1


def test_a_hole_is_reported_and_filled_without_waiting_for_the_timeout():
    table = Table()
    table.run(100)
    table.up.drop_next_frames = 1
    _press(table, ROLL)
    _press(table, NEXT)  # arrives past the hole: the host answers ACK GAP
    table.run(10)
    assert table.host.out_of_order == 1
    table.run(10)
    assert table.applied == [ROLL, NEXT]


def test_a_repeated_event_is_applied_once():
    table = Table()
    table.run(100)
    table.up.repeat_next_frames = 1
    _press(table, NEXT)
    assert table.settle()
    assert table.applied == [NEXT]
    assert table.host.duplicates == 1


def test_offline_presses_are_journalled_and_replayed_in_order_on_reconnect():
    table = Table()
    table.run(100)
    table.plug(False)
    table.run(4000)  # the link times out on both ends
    assert not table.board.linked and not table.host.linked
    presses = [NEXT, ROLL, make_event(ev.COUNTER_UP, 3, FROST), NEXT]
    for record in presses:
        assert _press(table, record) == b.ACCEPTED
    assert table.board.journal.count == 4
    table.plug(True)
    assert table.settle(5000)
    assert table.applied == presses
    assert _agree(table)


def test_a_full_journal_refuses_new_presses_and_keeps_the_old_ones():
    table = Table(journal_events=5)
    table.plug(False)
    for _ in range(5):
        assert _press(table, NEXT) == b.ACCEPTED
    before = snapshot(table.board.state)
    assert _press(table, ROLL) == b.JOURNAL_FULL
    assert snapshot(table.board.state) == before  # a refused press changes nothing
    assert table.board.journal.refused == 1
    table.plug(True)
    assert table.settle(5000)
    assert table.applied == [NEXT] * 5
    assert table.host.board_refused == 1  # the host hears that a press was refused


def test_an_invalid_press_is_refused_locally_and_never_sent():
    table = Table()
    table.run(100)
    assert _press(table, make_event(ev.COUNTER_UP, 7, BURN)) == b.ACCEPTED
    assert _press(table, make_event(ev.COUNTER_UP, 9, BURN)) == b.INVALID
    assert "slot 9" in table.board.last_refusal
    assert table.settle()
    assert table.applied == [make_event(ev.COUNTER_UP, 7, BURN)]


def test_a_digest_mismatch_in_a_heartbeat_triggers_a_resync():
    table = Table()
    table.run(100)
    assert table.settle()
    table.board.state.slots[0].health = 1  # the board's state drifts without an event
    assert not _agree(table)
    table.run(2500)  # at least one heartbeat
    assert table.host.digest_mismatches == 1 and table.host.resyncs == 1
    assert _agree(table)


def _hello_frame(role, version):
    hello = bytearray(framing.MAX_PAYLOAD + 2)
    flags = m.HELLO_ACCEPT if role == m.ROLE_HOST else 0
    n = m.pack_hello(hello, 0, 0, role, flags, 0, 1, 0, 8, 4, 0, 0, 1)
    hello[m.HEADER] = version
    return host_only.frame(bytes(hello[:n]))


def test_a_board_speaking_another_protocol_version_gets_a_clear_error_on_the_host():
    table = Table()
    table.up.inject(_hello_frame(m.ROLE_BOARD, m.PROTOCOL_VERSION + 1))
    table.host.poll(table.now)
    assert table.host.error_code == m.E_VERSION and not table.host.linked
    text = table.host.error_text
    assert "protocol %d" % (m.PROTOCOL_VERSION + 1) in text
    assert "speaks %d" % m.PROTOCOL_VERSION in text
    # The host tells the board too: ERROR E_VERSION with its own version.
    decoder = framing.FrameDecoder()
    wire = bytes(table.down.data)
    errors = []
    pos = 0
    while pos < len(wire):
        pos = decoder.feed(wire, pos, len(wire))
        if decoder.length and decoder.buf[0] == m.ERROR:
            errors.append((decoder.buf[m.HEADER], decoder.buf[m.HEADER + 1]))
    assert errors == [(m.E_VERSION, m.PROTOCOL_VERSION)]


def test_a_host_speaking_another_protocol_version_stops_the_board_linking():
    table = Table()
    table.plug(False)  # only the other host's HELLO reaches the board
    table.down.inject(_hello_frame(m.ROLE_HOST, m.PROTOCOL_VERSION + 1))
    assert table.board.poll(table.now) & 4  # board.py's _POLL_ERROR
    assert table.board.error == m.E_VERSION and not table.board.linked
    sent = table.board.frames_sent
    table.run(2000)
    assert table.board.frames_sent == sent  # no HELLOs to a host it cannot talk to


def _version_shift(delta):
    """A translator for one direction of the cable: HELLO's version byte and ERROR
    E_VERSION's detail move by `delta`, so the board on the other end speaks another
    protocol version (+1 on the way out, -1 on the way in) with its real code."""
    decoder = framing.FrameDecoder()

    def rewrite(frame):
        decoder.feed(frame, 0, len(frame))
        n = decoder.length
        if not n:
            return frame  # a lone delimiter, or a frame the decoder dropped
        payload = bytearray(decoder.buf[:n])
        mtype = payload[0] & ~m.FROM_BOARD
        if mtype == m.HELLO and n > m.HEADER:
            payload[m.HEADER] = (payload[m.HEADER] + delta) & 0xFF
        elif mtype == m.ERROR and n > m.HEADER + 1 and payload[m.HEADER] == m.E_VERSION:
            payload[m.HEADER + 1] = (payload[m.HEADER + 1] + delta) & 0xFF
        else:
            return frame
        return host_only.frame(bytes(payload))

    return rewrite


def test_a_board_on_another_protocol_version_is_named_on_the_host_without_a_flood():
    # Twice: the board's first HELLO reaching the host, and lost (the host's probe then
    # reaches the board first, and the host hears of the mismatch only by ERROR).
    for first_hello_lost in (False, True):
        table = Table()
        table.up.rewrite = _version_shift(1)  # the board speaks PROTOCOL_VERSION + 1
        table.down.rewrite = _version_shift(-1)
        if first_hello_lost:
            table.up.drop_next_frames = 1
        table.run(3000)
        host = table.host
        assert host.error_code == m.E_VERSION and not host.linked, first_hello_lost
        assert "protocol %d" % (m.PROTOCOL_VERSION + 1) in host.error_text
        assert "update the host" in host.error_text
        assert table.board.error == m.E_VERSION and not table.board.linked
        # A handful of frames in 3 s, not a HELLO/ERROR exchange at every step.
        assert table.up.frames <= 8, table.up.frames
        assert table.down.frames <= 8, table.down.frames


def _plain_hello(role, version):
    """A HELLO as boards and hosts before version 4 sent it: no direction bit."""
    hello = bytearray(framing.MAX_PAYLOAD + 2)
    n = m.pack_hello(hello, 0, 0, role, 0, 0, 1, 0, 8, 4, 0, 0, 1)
    hello[0] = m.HELLO
    hello[m.HEADER] = version
    return host_only.frame(bytes(hello[: n - 4]))  # and the 13-byte body of version 3


def test_a_board_from_before_the_direction_bit_still_gets_the_clear_version_error():
    # Versions 1 to 3 set no direction bit: a host must still read an old board's HELLO
    # and its ERROR E_VERSION, and name the version instead of taking them for echoes.
    old = m.PROTOCOL_VERSION - 1
    for frame in (_plain_hello(m.ROLE_BOARD, old), _frame(m.ERROR, bytes((m.E_VERSION, old)))):
        table = Table()
        table.up.inject(frame)
        table.host.poll(table.now)
        assert table.host.error_code == m.E_VERSION and not table.host.linked
        assert "the board speaks link protocol %d" % old in table.host.error_text
        assert "update the board firmware" in table.host.error_text
        assert table.host.echoes == 0


def test_a_host_from_before_the_direction_bit_hears_the_version_error_it_can_read():
    # The board answers an old host's probe with ERROR E_VERSION in the plain type 7,
    # which every version reads (its own frames carry FROM_BOARD).
    table = Table()
    table.down.inject(_plain_hello(m.ROLE_HOST, m.PROTOCOL_VERSION - 1))
    table.board.poll(table.now)  # the host is not polled: what the board sent stays put
    assert table.board.error == m.E_VERSION
    decoder = framing.FrameDecoder()
    wire = bytes(table.up.data)
    decoder.feed(wire, 0, len(wire))
    payload = bytes(decoder.buf[: decoder.length])
    assert payload[0] == m.ERROR  # not ERROR | FROM_BOARD
    assert payload[m.HEADER :] == bytes((m.E_VERSION, m.PROTOCOL_VERSION))


def test_a_host_on_a_port_that_echoes_applies_none_of_its_own_frames_and_says_why():
    # issue 17: the board's REPL console opened by mistake echoes every byte back.
    table = Table()
    table.plug(False)  # no board behind the port: only the echo comes back
    table.down.echo_to = table.up
    state = codec.encode(table.host.state)
    table.host.state_changed()
    for _ in range(600):  # 3 s: probes, backing off
        table.host.poll(table.now)
        table.now += 5
    host = table.host
    assert host.echoes >= 3 and host.handshakes == 0 and not host.linked
    assert host.error_text == ECHO_TEXT
    assert host.events_applied == 0 and codec.encode(host.state) == state


def test_a_board_that_reads_its_own_ack_back_forgets_no_event():
    # The board's ACK carries its ack of the host's numbers; read back as the host's, it
    # would cover the board's own events of the same numbers, never delivered.
    table = Table()
    table.run(100)
    assert table.settle()
    table.up.plugged = False  # the presses do not reach the host ...
    table.up.echo_to = table.down  # ... and the board's port echoes
    presses = [NEXT, ROLL, NEXT, ROLL, NEXT]
    for record in presses:
        _press(table, record)
    assert m.seq_diff(table.board.rx_next - 1, table.board.journal.seq(0)) >= 0
    table.board._ack_due = True  # as after a repeated snapshot: an ACK ends the next poll
    table.board.poll(table.now)
    table.board.poll(table.now)  # and this one reads it back
    assert table.board.journal.count == len(presses)
    table.up.plugged = True
    table.up.echo_to = None
    assert table.settle(10000)
    assert table.applied == presses
    assert _agree(table)


def test_a_link_over_ports_that_echo_loses_and_repeats_nothing():
    # Both ends read back every frame they send, besides their peer's. A board that took
    # its own ACK for the host's forgot events the host never had; a host that took its own
    # ACK for the board's called every frame a contradiction and relinked.
    table = Table()
    table.up.echo_to = table.down
    table.down.echo_to = table.up
    table.run(100)
    assert table.board.linked and table.host.linked
    presses = []
    for i in range(48):  # a VM's heap holds the wires' bytes
        record = ROLL if i % 3 else NEXT
        presses.append(record)
        _press(table, record)
        if i % 7 == 0:
            table.up.drop_next_frames = 1
        table.run(10)
    assert table.settle(10000)
    assert table.applied == presses
    assert _agree(table)
    assert table.host.relinks == 0 and table.host.echoes > 0 and table.host.error_text == ""
    assert table.board.bad_messages > 0  # its own frames, refused


BOARD_EVENT = m.EVENT | m.FROM_BOARD  # an EVENT as a board sends it


def _frame(mtype, body=b"", seq=0, ack=0xFF):
    return host_only.frame(bytes((mtype, seq, ack)) + body)


def test_input_the_board_cannot_use_counts_as_a_problem():
    # Every frame here has a good CRC: the board's problem count (bad_messages, which the
    # firmware shows on its problem cell) is the only trace they leave.
    unusable = (
        _frame(0x42, b"\x01\x02"),  # an unknown message type
        _frame(m.EVENT, make_event(ev.NEXT_TURN)),  # hosts send no events
        _frame(m.PONG, b"\x00\x00\x00\x00\x00"),  # nor PONGs
        _frame(m.ERROR, bytes((9, 0))),  # an unknown error code
        _frame(m.ERROR, bytes((m.E_JOURNAL_FULL, 3))),  # a board's error, not a host's
        _frame(m.ERROR, bytes((m.E_VERSION, m.PROTOCOL_VERSION))),  # "you speak mine"?
        _hello_frame(m.ROLE_BOARD, m.PROTOCOL_VERSION),  # another board's HELLO
        _hello_frame(7, m.PROTOCOL_VERSION),  # no such role
    )
    for linked in (False, True):
        table = Table()
        if linked:
            table.run(100)
        assert table.board.linked == linked
        for i in range(len(unusable)):
            before = table.board.bad_messages
            table.down.inject(unusable[i])
            table.board.poll(table.now)
            assert table.board.bad_messages == before + 1, (linked, i)
        assert table.board.error == 0
    # ...and the link still works afterwards.
    _press(table, NEXT)
    assert table.settle()
    assert table.applied == [NEXT]


def test_a_snapshot_that_fails_late_in_decoding_leaves_the_last_good_state_whole():
    # Both snapshots pass the CRC and are refused by the codec only after it has written
    # the slots into the board's state: the board must put its last good state back.
    table = Table()
    table.run(100)
    other = build_reference_state()
    turns.end_turn(other)
    other.scores[0] = 99
    stray = codec.encode(other) + b"\x00"  # a stray byte at the end
    other.order[1] = other.order[0]
    twice = codec.encode(other)  # a turn order that names a slot twice
    for body in (stray, twice):
        before = snapshot(table.board.state)
        version = table.board.state.version
        bad = table.board.bad_messages
        table.down.inject(_frame(m.SNAPSHOT, body, table.board.rx_next))
        table.board.poll(table.now)
        assert table.board.bad_messages == bad + 1
        assert snapshot(table.board.state) == before
        assert table.board.state.version == version
    _press(table, NEXT)  # and the link still works afterwards
    assert table.settle()
    assert table.applied == [NEXT]
    assert _agree(table)


def test_input_the_host_cannot_use_counts_as_a_bad_message():
    unusable = (
        _frame(0x42, b"\x01\x02"),
        _frame(m.PING, b"\x00\x00\x00\x00\x00"),  # boards send no PINGs
        _frame(m.ERROR, bytes((9, 0))),
        _frame(m.ERROR, bytes((m.E_REJECTED, 0))),  # a host's error, not a board's
        _hello_frame(m.ROLE_HOST, m.PROTOCOL_VERSION),  # another host's HELLO
    )
    for linked in (False, True):
        table = Table()
        if linked:
            table.run(100)
        for i in range(len(unusable)):
            before = table.host.bad_messages
            table.up.inject(unusable[i])
            table.host.poll(table.now)
            assert table.host.bad_messages == before + 1, (linked, i)
        assert table.host.error_code == 0
    _press(table, NEXT)
    assert table.settle()
    assert table.applied == [NEXT]


def test_an_event_far_ahead_is_not_held_and_the_link_stays_quiet():
    # A real board sends at most WINDOW events past the one the host expects. A stray
    # well-formed EVENT WINDOW or more ahead (a damaged frame that passed the CRC) used to
    # wait in the host's buffer forever: never quiet again, every ACK a GAP, and the stray
    # applied in place of the board's event once the count reached it.
    table = Table()
    table.run(100)
    before = table.host.bad_messages
    table.up.inject(_frame(BOARD_EVENT, make_event(ev.RESET), seq=table.host.rx_next + WINDOW))
    table.run(20)
    assert table.host.bad_messages == before + 1
    assert not table.host._pending
    presses = [NEXT] * (WINDOW + 4)  # the count passes the stray's number
    for record in presses:
        _press(table, record)
        table.run(10)
    assert table.settle()
    assert table.applied == presses
    assert _agree(table)


def test_a_stray_event_just_ahead_is_dropped_once_the_board_shows_it_never_sent_it():
    table = Table()
    table.run(100)
    table.up.inject(_frame(BOARD_EVENT, make_event(ev.RESET), seq=table.host.rx_next + 3))
    table.run(10)
    assert table.host._pending  # held: it could be an event past a hole
    assert table.settle(3000)  # the board's next PONG says its last seq is before it
    assert not table.host._pending
    presses = [NEXT, ROLL, NEXT, NEXT, ROLL]
    for record in presses:
        _press(table, record)
    assert table.settle()
    assert table.applied == presses
    assert _agree(table)


def test_a_malformed_event_with_the_expected_number_does_not_take_its_place():
    table = Table()
    table.run(100)
    # Code 0 is no event: the host used to "apply" it (the rules refused it) and count
    # the number as done, so the board's real press with that number was ignored.
    table.up.inject(_frame(BOARD_EVENT, b"\x00\xff\x00\x00", seq=table.host.rx_next))
    table.up.inject(_frame(BOARD_EVENT, b"\x01\xff\x00\x02\x01\x01", seq=table.host.rx_next))
    table.run(10)
    assert table.host.bad_messages == 2 and table.host.events_rejected == 0
    _press(table, NEXT)
    assert table.settle()
    assert table.applied == [NEXT]


def test_a_well_formed_stray_with_the_expected_number_costs_a_handshake_not_a_press():
    # Nothing tells a stray EVENT with the very number the host expects from the board's
    # own: it is applied. The board then hears an ack for a number it never assigned, both
    # go back to the handshake, and the board's next press is applied, not taken for a
    # repeat of the stray.
    table = Table()
    table.run(100)
    table.up.inject(
        _frame(BOARD_EVENT, make_event(ev.COUNTER_UP, 4, FROST), seq=table.host.rx_next)
    )
    assert table.settle(5000)
    assert table.applied == [make_event(ev.COUNTER_UP, 4, FROST)]
    assert table.board.bad_messages >= 1 or table.host.relinks >= 1
    _press(table, NEXT)
    assert table.settle()
    assert table.applied == [make_event(ev.COUNTER_UP, 4, FROST), NEXT]
    assert _agree(table)


def test_the_board_refuses_a_malformed_record_it_could_never_deliver():
    table = Table()
    assert _press(table, b"\x01\xff\x00\x01\x03") == b.INVALID  # next turn with a face
    assert "carries no faces" in table.board.last_refusal
    assert _press(table, b"\x03\x00\x07\x01\x02") == b.INVALID  # no dice kind 7
    assert "D3 or D6" in table.board.last_refusal
    assert table.board.journal.count == 0


def test_a_host_restarted_from_its_resume_point_applies_nothing_twice():
    table = Table()
    table.run(100)
    saved = []

    def applier(state, record):
        ev.apply_event(state, record)
        saved.append(table.host.resume_point())  # what a host commits with the event

    table.host.applier = applier
    _press(table, NEXT)
    table.down.plugged = False  # the host's ack never reaches the board
    table.run(50)
    assert table.applied == [NEXT] and table.board.journal.count == 1
    assert saved == [(7, table.board.tx_next)]  # the nonce, and past the event
    # The host dies; a new one starts from the saved point with the state it had.
    state = build_reference_state()
    roster.copy_state(state, table.host.state)
    table.host = HostSession(End(table.up, table.down), state, None, table._record, table.now)
    assert table.host.resume_point() is None
    table.host.restore(saved[-1])
    table.down.plugged = True
    assert table.settle()
    assert table.applied == [NEXT]  # the board resent it; the new host knew it had it
    assert table.board.journal.count == 0
    _press(table, NEXT)
    assert table.settle()
    assert table.applied == [NEXT, NEXT]
    assert _agree(table)


def test_a_host_without_state_adopts_the_boards_state():
    table = Table(host_state=None)
    table.plug(False)
    _press(table, NEXT)
    _press(table, ROLL)
    table.plug(True)
    assert table.settle(5000)
    assert table.host.state is not None
    assert _agree(table)
    assert table.applied == []  # the board's state already holds those presses


def test_a_restarted_board_has_its_new_journal_replayed():
    table = Table()
    table.run(100)
    _press(table, NEXT)
    assert table.settle()
    table.plug(False)
    table.restart_board(nonce=99)  # new nonce, sequence numbers start again at 0
    _press(table, ROLL)  # played before the host hears the new board
    table.plug(True)
    assert table.settle(5000)
    assert table.applied == [NEXT, ROLL]
    assert _agree(table)


def test_events_the_host_refuses_are_reported_back_to_the_board():
    def refuse_rolls(state, record):
        if record[0] == ev.ROLL_ACTION:
            raise ev.EventError("the desktop says no")
        return ev.apply_event(state, record)

    table = Table(applier=refuse_rolls)
    table.run(100)
    _press(table, ROLL)
    assert table.settle()
    assert table.board.rejected == 1
    assert table.refused and table.refused[0][1] == "the desktop says no"
    assert _agree(table)  # the host's snapshot took the roll back off the board


def test_an_applier_that_crashes_refuses_the_event_instead_of_stalling_the_link():
    def broken(state, record):
        raise RuntimeError("bug")

    table = Table(applier=broken)
    table.run(100)
    _press(table, NEXT)
    _press(table, NEXT)
    assert table.settle()
    assert len(table.refused) == 2 and "RuntimeError: bug" in table.refused[0][1]
    assert _agree(table)


def test_undo_on_the_board_is_undone_by_the_host_too():
    for undo in (True, False):  # with or without the board's own one-level undo
        table = Table(undo=undo)
        table.run(100)
        before = snapshot(table.host.state)
        _press(table, NEXT)
        _press(table, make_event(ev.UNDO))
        assert table.settle()
        assert table.applied == [NEXT, make_event(ev.UNDO)]
        assert snapshot(table.host.state)[3:] == before[3:]  # all but the version
        assert _agree(table)


def test_the_host_never_runs_more_than_a_window_of_snapshots_ahead_of_the_board():
    table = Table()
    table.run(100)
    table.down.plugged = False  # the board hears nothing; the host still hears the board
    for i in range(200):  # 200 seqs ahead would read as 56 behind
        table.host.state.scores[0] = i
        table.host.state_changed()
        table.run(5)
    assert m.seq_diff(table.host.tx_next, table.host._board_ack) <= 64
    table.down.plugged = True
    table.host.state_changed()
    assert table.settle()
    assert table.board.state.scores[0] == 199
    assert _agree(table)


def test_garbage_on_the_line_is_dropped_and_the_link_keeps_working():
    table = Table()
    table.run(100)
    table.up.inject(b"\x11\x22\x00\xff\xfe\xfd" * 30 + b"\x00")
    table.down.inject(b"\x07" * 400 + b"\x00")
    _press(table, NEXT)
    assert table.settle()
    assert table.applied == [NEXT]
    assert table.host.dropped_frames() >= 1 and table.board.dropped_frames() >= 1


def test_the_desktop_changing_the_state_reaches_the_board():
    table = Table()
    table.run(100)
    table.host.state.scores[1] = 42
    table.host.state.touch()
    table.host.state_changed()
    table.run(100)
    assert table.board.state.scores[1] == 42
