"""The link over real pseudo-terminals and pyserial: the bridge, the cable being pulled,
a short soak through the fault-injecting proxy, several boards at once, and the errors a
person sees (port missing, port busy, no HELLO, protocol version mismatch)."""

from __future__ import annotations

import errno
import os
import select
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import serial
from waiting import WAIT, until, wait_for

from host.board.bridge import (
    BoardLink,
    Bridge,
    EchoingPortError,
    LinkError,
    NoHelloError,
    PortBusyError,
    PortMissingError,
    ProtocolVersionError,
    _explain,
    open_port,
)
from host.board.fault_proxy import FaultProxy, Faults
from host.board.link_board import LinkBoard
from host.commands.devices import probe
from host.lab.bench_link import soak
from host.rulesets.korxsol.device import FROST
from shared import dice, host_only
from shared import events as ev
from shared.host_only import make_event
from shared.link import framing
from shared.link import messages as m
from shared.link.digest import state_digest
from shared.reference import BIG_TABLE, build_reference_state
from shared.slots import Slots
from shared.state import GameState

NEXT = make_event(ev.NEXT_TURN)


def roll(i: int) -> bytes:
    return make_event(ev.ROLL_ACTION, 0, dice.KIND_ACTION_D3, (i % 3 + 1, 2, 3))


@contextmanager
def board_and_host(
    faults: Faults | None = None, fighters: int = 8
) -> Iterator[tuple[FaultProxy, LinkBoard, BoardLink, list[bytes]]]:
    applied: list[bytes] = []
    with FaultProxy(faults) as proxy:
        # The board keeps its state as a board does (shared/slots.py: two Slot views).
        board_state = build_reference_state(GameState(Slots(2)), fighters)
        with LinkBoard(proxy.board_path, board_state, nonce=3) as board:
            host = BoardLink(
                proxy.host_path,
                build_reference_state(fighters=fighters),
                on_event=lambda record, ok, why: applied.append(record),
            )
            with host:
                host.wait_linked(WAIT)
                yield proxy, board, host, applied


def in_sync(board: LinkBoard, host: BoardLink) -> bool:
    with board.lock, host.lock:
        return (
            board.idle()
            and host.session.quiet()
            and state_digest(board.session.state) == state_digest(host.session.state)
        )


def test_board_and_host_stay_in_sync_over_a_real_pty() -> None:
    with board_and_host() as (_, board, host, applied):
        presses = [NEXT, roll(1), roll(2), make_event(ev.COUNTER_UP, 2, FROST), NEXT]
        board.press(*presses)
        assert wait_for(lambda: in_sync(board, host) and len(applied) == 5)
        assert applied == presses
        assert host.session.state is not None and host.session.state.slots[2].counters[FROST] >= 1


@pytest.mark.parametrize("fighters", [8, BIG_TABLE])
def test_the_link_survives_the_cable_being_pulled_and_loses_nothing(fighters: int) -> None:
    with board_and_host(Faults(down_seconds=0.3), fighters) as (proxy, board, host, applied):
        board.press(NEXT, roll(1))
        assert wait_for(lambda: len(applied) == 2)
        proxy.pull_cable()
        assert wait_for(lambda: host.disconnects >= 1)  # the port raised SerialException
        board.press(roll(2), NEXT, roll(3))  # played while unplugged: journalled
        assert wait_for(lambda: in_sync(board, host) and len(applied) == 5)
        assert applied == [NEXT, roll(1), roll(2), NEXT, roll(3)]
        assert host.connects >= 2


def test_a_short_soak_through_every_fault_loses_and_duplicates_nothing() -> None:
    faults = Faults(corrupt=0.01, drop=0.02, truncate=0.01, garbage=0.01, disconnect_every=150)
    # The board's USB send buffer is cut to 64 B here, so that its writes are cut often.
    result = soak(events=300, faults=faults, seed=7, timeout=300, send_buffer=64)
    assert not result.timed_out
    assert result.events == 300
    assert result.lost == 0 and result.duplicated == 0 and not result.out_of_order
    assert result.digest_mismatches == 0
    counts = result.faults
    assert counts.corrupted_bytes and counts.dropped_frames and counts.disconnects
    assert counts.truncated_frames and counts.garbage_inserts
    assert result.short_writes  # the board's USB send buffer cut writes: nothing was lost


def test_a_short_soak_of_24_fighters_through_every_fault_loses_and_duplicates_nothing() -> None:
    faults = Faults(corrupt=0.01, drop=0.02, truncate=0.01, garbage=0.01, disconnect_every=150)
    result = soak(events=300, faults=faults, seed=11, timeout=300, fighters=BIG_TABLE)
    assert not result.timed_out
    assert result.events == 300
    assert result.lost == 0 and result.duplicated == 0 and not result.out_of_order
    assert result.digest_mismatches == 0
    assert result.faults.disconnects  # the cable came out: the 24-fighter snapshots resync


def test_several_boards_are_served_at_once() -> None:
    applied: dict[str, list[bytes]] = {}
    lock = threading.Lock()

    def record(url: str, event: bytes, ok: bool, why: str) -> None:
        with lock:
            applied.setdefault(url, []).append(event)

    with FaultProxy() as one, FaultProxy() as two:
        boards = [
            LinkBoard(one.board_path, build_reference_state(), nonce=1),
            LinkBoard(two.board_path, build_reference_state(), nonce=2),
        ]
        bridge = Bridge(
            [one.host_path, two.host_path],
            state_for=lambda url: build_reference_state(),
            on_event=record,
        )
        with boards[0], boards[1], bridge:
            bridge.wait_linked(WAIT)
            boards[0].press(NEXT, NEXT)
            boards[1].press(roll(1))
            links = [bridge.links[one.host_path], bridge.links[two.host_path]]
            assert wait_for(lambda: all(in_sync(b, h) for b, h in zip(boards, links, strict=True)))
            assert applied == {one.host_path: [NEXT, NEXT], two.host_path: [roll(1)]}


def test_a_missing_port_is_a_clear_error() -> None:
    with pytest.raises(PortMissingError, match="does not exist"):
        open_port("/dev/turnlight-no-such-port")
    with BoardLink("/dev/turnlight-no-such-port") as link:
        with pytest.raises(PortMissingError):
            link.wait_linked(0.3)


def test_a_busy_port_is_a_clear_error() -> None:
    master, slave = os.openpty()
    path = os.ttyname(slave)
    try:
        first = open_port(path)
        try:
            with pytest.raises(PortBusyError, match="busy"):
                open_port(path)
        finally:
            first.close()
    finally:
        os.close(master)
        os.close(slave)


def test_a_busy_port_is_named_busy_by_the_link_too() -> None:
    master, slave = os.openpty()
    path = os.ttyname(slave)
    try:
        first = open_port(path)  # a serial monitor has the port
        try:
            with BoardLink(path) as link:
                with pytest.raises(PortBusyError) as raised:
                    link.wait_linked(0.3)
            text = str(raised.value)
            assert text.startswith(f"port {path} is busy: another program has it open")
            assert "close it" in text
        finally:
            first.close()
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize(
    ("raised", "kind", "says"),
    [
        # Windows: pyserial puts the WinError's repr in the text and no errno.
        (
            serial.SerialException(
                "could not open port 'COM3': PermissionError(13, 'Access is denied.', None, 5)"
            ),
            PortBusyError,
            "port COM3 is busy: another program has it open",
        ),
        (
            serial.SerialException(
                "could not open port 'COM9': FileNotFoundError(2, 'The system cannot find "
                "the file specified.', None, 2)"
            ),
            PortMissingError,
            "port COM9 does not exist",
        ),
        # Linux and macOS: the exclusive lock, or the device itself, says so with an errno.
        (
            serial.SerialException(
                errno.EAGAIN, "Could not exclusively lock port /dev/ttyACM1: [Errno 11] ..."
            ),
            PortBusyError,
            "is busy",
        ),
        (
            serial.SerialException(errno.EBUSY, "[Errno 16] Resource busy"),
            PortBusyError,
            "is busy",
        ),
        (
            serial.SerialException(
                errno.EACCES,
                "could not open port /dev/ttyACM1: [Errno 13] Permission denied: '/dev/ttyACM1'",
            ),
            LinkError,
            "no permission to open /dev/ttyACM1: add yourself to the dialout group",
        ),
    ],
)
def test_open_errors_are_worded_for_each_system(
    raised: serial.SerialException, kind: type, says: str
) -> None:
    url = "COM3" if "COM3" in str(raised) else "COM9" if "COM9" in str(raised) else "/dev/ttyACM1"
    err = _explain(url, raised)
    assert isinstance(err, kind)
    assert says in str(err)


def test_a_board_that_never_says_hello_is_a_clear_error() -> None:
    master, slave = os.openpty()  # a port with nothing running behind it
    try:
        with BoardLink(os.ttyname(slave)) as link:
            with pytest.raises(NoHelloError, match="no HELLO"):
                link.wait_linked(0.5)
    finally:
        os.close(master)
        os.close(slave)


def test_a_protocol_version_mismatch_is_a_clear_error() -> None:
    master, slave = os.openpty()
    hello = bytearray(framing.MAX_PAYLOAD + 2)
    n = m.pack_hello(hello, 0, 0, m.ROLE_BOARD, 0, 9, 0, 1, 8, 4, 0, 0, 5)
    hello[m.HEADER] = m.PROTOCOL_VERSION + 1
    stop = threading.Event()

    def old_board() -> None:
        while not stop.is_set():
            os.write(master, host_only.frame(bytes(hello[:n])))
            time.sleep(0.05)

    talker = threading.Thread(target=old_board, daemon=True)
    talker.start()
    try:
        with BoardLink(os.ttyname(slave)) as link:
            expected = rf"protocol {m.PROTOCOL_VERSION + 1}, this host speaks {m.PROTOCOL_VERSION}"
            with pytest.raises(ProtocolVersionError, match=expected):
                link.wait_linked(WAIT)  # raises at the first HELLO
    finally:
        stop.set()
        talker.join()
        os.close(master)
        os.close(slave)


def _shift_version(payload: bytes, delta: int) -> bytes:
    """HELLO's version byte and ERROR E_VERSION's detail moved by `delta`."""
    out = bytearray(payload)
    mtype = out[0] & ~m.FROM_BOARD
    if mtype == m.HELLO and len(out) > m.HEADER:
        out[m.HEADER] = (out[m.HEADER] + delta) & 0xFF
    elif mtype == m.ERROR and len(out) > m.HEADER + 1 and out[m.HEADER] == m.E_VERSION:
        out[m.HEADER + 1] = (out[m.HEADER + 1] + delta) & 0xFF
    return bytes(out)


class NextVersionPort:
    """The board's port, seen by a real BoardSession as if it spoke protocol version
    PROTOCOL_VERSION + 1: the version bytes are rewritten on the wire both ways."""

    def __init__(self, port: serial.SerialBase) -> None:
        self.port = port
        self.inbox = bytearray()
        self._in = framing.FrameDecoder()
        self._out = framing.FrameDecoder()

    @staticmethod
    def _frames(decoder: framing.FrameDecoder, data: bytes) -> Iterator[bytes]:
        pos = 0
        while pos < len(data):
            pos = decoder.feed(data, pos, len(data))
            if decoder.length:
                yield bytes(decoder.buf[: decoder.length])

    @property
    def in_waiting(self) -> int:
        waiting = self.port.in_waiting
        if waiting:
            for payload in self._frames(self._in, self.port.read(waiting)):
                self.inbox += host_only.frame(_shift_version(payload, -1))
        return len(self.inbox)

    def readinto(self, buf: memoryview) -> int:
        n = min(len(buf), len(self.inbox))
        buf[:n] = self.inbox[:n]
        del self.inbox[:n]
        return n

    def write(self, data: memoryview) -> int:
        for payload in self._frames(self._out, bytes(data)):
            self.port.write(b"\x00" + host_only.frame(_shift_version(payload, 1)))
        return len(data)


def test_a_real_board_on_another_protocol_version_is_a_clear_error_without_a_flood() -> None:
    with FaultProxy() as proxy:
        board = LinkBoard(proxy.board_path, build_reference_state(), nonce=4)
        board.session.stream = NextVersionPort(board.port)
        with board, BoardLink(proxy.host_path, build_reference_state()) as host:
            # The host flushes the board's first HELLO when it opens the port, so its own
            # probe reaches the board first: the board answers ERROR E_VERSION.
            started = time.monotonic()
            with pytest.raises(ProtocolVersionError) as raised:
                host.wait_linked(WAIT)  # returns at the ERROR
            text = str(raised.value)
            assert f"speaks link protocol {m.PROTOCOL_VERSION + 1}" in text
            assert f"this host speaks {m.PROTOCOL_VERSION}: update the host" in text
            time.sleep(max(0.0, 3 - (time.monotonic() - started)))
            with board.lock, host.lock:
                assert board.session.error == m.E_VERSION and not board.session.linked
                assert not host.session.linked
                # Over 3 s: a probe a second and its answer, not a HELLO/ERROR loop.
                assert host.session.frames_sent <= 8, host.session.frames_sent
                assert board.session.frames_sent <= 8, board.session.frames_sent


def test_opening_flushes_stale_input_and_asserts_dtr() -> None:
    master, slave = os.openpty()
    try:
        import tty

        tty.setraw(slave)
        os.write(master, b"stale bytes from before the reset\x00")
        # The pty hands them over on a kernel worker: wait until they are there to flush.
        assert select.select([slave], [], [], WAIT)[0], "the stale bytes never arrived"
        port = open_port(os.ttyname(slave))
        try:
            assert port.in_waiting == 0
            assert port.dtr is True
        finally:
            port.close()
    finally:
        os.close(master)
        os.close(slave)


def test_frames_through_pyserial_loop_url_come_back_intact() -> None:
    port = open_port("loop://")
    try:
        payloads = [b"\x04\x01\x02\x00", bytes([m.EVENT, 1, 0]) + roll(1)]
        for payload in payloads:
            port.write(host_only.frame(payload))
        decoder = framing.FrameDecoder()
        data = port.read(port.in_waiting)
        got = []
        pos = 0
        while pos < len(data):
            pos = decoder.feed(data, pos, len(data))
            if decoder.length:
                got.append(bytes(decoder.buf[: decoder.length]))
        assert got == payloads
    finally:
        port.close()


def test_a_host_on_loop_url_ignores_its_own_echoed_hello_and_says_the_port_echoes() -> None:
    with BoardLink("loop://") as link:
        until(lambda: link.session.echoes >= 2, "the host hearing its own HELLOs twice")
        with pytest.raises(EchoingPortError, match="echoes what is sent: is it the board's con"):
            link.wait_linked(0.4)
        assert link.session.handshakes == 0 and link.session.echoes >= 2
        assert link.session.frames_sent >= 2  # it kept probing


def test_devices_probe_reports_what_the_board_says() -> None:
    with FaultProxy() as proxy, LinkBoard(proxy.board_path, build_reference_state()):
        assert "simulated, 8x4" in probe(proxy.host_path, WAIT)
    assert "does not exist" in probe("/dev/turnlight-no-such-port", 0.3)


def test_a_pulled_cable_surfaces_as_an_error_on_the_port() -> None:
    # The bridge relies on this: a pty whose far end goes away makes the port raise, as a
    # SerialException from read() or a plain OSError (EIO) from in_waiting, whichever comes
    # first on a busy machine (SerialException is an OSError; the bridge handles both).
    with FaultProxy() as proxy:
        port = open_port(proxy.host_path)
        try:
            proxy.pull_cable()
            from host.board.bridge import _wait_readable

            # The proxy's thread pulls it: as soon as a busy machine runs that thread.
            deadline = time.monotonic() + WAIT
            with pytest.raises(OSError):
                while time.monotonic() < deadline:
                    _wait_readable(port, 0.01)
                    port.read(port.in_waiting or 1)
        finally:
            port.close()


def test_a_pulled_cable_takes_the_port_path_away_until_it_is_plugged_back() -> None:
    """As a real unplug removes /dev/ttyACMn: while the cable is out, the host's path must not
    lead to a freed pty that another program may be given next (issue #17)."""
    # Out for 5 s: time enough to look on a busy machine, which may stall this thread.
    with FaultProxy(Faults(down_seconds=5)) as proxy:
        proxy.pull_cable()
        until(lambda: proxy.counts.disconnects > 0, "the cable pulled")
        assert proxy.counts.disconnects == 1
        with proxy.lock:  # the proxy's loop plugs back in under this lock
            gone = not os.path.lexists(proxy.host_path)
        assert gone
        until(lambda: os.path.lexists(proxy.host_path), "the cable plugged back")
        open_port(proxy.host_path).close()


def test_an_idle_linked_host_sleeps_until_a_timer_or_the_board_wakes_it() -> None:
    # Issue #17: the host's link thread used to wake every 2 ms. Idle and linked, it now
    # wakes for the heartbeat and the board's bytes only: a handful of polls a second.
    with board_and_host() as (_, board, host, applied):
        assert wait_for(lambda: in_sync(board, host))
        calls = []
        real_poll = host.session.poll
        host.session.poll = lambda now: (calls.append(now), real_poll(now))[1]  # type: ignore[method-assign]
        started = time.monotonic()
        time.sleep(2.0)
        # At most 20 a second, over however long the sleep took on a busy machine.
        assert len(calls) <= 20 * (time.monotonic() - started), len(calls)
        until(lambda: calls, "a poll of the idle link (its heartbeat)")
        assert host.linked


def test_a_sleeping_link_thread_is_woken_by_its_pipe_not_only_by_its_port() -> None:
    from host.board.bridge import _wait_readable

    with FaultProxy(None) as proxy:
        port = open_port(proxy.host_path)  # nothing will ever arrive on it
        wake_r, wake_w = os.pipe()
        try:
            sleeper = threading.Thread(target=_wait_readable, args=(port, 60.0, wake_r))
            sleeper.start()
            time.sleep(0.2)
            assert sleeper.is_alive()  # asleep, for up to a minute
            os.write(wake_w, b"\0")
            sleeper.join(WAIT)
            assert not sleeper.is_alive()
        finally:
            port.close()
            os.close(wake_r)
            os.close(wake_w)


def test_a_state_changed_by_another_thread_wakes_the_link() -> None:
    link = BoardLink("/nonexistent/port", build_reference_state())  # never started
    try:
        for change in (
            lambda: link.change_state(lambda state: state.scores.__setitem__(0, 9)),
            link.changed,
        ):
            change()
            assert os.read(link._wake_r, 16) == b"\0"
            assert link.session._dirty
            link.session._dirty = False
    finally:
        link.stop()


def test_the_host_waits_for_its_nearest_timer_and_no_longer() -> None:
    from shared.link.host import PING_MS, HostSession

    session = HostSession(None, build_reference_state(), None, None, 1000)
    assert session.wait_ms(1000, 500) == 0  # not linked: its first probe is due now
    session._probe_at = 1200
    assert session.wait_ms(1000, 500) == 200
    assert session.wait_ms(1000, 50) == 50  # never past the caller's longest
    session.linked = True
    session._heard_at = 1000
    session._ping_at = 1000 + PING_MS
    assert session.wait_ms(1000, 5000) == PING_MS
    session._ack_due = True
    assert session.wait_ms(1000, 5000) == 0


def test_a_soak_that_times_out_reports_what_the_board_still_holds_as_stalled_not_lost() -> None:
    # Issue #17: every frame dropped, so nothing is ever applied; the board still holds
    # every event it journalled and would resend it: a stall, not a loss.
    result = soak(events=40, faults=Faults(drop=1.0), seed=3, timeout=5.0)  # some journalled
    assert result.timed_out
    assert result.events > 0
    assert result.stalled == result.events and result.lost == 0
