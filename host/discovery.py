"""Finding boards: USB serial ports by vendor id, and on each board its data interface.

A CircuitPython board with `usb_cdc.enable(console=True, data=True)` shows two serial ports:
the REPL console and the data channel the link uses. Their USB interface names tell them
apart ("CircuitPython CDC control" is the console, "CircuitPython CDC2 control" the data
channel); where a system does not report names, the data channel is the one on the higher
USB interface number of the same device.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from serial.tools import list_ports

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


def _interface_number(location: str) -> int:
    found = re.search(r":\d+\.(\d+)$", location or "")
    return int(found.group(1)) if found else -1


def _board_key(port: object) -> str:
    serial = getattr(port, "serial_number", None)
    if serial:
        return f"serial:{serial}"
    location = getattr(port, "location", "") or ""
    return "location:" + location.split(":")[0]


def classify(ports: Iterable[object]) -> list[Candidate]:
    """The ports of supported boards, each marked data, console or unknown."""
    boards: dict[str, list[object]] = {}
    for port in ports:
        if getattr(port, "vid", None) in VENDORS:
            boards.setdefault(_board_key(port), []).append(port)
    found = []
    for group in boards.values():
        named = [p for p in group if (getattr(p, "interface", "") or "").startswith("Circuit")]
        highest = max(_interface_number(getattr(p, "location", "")) for p in group)
        for port in group:
            interface = getattr(port, "interface", "") or ""
            if interface.startswith(DATA_INTERFACE):
                role = "data"
            elif interface.startswith(CONSOLE_INTERFACE):
                role = "console"
            elif named or len(group) == 1:
                role = "unknown"
            else:
                number = _interface_number(getattr(port, "location", ""))
                role = "data" if number == highest and number > 0 else "console"
            found.append(
                Candidate(
                    device=port.device,  # type: ignore[attr-defined]
                    vid=port.vid,  # type: ignore[attr-defined]
                    pid=getattr(port, "pid", 0) or 0,
                    serial_number=getattr(port, "serial_number", "") or "",
                    product=getattr(port, "product", "") or "",
                    interface=interface,
                    location=getattr(port, "location", "") or "",
                    role=role,
                )
            )
    return sorted(found, key=lambda c: (c.serial_number, c.location, c.device))


def candidates() -> list[Candidate]:
    """Every port of a supported board on this machine."""
    return classify(list_ports.comports())


def data_ports() -> list[str]:
    """The data channel of each board found: the ports the link should open."""
    return [c.device for c in candidates() if c.role == "data"]
