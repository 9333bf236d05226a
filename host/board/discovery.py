"""Finding boards: USB serial ports by vendor id, and on each board its data interface.

A CircuitPython board with `usb_cdc.enable(console=True, data=True)` shows two serial ports:
the REPL console and the data channel the link uses. What pyserial reports to tell them
apart differs by system, so the choice goes, per board (its ports share a serial number):

1. By USB interface number, where the location carries it: Linux `1-1:1.2`, Windows
   `1-2:x.2` (pyserial writes `x` for the configuration it cannot know). The data channel
   is on the higher interface (CircuitPython: console 0, data 2).
2. Else by interface name, when exactly one port's name says data ("CircuitPython CDC2
   control", or any name with "data"). macOS gives both ports of a board the same name,
   so a name shared by both decides nothing.
3. Else by order: the higher-numbered port of the board (`/dev/cu.usbmodem14103` after
   `...14101`, numbers compared as numbers) is the data channel.

A board with one port is "data" or "console" only if its name says so, else "unknown".
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

from serial.tools import list_ports

from host.core import numbers

VENDORS = {0x239A: "Adafruit", 0x2E8A: "Raspberry Pi"}
DATA_INTERFACE = "CircuitPython CDC2"
CONSOLE_INTERFACE = "CircuitPython CDC "


@dataclass(frozen=True)
class Candidate:
    """One serial port of a supported board and the role it plays."""

    device: str
    vid: int
    pid: int
    serial_number: str
    product: str
    interface: str
    location: str
    role: str  # "data", "console" or "unknown"

    @property
    def vendor(self) -> str:
        return VENDORS.get(self.vid, f"{self.vid:04x}")


# The interface number at the end of a location: ":1.2" (Linux, configuration 1) or
# ":x.2" (Windows).
_INTERFACE_IN_LOCATION = re.compile(r":(?:\d+|x)\.(\d+)$")


def _interface_number(location: str | None) -> int:
    found = _INTERFACE_IN_LOCATION.search(location or "")
    return int(found.group(1)) if found else -1


def _named_role(interface: str | None) -> str:
    """What an interface name says: "data", "console" or nothing."""
    name = (interface or "").lower()
    if name.startswith(DATA_INTERFACE.lower()) or "data" in name:
        return "data"
    if name.startswith(CONSOLE_INTERFACE.lower()) or "repl" in name or "console" in name:
        return "console"
    return ""


def _device_order(device: str) -> list:
    """Sort key that reads the numbers in a device name as numbers (COM9 before COM10); any
    other text, a superscript digit included, sorts as text."""
    parts = [(part, numbers.whole_or_none(part)) for part in re.split(r"([0-9]+)", device)]
    return [(1, part) if value is None else (0, value) for part, value in parts]


def _board_key(port: object) -> str:
    serial = getattr(port, "serial_number", None)
    if serial:
        return f"serial:{serial}"
    location = getattr(port, "location", "") or ""
    return "location:" + location.split(":")[0]


def _roles(group: list[object]) -> list[str]:
    """The role of each port of one board (see the module's docstring)."""
    names = [_named_role(getattr(p, "interface", None)) for p in group]
    if len(group) == 1:
        return [names[0] or "unknown"]
    numbers = [_interface_number(getattr(p, "location", None)) for p in group]
    if min(numbers) >= 0 and len(set(numbers)) == len(numbers):
        top = max(numbers)
        return ["data" if n == top else "console" for n in numbers]
    if names.count("data") == 1:
        return ["data" if n == "data" else "console" for n in names]
    last = max(range(len(group)), key=lambda i: _device_order(getattr(group[i], "device", "")))
    return ["data" if i == last else "console" for i in range(len(group))]


def classify(ports: Iterable[object]) -> list[Candidate]:
    """The ports of supported boards, each marked data, console or unknown."""
    boards: dict[str, list[object]] = {}
    for port in ports:
        if getattr(port, "vid", None) in VENDORS:
            boards.setdefault(_board_key(port), []).append(port)
    found = []
    for group in boards.values():
        for port, role in zip(group, _roles(group), strict=True):
            found.append(
                Candidate(
                    device=port.device,  # type: ignore[attr-defined]
                    vid=port.vid,  # type: ignore[attr-defined]
                    pid=getattr(port, "pid", 0) or 0,
                    serial_number=getattr(port, "serial_number", "") or "",
                    product=getattr(port, "product", "") or "",
                    interface=getattr(port, "interface", "") or "",
                    location=getattr(port, "location", "") or "",
                    role=role,
                )
            )
    return sorted(found, key=lambda c: (c.serial_number, c.location, _device_order(c.device)))


def candidates() -> list[Candidate]:
    """Every port of a supported board on this machine."""
    return classify(list_ports.comports())


def data_ports() -> list[str]:
    """The data channel of each board found: the ports the link should open."""
    return [c.device for c in candidates() if c.role == "data"]


def usb_serial_number(url: str) -> str:
    """The USB serial number of the serial port at `url` (a device, or a link to one such
    as /dev/serial/by-id/...), or "" where there is none: a pty, a URL such as loop://, a
    port the system does not list. What a re-plugged board is checked by (host/board/bridge.py)."""
    if "://" in url:
        return ""
    real = os.path.realpath(url)
    for port in list_ports.comports():
        device = getattr(port, "device", "") or ""
        if device == url or os.path.realpath(device) == real:
            return getattr(port, "serial_number", "") or ""
    return ""
