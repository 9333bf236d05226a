"""The dice transport over Google's Bumble, a whole Bluetooth LE stack in Python: a
central `Device` on a Bumble controller. In tests and the bench the controller sits on an
in-process `LocalLink` with the virtual dice's controllers (host/lab/virtual_dice.py), so
scanning, connecting, GATT discovery, notifications and writes all run through a real
stack with no radio. Bumble is a test dependency (the `test` extra): this module is
imported only where it is wanted."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bumble.controller import Controller
from bumble.device import Device, Peer
from bumble.hci import Address
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport.common import AsyncPipeSink

from host.dice import ad_structures
from host.dice.transport import Advert, TransportError


def device_on(link: LocalLink, address: str, name: str) -> Device:
    """A Bumble device with its own controller on `link`."""
    controller = Controller(name, link=link, public_address=address)
    return Device(
        name=name, address=Address(address), host=Host(controller, AsyncPipeSink(controller))
    )


CONNECT_S = 2.0


class BumbleLink:
    def __init__(self, connection: Any, peer: Peer, on_drop: Callable[[], None]) -> None:
        self.connection = connection
        self.peer = peer
        self._closing = False
        self._services = {str(s.uuid).lower() for s in peer.services}
        connection.on("disconnection", lambda *_: None if self._closing else on_drop())

    @property
    def services(self) -> set[str]:
        return self._services

    def _characteristic(self, uuid: str) -> Any:
        for service in self.peer.services:
            for characteristic in service.characteristics:
                if str(characteristic.uuid).lower() == uuid:
                    return characteristic
        raise TransportError(f"the die has no characteristic {uuid}")

    async def subscribe(self, characteristic: str, on_data: Callable[[bytes], None]) -> None:
        await self._characteristic(characteristic).subscribe(lambda value: on_data(bytes(value)))

    async def write(self, characteristic: str, data: bytes) -> None:
        try:
            await self._characteristic(characteristic).write_value(data, with_response=True)
        except TransportError:
            raise
        except Exception as err:
            raise TransportError(f"write failed: {err}") from None

    async def disconnect(self) -> None:
        self._closing = True
        try:
            await self.connection.disconnect()
        except Exception:
            pass


class BumbleTransport:
    """A central on `link` (its own controller at `address`)."""

    def __init__(self, link: LocalLink, address: str = "F0:F0:F0:F0:F0:F0") -> None:
        self.device = device_on(link, address, "turnlight")
        self._powered = False
        self._lock = asyncio.Lock()  # one connection attempt at a time (the controller's)

    async def _power(self) -> None:
        if not self._powered:
            await self.device.power_on()
            self._powered = True

    async def scan(self, seconds: float) -> list[Advert]:
        await self._power()
        seen: dict[str, Advert] = {}

        def heard(advertisement: Any) -> None:
            address = str(advertisement.address)  # with its type: ".../P" for a public one
            seen[address] = ad_structures.read(
                address, advertisement.data_bytes, advertisement.rssi, seen.get(address)
            )

        self.device.on("advertisement", heard)
        await self.device.start_scanning(active=True, filter_duplicates=False)
        try:
            await asyncio.sleep(seconds)
        finally:
            await self.device.stop_scanning()
            self.device.remove_listener("advertisement", heard)
        return list(seen.values())

    async def connect(self, address: str, on_drop: Callable[[], None]) -> BumbleLink:
        await self._power()
        async with self._lock:
            try:
                connection = await asyncio.wait_for(
                    self.device.connect(Address(address), timeout=CONNECT_S), CONNECT_S + 1
                )
                peer = Peer(connection)
                await peer.discover_services()
                for service in peer.services:
                    await service.discover_characteristics()
            except Exception as err:
                raise TransportError(f"{address}: {err or type(err).__name__}") from None
        return BumbleLink(connection, peer, on_drop)
