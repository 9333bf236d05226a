"""The host's end of the link: the authoritative state, replaying the board's events.

The host probes with HELLO until the board answers with its own, then accepts it. Board
events are applied in sequence order, exactly once, through an injectable `applier`
(default: shared.events.apply_event with an undo history); events that arrive past a hole
wait in a small buffer until the hole is filled. After each batch of events, and whenever
the desktop changes the state (`state_changed`), the host sends one SNAPSHOT; only the
newest snapshot is kept for retransmission, since a newer one supersedes the older.

Before its first snapshot on each link, and again whenever the state's rules change, the
host describes its game: it sends `state.rules` as a DESCRIPTOR, sequenced and resent like
a snapshot, and holds its snapshots until the board has acknowledged it (a board that asks
with ERROR E_NO_DESCRIPTOR is described again). A snapshot whose state does not fit its
own rules is never sent (`error_text` says why).

When the board reconnects it replays its journal first; the host answers with its snapshot
once every journalled event is in. A host that holds no state yet (`state=None`) adopts
the board's state instead, and with it the board's rules: it sends no descriptor then.
Heartbeats compare state digests when both sides are quiet; a
mismatch triggers a resync. This module allocates freely: it runs on the desktop only.
"""

import struct

from adafruit_ticks import ticks_add, ticks_diff

from shared import codec
from shared.compat import const
from shared.descriptor_pack import encoded, state_problem
from shared.events import EventError, apply_event
from shared.link import messages as m
from shared.link.digest import state_digest
from shared.link.framing import (
    LINK_TIMEOUT_MS,
    MAX_WIRE,
    RTO_MAX_MS,
    WINDOW,
    Endpoint,
    FrameDecoder,
    encode_frame,
)
from shared.state import GameState

PROBE_MIN_MS = const(100)  # the host repeats its HELLO probe from this often ...
PROBE_MAX_MS = const(1000)  # ... backing off to this
PING_MS = const(1000)  # the heartbeat
# Events held past a hole. A board sends at most WINDOW events past its oldest
# unacknowledged one, which is the one we expect next: anything further ahead is not from it.
MAX_PENDING = WINDOW
# Snapshots sent past the board's last ack before the host stops numbering new ones (and
# resends the newest until the board catches up), so seq numbers never wrap on the board.
SNAPSHOT_WINDOW = 64
# error_code when the board on the port is not the board this session linked with (its
# HELLO names another board id). Not a wire code: the board is never told, only refused.
OTHER_BOARD = 0x100

ECHO_TEXT = "this port echoes what is sent: is it the board's console? use the data port"


# HELLO's profile byte, by number (messages.PROFILE_*).
PROFILE_NAMES = ("simulated", "trellis_m4", "macropad", "pico_matrix")


class Hello:
    """A decoded HELLO (the board's; the board reads the host's in place)."""

    def __init__(self):
        self.clear()

    def clear(self):
        self.seq = 0
        self.ack = 0
        self.protocol = 0
        self.role = 0
        self.flags = 0
        self.fw_major = 0
        self.fw_minor = 0
        self.profile = 0
        self.grid_w = 0
        self.grid_h = 0
        self.version = 0
        self.journalled = 0
        self.nonce = 0
        self.board_id = m.NO_ID

    def unpack(self, buf, n):
        """Fill from payload buf[0:n]; returns False if the body has the wrong size. A
        newer protocol may add fields at the end, so only the version byte is required to
        be readable when the rest does not fit."""
        self.seq = buf[1]
        self.ack = buf[2]
        if n < m.HEADER + 1:
            return False
        self.protocol = buf[m.HEADER]
        if n < m.HEADER + m.HELLO_BODY:
            return False
        (
            _,
            self.role,
            self.flags,
            self.fw_major,
            self.fw_minor,
            self.profile,
            self.grid_w,
            self.grid_h,
            self.version,
            self.journalled,
            self.nonce,
        ) = struct.unpack_from(m.HELLO_FORMAT, buf, m.HEADER)
        self.board_id = bytes(buf[m.HEADER + m.HELLO_ID : m.HEADER + m.HELLO_BODY])
        return True

    def profile_name(self):
        if self.profile < len(PROFILE_NAMES):
            return PROFILE_NAMES[self.profile]
        return "profile %d" % self.profile

    def id_text(self):
        """The board id as hex, or "none"."""
        return self.board_id.hex() if self.board_id != m.NO_ID else "none"


class UndoHistory:
    """Many levels of undo as encoded states: the default applier's history (the board keeps
    one level, in its session: shared/link/board.py; the host can afford many)."""

    def __init__(self, depth=64):
        self.depth = depth
        self.saved = []

    def save(self, state):
        self.saved.append(codec.encode(state))
        if len(self.saved) > self.depth:
            self.saved.pop(0)

    def restore(self, state):
        if not self.saved:
            return False
        version = state.version
        codec.decode(self.saved.pop(), state)
        state.version = version
        state.touch()
        return True


class HostDecoder(FrameDecoder):
    """The host's frame decoder: it can forget a partly received frame (after a reconnect),
    which a board never needs."""

    def reset(self):
        """Forget a partly received frame (its bytes count as dropped)."""
        if self._n:
            self.dropped_bytes += self._n
        self._n = 0
        self._over = False
        self.length = 0


class HostSession(Endpoint):
    read_budget = 64

    def __init__(self, stream, state=None, applier=None, on_event=None, now_ms=0):
        super().__init__(stream)
        self.decoder = HostDecoder()
        self._wire = bytearray(MAX_WIRE)
        self.duplicates = 0  # sequenced frames that arrived again and were ignored
        self.out_of_order = 0  # sequenced frames that arrived past a hole
        self.state = state
        self.history = UndoHistory()
        self.applier = applier if applier is not None else self._default_applier
        self.on_event = on_event  # on_event(record, accepted, reason) after each event
        self.board = None  # the board's last HELLO (a Hello)
        self.board_nonce = -1  # the board session rx_next belongs to
        # The id of the board this session linked with (m.NO_ID until one that has an id
        # links): a board with another id is refused (OTHER_BOARD), whatever the port.
        self.board_id = m.NO_ID
        self.other_boards = 0  # HELLOs refused because they came from another board
        self.echoes = 0  # frames with a host's direction bit: our own read back, or a host's
        self.error_code = 0  # m.E_VERSION when the versions differ
        self.error_text = ""
        self.events_applied = 0
        self.events_rejected = 0
        self.digest_checks = 0
        self.digest_mismatches = 0
        self.resyncs = 0
        self.handshakes = 0
        self.relinks = 0  # handshakes forced by a frame that contradicted what we knew
        self.accepts_repeated = 0  # ACCEPTs sent again for a HELLO that repeated the last
        self._accept = b""  # the HELLO ACCEPT of this link's handshake, as sent
        self._board_linked = False  # the board sent a linked board's frame since that ACCEPT
        self.board_refused = 0  # presses the board refused with a full journal (to 255)
        self._pending = {}  # seq -> event record, past a hole
        self._snap = None  # the newest unacknowledged snapshot payload
        self._snap_seq = 0
        self._board_ack = 0xFF  # the last host seq the board acknowledged
        self._snap_at = now_ms
        self._snap_rto = self.base_rto()
        self._dirty = False  # the state changed since the last snapshot
        self._replay_through = -1  # board seq to reach before the first snapshot
        self._replay_until = now_ms
        self._probe_at = now_ms
        self._probe_every = PROBE_MIN_MS
        self._ping_at = now_ms
        self._heard_at = now_ms
        self._recheck = False  # relinking after a contradiction (see _contradiction)
        self._describing = True  # send our descriptor on this link (not when adopting)
        self._described = None  # the descriptor bytes the board acknowledged on this link
        self._describing_now = None  # the descriptor bytes in flight (in _snap), if any
        self.descriptors_sent = 0  # DESCRIPTOR frames sent, resends included
        self.descriptors_refused = 0  # ERROR E_BAD_DESCRIPTOR from the board

    def _default_applier(self, state, record):
        return apply_event(state, record, self.history)

    def _send(self, n):
        """Frame and write self._payload[0:n]. Every frame carries our cumulative ack."""
        length = encode_frame(self._payload, n, self._wire)
        self.stream.write(self._wire[:length])
        self.frames_sent += 1
        self._ack_due = False

    def _send_delimiter(self):
        """A lone 0x00 ends whatever partial frame the board's decoder holds."""
        self.stream.write(b"\x00")

    # -- the desktop's side -------------------------------------------------------------

    def attach(self, stream, now_ms):
        """Carry on over a new stream (the cable came back): handshake again, keep the
        state and what was already applied."""
        self.stream = stream
        self.decoder.reset()
        self._unlink(now_ms)

    def detach(self):
        self.linked = False
        self._forget_in_flight()

    def _forget_in_flight(self):
        self._snap = None
        self._described = None
        self._describing_now = None

    def _unlink(self, now_ms):
        """Back to the handshake: forget the snapshot in flight and probe at once."""
        self.linked = False
        self._forget_in_flight()
        self._probe_at = now_ms
        self._probe_every = PROBE_MIN_MS

    def resume_point(self):
        """Where this host stands with its board: (the board session's nonce, the next
        board seq to apply), or None before any board has linked. Called from inside the
        applier it already counts the event being applied: save it in the same commit as
        that event, and `restore` it in a host started later (a killed session resumed),
        so that an event applied but not yet acknowledged is not applied again when the
        board resends it."""
        if self.board_nonce < 0:
            return None
        return (self.board_nonce, self.rx_next)

    def restore(self, point):
        """Carry on from a `resume_point()` an earlier host saved; call before linking. A
        board with that nonce resumes at that seq (its HELLO settles the rest); any other
        board is new and has its whole journal replayed."""
        nonce, next_seq = point
        self.board_nonce = nonce & 0xFFFF
        self.rx_next = next_seq & 0xFF
        self._pending = {}

    def state_changed(self):
        """The desktop changed the state: the board gets a snapshot at the next poll."""
        self._dirty = True

    def quiet(self):
        """True when nothing is in flight in either direction that the host knows of."""
        return (
            self.linked
            and self._snap is None
            and not self._dirty
            and self._replay_through < 0
            and not self._pending
        )

    def wait_ms(self, now_ms, longest):
        """How long the host may sleep before `poll` has something to do, at most
        `longest` (0: poll now). Bytes arriving and `state_changed` from another thread
        are the caller's to wake it for; this covers the timers: the heartbeat, the probe,
        a resend, the link's silence timeout and the journal's replay."""
        if self._ack_due:
            return 0
        wait = longest
        if self.linked:
            if (
                self._dirty
                and self._replay_through < 0
                and self.state is not None
                and self._describing_now is None
                and m.seq_diff(self.tx_next, self._board_ack) < SNAPSHOT_WINDOW
            ):
                return 0
            wait = _sooner(wait, now_ms, ticks_add(self._heard_at, LINK_TIMEOUT_MS))
            wait = _sooner(wait, now_ms, self._ping_at)
            if self._replay_through >= 0:
                wait = _sooner(wait, now_ms, self._replay_until)
            if self._snap is not None:
                wait = _sooner(wait, now_ms, self._snap_at)
        else:
            wait = _sooner(wait, now_ms, self._probe_at)
        return wait if wait > 0 else 0

    # -- the loop step ------------------------------------------------------------------

    def poll(self, now_ms):
        self._pump(now_ms)
        if self._ack_due:
            # A separate small ACK even when a snapshot follows: a long frame is more
            # likely to be damaged, and only the ACK says where the hole is.
            self._send(
                m.pack_ack(
                    self._payload,
                    self.tx_next - 1,
                    self.rx_next - 1,
                    m.ACK_GAP if self._pending else 0,
                )
            )
        if self.linked and ticks_diff(now_ms, self._heard_at) >= LINK_TIMEOUT_MS:
            self._unlink(now_ms)
        if self.linked:
            if self._replay_through >= 0 and ticks_diff(now_ms, self._replay_until) >= 0:
                self._replay_through = -1  # the journal never came: send what we have
            if (
                self._dirty
                and self._replay_through < 0
                and self.state is not None
                and self._describing_now is None
                and m.seq_diff(self.tx_next, self._board_ack) < SNAPSHOT_WINDOW
            ):
                rules = encoded(self.state.rules)
                if self._describing and rules != self._described:
                    self._queue_descriptor(rules, now_ms)
                else:
                    self._queue_snapshot(now_ms)
            elif self._snap is not None and ticks_diff(now_ms, self._snap_at) >= 0:
                self.retransmits += 1
                self._rtt_cancel()
                self._send_snapshot(now_ms)
                if self._snap_rto < RTO_MAX_MS // 2:
                    self._snap_rto *= 2
                self._snap_at = ticks_add(now_ms, self._snap_rto)
            if ticks_diff(now_ms, self._ping_at) >= 0:
                self._send_ping()
                self._ping_at = ticks_add(now_ms, PING_MS)
        elif ticks_diff(now_ms, self._probe_at) >= 0:
            self._send_hello(0)
            if self.error_code == m.E_VERSION or self.error_code == OTHER_BOARD:
                # The board cannot link with us (or is refused): ask again once a second
                # (it answers each probe), in case it is replaced by one that can.
                self._probe_every = PROBE_MAX_MS
            self._probe_at = ticks_add(now_ms, self._probe_every)
            if self._probe_every < PROBE_MAX_MS:
                self._probe_every *= 2

    # -- sending ------------------------------------------------------------------------

    def _send_hello(self, flags):
        version = self.state.version if self.state is not None else 0
        n = m.pack_hello(
            self._payload,
            self.tx_next - 1,
            self.rx_next - 1,
            m.ROLE_HOST,
            flags,
            0,
            1,
            m.PROFILE_SIMULATED,
            0,
            0,
            version,
            0,
            0,
        )
        self._send_delimiter()
        self._send(n)
        return n

    def _queue_descriptor(self, rules, now_ms):
        """Describe the game: the snapshot stays due and follows once this is acknowledged."""
        payload = bytearray(m.HEADER)
        m.put_header(payload, m.DESCRIPTOR, self.tx_next, self.rx_next - 1)
        self._describing_now = rules
        self._queue_frame(bytes(payload) + rules, now_ms)

    def _queue_snapshot(self, now_ms):
        payload = bytearray(m.HEADER + codec.MAX_ENCODED)
        m.put_header(payload, m.SNAPSHOT, self.tx_next, self.rx_next - 1)
        self._dirty = False
        problem = state_problem(self.state.rules, self.state)
        if problem:
            self.error_text = "the state cannot be sent to the board: %s" % problem
            return
        try:
            n = codec.encode(self.state, memoryview(payload)[m.HEADER :])
        except codec.CodecError as err:
            self.error_text = "the state cannot be sent to the board: %s" % err
            return
        self._queue_frame(bytes(payload[: m.HEADER + n]), now_ms)

    def _queue_frame(self, payload, now_ms):
        """Send a sequenced frame (a snapshot or a descriptor), kept until acknowledged."""
        self._snap = payload
        self._snap_seq = self.tx_next
        self.tx_next = (self.tx_next + 1) & 0xFF
        self._snap_rto = self.base_rto()
        self._rtt_start(self._snap_seq, now_ms)
        self._send_snapshot(now_ms)
        self._snap_at = ticks_add(now_ms, self._snap_rto)

    def _send_snapshot(self, now_ms):
        """Send (or resend) the sequenced frame in flight: a snapshot or a descriptor."""
        snap = self._snap
        self._payload[: len(snap)] = snap
        if self._describing_now is not None:
            # A snapshot's ack says which events its state holds; a descriptor's is only
            # our ack, and must be today's: resent for long while events flow, an old one
            # could read as an ack of board events a lap (256 numbers) later.
            self._payload[2] = (self.rx_next - 1) & 0xFF
            self.descriptors_sent += 1
        self._send(len(snap))

    def _send_ping(self):
        digest = state_digest(self.state) if self.state is not None else 0
        version = self.state.version if self.state is not None else 0
        self._send(
            m.pack_ping(
                self._payload, m.PING, self.tx_next - 1, self.rx_next - 1, digest, version, 0
            )
        )

    def _send_error(self, code, detail):
        self._send(m.pack_error(self._payload, self.tx_next - 1, self.rx_next - 1, code, detail))

    # -- receiving ----------------------------------------------------------------------

    def _handle(self, buf, n, now_ms):
        mtype = buf[0]
        if not mtype & m.FROM_BOARD:
            # No board sends this since version 4, except two frames every version must
            # read: a HELLO in another version (boards before 4 set no FROM_BOARD) and ERROR
            # E_VERSION. Anything else is a host's frame: our own read back (a port that
            # echoes), or another host's. Never applied.
            if mtype == m.HELLO and n > m.HEADER and buf[m.HEADER] != m.PROTOCOL_VERSION:
                self._on_hello(buf, n, now_ms)
            elif mtype == m.ERROR and n > m.HEADER and buf[m.HEADER] == m.E_VERSION:
                self._on_error(buf, n)
            else:
                self._echoed()
            return
        mtype &= ~m.FROM_BOARD
        if mtype == m.HELLO:
            self._on_hello(buf, n, now_ms)
            return
        if mtype < m.SNAPSHOT or mtype > m.ERROR or mtype == m.PING:
            self.bad_messages += 1  # a type boards never send (PING) or no type at all
            return
        if not self.linked:
            if mtype == m.ERROR:
                # ERROR E_VERSION is how a board that cannot link with us answers a probe.
                # It is no sign of a board that thinks it is linked: no early probe (a
                # probe for each ERROR would be a HELLO/ERROR loop).
                self._on_error(buf, n)
            elif (
                self.error_code != m.E_VERSION
                and ticks_diff(now_ms, self._probe_at) < 0
                and self._probe_every > PROBE_MIN_MS
            ):
                # A board that still thinks it is linked (we lost the port meanwhile):
                # probe now rather than at the next backed-off probe.
                self._probe_at = now_ms
                self._probe_every = PROBE_MIN_MS
            return
        if m.seq_diff(buf[2], self.tx_next - 1) > 0:
            self._contradiction(now_ms)  # it acknowledges a seq we never assigned
            return
        if mtype == m.ACK or mtype == m.PONG or mtype == m.ERROR:
            # The header's seq is the board's last assigned one. The line keeps order, so
            # every event it sent before this frame has arrived (or was lost): we cannot
            # hold one past it, nor miss one its journal no longer has.
            last = buf[1]
            if m.seq_diff(last, self.rx_next - 1) < 0:
                self._contradiction(now_ms)
                return
            if mtype == m.PONG and n == m.HEADER + m.PING_BODY:
                journalled = buf[m.HEADER + 4]
                if m.seq_diff(last - journalled + 1, self.rx_next) > 0:
                    self._contradiction(now_ms)
                    return
            self._forget_past(last)
        self._heard_at = now_ms
        self._board_linked = True
        if mtype == m.EVENT:
            self._on_event(buf, n, now_ms)
        elif mtype == m.SNAPSHOT:
            self._on_snapshot(buf, n)
        else:
            self._acked(buf[2], now_ms)
            if mtype == m.PONG:
                self._on_pong(buf, n)
            elif mtype == m.ERROR:
                self._on_error(buf, n)

    def _echoed(self):
        """One of our own frames came back (or another host's): count it, apply nothing,
        and while no board has linked say why nothing links."""
        self.echoes += 1
        self.bad_messages += 1
        if not self.linked and not self.error_code:
            self.error_text = ECHO_TEXT

    def _contradiction(self, now_ms):
        """A frame contradicts what we know of the board: it acknowledges a sequence
        number we never assigned, or says the board never sent an event we applied, or
        that it dropped one we never had. Only a damaged frame that got past the CRC (to
        us, or to the board) does that. Count it, change nothing on its word, and go back
        to the handshake: the board's HELLO, in answer to our probe, says where it is."""
        self.bad_messages += 1
        self.relinks += 1
        self._recheck = True
        self._unlink(now_ms)

    def _forget_past(self, last):
        """Drop held events numbered past `last`, the board's last assigned seq: it never
        sent them."""
        for seq in [s for s in self._pending if m.seq_diff(s, last) > 0]:
            del self._pending[seq]
            self.bad_messages += 1

    def _on_hello(self, buf, n, now_ms):
        hello = Hello()
        complete = hello.unpack(buf, n)
        if n > m.HEADER and hello.protocol != m.PROTOCOL_VERSION:
            if self.linked:
                # The board we are linked with passed the version check: this frame is
                # damaged (a CRC lets 1 in 65,536 through), not a new board.
                self.bad_messages += 1
                return
            self.board = hello
            self._version_mismatch(hello.protocol)
            self._send_error(m.E_VERSION, m.PROTOCOL_VERSION)
            return
        if not complete:
            self.bad_messages += 1
            return
        if hello.role != m.ROLE_BOARD:
            self.bad_messages += 1  # a HELLO with FROM_BOARD but no board's role: damage
            return
        if (
            self.board_id != m.NO_ID
            and hello.board_id != m.NO_ID
            and hello.board_id != self.board_id
        ):
            self._other_board(hello, now_ms)
            return
        if (
            self.linked
            and not self._board_linked
            and hello.nonce == self.board.nonce
            and hello.seq == self.board.seq
            and hello.journalled == self.board.journalled
        ):
            # The HELLO we accepted, again, before the board showed it is linked: it answers
            # a probe that waited in its input while it started (it answers each), or our
            # ACCEPT was lost. Either way the same ACCEPT answers it; the link, its
            # descriptor and its numbers stand (a board already linked ignores it).
            self.accepts_repeated += 1
            self._heard_at = now_ms
            self._payload[: len(self._accept)] = self._accept
            self._send_delimiter()
            self._send(len(self._accept))
            return
        # The board's journal holds seq first..hello.seq; it dropped only what a host
        # acknowledged.
        first = (hello.seq - hello.journalled + 1) & 0xFF
        if self.linked and self.state is not None:
            # A linked board repeats its HELLO when our ACCEPT was lost or its link timed
            # out; that HELLO fits what we know. One that does not is a damaged frame, or a
            # board that restarted: ask (its answer comes while we are unlinked).
            if (
                hello.nonce != self.board_nonce
                or m.seq_diff(hello.seq, self.rx_next - 1) < 0
                or m.seq_diff(first, self.rx_next) > 0
            ):
                self._contradiction(now_ms)
                return
        self.error_code = 0
        self.error_text = ""
        self.board = hello
        if hello.board_id != m.NO_ID:
            self.board_id = hello.board_id
        self.handshakes += 1
        flags = m.HELLO_ACCEPT
        self._describing = self.state is not None
        if self.state is None:
            flags |= m.HELLO_WANT_STATE
            self.rx_next = (hello.seq + 1) & 0xFF
            self._pending = {}
            self._replay_through = -1
        else:
            if hello.nonce != self.board_nonce:
                # A board session we have not seen (it restarted): replay all it journalled.
                self.rx_next = first
                self._pending = {}
            elif m.seq_diff(hello.seq, self.rx_next - 1) < 0:
                # The board is behind what we applied. After a contradiction: we took a
                # damaged frame for its event; expect its next one. Otherwise a restarted
                # board drew the old nonce (1 in 65,536): replay all it journalled.
                self.rx_next = (hello.seq + 1) & 0xFF if self._recheck else first
                self._pending = {}
            elif m.seq_diff(first, self.rx_next) > 0:
                # It dropped events we never had: a host before us acknowledged them (a
                # resume point older than that host's last ack). Take it from its journal.
                self.rx_next = first
                self._pending = {}
            if m.seq_diff(hello.seq, self.rx_next - 1) > 0:
                self._replay_through = hello.seq
                self._replay_until = ticks_add(now_ms, LINK_TIMEOUT_MS)
            else:
                self._replay_through = -1
            self._dirty = True
        self.board_nonce = hello.nonce
        self._recheck = False
        self._forget_in_flight()  # the board restarts its count from our HELLO's seq
        self._board_ack = (self.tx_next - 1) & 0xFF
        self._accept = bytes(self._payload[: self._send_hello(flags)])
        self._board_linked = False
        self.linked = True
        self._heard_at = now_ms
        self._ping_at = ticks_add(now_ms, PING_MS)

    def _on_event(self, buf, n, now_ms):
        if m.event_record_problem(buf, m.HEADER, n - m.HEADER):
            self.bad_messages += 1  # a board never sends one: a damaged frame
            return
        seq = buf[1]
        ahead = m.seq_diff(seq, self.rx_next)
        if ahead >= WINDOW:
            self.bad_messages += 1  # further ahead than a board ever sends: not its event
            return
        self._acked(buf[2], now_ms)
        if ahead < 0:
            self.duplicates += 1
            self._ack_due = True
            return
        record = bytes(buf[m.HEADER : n])
        if ahead > 0 or self.state is None:
            if seq not in self._pending and len(self._pending) < MAX_PENDING:
                self._pending[seq] = record
                self.out_of_order += 1
            self._ack_due = True
            return
        self._apply(seq, record)
        self._drain()

    def _drain(self):
        while self.rx_next in self._pending:
            seq = self.rx_next
            self._apply(seq, self._pending.pop(seq))
        # Anything left behind rx_next is a stale copy.
        for seq in [s for s in self._pending if m.seq_diff(s, self.rx_next) < 0]:
            del self._pending[seq]

    def _apply(self, seq, record):
        # Counted as handled before the applier runs (refused or not, the board hears of
        # it), so that resume_point() inside the applier is the point to save with it.
        self.rx_next = (seq + 1) & 0xFF
        reason = ""
        try:
            self.applier(self.state, record)
            accepted = True
            self.events_applied += 1
        except (EventError, ValueError) as err:
            accepted = False
            reason = str(err)
        except Exception as err:  # a plugged-in applier's bug must not stall the link
            accepted = False
            reason = "the applier failed: %s: %s" % (type(err).__name__, err)
        if not accepted:
            self.events_rejected += 1
            self._send_error(m.E_REJECTED, seq)
        self._ack_due = True
        self._dirty = True
        if self._replay_through >= 0 and m.seq_diff(seq, self._replay_through) >= 0:
            self._replay_through = -1
        if self.on_event is not None:
            self.on_event(record, accepted, reason)

    def _on_snapshot(self, buf, n):
        """The board's own state, sent because we asked for it (HELLO_WANT_STATE)."""
        if self.state is not None:
            self._ack_due = True
            return
        adopted = GameState()
        try:
            codec.decode(bytes(buf[m.HEADER : n]), adopted)
        except codec.CodecError:
            self.bad_messages += 1
            return
        self.state = adopted
        self.rx_next = (buf[1] + 1) & 0xFF
        self._drain()
        self._ack_due = True
        self._dirty = True

    def _acked(self, ack, now_ms):
        if m.seq_diff(ack, self._board_ack) > 0 and m.seq_diff(ack, self.tx_next) < 0:
            self._board_ack = ack
        self._rtt_acked(ack, now_ms)
        if self._snap is not None and m.seq_diff(ack, self._snap_seq) >= 0:
            self._snap = None
            if self._describing_now is not None:
                self._described = self._describing_now
                self._describing_now = None

    def _on_pong(self, buf, n):
        if n != m.HEADER + m.PING_BODY or self.state is None:
            return
        digest = (buf[m.HEADER] << 8) | buf[m.HEADER + 1]
        journalled = buf[m.HEADER + 4]
        if (
            self.quiet()
            and journalled == 0
            and m.seq_diff(buf[1], self.rx_next - 1) == 0
            and m.seq_diff(buf[2], self.tx_next - 1) == 0
        ):
            self.digest_checks += 1
            if digest != state_digest(self.state):
                self.digest_mismatches += 1
                self.resyncs += 1
                self._dirty = True

    def _on_error(self, buf, n):
        if n < m.HEADER + m.ERROR_BODY:
            self.bad_messages += 1
            return
        code = buf[m.HEADER]
        detail = buf[m.HEADER + 1]
        if code == m.E_VERSION:
            if self.linked or detail == m.PROTOCOL_VERSION:
                # A linked board passed the version check, and no board refuses our own
                # version: a damaged frame.
                self.bad_messages += 1
                return
            self._version_mismatch(detail)
        elif code == m.E_BAD_SNAPSHOT:
            self._dirty = True
        elif code == m.E_NO_DESCRIPTOR:
            # The board holds no descriptor of ours on this link: describe the game again
            # (unless one is on its way), then snapshot.
            if self._describing and self._describing_now is None:
                self._described = None
                self._dirty = True
        elif code == m.E_BAD_DESCRIPTOR:
            # Resent until acknowledged (a damaged frame passes the CRC 1 in 65,536); a
            # descriptor the board can never take is a bug of its ruleset: say so.
            self.descriptors_refused += 1
            self.error_text = "the board refused the ruleset descriptor"
        elif code == m.E_JOURNAL_FULL:
            self.board_refused = detail
        else:
            self.bad_messages += 1  # E_REJECTED comes from hosts only; other codes: unknown

    def _other_board(self, hello, now_ms):
        """A board with another id on our port (a re-plug gave the port's name to another
        board): refuse it, unlinked, and sync nothing into it. Its HELLOs keep coming; the
        board we linked with is accepted when it comes back."""
        self.other_boards += 1
        if self.linked:
            self._unlink(now_ms)
        self.error_code = OTHER_BOARD
        self.error_text = (
            "another board is on this port (board id %s, not %s, the one this game is "
            "linked with): plug that board back in, or restart to play with this one"
            % (hello.id_text(), self.board_id.hex())
        )

    def _version_mismatch(self, theirs):
        """The board speaks protocol `theirs`: stop linking and say which side to update."""
        self.error_code = m.E_VERSION
        update = "host" if theirs > m.PROTOCOL_VERSION else "board firmware"
        self.error_text = (
            "the board speaks link protocol %d, this host speaks %d: update the %s"
            % (
                theirs,
                m.PROTOCOL_VERSION,
                update,
            )
        )
        self.linked = False
        self._snap = None
        self._probe_every = PROBE_MAX_MS


def _sooner(wait, now_ms, due):
    left = ticks_diff(due, now_ms)
    return left if left < wait else wait
