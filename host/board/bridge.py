"""The pyserial bridge: keeps each board's link running on its own thread.

Every port comes from `serial.serial_for_url`, so a real port, `loop://`, a pty path and a
simulated board are opened the same way. On connect the bridge asserts DTR (CircuitPython's
data channel may wait for it), flushes stale input and lets the shared HostSession probe
with HELLO until the board answers (a fresh open can reset the board, so a HELLO sent once
could be lost). When the cable is pulled the port raises SerialException: the bridge closes
it, retries the open, and the session resynchronises on return without losing an event.

The protocol itself lives in shared/link/host.py; this module owns ports, threads and
errors worded for people.
"""

from __future__ import annotations

import errno
import os
import select
import threading
import time
from collections.abc import Callable, Iterable

import serial
from adafruit_ticks import ticks_ms

from host.board.discovery import usb_serial_number
from shared.link import messages
from shared.link.host import ECHO_TEXT, OTHER_BOARD, HostSession
from shared.state import GameState

Applier = Callable[[GameState, bytes], object]
EventHook = Callable[[bytes, bool, str], None]

DEFAULT_BAUD = 115200
RETRY_SECONDS = 0.05
REFUSED_RETRY_SECONDS = 1.0  # another board on the port: look again this often
# The link's thread sleeps until something is due (shared.link.host.HostSession.wait_ms),
# bytes arrive or it is woken, and at most this long, so a missed wake costs no more.
MAX_SLEEP_MS = 500
POLL_NO_FD_SECONDS = 0.002  # a port with no file to wait on (loop://) is polled this often


class LinkError(Exception):
    """A board link problem, worded for the person at the table."""


class PortMissingError(LinkError):
    pass


class PortBusyError(LinkError):
    pass


class NoHelloError(LinkError):
    pass


class ProtocolVersionError(LinkError):
    pass


class EchoingPortError(NoHelloError):
    """The port gives back what the host sends: the board's REPL console, not its data
    port."""


class OtherBoardError(LinkError):
    """After a re-plug, another board is on the port (its USB serial number or its HELLO's
    board id is not the linked board's)."""


def open_port(url: str, baudrate: int = DEFAULT_BAUD) -> serial.SerialBase:
    """Open `url` for the link: exclusive, non-blocking, DTR asserted, input flushed."""
    try:
        port = serial.serial_for_url(
            url, baudrate=baudrate, timeout=0, write_timeout=2, exclusive=True, do_not_open=True
        )
        port.dtr = True
        port.open()
    except serial.SerialException as err:
        raise _explain(url, err) from err
    except (OSError, ValueError) as err:
        raise LinkError(f"cannot open {url}: {err}") from err
    port.reset_input_buffer()
    return port


# What pyserial's messages say when it gives no errno: on Windows the text carries the
# WinError's repr ("PermissionError(13, 'Access is denied.', ...)" is how Windows reports a
# COM port another program holds; "FileNotFoundError(2, ...)" a port that is not there).
_MISSING_TEXTS = ("No such file", "FileNotFoundError", "cannot find the file")
_BUSY_TEXTS = ("exclusively lock", "busy", "Access is denied", "PermissionError(13")


def _explain(url: str, err: serial.SerialException) -> LinkError:
    code = getattr(err, "errno", None)
    text = str(err)
    if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO) or any(t in text for t in _MISSING_TEXTS):
        return PortMissingError(f"port {url} does not exist: is the board plugged in?")
    if code in (errno.EBUSY, errno.EAGAIN) or any(t in text for t in _BUSY_TEXTS):
        return PortBusyError(
            f"port {url} is busy: another program has it open (a serial monitor, an editor "
            "such as Mu or Thonny, another turnlight): close it and try again"
        )
    if code in (errno.EACCES, errno.EPERM):
        return LinkError(f"no permission to open {url}: add yourself to the dialout group")
    return LinkError(f"cannot open {url}: {text}")


def _wait_readable(port: serial.SerialBase, seconds: float, wake: int | None = None) -> None:
    """Sleep until the port has bytes (or hangs up), or `wake` (a pipe's read end) is
    written to, at most `seconds`. A pty whose other end has gone reports a hang-up, which
    read() then turns into SerialException. A port with no file (loop://) is looked at
    again within POLL_NO_FD_SECONDS: nothing can wake the thread for its bytes."""
    try:
        fd = port.fileno()
    except (AttributeError, serial.SerialException, OSError):
        time.sleep(min(seconds, POLL_NO_FD_SECONDS))
        return
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLPRI)
    if wake is not None:
        poller.register(wake, select.POLLIN)
    for ready, flags in poller.poll(seconds * 1000):
        if ready == fd and flags & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
            raise serial.SerialException("the port hung up (cable pulled?)")


class BoardLink:
    """One board on one port, served by a background thread."""

    def __init__(
        self,
        url: str,
        state: GameState | None = None,
        applier: Applier | None = None,
        on_event: EventHook | None = None,
        baudrate: int = DEFAULT_BAUD,
    ) -> None:
        self.url = url
        self.baudrate = baudrate
        self.lock = threading.RLock()
        self.session = HostSession(None, state, applier, on_event, ticks_ms())
        self.port: serial.SerialBase | None = None
        self.open_error: LinkError | None = None
        self.last_failure = ""
        self.connects = 0
        self.disconnects = 0
        # The USB serial number of the port the board linked over ("" until then, and on a
        # port without one): after a re-plug, a port with another is another board.
        self.usb_serial = ""
        self._port_serial = ""
        self.refused_boards = 0  # re-plugs refused for another USB serial number
        self._retry_seconds = RETRY_SECONDS
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        # The link's thread sleeps until the board sends bytes, a timer of the link is due
        # or another thread writes here (a new state to send, or stop).
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)

    # -- lifecycle ----------------------------------------------------------------------

    def start(self) -> BoardLink:
        self._thread = threading.Thread(target=self._run, name=f"link {self.url}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.wake()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._close()
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        self._wake_r = self._wake_w = -1

    def wake(self) -> None:
        """Make the link's thread look at once (its state changed, or it is to stop)."""
        try:
            os.write(self._wake_w, b"\0")
        except (BlockingIOError, OSError):  # already woken (pipe full), or stopped
            pass

    def changed(self) -> None:
        """The state was changed from another thread: the board gets it at once."""
        with self.lock:
            self.session.state_changed()
        self.wake()

    def __enter__(self) -> BoardLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def linked(self) -> bool:
        return self.session.linked and self.port is not None

    @property
    def state(self) -> GameState | None:
        return self.session.state

    @property
    def problem(self) -> str:
        """Why the board does not link, in one line, when the link knows ("" if not)."""
        if self.linked:
            return ""
        return self.session.error_text

    @staticmethod
    def serial_number_of(url: str) -> str:
        """The USB serial number of the port at `url` ("" for none); replaced in tests."""
        return usb_serial_number(url)

    def wait_linked(self, timeout: float = 5.0) -> None:
        """Block until the board has said HELLO and been accepted; raise a LinkError that
        says why not (port missing or busy, protocol versions differ, no HELLO)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._raise_refusal()
            if self.linked and self.session.state is not None:
                return
            time.sleep(0.01)
        self._raise_refusal()
        if self.port is None and self.open_error is not None:
            raise self.open_error
        if self.session.error_text == ECHO_TEXT:
            raise EchoingPortError(f"{self.url}: {ECHO_TEXT}")
        raise NoHelloError(
            f"no HELLO from a board on {self.url} within {timeout:g} s: is the Turnlight "
            "firmware running, and is this the data port rather than the REPL console?"
        )

    def _raise_refusal(self) -> None:
        code = self.session.error_code
        if code == messages.E_VERSION:
            raise ProtocolVersionError(f"{self.url}: {self.session.error_text}")
        if code == OTHER_BOARD:
            raise OtherBoardError(f"{self.url}: {self.session.error_text}")

    def change_state(self, change: Callable[[GameState], object]) -> None:
        """Run `change(state)` on the link's state and send the board the result."""
        with self.lock:
            if self.session.state is None:
                raise LinkError(f"{self.url}: no state yet (the board has not linked)")
            change(self.session.state)
            self.session.state_changed()
        self.wake()

    # -- the thread ---------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            if self.port is None and not self._connect():
                self._stop.wait(self._retry_seconds)
                continue
            port = self.port
            assert port is not None
            try:
                with self.lock:
                    now = ticks_ms()
                    self.session.poll(now)
                    if self.session.linked and self._port_serial and not self.usb_serial:
                        self.usb_serial = self._port_serial  # the board this link is with
                    wait_ms = self.session.wait_ms(ticks_ms(), MAX_SLEEP_MS)
                if wait_ms:
                    _wait_readable(port, wait_ms / 1000, self._wake_r)
                    self._drain_wake()
            except (serial.SerialException, OSError):
                self.disconnects += 1
                with self.lock:
                    self.session.detach()
                self._close()
            except Exception as err:  # an on_event hook failed: keep serving the board
                self.last_failure = f"{type(err).__name__}: {err}"
                self._stop.wait(0.1)

    def _drain_wake(self) -> None:
        try:
            while os.read(self._wake_r, 64):
                pass
        except (BlockingIOError, OSError):
            pass

    def _connect(self) -> bool:
        self._retry_seconds = RETRY_SECONDS
        try:
            port = open_port(self.url, self.baudrate)
        except LinkError as err:
            self.open_error = err
            return False
        self.open_error = None
        serial_number = self.serial_number_of(self.url)
        if self.usb_serial and serial_number and serial_number != self.usb_serial:
            # A re-plug gave this port's name to another board: send it nothing (no state
            # is synced into it) and look again later, for the board this link is with.
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass
            with self.lock:
                self.refused_boards += 1
                self.session.detach()
                self.session.error_code = OTHER_BOARD
                self.session.error_text = (
                    f"another board is on this port (USB serial {serial_number}, not "
                    f"{self.usb_serial}, the one this game is linked with): plug that board "
                    "back in, or restart to play with this one"
                )
            self._retry_seconds = REFUSED_RETRY_SECONDS
            return False
        self._port_serial = serial_number
        with self.lock:
            if self.session.error_code == OTHER_BOARD:
                self.session.error_code = 0  # the board's HELLO says again if it still is
                self.session.error_text = ""
            self.port = port
            self.session.attach(port, ticks_ms())
        self.connects += 1
        return True

    def _close(self) -> None:
        port, self.port = self.port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass


class Bridge:
    """Several boards at once, one BoardLink (and thread) each."""

    def __init__(
        self,
        urls: Iterable[str],
        state_for: Callable[[str], GameState | None] = lambda url: None,
        applier: Applier | None = None,
        on_event: Callable[[str, bytes, bool, str], None] | None = None,
    ) -> None:
        self.links: dict[str, BoardLink] = {}
        for url in urls:
            hook = None
            if on_event is not None:
                hook = _bind(on_event, url)
            self.links[url] = BoardLink(url, state_for(url), applier, hook)

    def start(self) -> Bridge:
        for link in self.links.values():
            link.start()
        return self

    def stop(self) -> None:
        for link in self.links.values():
            link.stop()

    def __enter__(self) -> Bridge:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def wait_linked(self, timeout: float = 5.0) -> None:
        for link in self.links.values():
            link.wait_linked(timeout)


def _bind(hook: Callable[[str, bytes, bool, str], None], url: str) -> EventHook:
    def bound(record: bytes, accepted: bool, reason: str) -> None:
        hook(url, record, accepted, reason)

    return bound
