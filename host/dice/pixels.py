"""The Pixels dice protocol (Systemic Games), bytes in and out, written from its public
description: GameWithPixels/pixels-js (`PixelsBluetoothIds.ts`, `DieMessages.ts`,
`PixelRollState.ts`, `DiceUtils.ts`, `getScannedPixel.ts`, MIT) and
GameWithPixels/.github `doc/CommunicationsProtocol.md`.

Two firmware generations: the current one's own service, and the older one's Nordic-UART
style service (where the notify characteristic shares the service's UUID). A message's
first byte is its type; its fields are little-endian. Only the "rolled" roll state is a
roll; a die's face index is read as its value by the die's kind (`face_value`). A byte
the die could not have sent (a face index past its last face, a battery over 100%) makes
the message `REFUSED`, never a roll or a level; in an advertisement it reads as unknown."""

from __future__ import annotations

import struct

from host.dice.model import (
    BATTERY,
    D00,
    IDENTITY,
    OTHER,
    PIXELS,
    REFUSED,
    ROLLED,
    ROLLING,
    STATE,
    DieEvent,
    DieInfo,
    battery_problem,
    sides_of,
)

SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
COMPANY_ID = 0x0D39
OLD_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
OLD_NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
OLD_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
OLD_COMPANY_ID = 0xFFFF
INFO_SERVICE = "0000180a-0000-1000-8000-00805f9b34fb"  # service data: pixel id, firmware date

# Message types (the first byte).
WHO_ARE_YOU = 1
I_AM_A_DIE = 2
ROLL_STATE = 3
REQUEST_ROLL_STATE = 23
BLINK = 29
BLINK_ACK = 30
REQUEST_BATTERY = 33
BATTERY_LEVEL = 34

ROLL_STATES = ("unknown", "rolled", "handling", "rolling", "crooked", "on face")
STATE_ROLLED = 1
STATE_ROLLING = 3

# The die type (the high nibble of the advertised design byte, IAmADie's die type).
DIE_TYPES = {1: "d4", 2: "d6", 3: "d8", 4: "d10", 5: D00, 6: "d12", 7: "d20", 8: "d6"}
FUDGE = 9  # a fudge die (-, blank, +): no place of a wanted roll takes it
_BY_LEDS = {4: "d4", 6: "d6", 8: "d8", 10: "d10", 12: "d12", 20: "d20", 21: "d6"}


def face_value(kind: str, index: int) -> int:
    """The value a face index shows: a d10's index is its value with 0 read as 10, a
    d00's index times ten (0..90), any other die's index plus one."""
    if kind == "d10":
        return index or 10
    if kind == D00:
        return index * 10
    return index + 1


def face_problem(kind: str, index: int) -> str:
    """Why `index` is no face of a die of `kind` ("" when it is one): a die of N faces
    numbers them 0..N-1, and any byte past that would read as a face it has not (a d6
    showing 7..256)."""
    sides = sides_of(kind)
    if 0 <= index < sides:
        return ""
    return f"face index {index}, and a {kind} has faces 0..{sides - 1}"


def face_index(kind: str, value: int) -> int:
    """The face index that shows `value` (the inverse of `face_value`: the virtual die's)."""
    if kind == "d10":
        return value % 10
    if kind == D00:
        return value // 10
    return value - 1


def kind_of(die_type: int, led_count: int) -> str:
    """The kind a die type names (by its LED count when the type is unknown); "" when
    neither says (a fudge die, an unknown type)."""
    if die_type == FUDGE:
        return ""
    return DIE_TYPES.get(die_type) or _BY_LEDS.get(led_count, "")


def parse_advert(
    address: str,
    name: str,
    services: list[str],
    manufacturer: dict[int, bytes],
    service_data: dict[str, bytes],
) -> DieInfo | None:
    """The die an advertisement announces, or None when it is not a Pixels die. The
    current form: manufacturer data (company 0x0D39) `[LED count, design, roll state,
    face index, battery]` (battery's bit 7: charging) and service data under 0x180A
    `[pixel id u32, firmware date u32]`. The older (before mid-2022) form: 7 bytes
    `[pixel id u32, roll state, face index, battery 0..255]` under a "company id" whose
    high byte is the LED count (0xFFFF when unknown)."""
    lowered = [s.lower() for s in services]
    if SERVICE not in lowered and OLD_SERVICE not in lowered:
        return None
    current = manufacturer.get(COMPANY_ID)
    info_data = service_data.get(INFO_SERVICE)
    if current is not None and len(current) >= 5 and info_data and len(info_data) >= 8:
        leds, design, state, index, battery = current[:5]
        pixel_id = struct.unpack_from("<I", info_data, 0)[0]
        kind = kind_of(design >> 4, leds)
        return DieInfo(
            PIXELS,
            f"{pixel_id:08X}",
            address,
            name,
            kind,
            _battery_or_unknown(battery & 0x7F),
            bool(battery & 0x80),
            roll_state=_state_name(state),
            face=_face_or_unknown(kind, index),
        )
    for company, old in manufacturer.items():
        if len(old) != 7:
            continue
        # The older form's "company id" carries the LED count in its high byte (pixels-js
        # getScannedPixel.ts); its design byte is not read any more.
        pixel_id, state, index, battery = struct.unpack_from("<IBBB", old, 0)
        kind = _BY_LEDS.get(company >> 8, "")
        return DieInfo(
            PIXELS,
            f"{pixel_id:08X}",
            address,
            name,
            kind,
            round(battery * 100 / 255),
            roll_state=_state_name(state),
            face=_face_or_unknown(kind, index),
        )
    return None


def _battery_or_unknown(percent: int) -> int:
    """An advertised battery level, or -1 (unknown) for one that cannot be (127%)."""
    return -1 if battery_problem(percent) else percent


def _face_or_unknown(kind: str, index: int) -> int:
    """An advertised face's value, or 0 (unknown) for a kind unknown or a face it has not."""
    return face_value(kind, index) if kind and not face_problem(kind, index) else 0


def _state_name(state: int) -> str:
    return ROLL_STATES[state] if 0 <= state < len(ROLL_STATES) else f"state {state}"


def parse(data: bytes, kind: str, address: str = "") -> DieEvent:
    """A notification from the die, read for a die of `kind` (its face values)."""
    if not data:
        return DieEvent(OTHER, note="an empty message")
    kind_byte = data[0]
    if kind_byte == ROLL_STATE and len(data) >= 3:
        state, index = data[1], data[2]
        if state == STATE_ROLLED:
            if not kind:
                return DieEvent(STATE, note="rolled, but the die's kind is unknown")
            problem = face_problem(kind, index)
            if problem:
                return DieEvent(REFUSED, note=f"rolled {problem}")
            return DieEvent(ROLLED, face_value(kind, index))
        if state == STATE_ROLLING:
            return DieEvent(ROLLING)
        return DieEvent(STATE, note=_state_name(state))
    if kind_byte == BATTERY_LEVEL and len(data) >= 2:
        problem = battery_problem(data[1])
        return DieEvent(REFUSED, note=problem) if problem else DieEvent(BATTERY, data[1])
    if kind_byte == I_AM_A_DIE and len(data) == 22:
        return _i_am_a_die(data, address)
    if kind_byte == I_AM_A_DIE:
        # The chunked form of newer firmware: its die type comes from the advertisement.
        return DieEvent(OTHER, note="identity (chunked)")
    return DieEvent(OTHER, note=f"message {kind_byte}")


def _i_am_a_die(data: bytes, address: str) -> DieEvent:
    """IAmADie's flat form (22 bytes): `[2, LED count, colorway, die type, data set hash
    u32, pixel id u32, available flash u16, build timestamp u32, roll state, face index,
    battery %, battery state]`. The roll state it carries is the die's state when asked,
    never a new roll."""
    (_, leds, _colour, die_type, _hash, pixel_id, _flash, _built, state, index, battery, _bs) = (
        struct.unpack("<BBBBIIHIBBBB", data)
    )
    kind = kind_of(die_type, leds)
    problem = battery_problem(battery) or (face_problem(kind, index) if kind else "")
    if problem:
        return DieEvent(REFUSED, note=f"identity with {problem}")
    info = DieInfo(
        PIXELS,
        f"{pixel_id:08X}",
        address,
        kind=kind,
        battery=battery,
        roll_state=_state_name(state),
        face=face_value(kind, index) if kind else 0,
    )
    return DieEvent(IDENTITY, info=info, kind=kind)


# -- messages to the die ---------------------------------------------------------------------
def who_are_you() -> bytes:
    return bytes([WHO_ARE_YOU])


def request_roll_state() -> bytes:
    return bytes([REQUEST_ROLL_STATE])


def request_battery() -> bytes:
    return bytes([REQUEST_BATTERY])


def blink(
    count: int,
    duration_ms: int,
    argb: int,
    face_mask: int = 0xFFFFFFFF,
    fade: int = 0,
    loop: bool = False,
) -> bytes:
    """Blink `count` times over `duration_ms` in colour `argb` on the faces of `face_mask`
    (all by default); `fade` 0..255 softens each flash."""
    for name, value, top in (
        ("count", count, 0xFF),
        ("duration", duration_ms, 0xFFFF),
        ("colour", argb, 0xFFFFFFFF),
        ("face mask", face_mask, 0xFFFFFFFF),
        ("fade", fade, 0xFF),
    ):
        if not 0 <= value <= top:
            raise ValueError(f"blink {name} {value} is outside 0..{top}")
    return struct.pack("<BBHIIBB", BLINK, count, duration_ms, argb, face_mask, fade, int(loop))


def roll_state(state: int, index: int) -> bytes:
    """RollState as the die sends it (the virtual die's)."""
    return bytes([ROLL_STATE, state, index])


def battery_level(percent: int, state: int = 0) -> bytes:
    return bytes([BATTERY_LEVEL, percent, state])


def i_am_a_die(
    pixel_id: int, die_type: int, leds: int, state: int, index: int, battery: int
) -> bytes:
    """IAmADie's flat form (the virtual die's answer to WhoAreYou)."""
    return struct.pack(
        "<BBBBIIHIBBBB", I_AM_A_DIE, leds, 0, die_type, 0, pixel_id, 0, 0, state, index, battery, 0
    )


def advert_current(
    pixel_id: int, die_type: int, leds: int, state: int, index: int, battery: int
) -> tuple[bytes, bytes]:
    """The current advertisement's manufacturer data (after the company id) and 0x180A
    service data (the virtual die's)."""
    return bytes([leds, die_type << 4, state, index, battery]), struct.pack("<II", pixel_id, 0)


def advert_old(pixel_id: int, state: int, index: int, battery255: int) -> bytes:
    """The older advertisement's manufacturer data (under company `leds << 8 | design`)."""
    return struct.pack("<IBBB", pixel_id, state, index, battery255)
