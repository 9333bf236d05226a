"""A fault-injecting proxy between a board and the host, over real pseudo-terminals.

The board opens `board_path` (a pty); the host opens `host_path`, a symlink to a second pty
(as udev's /dev/serial/by-id links point at the current ttyACM). In between, the proxy
forwards whole frames (it cuts the byte stream at each 0x00) and, at the rates given,
corrupts bytes, drops frames, truncates them, inserts garbage, pads a frame with one 0x01
before its delimiter or cuts its last COBS code byte (the two kinds of damage that move
the frame's end, which a plain CRC without a final xor misses), and pulls the cable: it
removes the symlink and closes the host's pty (the host's port raises SerialException),
discards what the board sends while "unplugged", then makes a new pty and a new symlink.

The echo fault models a port that gives back what is written to it, as a board's REPL
console does: with `echo="added"` each end reads back every frame it sends, besides its
peer's; with `echo="instead"` the host reads back its own frames and nothing passes either
way (the console opened instead of the data port). Echoed frames are the sender's bytes,
undamaged (the other faults apply to what is forwarded).
"""

from __future__ import annotations

import collections
import errno
import os
import random
import select
import tempfile
import threading
import time
import tty
from dataclasses import dataclass
from pathlib import Path

ECHO_MODES = ("", "added", "instead")


@dataclass
class Faults:
    corrupt: float = 0.0  # per byte: replaced by a different random byte
    drop: float = 0.0  # per frame: not forwarded at all
    truncate: float = 0.0  # per frame: cut short at a random point (the delimiter kept)
    garbage: float = 0.0  # per frame: 1..32 random bytes inserted before it
    pad: float = 0.0  # per frame: one 0x01 inserted before the delimiter (a 0x00 more, decoded)
    cut_code: float = 0.0  # per frame: its last COBS code byte lost
    disconnect_every: int = 0  # frames between cable pulls (randomised ±50%); 0 = never
    down_seconds: float = 0.05  # how long the cable stays out
    baud: int = 0  # pace each direction as a UART at this rate (10 bits a byte); 0 = not
    echo: str = ""  # "" none; "added" or "instead" (see the module's docstring)

    def __post_init__(self) -> None:
        if self.echo not in ECHO_MODES:
            raise ValueError(f"echo must be one of {ECHO_MODES}, not {self.echo!r}")


@dataclass
class FaultCounts:
    frames: int = 0
    corrupted_bytes: int = 0
    dropped_frames: int = 0
    truncated_frames: int = 0
    garbage_inserts: int = 0
    padded_frames: int = 0
    cut_code_frames: int = 0
    disconnects: int = 0
    discarded_bytes: int = 0  # sent while the cable was out, or into a full pty
    echoed_frames: int = 0  # frames given back to their sender (the echo fault)


def _raw_pty() -> tuple[int, int, str]:
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    return master, slave, os.ttyname(slave)


def pad_frame(frame: bytes) -> bytes:
    """`frame` (ending in its delimiter) with one 0x01 before the delimiter: decoded, the
    payload gains one 0x00 at its end."""
    return frame[:-1] + b"\x01\x00"


def cut_last_code(frame: bytes) -> bytes:
    """`frame` (ending in its delimiter) without the code byte of its last COBS block."""
    block = last = 0
    while block < len(frame) - 1:
        last = block
        block += frame[block] or 1
    return frame[:last] + frame[last + 1 :]


class _Direction:
    """One way through the proxy: cuts frames at 0x00 and damages them."""

    def __init__(self, proxy: FaultProxy, echoes: bool) -> None:
        self.proxy = proxy
        self.pending = bytearray()
        self.echoes = echoes  # this side's port gives its frames back (the echo fault)
        self.echoed = bytearray()  # frames to give back, taken by the proxy's loop

    def push(self, data: bytes) -> bytes:
        out = bytearray()
        forward = self.proxy.faults.echo != "instead"
        for b in data:
            self.pending.append(b)
            if b == 0:
                frame = bytes(self.pending)
                if self.echoes:
                    self.echoed += frame
                    self.proxy.counts.echoed_frames += 1
                if forward:
                    out += self.proxy._damage(frame)
                self.pending.clear()
        return bytes(out)

    def take_echo(self) -> bytes:
        echoed = bytes(self.echoed)
        self.echoed.clear()
        return echoed


class FaultProxy:
    def __init__(
        self, faults: Faults | None = None, seed: int = 1, directory: str | None = None
    ) -> None:
        self.faults = faults or Faults()
        self.counts = FaultCounts()
        self.rng = random.Random(seed)
        self._tmp = tempfile.TemporaryDirectory(prefix="turnlight-proxy-", dir=directory)
        self.host_path = str(Path(self._tmp.name) / "host-port")
        self._board_master, self._board_slave, self.board_path = _raw_pty()
        self._host_master: int | None = None
        self._host_slave: int | None = None
        self._plug_in()
        echo = self.faults.echo
        self._up = _Direction(self, echoes=echo == "added")  # the board's frames
        self._down = _Direction(self, echoes=bool(echo))  # the host's
        self._next_pull = self._pull_after()
        # Paced (Faults.baud): per direction, when the wire is next free and the bytes on it
        # with the time each chunk has arrived in full.
        self._wire_free = {"up": 0.0, "down": 0.0}
        self._on_wire: dict[str, collections.deque[tuple[float, bytes]]] = {
            "up": collections.deque(),
            "down": collections.deque(),
        }
        self._pull_now = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.lock = threading.Lock()

    # -- lifecycle ----------------------------------------------------------------------

    def start(self) -> FaultProxy:
        self._thread = threading.Thread(target=self._run, name="fault proxy", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._unplug()
        for fd in (self._board_master, self._board_slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self._tmp.cleanup()

    def __enter__(self) -> FaultProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def pull_cable(self) -> None:
        """Pull the cable once, now (it comes back after faults.down_seconds)."""
        self._pull_now.set()

    # -- the cable ----------------------------------------------------------------------

    def _plug_in(self) -> None:
        master, slave, path = _raw_pty()
        self._host_master, self._host_slave = master, slave
        link = self.host_path + ".new"
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(path, link)
        os.replace(link, self.host_path)

    def _unplug(self) -> None:
        # The path goes first, as a real unplug takes /dev/ttyACMn away: a host that reopened
        # it while the cable is out would get whichever program the freed pty number goes to
        # next (a terminal), switch it to raw mode and read its keystrokes.
        if os.path.lexists(self.host_path):
            os.unlink(self.host_path)
        for fd in (self._host_master, self._host_slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._host_master = self._host_slave = None

    def _pull_after(self) -> int:
        every = self.faults.disconnect_every
        if every <= 0:
            return -1
        return self.counts.frames + self.rng.randint(every // 2, every + every // 2)

    # -- damage -------------------------------------------------------------------------

    def _damage(self, frame: bytes) -> bytes:
        f, c, rng = self.faults, self.counts, self.rng
        c.frames += 1
        if f.drop and rng.random() < f.drop:
            c.dropped_frames += 1
            return b""
        if f.truncate and len(frame) > 2 and rng.random() < f.truncate:
            c.truncated_frames += 1
            frame = frame[: rng.randrange(1, len(frame) - 1)] + b"\x00"
        if f.pad and rng.random() < f.pad:
            c.padded_frames += 1
            frame = pad_frame(frame)
        if f.cut_code and len(frame) > 2 and rng.random() < f.cut_code:
            c.cut_code_frames += 1
            frame = cut_last_code(frame)
        if f.garbage and rng.random() < f.garbage:
            c.garbage_inserts += 1
            frame = bytes(rng.randrange(256) for _ in range(rng.randint(1, 32))) + frame
        if f.corrupt:
            damaged = bytearray(frame)
            for i in range(len(damaged)):
                if rng.random() < f.corrupt:
                    damaged[i] ^= rng.randrange(1, 256)
                    c.corrupted_bytes += 1
            frame = bytes(damaged)
        return frame

    # -- the loop -----------------------------------------------------------------------

    def _write(self, fd: int | None, data: bytes) -> None:
        if not data:
            return
        if fd is None:
            self.counts.discarded_bytes += len(data)
            return
        try:
            written = os.write(fd, data)
            self.counts.discarded_bytes += len(data) - written
        except BlockingIOError:
            self.counts.discarded_bytes += len(data)
        except OSError as err:
            if err.errno != errno.EIO:
                raise
            self.counts.discarded_bytes += len(data)

    def _read(self, fd: int) -> bytes:
        try:
            return os.read(fd, 4096)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError as err:
            if err.errno == errno.EIO:  # nobody has the other end open right now
                return b""
            raise

    def _send(self, way: str, data: bytes) -> None:
        """Put bytes on the wire: at once, or (paced) arriving as a UART would deliver
        them, each chunk in full once its last byte is through."""
        if not data:
            return
        if not self.faults.baud:
            self._write(self._host_master if way == "up" else self._board_master, data)
            return
        start = max(time.monotonic(), self._wire_free[way])
        self._wire_free[way] = start + len(data) * 10 / self.faults.baud
        self._on_wire[way].append((self._wire_free[way], data))

    def _deliver(self, now: float) -> None:
        for way, wire in self._on_wire.items():
            while wire and wire[0][0] <= now:
                _, data = wire.popleft()
                self._write(self._host_master if way == "up" else self._board_master, data)

    def _wait(self, now: float) -> float:
        """How long the loop may wait for bytes: 5 ms, or less when paced bytes are due."""
        due = [wire[0][0] for wire in self._on_wire.values() if wire]
        return max(0.0, min([0.005, *(d - now for d in due)]))

    def _run(self) -> None:
        down_until = 0.0
        while not self._stop.is_set():
            now = time.monotonic()
            pull = self._pull_now.is_set() or (0 <= self._next_pull <= self.counts.frames)
            if self._host_master is not None and pull:
                self._pull_now.clear()
                with self.lock:
                    self._unplug()
                    self.counts.disconnects += 1
                    self._up.pending.clear()
                    self._down.pending.clear()
                    for wire in self._on_wire.values():  # what was on the cable is gone
                        wire.clear()
                down_until = now + self.faults.down_seconds
            if self._host_master is None and now >= down_until:
                with self.lock:
                    self._plug_in()
                self._next_pull = self._pull_after()
            fds = [self._board_master]
            if self._host_master is not None:
                fds.append(self._host_master)
            ready, _, _ = select.select(fds, [], [], self._wait(now))
            if self._board_master in ready:
                data = self._read(self._board_master)
                self._send("up", self._up.push(data))
                self._send("down", self._up.take_echo())  # back to the board
            host = self._host_master
            if host is not None and host in ready:
                data = self._read(host)
                self._send("down", self._down.push(data))
                self._send("up", self._down.take_echo())  # back to the host
            self._deliver(time.monotonic())
