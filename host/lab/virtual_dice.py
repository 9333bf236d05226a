"""Virtual smart dice on Bumble (in-process Bluetooth LE): a Pixels die (either protocol
generation, with its advertisement) and a GoDice, each a GATT peripheral on its own
controller on a shared `LocalLink`. They answer what the real dice answer (host/dice/
pixels.py, godice.py: WhoAreYou, battery, colour, blink and pulse) and are thrown by the
tests and the bench (`throw`): rolling, then at rest on a face. Bumble is a test
dependency."""

from __future__ import annotations

import asyncio
import time

from bumble.device import AdvertisingEventProperties, AdvertisingParameters, Connection
from bumble.gatt import Characteristic, CharacteristicValue, Service
from bumble.hci import OwnAddressType
from bumble.link import LocalLink

from host.dice import ad_structures, godice, pixels
from host.dice.bumble_transport import device_on

PIXEL_TYPES = {"d4": 1, "d6": 2, "d8": 3, "d10": 4, "d00": 5, "d12": 6, "d20": 7}


class VirtualDie:
    """What both virtual dice share: a device, its notify characteristic, its writes."""

    notify: Characteristic[bytes]

    def __init__(self, link: LocalLink, address: str, name: str) -> None:
        self.device = device_on(link, address, name)
        self.address = address
        self.name = name
        self.received: list[bytes] = []  # what the die was sent
        self.thrown_at = 0.0  # perf_counter() of the last rest sent (the bench's start)

    def _written(self, connection: Connection, value: bytes) -> None:
        self.received.append(bytes(value))
        reply = self.answer(bytes(value))
        if reply:
            asyncio.ensure_future(self.send(reply))

    def answer(self, data: bytes) -> bytes:
        return b""

    async def send(self, data: bytes) -> None:
        await self.device.notify_subscribers(self.notify, data)

    async def start(self, advertising: bytes, scan_response: bytes = b"") -> None:
        """Advertise. A real die sends its scan response when asked; Bumble's in-process
        controller answers a scan request with the advertisement again, so the virtual die
        puts both in one extended advertisement (the reader merges them either way)."""
        await self.device.power_on()
        await self.device.create_advertising_set(
            advertising_parameters=AdvertisingParameters(
                advertising_event_properties=AdvertisingEventProperties(is_connectable=True),
                own_address_type=OwnAddressType.RANDOM,
                primary_advertising_interval_min=20.0,
                primary_advertising_interval_max=20.0,
            ),
            advertising_data=advertising + scan_response,
            auto_restart=True,
        )

    async def drop(self) -> None:
        """The die goes out of range: every link to it is cut."""
        for connection in list(self.device.connections.values()):
            await connection.disconnect()


class VirtualPixel(VirtualDie):
    def __init__(
        self, link: LocalLink, address: str, pixel_id: int, kind: str, old: bool = False
    ) -> None:
        super().__init__(link, address, f"Pixel {kind}")
        self.pixel_id, self.kind, self.old = pixel_id, kind, old
        self.state, self.index, self.battery = 5, 0, 80  # on face 1 at power-on
        notify_uuid = pixels.OLD_NOTIFY if old else pixels.NOTIFY
        write_uuid = pixels.OLD_WRITE if old else pixels.WRITE
        self.notify: Characteristic[bytes] = Characteristic(
            notify_uuid, Characteristic.Properties.NOTIFY, Characteristic.READABLE, b""
        )
        write: Characteristic[bytes] = Characteristic(
            write_uuid,
            Characteristic.Properties.WRITE | Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
            Characteristic.WRITEABLE,
            CharacteristicValue(write=self._written),
        )
        service = pixels.OLD_SERVICE if old else pixels.SERVICE
        self.device.add_service(Service(service, [self.notify, write]))

    def answer(self, data: bytes) -> bytes:
        if data[:1] == pixels.who_are_you():
            leds = 10 if self.kind == "d00" else int(self.kind[1:])
            return pixels.i_am_a_die(
                self.pixel_id, PIXEL_TYPES[self.kind], leds, self.state, self.index, self.battery
            )
        if data[:1] == pixels.request_battery():
            return pixels.battery_level(self.battery)
        if data[:1] == pixels.request_roll_state():
            return pixels.roll_state(self.state, self.index)
        if data[:1] == bytes([pixels.BLINK]):
            return bytes([pixels.BLINK_ACK])
        return b""

    async def start_advertising(self) -> None:
        leds = 10 if self.kind == "d00" else int(self.kind[1:])
        if self.old:
            data = pixels.advert_old(self.pixel_id, self.state, self.index, 200)
            # The service's UUID goes in the scan response: the advertisement is full.
            adv = ad_structures.build(manufacturer=(leds << 8, data))
            response = ad_structures.build(service=pixels.OLD_SERVICE, name=self.name, flags=False)
            await self.start(adv, response)
            return
        manu, info = pixels.advert_current(
            self.pixel_id, PIXEL_TYPES[self.kind], leds, self.state, self.index, self.battery
        )
        adv = ad_structures.build(service=pixels.SERVICE, manufacturer=(pixels.COMPANY_ID, manu))
        response = ad_structures.build(name=self.name, service_data=(0x180A, info), flags=False)
        await self.start(adv, response)

    async def throw(self, value: int, handling: bool = True) -> None:
        """Picked up, rolled, and at rest showing `value`."""
        if handling:
            await self.send(pixels.roll_state(2, self.index))
        await self.send(pixels.roll_state(3, self.index))
        self.state, self.index = 1, pixels.face_index(self.kind, value)
        self.thrown_at = time.perf_counter()
        await self.send(pixels.roll_state(1, self.index))


class VirtualGoDice(VirtualDie):
    def __init__(
        self, link: LocalLink, address: str, name: str, shell: str, colour: int = 3
    ) -> None:
        super().__init__(link, address, name)
        self.shell, self.colour, self.battery = shell, colour, 70
        self.notify: Characteristic[bytes] = Characteristic(
            godice.NOTIFY, Characteristic.Properties.NOTIFY, Characteristic.READABLE, b""
        )
        write: Characteristic[bytes] = Characteristic(
            godice.WRITE,
            Characteristic.Properties.WRITE | Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
            Characteristic.WRITEABLE,
            CharacteristicValue(write=self._written),
        )
        self.device.add_service(Service(godice.SERVICE, [self.notify, write]))

    def answer(self, data: bytes) -> bytes:
        if data[:1] == godice.request_battery():
            return godice.battery(self.battery)
        if data[:1] == godice.request_colour():
            return godice.colour(self.colour)
        return b""

    async def start_advertising(self) -> None:
        response = ad_structures.build(name=self.name, flags=False)
        await self.start(ad_structures.build(service=godice.SERVICE), response)

    async def throw(self, value: int, rest: bytes = b"S") -> None:
        await self.send(b"R")
        self.thrown_at = time.perf_counter()
        await self.send(godice.stable(godice.vector_of(self.shell, value), rest))
