"""The seam between the dice code and a Bluetooth LE stack: scan for advertisements,
connect to an address, subscribe to a characteristic's notifications, write to one, be
told when the link drops. Implemented by `bleak_transport` (a real adapter),
`bumble_transport` (Google's Bumble in process) and `fake_transport` (scripted); nothing
else here knows which stack runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


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
