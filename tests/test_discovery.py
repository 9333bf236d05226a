"""Board discovery picks the CDC data interface of Adafruit and Raspberry Pi boards, not
the REPL console, from what pyserial's list_ports reports."""

from __future__ import annotations

from types import SimpleNamespace

from host.discovery import classify


def port(device: str, vid: int, interface: str, location: str, serial: str = "ABC") -> object:
    return SimpleNamespace(
        device=device,
        vid=vid,
        pid=0x8030,
        serial_number=serial,
        product="NeoTrellis M4",
        interface=interface,
        location=location,
    )


def roles(ports: list[object]) -> dict[str, str]:
    return {c.device: c.role for c in classify(ports)}


def test_the_data_channel_is_told_apart_by_its_interface_name() -> None:
    found = roles(
        [
            port("/dev/ttyACM0", 0x239A, "CircuitPython CDC control", "1-1:1.0"),
            port("/dev/ttyACM1", 0x239A, "CircuitPython CDC2 control", "1-1:1.2"),
        ]
    )
    assert found == {"/dev/ttyACM0": "console", "/dev/ttyACM1": "data"}


def test_without_names_the_data_channel_is_the_higher_interface() -> None:
    found = roles(
        [
            port("/dev/ttyACM3", 0x2E8A, "", "3-2:1.2", serial="PICO"),
            port("/dev/ttyACM2", 0x2E8A, "", "3-2:1.0", serial="PICO"),
        ]
    )
    assert found == {"/dev/ttyACM2": "console", "/dev/ttyACM3": "data"}


def test_ports_of_other_vendors_are_not_candidates() -> None:
    found = roles([port("/dev/ttyUSB0", 0x0403, "FT232R", "1-2:1.0")])
    assert found == {}


def test_two_boards_are_kept_apart_by_serial_number() -> None:
    found = roles(
        [
            port("/dev/ttyACM0", 0x239A, "CircuitPython CDC control", "1-1:1.0", "A"),
            port("/dev/ttyACM1", 0x239A, "CircuitPython CDC2 control", "1-1:1.2", "A"),
            port("/dev/ttyACM2", 0x2E8A, "CircuitPython CDC control", "1-4:1.0", "B"),
            port("/dev/ttyACM3", 0x2E8A, "CircuitPython CDC2 control", "1-4:1.2", "B"),
        ]
    )
    assert [d for d, r in found.items() if r == "data"] == ["/dev/ttyACM1", "/dev/ttyACM3"]
