"""Bluetooth LE advertising data (a run of length, type, value structures), read into an
`Advert` and built from its parts: for the stacks that hand over raw bytes (Bumble), and
for the virtual dice (host/lab/virtual_dice.py)."""

from __future__ import annotations

import uuid

from host.dice.transport import Advert, uuid128

FLAGS = 0x01
UUIDS_128 = (0x06, 0x07)
UUIDS_16 = (0x02, 0x03)
NAME = (0x08, 0x09)
SERVICE_DATA_16 = 0x16
MANUFACTURER = 0xFF


def structures(data: bytes) -> list[tuple[int, bytes]]:
    """The (type, value) structures of `data`; a structure cut short ends the list."""
    out = []
    at = 0
    while at < len(data):
        length = data[at]
        if length == 0 or at + 1 + length > len(data):
            break
        out.append((data[at + 1], bytes(data[at + 2 : at + 1 + length])))
        at += 1 + length
    return out


def read(address: str, data: bytes, rssi: int = 0, into: Advert | None = None) -> Advert:
    """An Advert from raw advertising data (merged into `into`: a scan response adds to
    the advertisement it answers)."""
    name = into.name if into else ""
    services = list(into.services) if into else []
    known = set(services)
    manufacturer = dict(into.manufacturer) if into else {}
    service_data = dict(into.service_data) if into else {}
    for kind, value in structures(data):
        if kind in NAME:
            name = value.decode("utf-8", "replace")
        elif kind in UUIDS_128:
            for i in range(0, len(value) - 15, 16):
                known.add(str(uuid.UUID(bytes=value[i : i + 16][::-1])))
        elif kind in UUIDS_16:
            for i in range(0, len(value) - 1, 2):
                known.add(uuid128(int.from_bytes(value[i : i + 2], "little")))
        elif kind == MANUFACTURER and len(value) >= 2:
            manufacturer[int.from_bytes(value[:2], "little")] = value[2:]
        elif kind == SERVICE_DATA_16 and len(value) >= 2:
            service_data[uuid128(int.from_bytes(value[:2], "little"))] = value[2:]
    return Advert(address, name, sorted(known), manufacturer, service_data, rssi)


def build(
    name: str = "",
    service: str = "",
    manufacturer: tuple[int, bytes] | None = None,
    service_data: tuple[int, bytes] | None = None,
    flags: bool = True,
) -> bytes:
    """Advertising data with the given parts (at most 31 bytes: checked)."""
    out = bytearray()

    def put(kind: int, value: bytes) -> None:
        out.extend(bytes([len(value) + 1, kind]) + value)

    if flags:
        put(FLAGS, b"\x06")  # LE general discoverable, no BR/EDR
    if service:
        put(UUIDS_128[1], uuid.UUID(service).bytes[::-1])
    if manufacturer is not None:
        put(MANUFACTURER, manufacturer[0].to_bytes(2, "little") + manufacturer[1])
    if service_data is not None:
        put(SERVICE_DATA_16, service_data[0].to_bytes(2, "little") + service_data[1])
    if name:
        put(NAME[1], name.encode())
    if len(out) > 31:
        raise ValueError(f"advertising data of {len(out)} bytes: 31 at most")
    return bytes(out)
