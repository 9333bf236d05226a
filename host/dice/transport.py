"""The seam between the dice code and a Bluetooth LE stack: scan for advertisements,
connect to an address, subscribe to a characteristic's notifications, write to one, be
told when the link drops. Implemented by `bleak_transport` (a real adapter),
`bumble_transport` (Google's Bumble in process) and `fake_transport` (scripted); nothing
else here knows which stack runs."""

from __future__ import annotations

import errno
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

# What the `dice` extra adds (pyproject.toml), for an install that is not a source checkout.
DICE_PACKAGES = ("bleak", "bleak-retry-connector")


def install_line(python: str | None = None, root: Path | None = None) -> str:
    """The one line that says how to get Bluetooth support, as a command that works where
    this turnlight runs: from a source checkout (turnlight is on no package index), pip
    installs the checkout's `dice` extra into this Python; elsewhere, the extra's packages."""
    python = python or sys.executable
    root = root if root is not None else Path(__file__).resolve().parents[2]
    pip = f"{shlex.quote(python)} -m pip install"
    if (root / "pyproject.toml").is_file():
        return f"smart dice need Bluetooth support: {pip} -e {shlex.quote(f'{root}[dice]')}"
    return f"smart dice need Bluetooth support: {pip} {' '.join(DICE_PACKAGES)}"


def scan_failure(err: BaseException) -> str:
    """A failed scan in one line that says what is missing: most often no adapter (BlueZ's
    D-Bus socket is not there, or it reports no adapter), rather than the bare OS error."""
    text = str(err) or type(err).__name__
    no_dbus = isinstance(err, OSError) and err.errno in (errno.ENOENT, errno.ECONNREFUSED)
    if no_dbus or "adapter" in text.lower() or "org.bluez" in text:
        return (
            "cannot scan: no Bluetooth adapter is reachable here (on Linux: an adapter,"
            f" and BlueZ's bluetoothd running; {text})"
        )
    return f"cannot scan: {text}"


@dataclass(frozen=True)
class Advert:
    """One advertisement (merged with its scan response), as a stack reports it."""

    address: str
    name: str = ""
    services: list[str] = field(default_factory=list)
    manufacturer: dict[int, bytes] = field(default_factory=dict)
    service_data: dict[str, bytes] = field(default_factory=dict)
    rssi: int = 0


class TransportError(Exception):
    """A scan or a connection failed (one line, said to the game master as it is)."""


class Link(Protocol):
    """One connection to a die."""

    @property
    def services(self) -> set[str]:
        """The service UUIDs the die offers (lowercase)."""
        ...

    async def subscribe(self, characteristic: str, on_data: Callable[[bytes], None]) -> None: ...
    async def write(self, characteristic: str, data: bytes) -> None: ...
    async def disconnect(self) -> None: ...


class Transport(Protocol):
    async def scan(self, seconds: float) -> list[Advert]: ...

    async def connect(self, address: str, on_drop: Callable[[], None]) -> Link:
        """Connect and discover the services; `on_drop` is called once if the link drops
        (not after `Link.disconnect`). Raises TransportError."""
        ...


def uuid128(short: int) -> str:
    """A 16-bit SIG UUID in its 128-bit form (lowercase)."""
    return f"{short:08x}-0000-1000-8000-00805f9b34fb"
