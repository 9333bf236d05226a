"""Helpers for the link tests, which run under both CPython and MicroPython: an in-memory
serial line with a switch (the cable) and a way to lose or repeat frames, and a driver
that steps a board and a host on a fake clock."""

from shared import roster
from shared.link.board import BoardSession
from shared.link.host import HostSession
from shared.reference import build_reference_state


class Wire:
    """One direction of a cable: bytes written at one end are read at the other."""

    def __init__(self):
        self.data = bytearray()
        self.pos = 0
        self.plugged = True
        self.drop_next_frames = 0  # frames (ending at 0x00) to swallow
        self.repeat_next_frames = 0  # frames to deliver twice
        self.rewrite = None  # rewrite(frame) -> the bytes to deliver instead (a translator)
        # A Wire that also gets every byte sent here, cable or not: the sender's own port
        # echoes (a REPL console does), so the sender reads its own frames back.
        self.echo_to = None
        self.frames = 0  # frames sent into this direction (lone delimiters not counted)
        self._frame = bytearray()

    def send(self, buf):
        if self.echo_to is not None:
            self.echo_to.data.extend(bytes(buf))
        if not self.plugged:
            return
        for b in bytes(buf):
            self._frame.append(b)
            if b == 0:
                frame = bytes(self._frame)
                self._frame = bytearray()
                if len(frame) > 1:
                    self.frames += 1
                if self.rewrite is not None:
                    frame = self.rewrite(frame)
                if self.drop_next_frames and len(frame) > 1:
                    self.drop_next_frames -= 1
                    continue
                self.data.extend(frame)
                if self.repeat_next_frames and len(frame) > 1:
                    self.repeat_next_frames -= 1
                    self.data.extend(frame)

    def inject(self, raw):
        self.data.extend(raw)

    def available(self):
        return len(self.data) - self.pos

    def take(self, buf):
        n = len(buf)
        if n > self.available():
            n = self.available()
        for i in range(n):
            buf[i] = self.data[self.pos + i]
        self.pos += n
        if self.pos > 1024:  # small: a VM runs these tests in a small heap
            self.data = self.data[self.pos :]
            self.pos = 0
        return n


class End:
    """One end of the cable, shaped like usb_cdc.data and a pyserial port."""

    def __init__(self, incoming, outgoing):
        self.incoming = incoming
        self.outgoing = outgoing

    @property
    def in_waiting(self):
        return self.incoming.available()

    def readinto(self, buf):
        return self.incoming.take(buf)

    def write(self, buf):
        self.outgoing.send(buf)
        return len(buf)


class Table:
    """A board and a host joined by a cable, stepped together on a fake clock."""

    def __init__(
        self, host_state="reference", nonce=7, journal_events=120, applier=None, undo=True
    ):
        self.up = Wire()  # board -> host
        self.down = Wire()  # host -> board
        self.now = 1000
        self.applied = []
        self.refused = []
        self.board = BoardSession(
            End(self.down, self.up),
            build_reference_state(),
            nonce=nonce,
            journal_events=journal_events,
            now_ms=self.now,
            undo=undo,
        )
        if host_state == "reference":
            host_state = build_reference_state()
        self.host = HostSession(
            End(self.up, self.down), host_state, applier, self._record, now_ms=self.now
        )

    def restart_board(self, nonce):
        """The board reboots: a new session (new nonce, empty journal, sequence numbers
        from 0) on the same cable, starting from the host's state."""
        state = build_reference_state()
        roster.copy_state(state, self.host.state)
        self.board = BoardSession(End(self.down, self.up), state, nonce=nonce, now_ms=self.now)

    def _record(self, record, accepted, reason):
        if accepted:
            self.applied.append(bytes(record))
        else:
            self.refused.append((bytes(record), reason))

    def run(self, ms, step=5):
        for _ in range(ms // step):
            self.board.poll(self.now)
            self.host.poll(self.now)
            self.now += step

    def plug(self, on):
        self.up.plugged = on
        self.down.plugged = on

    def settle(self, ms=3000):
        """Step until both ends are quiet and agree (or `ms` passes)."""
        for _ in range(ms // 5):
            self.run(5)
            if self.board.journal.count == 0 and self.host.quiet() and not self.host._dirty:
                self.run(20)
                return True
        return False
