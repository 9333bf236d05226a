"""Frames on the wire: COBS(payload + CRC-16) followed by one 0x00 delimiter; and
`Endpoint`, what both ends of a link share (see its comment below).

The check is CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no final
xor; "123456789" gives 0x29B1) run over the payload and then over one more byte, the
payload's length mod 256 (`frame_check`), appended high byte first. A plain CRC without a
final xor is blind to zero bytes appended after its own value, so a 0x01 inserted before
the delimiter (one more 0x00 after COBS decoding) would pass every time; with the length
folded in, any change of length needs a 1-in-65,536 coincidence. COBS removes every 0x00 from the
frame, so a 0x00 on the wire always ends a frame and a receiver resynchronises at the next
one whatever came before it.

`FrameDecoder` owns one preallocated buffer of MAX_FRAME bytes. Garbage, truncated,
corrupted, too short and oversize frames are dropped and counted; nothing here raises on
input and nothing allocates.
"""

from adafruit_ticks import ticks_diff

from shared import codec
from shared.compat import const
from shared.descriptor import MAX_DESCRIPTOR
from shared.link.messages import seq_diff

MIN_PAYLOAD = const(3)  # the message header
# The largest payload: the header plus the larger of the largest encoded state (it follows
# MAX_SLOTS) and the largest descriptor, plus one spare byte. COBS adds one byte per 254,
# the CRC two, the delimiter one.
MAX_PAYLOAD = MIN_PAYLOAD + max(codec.MAX_ENCODED, MAX_DESCRIPTOR) + 1
# Names needed only above go, so that their slots in this module's globals take the names
# below and the table stays a size smaller (docs/memory.md); `const` goes after its last use.
del MAX_DESCRIPTOR
CRC_BYTES = const(2)
MAX_FRAME = MAX_PAYLOAD + CRC_BYTES + (MAX_PAYLOAD + CRC_BYTES + 253) // 254
MAX_WIRE = MAX_FRAME + 1  # and the delimiter
_DELIMITER = const(0)


def crc16(data, start, end, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of data[start:end], without a table and without allocating."""
    for i in range(start, end):
        x = ((crc >> 8) ^ data[i]) & 0xFF
        x ^= x >> 4
        crc = ((crc << 8) ^ (x << 12) ^ (x << 5) ^ x) & 0xFFFF
    return crc


def state_digest(state, buf=None):
    """The state digest heartbeats carry (shared/link/digest.py says more): CRC-16 of the
    encoded state. With a buffer of codec.MAX_ENCODED bytes it allocates nothing."""
    if buf is None:
        buf = bytearray(codec.MAX_ENCODED)
    n = codec.encode(state, buf)
    return crc16(buf, 0, n)


def frame_check(data, n):
    """The frame check of the payload data[0:n]: its CRC, then the CRC run on over the
    byte n mod 256 (the length costs nothing on the wire and nothing allocated)."""
    # crc16's loop, run here over the payload and then the length byte (i == n): a call
    # to crc16 would be one level more under a press's send, the board's deepest path.
    crc = 0xFFFF
    for i in range(n + 1):
        x = ((crc >> 8) ^ (data[i] if i < n else n & 0xFF)) & 0xFF
        x ^= x >> 4
        crc = ((crc << 8) ^ (x << 12) ^ (x << 5) ^ x) & 0xFFFF
    return crc


def cobs_encode(src, n, dst, at=0):
    """COBS-encode src[0:n] into dst from dst[at] on (room for n + n // 254 + 1 bytes);
    returns the length. The result holds no 0x00 byte."""
    code_pos = at
    out = at + 1
    code = 1
    for i in range(n):
        b = src[i]
        if b:
            dst[out] = b
            out += 1
            code += 1
        if not b or code == 0xFF:
            dst[code_pos] = code
            code = 1
            code_pos = out
            if not b or i + 1 < n:
                out += 1
    dst[code_pos] = code
    return out - at


def cobs_decode_in_place(buf, n):
    """Decode the COBS block buf[0:n] in place; returns the decoded length, or -1 if the
    block is malformed (a code byte that points past the end, or a 0x00 inside)."""
    read = 0
    write = 0
    while read < n:
        code = buf[read]
        if code == 0:
            return -1
        read += 1
        end = read + code - 1
        if end > n:
            return -1
        while read < end:
            b = buf[read]
            if b == 0:
                return -1
            buf[write] = b
            write += 1
            read += 1
        if code != 0xFF and read < n:
            buf[write] = 0
            write += 1
    return write


def encode_frame(payload, n, out, at=0):
    """Frame payload[0:n] into `out` from out[at] on (room for MAX_WIRE bytes); returns the
    bytes to send.

    `payload` needs CRC_BYTES spare bytes after n: the CRC is written there first."""
    if n > MAX_PAYLOAD:
        raise ValueError("payload of %d bytes exceeds the %d maximum" % (n, MAX_PAYLOAD))
    crc = frame_check(payload, n)
    payload[n] = crc >> 8
    payload[n + 1] = crc & 0xFF
    length = cobs_encode(payload, n + CRC_BYTES, out, at)
    out[at + length] = _DELIMITER
    return length + 1


class FrameDecoder:
    """Turns a byte stream into checked payloads, one at a time, in a fixed buffer.

    Feed it with `pos = decoder.feed(data, pos, end)` in a loop: it stops after each good
    frame with `decoder.length` > 0 and the payload (header and body, CRC removed) in
    `decoder.buf[:decoder.length]`; the payload stays valid until the next feed.
    """

    def __init__(self):
        self.buf = bytearray(MAX_FRAME)
        self.length = 0
        self._n = 0
        self._over = False
        self.frames = 0  # good frames
        self.crc_errors = 0
        self.malformed = 0  # bad COBS, or too short to hold a header and a CRC
        self.oversize = 0
        self.dropped_bytes = 0

    def dropped(self):
        """Frames dropped for any reason."""
        return self.crc_errors + self.malformed + self.oversize

    def feed(self, data, pos, end):
        """Consume data[pos:end] up to and including the next good frame's delimiter;
        returns the position to continue from."""
        self.length = 0
        buf = self.buf
        cap = len(buf)
        n = self._n
        while pos < end:
            b = data[pos]
            pos += 1
            if b:
                if n < cap:
                    buf[n] = b
                    n += 1
                else:
                    self._over = True
                    self.dropped_bytes += 1
                continue
            if self._over:
                self.oversize += 1
                self.dropped_bytes += n
                self._over = False
                n = 0
                continue
            if n == 0:
                continue  # back-to-back delimiters: a resync marker, not a frame
            # A whole frame: decode it in place, then check it.
            m = cobs_decode_in_place(buf, n)
            if m < MIN_PAYLOAD + CRC_BYTES:
                self.malformed += 1
                self.dropped_bytes += n
            else:
                m -= CRC_BYTES  # the payload's length
                if frame_check(buf, m) != (buf[m] << 8) | buf[m + 1]:
                    self.crc_errors += 1
                    self.dropped_bytes += n
                else:
                    self.frames += 1
                    self.length = m
                    n = 0
                    break
            n = 0
        self._n = n
        return pos


# -- the endpoint (here, not in a module of its own: a module costs the board's heap) ----
#
# What both ends of a link share: the timers, reading frames off a stream, the payload
# buffer and the counters. BoardSession and HostSession add each side's half of the
# protocol, and each writes its frames its own way (`_send`): the board without allocating,
# behind what its stream has not taken yet.
#
# The stream has the shape of CircuitPython's `usb_cdc.data` and of a pyserial port:
# `in_waiting`, `readinto(buf)` and `write(buf)`. Stream errors (a pulled cable on the host)
# propagate to the caller; bad bytes never do.

# Timers, in milliseconds (the host's own, probe and heartbeat, are in host.py; the board's
# HELLO repeat in board.py).
RTO_MIN_MS = const(20)  # the floor of the retransmission timeout; it doubles on each miss
RTO_MAX_MS = const(400)
_RTT_FIRST_MS = const(50)  # the round trip assumed before one is measured
LINK_TIMEOUT_MS = const(3000)  # silence after which a side calls the link down

WINDOW = const(16)  # events in flight before the board waits for an ack
_READ_CHUNK = const(64)  # a power of two (see _pump)
del const


class Endpoint:
    read_budget = 4  # chunks' worth of bytes read per poll, so a poll stays short

    def __init__(self, stream):
        self.stream = stream
        self.decoder = FrameDecoder()
        self._payload = bytearray(MAX_PAYLOAD + CRC_BYTES)
        # Slicing a memoryview allocates, so the reads' views are made once and reused: one
        # per power of two up to _READ_CHUNK, of one chunk (the last view is all of it).
        # (Each end writes its frames its own way.)
        chunk = memoryview(bytearray(_READ_CHUNK))
        self._chunk_views = []
        size = 1
        while size <= _READ_CHUNK:
            self._chunk_views.append(chunk[:size])
            size *= 2
        self.rx_next = 0  # the next sequence number expected from the peer
        self.tx_next = 0  # the next sequence number this side assigns
        self.linked = False
        self._ack_due = False
        self.frames_sent = 0
        self.retransmits = 0
        self.bad_messages = 0  # a good CRC around a message that does not parse
        self.srtt = _RTT_FIRST_MS  # smoothed round trip, measured on frames sent once
        self._rtt_seq = -1  # the frame being timed (-1: none)
        self._rtt_at = 0

    def _rtt_start(self, seq, now_ms):
        if self._rtt_seq < 0:
            self._rtt_seq = seq
            self._rtt_at = now_ms

    def _rtt_acked(self, ack, now_ms):
        """Karn's rule: only a frame sent once gives a sample (_rtt_cancel on resends)."""
        if self._rtt_seq >= 0 and seq_diff(ack, self._rtt_seq) >= 0:
            self._rtt_seq = -1
            sample = ticks_diff(now_ms, self._rtt_at)
            if sample >= 0:
                self.srtt = (7 * self.srtt + sample) >> 3

    def _rtt_cancel(self):
        self._rtt_seq = -1

    def base_rto(self):
        """The retransmission timeout after progress: twice the round trip plus slack."""
        rto = 2 * self.srtt + RTO_MIN_MS
        return rto if rto < RTO_MAX_MS else RTO_MAX_MS

    def _pump(self, now_ms):
        """Read what the stream holds (up to the budget) and handle every good frame."""
        stream = self.stream
        dec = self.decoder
        views = self._chunk_views
        chunk = views[-1]
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
            pos = 0
            while pos < got:
                pos = dec.feed(chunk, pos, got)
                if dec.length:
                    self._handle(dec.buf, dec.length, now_ms)
            room -= got

    def dropped_frames(self):
        return self.decoder.dropped()
