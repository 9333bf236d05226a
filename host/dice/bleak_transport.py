"""The dice transport over bleak (the computer's own Bluetooth adapter: BlueZ, CoreBluetooth
or WinRT), with bleak-retry-connector's connection retries. The only module that imports
bleak: without the `dice` extra installed, importing it raises `MissingBleak` with the one
line that says how to install it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.dice.transport import Advert, TransportError, install_line, scan_failure

INSTALL = install_line()


class MissingBleak(ImportError):
    pass


try:
    from bleak import BleakClient, BleakScanner
    from bleak.exc import BleakError
except ImportError:  # the optional `dice` extra is not installed
    raise MissingBleak(INSTALL) from None


class BleakLink:
    def __init__(self, client: Any) -> None:
        self.client = client
        self.closing = False

    @property
    def services(self) -> set[str]:
        return {str(s.uuid).lower() for s in self.client.services}

    async def subscribe(self, characteristic: str, on_data: Callable[[bytes], None]) -> None:
        try:
            await self.client.start_notify(characteristic, lambda _c, data: on_data(bytes(data)))
        except (BleakError, OSError) as err:
            raise TransportError(f"subscribe failed: {err}") from None

    async def write(self, characteristic: str, data: bytes) -> None:
        try:
            await self.client.write_gatt_char(characteristic, data, response=True)
        except (BleakError, OSError) as err:
            raise TransportError(f"write failed: {err}") from None

    async def disconnect(self) -> None:
        self.closing = True
        try:
            await self.client.disconnect()
        except (BleakError, OSError):
            pass


class BleakTransport:
    def __init__(self) -> None:
        self._devices: dict[str, Any] = {}  # BLEDevice by address, from the last scan

    async def scan(self, seconds: float) -> list[Advert]:
        try:
            found = await BleakScanner.discover(timeout=seconds, return_adv=True)
        except (BleakError, OSError) as err:
            raise TransportError(scan_failure(err)) from None
        adverts = []
        for address, (device, adv) in found.items():
            self._devices[address] = device
            adverts.append(
                Advert(
                    address,
                    adv.local_name or device.name or "",
                    [u.lower() for u in adv.service_uuids],
                    {k: bytes(v) for k, v in adv.manufacturer_data.items()},
                    {k.lower(): bytes(v) for k, v in adv.service_data.items()},
                    adv.rssi,
                )
            )
        return adverts

    async def connect(self, address: str, on_drop: Callable[[], None]) -> BleakLink:
        holder: list[BleakLink] = []

        def dropped(_client: Any) -> None:
            if holder and not holder[0].closing:
                on_drop()

        try:
            device = self._devices.get(address) or await BleakScanner.find_device_by_address(
                address, timeout=5.0
            )
            if device is None:
                raise TransportError(f"{address} is not in range")
            try:
                from bleak_retry_connector import establish_connection
            except ImportError:
                client = BleakClient(device, disconnected_callback=dropped)
                await client.connect()
            else:
                client = await establish_connection(
                    BleakClient, device, address, disconnected_callback=dropped, max_attempts=2
                )
        except (BleakError, OSError, TimeoutError) as err:
            raise TransportError(f"{address}: {err}") from None
        link = BleakLink(client)
        holder.append(link)
        return link
