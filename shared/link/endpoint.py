"""What both ends of a link share: the timers, reading frames off a stream, writing frames,
and the counters. BoardSession and HostSession add each side's half of the protocol.

The stream has the shape of CircuitPython's `usb_cdc.data` and of a pyserial port:
`in_waiting`, `readinto(buf)` and `write(buf)`. Stream errors (a pulled cable on the host)
propagate to the caller; bad bytes never do.
"""

from shared.compat import const
from shared.link import framing

# Timers, in milliseconds.
RTO_MIN_MS = const(100)  # first retransmission timeout; doubles on each miss
RTO_MAX_MS = const(2000)
HELLO_MS = const(500)  # the board repeats its HELLO this often until a host accepts it
PROBE_MIN_MS = const(200)  # the host repeats its HELLO probe from this often ...
PROBE_MAX_MS = const(2000)  # ... backing off to this
PING_MS = const(1000)  # the host's heartbeat
LINK_TIMEOUT_MS = const(3000)  # silence after which a side calls the link down

WINDOW = const(16)  # events in flight before the board waits for an ack
READ_CHUNK = const(64)
READ_BUDGET = const(4)  # chunks read per poll, so one poll stays short on the board

_ZERO = b"\x00"


class Endpoint:
    def __init__(self, stream):
        self.stream = stream
        self.decoder = framing.FrameDecoder()
        self._chunk = bytearray(READ_CHUNK)
        self._chunk_mv = memoryview(self._chunk)
        self._payload = bytearray(framing.MAX_PAYLOAD + framing.CRC_BYTES)
        self._wire = bytearray(framing.MAX_WIRE + 1)
        self._wire_mv = memoryview(self._wire)
        self.read_budget = READ_BUDGET
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

    def _pump(self, now_ms):
        """Read what the stream holds (up to the budget) and handle every good frame."""
        stream = self.stream
        dec = self.decoder
        chunk = self._chunk
        budget = self.read_budget
        while budget > 0:
            n = stream.in_waiting
            if not n:
                return
            if n > READ_CHUNK:
                n = READ_CHUNK
            got = stream.readinto(self._chunk_mv[:n])
            if not got:
                return
            self.bytes_received += got
            pos = 0
            while pos < got:
                pos = dec.feed(chunk, pos, got)
                if dec.length:
                    self._handle(dec.buf, dec.length, now_ms)
            budget -= 1

    def _handle(self, buf, n, now_ms):
        raise NotImplementedError

    def _send(self, n):
        """Frame and write self._payload[0:n]. Every frame carries our cumulative ack."""
        length = framing.encode_frame(self._payload, n, self._wire)
        self.stream.write(self._wire_mv[:length])
        self.frames_sent += 1
        self.bytes_sent += length
        self._ack_due = False

    def _send_delimiter(self):
        """A lone 0x00 ends whatever partial frame the peer's decoder holds."""
        self.stream.write(_ZERO)
        self.bytes_sent += 1

    def dropped_frames(self):
        return self.decoder.dropped()
