# The board's end of the link: play locally at once, journal, and reconcile with the host.
#
# Once linked, the host describes its game (a DESCRIPTOR: shared/descriptor.py) before its
# first snapshot; the board checks it, keeps it in `state.rules` (and keeps using it when the
# link is gone), and refuses a snapshot until it has one for this link (ERROR
# E_NO_DESCRIPTOR, repeated with each heartbeat) or when the snapshot does not fit it.
#
# Every press is applied to the board's state the moment it happens (`submit_record`) and kept in
# the journal until the host acknowledges it. While linked the journal's events go out as
# EVENT frames (a window of WINDOW in flight, retransmitted on timeout or when the host
# reports a hole). Each SNAPSHOT from the host replaces the board's state; the events the
# host had not yet seen are then applied again on top ("rebase"), so a roll shows at once and
# still ends up exactly as the host's rules have it.
#
# Without a host the board keeps playing and journalling; its HELLO repeats every _HELLO_MS.
# `poll(now_ms)` allocates nothing when no byte arrives and nothing is due.
#
# (Comments here, not docstrings: a board compiles this file, its largest compile after the
# app and the codec, and a docstring is a string the compile holds in the heap with the
# rest; without them the smallest heap code.py starts in is 4 KB less: docs/memory.md.)

from adafruit_ticks import ticks_add, ticks_diff

from shared import codec, descriptor
from shared import events as ev
from shared.compat import const
from shared.link import framing
from shared.link import messages as m

# (Modules, not their names: each name imported is a slot in this module's globals.)

_HELLO_MS = const(250)  # the board repeats its HELLO this often until a host accepts it

# -- the journal (here, not in a module of its own: a module costs the board's heap) --
#
# The board's bounded journal: local events the host has not yet acknowledged.
#
# It is one preallocated ring of JOURNAL_EVENTS fixed-size records. While the host answers it
# holds the few events in flight; while no host answers it keeps everything played offline,
# in order. When it is full a new event is refused (the caller shows that on the board); an
# old event is never dropped to make room. Events leave only when the host acknowledges them.
# The board numbers its events one after another, so the ring keeps only the oldest's seq.
# A record keeps its header whole and its body (the faces, and plain dice's sides) as it is
# when it is 8 bytes or fewer, else two to a byte: action dice's faces are at most 10
# (event_record_problem checks every record before it is journalled), so the longest, 4
# bytes and 15 faces, takes a slot of 12 bytes, not 19. The stored length byte says which
# (128: as it is). A record of plain dice that fits neither way (9 or more bytes of body
# with a number over 15: 8 d20s) is malformed (event_record_problem): never journalled.

JOURNAL_EVENTS = const(120)  # < 128, so every journalled seq is distinct mod 256
_SLOT = const(12)  # EVENT_HEADER + (MAX_DICE + 1) // 2 (a test checks it)


class Journal:
    def __init__(self, capacity=JOURNAL_EVENTS):
        if not 1 <= capacity < 128:
            raise ValueError("a journal holds 1..127 events, not %d" % capacity)
        self.capacity = capacity
        self.buf = bytearray(capacity * _SLOT)
        self.head = 0  # ring index of the oldest event
        self.count = 0
        self.first = 0  # the oldest event's seq
        self.refused = 0  # events refused because the journal was full

    def push(self, seq, record):
        # Append the well-formed record. Its number, seq, is kept only when the journal is
        # empty: after that a record is numbered one after the newest (the caller's seqs
        # run on one by one). The caller has checked that the journal is not full.
        if not self.count:
            self.first = seq
        buf = self.buf
        at = ((self.head + self.count) % self.capacity) * _SLOT
        n = record[3]
        for k in range(4):
            buf[at + k] = record[k]
        if n <= _SLOT - 4:
            buf[at + 3] = n | 128
        for k in range(n):
            if n <= _SLOT - 4:
                buf[at + 4 + k] = record[4 + k]
            elif k & 1:
                buf[at + 4 + (k >> 1)] |= record[4 + k] << 4
            else:
                buf[at + 4 + (k >> 1)] = record[4 + k]
        self.count += 1

    def read(self, i, out, start):
        # Unpack the i-th oldest event's record into out[start:]; returns its length.
        buf = self.buf
        at = ((self.head + i) % self.capacity) * _SLOT
        for k in range(4):
            out[start + k] = buf[at + k]
        n = buf[at + 3] & 127
        out[start + 3] = n
        for k in range(n):
            if buf[at + 3] & 128:
                out[start + 4 + k] = buf[at + 4 + k]
            else:
                out[start + 4 + k] = (buf[at + 4 + (k >> 1)] >> ((k & 1) << 2)) & 15
        return 4 + n

    def seq(self, i):
        return (self.first + i) & 0xFF


# What poll() reports (bits; private, so they take no slot in this module's globals: the
# app only asks whether anything changed).
_POLL_STATE = const(1)  # the host's snapshot changed the state: redraw
_POLL_LINK = const(2)  # the link came up or went down: see .linked
_POLL_ERROR = const(4)  # the host refused an event or the protocol: see .error / .rejected

# What submit_record() returns.
ACCEPTED = const(1)  # applied and journalled
JOURNAL_FULL = const(2)  # refused: the journal is full and nothing changed
INVALID = const(3)  # refused: the rules cannot take it now; nothing changed

# Writes. Every frame is framed into the tail, behind the bytes the stream has not taken
# yet, and written from there in pieces of a power of two bytes (views made once, so
# nothing is allocated). With write_timeout = 0, CircuitPython's usb_cdc.data.write takes
# only what fits its USB send buffer (256 B on SAMD51 and RP2040) and returns that count; a
# full window of 16 six-die events is 272 B. What it does not take waits in the tail, in
# order, and goes out first on the next poll (and before any newer frame). A frame that
# does not fit behind it is dropped whole (counted in tail_dropped): the journal resends
# events, and HELLO, PONG and ACK repeat by themselves.
_TAIL = const(493)  # > a full window (272 B) and > the longest frame (a snapshot, 492 B)
_TAIL_VIEWS = const(9)  # views of the tail's first 1, 2, 4 .. 256 bytes


class BoardSession(framing.Endpoint):
    def __init__(
        self,
        stream,
        state,
        fw=(0, 1),
        profile=m.PROFILE_SIMULATED,
        grid=(8, 4),
        nonce=None,
        journal_events=JOURNAL_EVENTS,
        now_ms=0,
        undo=True,
        board_id=m.NO_ID,
    ):
        super().__init__(stream)
        self.state = state
        self.fw = fw  # (major, minor)
        self.profile = profile
        self.grid = grid  # (width, height)
        if nonce is None:
            try:
                import os

                raw = os.urandom(2)
                nonce = raw[0] << 8 | raw[1]
            except (ImportError, AttributeError, NotImplementedError):
                nonce = 1
        self.nonce = nonce
        self.board_id = board_id  # 4 bytes that name this board (code.py: from the chip's uid)
        self.journal = Journal(journal_events)
        # One level of local undo costs an encoded state; without it UNDO still reaches
        # the host, whose snapshot then shows the result. The state before the last local
        # change, encoded, its length in the last byte (0: nothing to undo); the session
        # is apply_event's undo (save, restore).
        # The undo's state, and its length in the last two bytes (0: nothing to undo).
        self.undo = bytearray(codec.MAX_ENCODED + 2) if undo else None
        # The payload buffer (_payload) is scratch between frames too: for a press's record,
        # the digest, and the last good state while a snapshot decodes.
        self._frozen = bytearray(codec.MAX_ENCODED + m.HEADER)  # our state for the host
        # The host asked for our state and has not yet answered: the length of the payload
        # frozen for it in _frozen (0: not asked).
        self.want_state = 0
        self._sent = 0  # journal events sent since the last rewind
        self._rto = self.base_rto()
        self._rto_at = now_ms
        self._state_at = now_ms
        self._state_rto = self._rto
        self._hello_at = now_ms
        self._hello_sent = now_ms
        self._heard_at = now_ms
        self._fast_seq = -1
        self._fast_at = now_ms
        self._result = 0
        self.error = 0  # an m.E_* code that stopped the link (E_VERSION)
        self.rejected = 0  # our events the host's rules refused
        self.snapshots = 0  # host snapshots taken
        self.described = False  # the host described its game on this link
        self.descriptors = 0  # descriptors taken (the app resets its dice and counter keys)
        self.last_refusal = ""
        self._refusals_told = 0  # journal refusals the host has been told about
        self._tail = bytearray(_TAIL)  # bytes the stream has not taken yet, oldest first
        self._tail_n = 0
        tail_mv = memoryview(self._tail)
        self._tail_views = []
        for i in range(_TAIL_VIEWS):
            self._tail_views.append(tail_mv[: 1 << i])
        self.short_writes = 0  # frames the stream took only part of
        self.tail_dropped = 0  # frames dropped because the tail was full

    # -- the board's side of play ------------------------------------------------------

    def submit_record(self, now_ms, record):
        # Apply one press (its record, shared.events.write_event) locally and journal it.
        # Returns ACCEPTED, JOURNAL_FULL (shown on the board; nothing changed, nothing old
        # dropped) or INVALID (see last_refusal).
        journal = self.journal
        if journal.count >= journal.capacity:
            journal.refused += 1
            return JOURNAL_FULL
        problem = m.event_record_problem(record, 0, record[3] + 4)
        if problem:
            # The host would drop it as malformed, and keep dropping its resends.
            self.last_refusal = str(ev.EventError(15, record[0], record[1], problem))
            return INVALID
        try:
            ev.apply_event(self.state, record, None if self.undo is None else self)
        except ev.EventError as err:
            self.last_refusal = str(err)
            return INVALID
        if record[0] == ev.SELECT and not self.linked:
            return ACCEPTED  # a selection changes no state: nothing to keep offline
        journal.push(self.tx_next, record)
        self.tx_next = (self.tx_next + 1) & 0xFF
        if self.linked:
            self._send_events(now_ms)
        return ACCEPTED

    def save(self, state):
        # apply_event's undo, before a change: the state as it is, into self.undo.
        undo = self.undo
        undo[-1] = undo[-2] = 0  # nothing to undo if the encode fails half-way
        n = codec.encode(state, undo)
        undo[-2] = n >> 8
        undo[-1] = n & 255

    def restore(self, state):
        # apply_event's undo, on UNDO: the state saved last, once (its version moves on).
        undo = self.undo
        n = undo[-2] << 8 | undo[-1]
        if not n:
            return False
        version = state.version
        codec.decode(memoryview(undo)[:n], state)
        state.version = version
        state.touch()
        undo[-1] = undo[-2] = 0
        return True

    # -- the loop step ------------------------------------------------------------------

    def poll(self, now_ms):
        # Send what the stream did not take last time, read and handle what arrived, then
        # send what is due; returns _POLL_* bits.
        if self._tail_n:
            self._flush()
        self._pump(now_ms)
        if self.linked:
            if ticks_diff(now_ms, self._heard_at) >= framing.LINK_TIMEOUT_MS:
                self._unlink()
            else:
                n = self.want_state
                if n and ticks_diff(now_ms, self._state_at) >= 0:
                    # Our frozen state, again, until the host answers (backing off).
                    buf = self._payload
                    for k in range(n):
                        buf[k] = self._frozen[k]
                    buf[2] = (self.rx_next - 1) & 0xFF
                    self._send(n)
                    self._state_at = ticks_add(now_ms, self._state_rto)
                    if self._state_rto < framing.RTO_MAX_MS // 2:
                        self._state_rto *= 2
                self._send_events(now_ms)
                refused = self.journal.refused
                if refused != self._refusals_told:
                    # Tell the host that presses were refused offline (it may show it).
                    self._refusals_told = refused
                    self._send_error(m.E_JOURNAL_FULL, refused if refused < 255 else 255)
        if not self.linked and self.error != m.E_VERSION:
            if ticks_diff(now_ms, self._hello_at) >= 0:
                self._send_hello()
                self._hello_sent = now_ms
                self._hello_at = ticks_add(now_ms, _HELLO_MS)
        if self._ack_due:  # nothing else carried our ack: an ACK does
            self._send(
                m.pack_ack(self._payload, self.tx_next - 1, self.rx_next - 1, 0, m.FROM_BOARD)
            )
        result = self._result
        self._result = 0
        return result

    def _unlink(self):
        if self.linked:
            self.linked = False
            self._result |= _POLL_LINK
        self.want_state = 0

    # -- sending ------------------------------------------------------------------------

    def _send(self, n, resync=0):
        # Frame self._payload[0:n] into the tail and write what the stream takes. resync=1
        # puts a lone 0x00 first: it ends whatever partial frame the peer's decoder holds.
        # Every frame carries our cumulative ack.
        if self._tail_n:
            self._flush()
        at = self._tail_n
        # The frame's length on the wire: the CRC, COBS's code bytes, the delimiter.
        if at + resync + n + 4 + (n + 2) // 254 > _TAIL:
            self.tail_dropped += 1
        else:
            if resync:
                self._tail[at] = 0
            self._tail_n = (
                at + resync + framing.encode_frame(self._payload, n, self._tail, at + resync)
            )
            if not at:  # nothing waited: write it now (else it waits for the stream)
                self._flush()
                if self._tail_n:
                    self.short_writes += 1
        self.frames_sent += 1
        self._ack_due = False

    def _flush(self):
        # Write as much of the tail as the stream takes, oldest first (in pieces of a
        # power of two bytes: views made once, so nothing is allocated).
        tail = self._tail
        views = self._tail_views
        while self._tail_n:
            n = self._tail_n
            i = _TAIL_VIEWS - 1
            while len(views[i]) > n:
                i -= 1
            piece = views[i]
            size = len(piece)
            written = self.stream.write(piece)
            if written is None or written > size:
                written = size
            if written <= 0:
                return
            left = n - written
            for k in range(left):
                tail[k] = tail[written + k]
            self._tail_n = left
            if written < size:
                return

    def _send_hello(self):
        buf = self._payload
        n = m.pack_hello(
            buf,
            self.tx_next - 1,
            self.rx_next - 1,
            m.ROLE_BOARD,
            0,
            self.fw[0],
            self.fw[1],
            self.profile,
            self.grid[0],
            self.grid[1],
            self.state.version,
            self.journal.count,
            self.nonce,
            self.board_id,
        )
        self._send(n, 1)

    def _send_events(self, now_ms):
        journal = self.journal
        if not journal.count:
            return
        if self._sent and ticks_diff(now_ms, self._rto_at) >= 0:
            # Nothing acknowledged in time: go back to the oldest and send them all again.
            self.retransmits += 1
            self._rtt_cancel()
            self._sent = 0
            self._rto = self._rto * 2 if self._rto < framing.RTO_MAX_MS // 2 else framing.RTO_MAX_MS
        limit = journal.count if journal.count < framing.WINDOW else framing.WINDOW
        while self._sent < limit:
            if self._sent == 0:
                self._rto_at = ticks_add(now_ms, self._rto)
            # An EVENT frame: the journal's record i (written out here and for a hole below,
            # not in a method: each is a slot in the class's table, docs/memory.md).
            seq = journal.seq(self._sent)
            self._rtt_start(seq, now_ms)
            buf = self._payload
            m.put_header(buf, m.EVENT | m.FROM_BOARD, seq, self.rx_next - 1)
            self._send(m.HEADER + journal.read(self._sent, buf, m.HEADER))
            self._sent += 1

    def _send_error(self, code, detail):
        self._send(
            m.pack_error(
                self._payload, self.tx_next - 1, self.rx_next - 1, code, detail, m.FROM_BOARD
            )
        )

    # -- receiving ----------------------------------------------------------------------

    def _handle(self, buf, n, now_ms):
        mtype = buf[0]
        if mtype & m.FROM_BOARD:
            # A board's frame: our own read back (a port that echoes) or another board's.
            # Never applied: our own ACK would forget journalled events the host never had.
            self.bad_messages += 1
            return
        if mtype == m.HELLO:
            self._on_hello(buf, n, now_ms)
            return
        if mtype == m.ERROR:  # (E_VERSION comes before any link)
            code = buf[m.HEADER] if n >= m.HEADER + m.ERROR_BODY else 0
            if code == m.E_REJECTED:
                self.rejected += 1
            elif (
                code == m.E_VERSION and not self.linked and buf[m.HEADER + 1] != m.PROTOCOL_VERSION
            ):
                self.error = m.E_VERSION
            else:
                # Too short, an unknown code, a board's own code (E_BAD_SNAPSHOT,
                # E_JOURNAL_FULL, the descriptor's), or an E_VERSION no host sends (while
                # linked, or naming our own version).
                self.bad_messages += 1
                return
            self._result |= _POLL_ERROR
            return
        if mtype != m.SNAPSHOT and mtype != m.ACK and mtype != m.PING and mtype != m.DESCRIPTOR:
            self.bad_messages += 1  # a type hosts never send (EVENT, PONG) or no type at all
            return
        if not self.linked:
            # The host thinks we are linked (our HELLO's answer was lost): say HELLO again
            # soon, not at the next _HELLO_MS.
            soon = ticks_add(self._hello_sent, framing.RTO_MIN_MS)
            if ticks_diff(self._hello_at, soon) > 0:
                self._hello_at = soon
            return
        if m.seq_diff(buf[2], self.tx_next - 1) > 0:
            # A contradiction: the host acknowledges a sequence number we never assigned, so
            # a damaged frame got past the CRC (to us, or to the host, which then took it for
            # one of our events). Count it and start over with HELLO: the host's answer says
            # what it really has, and nothing of ours is dropped on the strength of that frame.
            self.bad_messages += 1
            self._unlink()
            self._hello_at = now_ms
            return
        self._heard_at = now_ms
        if mtype == m.SNAPSHOT or mtype == m.DESCRIPTOR:
            if not self._on_sequenced(buf, n, now_ms):
                return
            # A snapshot was taken: apply the events the host has not seen yet on top of it
            # ("rebase"). Here, not in _on_sequenced: each event's path (its checks, its
            # undo's encode, an UNDO's decode) is the board's deepest, and under
            # _on_sequenced's frame it needed more stack than a board spares (issue #36).
            try:
                journal = self.journal
                undo = None
                if self.undo is not None:
                    self.undo[-1] = self.undo[-2] = 0  # the host's to undo now
                    undo = self
                record = self._payload  # free: nothing is sent meanwhile
                for i in range(journal.count):
                    journal.read(i, record, 0)
                    try:
                        ev.apply_event(self.state, record, undo)
                    except ev.EventError:
                        pass  # the host's rules will refuse it too, and say so
            except Exception:
                # One of our events raised past the rules' checks: show the host's state
                # as it came; the event stays journalled for the host's rules to decide.
                codec.decode(memoryview(buf)[m.HEADER : n], self.state)
                self.bad_messages += 1
        elif mtype == m.ACK:
            if n != m.HEADER + 1:
                self.bad_messages += 1
                return
            self._acked(buf[2], now_ms)
            journal = self.journal
            if buf[m.HEADER] & m.ACK_GAP and journal.count:
                # The host holds events past a hole: resend the oldest now, and the same one
                # again only after a round trip (the first resend may still be on its way).
                seq = journal.seq(0)
                if (
                    seq != self._fast_seq
                    or ticks_diff(now_ms, self._fast_at) >= self.srtt + framing.RTO_MIN_MS
                ):
                    self._fast_seq = seq
                    self._fast_at = now_ms
                    self.retransmits += 1
                    self._rtt_cancel()
                    record = self._payload
                    m.put_header(record, m.EVENT | m.FROM_BOARD, seq, self.rx_next - 1)
                    self._send(m.HEADER + journal.read(0, record, m.HEADER))
        else:  # a PING: answer with a PONG, our state's digest
            self._acked(buf[2], now_ms)
            digest = framing.state_digest(self.state, self._payload)
            n = m.pack_ping(
                self._payload,
                m.PONG | m.FROM_BOARD,
                self.tx_next - 1,
                self.rx_next - 1,
                digest,
                self.state.version,
                self.journal.count,
            )
            self._send(n)
            if not self.described:
                self._send_error(m.E_NO_DESCRIPTOR, 0)  # still no descriptor: ask again

    def _on_hello(self, buf, n, now_ms):
        if n < m.HEADER + 3:
            self.bad_messages += 1
            return
        if buf[m.HEADER] != m.PROTOCOL_VERSION:
            if self.linked:
                # The host we are linked with passed the version check: a damaged frame.
                # (A new host on another version is heard once our link times out.)
                self.bad_messages += 1
                return
            self.error = m.E_VERSION
            self._result |= _POLL_ERROR
            self._send_error(m.E_VERSION, m.PROTOCOL_VERSION)
            return
        if buf[m.HEADER + 1] != m.ROLE_HOST:
            self.bad_messages += 1  # a HELLO from no host (damage): boards set FROM_BOARD
            return
        flags = buf[m.HEADER + 2]
        self._heard_at = now_ms
        self.error = 0
        if not flags & m.HELLO_ACCEPT:
            # A host is probing: it has not heard us (or it restarted). Answer at once.
            self._unlink()
            self._send_hello()
            self._hello_at = ticks_add(now_ms, _HELLO_MS)
            return
        if m.seq_diff(buf[2], self.tx_next - 1) > 0:  # a contradiction (as in _handle)
            self.bad_messages += 1
            self._unlink()
            self._hello_at = now_ms
            return
        if self.linked:
            # It answers a HELLO we sent before the ACCEPT that linked us came (to a probe
            # that waited while code.py compiled), or repeats that ACCEPT. A host that starts
            # over probes first, which unlinks us: the link, its descriptor and numbers
            # stand; only the ack counts.
            self._acked(buf[2], now_ms)
            return
        self._result |= _POLL_LINK
        self.linked = True
        self.rx_next = (buf[1] + 1) & 0xFF
        # A host that adopts our state adopts our rules with it: it sends no descriptor.
        self.described = bool(flags & m.HELLO_WANT_STATE)
        if flags & m.HELLO_WANT_STATE:
            # The host holds nothing for us: our state (journal included) is what it adopts.
            self.journal.count = 0  # the host adopts our state with every event in it
            frozen = self._frozen
            m.put_header(frozen, m.SNAPSHOT | m.FROM_BOARD, self.tx_next - 1, self.rx_next - 1)
            self.want_state = m.HEADER + codec.encode(self.state, memoryview(frozen)[m.HEADER :])
            self._state_rto = self.base_rto()
            self._state_at = now_ms
        else:
            self.want_state = 0
            self._acked(buf[2], now_ms)
        self._sent = 0
        self._rtt_cancel()
        self._rto = self.base_rto()
        self._rto_at = now_ms

    def _on_sequenced(self, buf, n, now_ms):
        # A SNAPSHOT or a DESCRIPTOR from the host, numbered like one another; True when a
        # snapshot was taken (_handle then re-applies our unacknowledged events on it).
        seq = buf[1]
        if m.seq_diff(seq, self.rx_next) < 0:
            self._ack_due = True  # one we already took: our ack was lost, say it again
            return
        state = self.state
        if buf[0] == m.DESCRIPTOR:
            if descriptor.problem(buf, m.HEADER, n - m.HEADER):
                # Counted and refused: the last good descriptor stays; the host resends.
                self.bad_messages += 1
                self._send_error(m.E_BAD_DESCRIPTOR, seq)
                return
            state.rules.load(buf, m.HEADER, n - m.HEADER)
            self.described = True
            self.descriptors += 1
        elif not self.described:
            self._send_error(m.E_NO_DESCRIPTOR, seq)  # describe the game first
            return
        else:
            # The snapshot decodes straight into the state; a bad one (which leaves the state
            # half written) is undone by decoding the last good state back from its
            # encoding. That costs an encode per snapshot instead of a spare GameState (4 KB
            # of heap). Nothing raised while a snapshot is taken may wedge the board: it
            # keeps a good state, counts the problem and stays linked. A state that does not
            # fit the descriptor (another ruleset, a counter past its cap) is refused the
            # same way, and the board asks to be described again: its descriptor may be the
            # wrong one.
            good = codec.encode(state, self._payload)
            snapshot = memoryview(buf)[m.HEADER : n]
            error = m.E_NO_DESCRIPTOR
            try:
                codec.decode(snapshot, state)
                if descriptor.state_fits(state.rules, state):
                    error = 0
            except Exception:
                error = m.E_BAD_SNAPSHOT
            if error:
                codec.decode(memoryview(self._payload)[:good], state)
                self.bad_messages += 1
                self.described = error != m.E_NO_DESCRIPTOR
                self._send_error(error, seq)
                return
        self.rx_next = (seq + 1) & 0xFF
        self._acked(buf[2], now_ms)
        self._result |= _POLL_STATE
        self._ack_due = True
        if buf[0] == m.SNAPSHOT:
            self.want_state = 0
            self.snapshots += 1
            return True

    def _acked(self, ack, now_ms):
        # The host has every event through `ack`: forget them.
        journal = self.journal
        if not journal.count:
            return
        covered = m.seq_diff(ack, journal.seq(0)) + 1
        if covered <= 0 or covered > journal.count:
            return
        self._rtt_acked(ack, now_ms)
        journal.head = (journal.head + covered) % journal.capacity
        journal.first = (journal.first + covered) & 0xFF
        journal.count -= covered
        self._sent = self._sent - covered if self._sent > covered else 0
        self._rto = self.base_rto()
        self._rto_at = ticks_add(now_ms, self._rto)
