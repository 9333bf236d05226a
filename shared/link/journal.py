"""The board's bounded journal: local events the host has not yet acknowledged.

It is one preallocated ring of JOURNAL_EVENTS fixed-size records. While the host answers it
holds the few events in flight; while no host answers it keeps everything played offline,
in order. When it is full a new event is refused (the caller shows that on the board); an
old event is never dropped to make room. Events leave only when the host acknowledges them.
"""

from shared.compat import const
from shared.events import EVENT_MAX

JOURNAL_EVENTS = const(120)  # < 128, so every journalled seq is distinct mod 256
RECORD = const(20)  # 1 seq byte + an event record of up to EVENT_MAX bytes


class Journal:
    def __init__(self, capacity=JOURNAL_EVENTS):
        if not 1 <= capacity < 128:
            raise ValueError("a journal holds 1..127 events, not %d" % capacity)
        self.capacity = capacity
        self.buf = bytearray(capacity * RECORD)
        self.head = 0  # ring index of the oldest event
        self.count = 0
        self.refused = 0  # events refused because the journal was full

    def is_full(self):
        return self.count >= self.capacity

    def push(self, seq, record, n):
        """Append record[0:n] with its seq; returns False (and counts it) when full."""
        if self.count >= self.capacity:
            self.refused += 1
            return False
        if n > EVENT_MAX:
            raise ValueError("event of %d bytes exceeds %d" % (n, EVENT_MAX))
        base = ((self.head + self.count) % self.capacity) * RECORD
        buf = self.buf
        buf[base] = seq & 0xFF
        for i in range(n):
            buf[base + 1 + i] = record[i]
        self.count += 1
        return True

    def offset(self, i):
        """Where the i-th oldest event's record starts in `buf` (its seq is one byte
        before)."""
        return ((self.head + i) % self.capacity) * RECORD + 1

    def seq(self, i):
        return self.buf[((self.head + i) % self.capacity) * RECORD]

    def drop_oldest(self, n):
        if n > self.count:
            n = self.count
        self.head = (self.head + n) % self.capacity
        self.count -= n
        return n

    def clear(self):
        self.head = 0
        self.count = 0
