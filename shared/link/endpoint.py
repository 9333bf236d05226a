"""What both ends of a link share: the timers, reading frames off a stream, writing frames,
and the counters. BoardSession and HostSession add each side's half of the protocol.

The stream has the shape of CircuitPython's `usb_cdc.data` and of a pyserial port:
`in_waiting`, `readinto(buf)` and `write(buf)`. Stream errors (a pulled cable on the host)
propagate to the caller; bad bytes never do.
"""

from adafruit_ticks import ticks_diff

from shared.compat import const
from shared.link import framing
from shared.link.messages import seq_diff

# Timers, in milliseconds (the host's own, probe and heartbeat, are in host.py).
RTO_MIN_MS = const(20)  # the floor of the retransmission timeout; it doubles on each miss
RTO_MAX_MS = const(400)
_RTT_FIRST_MS = const(50)  # the round trip assumed before one is measured
HELLO_MS = const(250)  # the board repeats its HELLO this often until a host accepts it
LINK_TIMEOUT_MS = const(3000)  # silence after which a side calls the link down

WINDOW = const(16)  # events in flight before the board waits for an ack
_READ_CHUNK = const(64)  # a power of two (see _pump)
_READ_BUDGET = const(4)  # chunks' worth of bytes read per poll, so a poll stays short
# Frames up to this long on the wire (every kind but a snapshot: the longest, an EVENT with
# 15 dice, takes 26 bytes) reuse a view made once; a longer one slices a new view.
_SHORT_WIRE = const(32)

_ZERO = b"\x00"


class Endpoint:
    def __init__(self, stream):
        self.stream = stream
        self.decoder = framing.FrameDecoder()
        self._chunk = bytearray(_READ_CHUNK)
        self._chunk_mv = memoryview(self._chunk)
        self._payload = bytearray(framing.MAX_PAYLOAD + framing.CRC_BYTES)
        self._wire = bytearray(framing.MAX_WIRE + 1)
        self._wire_mv = memoryview(self._wire)
        # Slicing a memoryview allocates, so views are made once and reused. Reads: one
        # view per power of two up to _READ_CHUNK, made here. Writes: each length's view is
        # made on first use (frames of one type have one length, so heartbeats allocate
        # nothing); only snapshots are longer than _SHORT_WIRE, and never sent while idle.
        self._chunk_views = []
        size = 1
        while size <= _READ_CHUNK:
            self._chunk_views.append(self._chunk_mv[:size])
            size *= 2
        self._wire_views = [None] * (_SHORT_WIRE + 1)
        self.read_budget = _READ_BUDGET
        self.rx_next = 0  # the next sequence number expected from the peer
        self.tx_next = 0  # the next sequence number this side assigns
        self.linked = False
        self._ack_due = False
        self.frames_sent = 0
        self.bytes_sent = 0
        self.bytes_received = 0
        self.duplicates = 0  # sequenced frames that arrived again and were ignored
        self.out_of_order = 0  # sequenced frames that arrived past a hole
        self.retransmits = 0
        self.bad_messages = 0  # a good CRC around a message that does not parse
        self.srtt = _RTT_FIRST_MS  # smoothed round trip, measured on frames sent once
        self._rtt_on = False
        self._rtt_seq = 0
        self._rtt_at = 0

    def _rtt_start(self, seq, now_ms):
        if not self._rtt_on:
            self._rtt_on = True
            self._rtt_seq = seq
            self._rtt_at = now_ms

    def _rtt_acked(self, ack, now_ms):
        """Karn's rule: only a frame sent once gives a sample (_rtt_cancel on resends)."""
        if self._rtt_on and seq_diff(ack, self._rtt_seq) >= 0:
            self._rtt_on = False
            sample = ticks_diff(now_ms, self._rtt_at)
            if sample >= 0:
                self.srtt = (7 * self.srtt + sample) >> 3

    def _rtt_cancel(self):
        self._rtt_on = False

    def base_rto(self):
        """The retransmission timeout after progress: twice the round trip plus slack."""
        rto = 2 * self.srtt + RTO_MIN_MS
        return rto if rto < RTO_MAX_MS else RTO_MAX_MS

    def _pump(self, now_ms):
        """Read what the stream holds (up to the budget) and handle every good frame."""
        stream = self.stream
        dec = self.decoder
        chunk = self._chunk
        views = self._chunk_views
        room = self.read_budget * _READ_CHUNK  # bytes this poll may read
        while room > 0:
            n = stream.in_waiting
            if not n:
                return
            if n > room:
                n = room
            # Read the largest power of two that is waiting (at most _READ_CHUNK bytes): the
            # rest comes on the next read.
            i = len(views) - 1
            while n < len(views[i]):
                i -= 1
            got = stream.readinto(views[i])
            if not got:
                return
            self.bytes_received += got
            pos = 0
            while pos < got:
                pos = dec.feed(chunk, pos, got)
                if dec.length:
                    self._handle(dec.buf, dec.length, now_ms)
            room -= got

    def _handle(self, buf, n, now_ms):
        raise NotImplementedError

    def _send(self, n):
        """Frame and write self._payload[0:n]. Every frame carries our cumulative ack."""
        length = framing.encode_frame(self._payload, n, self._wire)
        if length > _SHORT_WIRE:
            view = self._wire_mv[:length]
        else:
            view = self._wire_views[length]
            if view is None:
                view = self._wire_views[length] = self._wire_mv[:length]
        self.stream.write(view)
        self.frames_sent += 1
        self.bytes_sent += length
        self._ack_due = False

    def _send_delimiter(self):
        """A lone 0x00 ends whatever partial frame the peer's decoder holds."""
        self.stream.write(_ZERO)
        self.bytes_sent += 1

    def dropped_frames(self):
        return self.decoder.dropped()
