"""The smart dice's message codecs on byte vectors built from the documented messages
(pixels-js DieMessages.ts / getScannedPixel.ts / DiceUtils.ts; GoDice godice.js)."""

import struct

import pytest

from host.dice import godice, pixels
from host.dice.model import BATTERY, IDENTITY, IGNORED, ROLLED, ROLLING, STATE


def test_pixels_only_the_rolled_state_is_a_roll():
    # RollState [3, state, face index]: 1 rolled, 2 handling, 3 rolling, 4 crooked, 5 on face
    assert pixels.parse(bytes([3, 1, 16]), "d20").what == ROLLED
    assert pixels.parse(bytes([3, 3, 16]), "d20").what == ROLLING
    for state, name in ((2, "handling"), (4, "crooked"), (5, "on face"), (0, "unknown")):
        event = pixels.parse(bytes([3, state, 16]), "d20")
        assert (event.what, event.note) == (STATE, name)


@pytest.mark.parametrize(
    "kind, index, value",
    [("d20", 16, 17), ("d6", 0, 1), ("d10", 0, 10), ("d10", 7, 7), ("d00", 0, 0), ("d00", 9, 90)],
)
def test_pixels_face_index_is_read_by_die_type(kind, index, value):
    assert pixels.parse(bytes([3, 1, index]), kind).value == value


def test_pixels_battery_level_message():
    event = pixels.parse(bytes([34, 12, 0]), "d6")
    assert (event.what, event.value) == (BATTERY, 12)


def test_pixels_i_am_a_die_carries_its_id_kind_and_state_but_is_no_roll():
    data = struct.pack("<BBBBIIHIBBBB", 2, 20, 3, 7, 0xAA, 0x1234ABCD, 0, 0, 1, 19, 80, 0)
    event = pixels.parse(data, "")
    assert event.what == IDENTITY
    assert event.info is not None
    assert (event.info.die_id, event.info.kind, event.info.face) == ("1234ABCD", "d20", 20)
    assert event.info.roll_state == "rolled"


def test_pixels_blink_message_layout():
    data = pixels.blink(3, 1500, 0xFF00C0FF, 0xFFFFFFFF, fade=128)
    assert data[0] == 29 and len(data) == 14
    assert struct.unpack("<BBHIIBB", data)[1:] == (3, 1500, 0xFF00C0FF, 0xFFFFFFFF, 128, 0)
    with pytest.raises(ValueError):
        pixels.blink(3, 70000, 0)


def test_pixels_current_advert_names_kind_battery_and_charging():
    manufacturer = bytes([20, 0x7 << 4 | 2, 5, 13, 0x80 | 64])
    info = pixels.parse_advert(
        "AA:BB",
        "Red d20",
        [pixels.SERVICE],
        {pixels.COMPANY_ID: manufacturer},
        {pixels.INFO_SERVICE: struct.pack("<II", 0xDEADBEEF, 1)},
    )
    assert info is not None
    assert (info.die_id, info.kind, info.battery, info.charging) == ("DEADBEEF", "d20", 64, True)
    assert (info.roll_state, info.face) == ("on face", 14)


def test_pixels_older_advert_is_read_too():
    data = struct.pack("<IBBB", 0x00C0FFEE, 1, 5, 255)
    info = pixels.parse_advert("AA:CC", "old d6", [pixels.OLD_SERVICE], {6 << 8 | 1: data}, {})
    assert info is not None
    assert (info.die_id, info.kind, info.battery, info.face) == ("00C0FFEE", "d6", 100, 6)


def test_an_advert_without_a_pixels_service_is_not_a_pixels_die():
    assert pixels.parse_advert("AA", "x", ["180f"], {}, {}) is None


def test_godice_rolling_then_stable_is_a_roll_by_the_shell_table():
    assert godice.parse(b"R", "d6").what == ROLLING
    event = godice.parse(b"S" + bytes([64, 0, 0]), "d6")
    assert (event.what, event.value) == (ROLLED, 6)
    # signed bytes: x = -64 is face 1 on the bare die
    assert godice.parse(b"S" + bytes([0xC0, 0, 0]), "d6").value == 1


@pytest.mark.parametrize(
    "prefix, note", [(b"FS", "fake stable"), (b"TS", "tilt stable"), (b"MS", "move stable")]
)
def test_godice_unstable_rests_are_reported_and_not_counted(prefix, note):
    event = godice.parse(prefix + bytes([64, 0, 0]), "d6")
    assert (event.what, event.note) == (IGNORED, note)
    allowed = godice.parse(prefix + bytes([64, 0, 0]), "d6", accept_unstable=True)
    assert (allowed.what, allowed.value) == (ROLLED, 6)


@pytest.mark.parametrize("shell", sorted(godice.SHELLS))
def test_godice_every_face_of_every_shell_reads_back(shell):
    faces = {"d6": range(1, 7), "d20": range(1, 21), "d10": range(1, 11), "d4": range(1, 5),
             "d8": range(1, 9), "d12": range(1, 13), "d10x": range(0, 100, 10)}[shell]  # fmt: skip
    for value in faces:
        xyz = godice.vector_of(shell, value)
        # a resting die is never exactly on the table's vector: nudge it
        nudged = tuple(v + (3 if v >= 0 else -3) for v in xyz)
        assert godice.face_of(shell, nudged) == value


def test_godice_battery_and_colour_messages():
    assert godice.parse(b"Bat" + bytes([9]), "d6").value == 9
    assert godice.parse(b"Col" + bytes([3]), "d6").note == "blue"


def test_godice_pulse_message_layout():
    assert godice.pulse(3, 25, 25, (0, 192, 255)) == bytes([0x10, 3, 25, 25, 0, 192, 255, 1, 0])
    with pytest.raises(ValueError):
        godice.pulse(300, 1, 1, (0, 0, 0))


def test_godice_advert_is_known_by_its_name():
    info = godice.parse_advert("AA", "GoDice_E5DA53_K_v04", [godice.SERVICE])
    assert info is not None and info.die_id == "GoDice_E5DA53_K_v04"
    assert godice.parse_advert("AA", "Pixel", [godice.SERVICE]) is None
