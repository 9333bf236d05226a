"""Board discovery picks the CDC data interface of Adafruit and Raspberry Pi boards, not
the REPL console, from what pyserial's list_ports reports."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from serial.tools.list_ports_common import ListPortInfo

from host.board.discovery import classify


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


def info(device: str, serial: str, location: str | None, interface: str | None) -> object:
    """A ListPortInfo filled the way pyserial's list_ports fills it on each system."""
    found = ListPortInfo(device, skip_link_detection=True)
    found.vid, found.pid = 0x239A, 0x80E0
    found.serial_number = serial
    found.location = location
    found.interface = interface
    found.product = "NeoTrellis M4"
    return found


def test_windows_ports_are_told_apart_by_the_interface_in_their_location() -> None:
    # Windows: no interface names; the location ends in ':x.N' (pyserial cannot know the
    # configuration value), N the USB interface number. COM ports are numbered at random.
    found = roles(
        [
            info("COM7", "DF62585", "1-2:x.0", None),
            info("COM4", "DF62585", "1-2:x.2", None),
            info("COM9", "E4609", "1-3.1:x.2", None),
            info("COM12", "E4609", "1-3.1:x.0", None),
        ]
    )
    assert found == {"COM7": "console", "COM4": "data", "COM9": "data", "COM12": "console"}


def test_macos_ports_with_one_interface_name_are_told_apart_by_their_order() -> None:
    # macOS: no interface number in the location, and pyserial gives both CDC ports of a
    # board the name of whichever interface it finds first. The data port is the later one.
    found = roles(
        [
            info("/dev/cu.usbmodem14103", "DF62585", "20-1", "CircuitPython CDC control"),
            info("/dev/cu.usbmodem14101", "DF62585", "20-1", "CircuitPython CDC control"),
            info("/dev/cu.usbmodem9101", "E4609", "0-1.1", "CircuitPython CDC2 control"),
            info("/dev/cu.usbmodem11101", "E4609", "0-1.1", "CircuitPython CDC2 control"),
        ]
    )
    assert found == {
        "/dev/cu.usbmodem14101": "console",
        "/dev/cu.usbmodem14103": "data",
        "/dev/cu.usbmodem9101": "console",  # 9101 < 11101: numbers, not text, are compared
        "/dev/cu.usbmodem11101": "data",
    }


def test_without_numbers_distinct_names_tell_the_data_port() -> None:
    found = roles(
        [
            info("/dev/cu.usbmodem1", "A", "20-1", "CircuitPython CDC2 control"),
            info("/dev/cu.usbmodem3", "A", "20-1", "CircuitPython CDC control"),
            info("/dev/cu.usbmodem5", "B", None, "Turnlight data"),
            info("/dev/cu.usbmodem7", "B", None, "Turnlight REPL"),
        ]
    )
    assert found == {
        "/dev/cu.usbmodem1": "data",
        "/dev/cu.usbmodem3": "console",
        "/dev/cu.usbmodem5": "data",
        "/dev/cu.usbmodem7": "console",
    }


def test_a_lone_port_is_data_only_if_its_name_says_so() -> None:
    assert roles([info("COM3", "A", "1-1:x.0", None)]) == {"COM3": "unknown"}
    assert roles([info("/dev/ttyACM0", "A", "1-1:1.2", "CircuitPython CDC2 control")]) == {
        "/dev/ttyACM0": "data"
    }
    assert roles([info("/dev/ttyACM0", "A", "1-1:1.0", "CircuitPython CDC control")]) == {
        "/dev/ttyACM0": "console"
    }


def test_a_port_is_known_by_its_usb_serial_number_through_a_link_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 18: a re-plugged board is checked by its port's USB serial number; the host may
    # have opened it by a /dev/serial/by-id link rather than the device itself.
    from host.board import discovery

    device = tmp_path / "ttyACM0"
    device.write_text("")
    link = tmp_path / "usb-Adafruit_Trellis_M4-if02"
    link.symlink_to(device)
    ports = [SimpleNamespace(device=str(device), serial_number="DF6480C2", vid=0x239A)]
    monkeypatch.setattr(discovery.list_ports, "comports", lambda: ports)
    assert discovery.usb_serial_number(str(link)) == "DF6480C2"
    assert discovery.usb_serial_number(str(device)) == "DF6480C2"
    assert discovery.usb_serial_number(str(tmp_path / "ttyACM1")) == ""  # not listed
    assert discovery.usb_serial_number("loop://") == ""


def test_a_device_name_with_a_superscript_digit_sorts_as_text_not_a_crash() -> None:
    """str.isdigit() says yes to '²' and int() then fails (the findings issue, item 1): the
    numbers in a device's name are read by the one reader, ASCII digits only."""
    from host.board.discovery import _device_order

    names = ["/dev/ttyACM10", "/dev/ttyACM1²", "/dev/ttyACM9"]  # (split: '1', then '²')
    assert sorted(names, key=_device_order) == ["/dev/ttyACM1²", "/dev/ttyACM9", "/dev/ttyACM10"]
