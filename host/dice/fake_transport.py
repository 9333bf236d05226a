"""A scripted Bluetooth stack for tests: dice are `FakeDie`s whose notifications the test
sends (`notify`), whose links the test drops (`drop`) or refuses (`refuse`), and whose
received writes the test reads (`written`). No real stack is involved."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from host.dice.transport import Advert, TransportError


@dataclass
class FakeDie:
    advert: Advert
    services: set[str]
    on_connect: list[bytes] = field(default_factory=list)  # notified right after subscribe
    written: list[tuple[str, bytes]] = field(default_factory=list)
    refuse: int = 0  # refuse this many connection attempts
    attempts: int = 0
    link: FakeLink | None = None


class FakeLink:
    def __init__(self, die: FakeDie, on_drop: Callable[[], None]) -> None:
        self.die = die
        self.on_drop = on_drop
        self.subscribers: list[Callable[[bytes], None]] = []
        self.open = True

    @property
    def services(self) -> set[str]:
        return self.die.services

    async def subscribe(self, characteristic: str, on_data: Callable[[bytes], None]) -> None:
        self.subscribers.append(on_data)
        for data in self.die.on_connect:
            on_data(data)

    async def write(self, characteristic: str, data: bytes) -> None:
        if not self.open:
            raise TransportError("not connected")
        self.die.written.append((characteristic, bytes(data)))

    async def disconnect(self) -> None:
        self.open = False
        self.die.link = None


class FakeTransport:
    def __init__(self, dice: list[FakeDie]) -> None:
        self.dice = {d.advert.address: d for d in dice}
        self.connected = asyncio.Event()

    async def scan(self, seconds: float) -> list[Advert]:
        return [d.advert for d in self.dice.values()]

    async def connect(self, address: str, on_drop: Callable[[], None]) -> FakeLink:
        die = self.dice.get(address)
        if die is None:
            raise TransportError(f"no device at {address}")
        die.attempts += 1
        if die.refuse > 0:
            die.refuse -= 1
            raise TransportError(f"{address} did not answer")
        die.link = FakeLink(die, on_drop)
        self.connected.set()
        return die.link

    def notify(self, address: str, data: bytes) -> None:
        link = self.dice[address].link
        assert link is not None, f"{address} is not connected"
        for on_data in link.subscribers:
            on_data(data)

    def drop(self, address: str) -> None:
        die = self.dice[address]
        link = die.link
        assert link is not None
        link.open = False
        die.link = None
        link.on_drop()
