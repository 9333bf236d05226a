"""The GoDice protocol (Particula), bytes in and out, written from its public description:
ParticulaCode/GoDiceJavaScriptAPI `godice.js` and GoDicePythonAPI `godice/dice.py` (read,
not used: the `godice` package's licence forbids modification and commercial use).

A GoDice speaks over the Nordic UART service. It never says a number: a resting die sends
its acceleration vector (x, y, z, signed bytes), and the face up is the shell's face whose
vector is nearest. The die cannot tell which shell it wears (d6 bare, d20, d10, d10x tens,
d4, d8, d12): the user says so at pairing. Only "S" (stable) ends a roll; "FS", "TS" and
"MS" (fake, tilt, move stable) are rests a pick-up or a nudge also gives, reported and not
counted unless the game master allows them (`accept_unstable`)."""

from __future__ import annotations

from host.dice.model import (
    BATTERY,
    COLOUR,
    D00,
    GODICE,
    IGNORED,
    OTHER,
    REFUSED,
    ROLLED,
    ROLLING,
    DieEvent,
    DieInfo,
    battery_problem,
)

SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
NOTIFY = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
NAME_PREFIX = "GoDice_"

REQUEST_BATTERY = 0x03
SET_LEDS = 0x08
PULSE = 0x10
REQUEST_COLOUR = 0x17

COLOURS = ("black", "red", "green", "blue", "yellow", "orange")
# A shell's name, as the user gives it, and the kind of die it makes (d10x: the tens die).
SHELLS = {"d6": "d6", "d20": "d20", "d10": "d10", "d10x": D00, "d4": "d4", "d8": "d8", "d12": "d12"}
UNSTABLE = {b"FS": "fake stable", b"TS": "tilt stable", b"MS": "move stable"}

# Which face is up, by the acceleration a resting die feels: each face's vector (the die's
# geometry as Particula's APIs give it). The bare die (a d6) has six; the d20, d10 and
# d10x shells share twenty positions, the d4, d8 and d12 shells twenty-four, each
# position read by the shell's own numbering.
_D6 = {1: (-64, 0, 0), 2: (0, 0, 64), 3: (0, 64, 0), 4: (0, -64, 0), 5: (0, 0, -64), 6: (64, 0, 0)}
_TWENTY = (
    (-64, 0, -22), (42, -42, 40), (0, 22, -64), (0, 22, 64), (-42, -42, 42),
    (22, 64, 0), (-42, -42, -42), (64, 0, -22), (-22, 64, 0), (42, -42, -42),
    (-42, 42, 42), (22, -64, 0), (-64, 0, 22), (42, 42, 42), (-22, -64, 0),
    (42, 42, -42), (0, -22, -64), (0, -22, 64), (-42, 42, -42), (64, 0, 22),
)  # fmt: skip
_TWENTY_FOUR = (
    (20, -60, -20), (20, 0, 60), (-40, -40, 40), (-60, 0, 20), (40, 20, 40),
    (-20, -60, -20), (20, 60, 20), (-40, 20, -40), (-40, 40, 40), (-20, 0, 60),
    (-20, -60, 20), (60, 0, 20), (-60, 0, -20), (20, 60, -20), (20, 0, -60),
    (40, -20, -40), (-20, 60, -20), (-40, -40, -40), (40, -20, 40), (20, -60, 20),
    (60, 0, -20), (40, 20, -40), (-20, 0, -60), (-20, 60, 20),
)  # fmt: skip
# Position (1-based, in the tables above) to the shell's number.
_D10 = (8, 2, 6, 1, 4, 3, 9, 0, 7, 5, 5, 7, 0, 9, 3, 4, 1, 6, 2, 8)
_D4 = (3, 1, 4, 1, 4, 4, 1, 4, 2, 3, 1, 1, 1, 4, 2, 3, 3, 2, 2, 2, 4, 1, 3, 2)
_D8 = (3, 3, 6, 1, 2, 8, 1, 1, 4, 7, 5, 5, 4, 4, 2, 5, 7, 7, 8, 2, 8, 3, 6, 6)


def _nearest(vectors: tuple[tuple[int, int, int], ...], xyz: tuple[int, int, int]) -> int:
    """The 1-based position whose vector is nearest `xyz` (the first on a tie)."""
    x, y, z = xyz
    best, best_d = 0, 1 << 30
    for i, (a, b, c) in enumerate(vectors):
        d = (x - a) ** 2 + (y - b) ** 2 + (z - c) ** 2
        if d < best_d:
            best, best_d = i + 1, d
    return best


def face_of(shell: str, xyz: tuple[int, int, int]) -> int:
    """The value a die in `shell` shows at rest with acceleration `xyz`: d10 reads 0 as
    10 (a d10's ten), d10x is the tens die (0, 10 .. 90)."""
    if shell == "d6":
        return _nearest(tuple(_D6[i] for i in range(1, 7)), xyz)
    if shell in ("d20", "d10", "d10x"):
        at = _nearest(_TWENTY, xyz)
        if shell == "d20":
            return at
        digit = _D10[at - 1]
        return digit * 10 if shell == "d10x" else digit or 10
    if shell in ("d4", "d8", "d12"):
        at = _nearest(_TWENTY_FOUR, xyz)
        if shell == "d4":
            return _D4[at - 1]
        if shell == "d8":
            return _D8[at - 1]
        return (at - 1) % 12 + 1
    raise ValueError(f"no GoDice shell {shell!r}: {', '.join(SHELLS)}")


def vector_of(shell: str, value: int) -> tuple[int, int, int]:
    """An acceleration vector a die in `shell` feels showing `value` (the virtual die's)."""
    if shell == "d6":
        return _D6[value]
    table = _TWENTY if shell in ("d20", "d10", "d10x") else _TWENTY_FOUR
    for vec in table:
        if face_of(shell, vec) == value:
            return vec
    raise ValueError(f"a {shell} shell shows no {value}")


def _xyz(data: bytes) -> tuple[int, int, int]:
    x, y, z = (b - 256 if b > 127 else b for b in data[:3])
    return (x, y, z)


def parse(data: bytes, shell: str, accept_unstable: bool = False) -> DieEvent:
    """A notification from a die wearing `shell` ("" if unknown: no roll is read)."""
    if data[:1] == b"R":
        return DieEvent(ROLLING)
    if data[:3] == b"Bat" and len(data) >= 4:
        problem = battery_problem(data[3])
        return DieEvent(REFUSED, note=problem) if problem else DieEvent(BATTERY, data[3])
    if data[:3] == b"Col" and len(data) >= 4:
        colour = data[3]
        return DieEvent(COLOUR, colour, COLOURS[colour] if colour < len(COLOURS) else str(colour))
    if data[:4] == b"Char":
        return DieEvent(OTHER, note="charging" if data[4:5] == b"\x01" else "not charging")
    if data[:1] == b"S" and len(data) >= 4:
        if not shell:
            return DieEvent(IGNORED, note="stable, but its shell is not known")
        return DieEvent(ROLLED, face_of(shell, _xyz(data[1:4])))
    unstable = UNSTABLE.get(bytes(data[:2]))
    if unstable is not None and len(data) >= 5:
        if accept_unstable and shell:
            return DieEvent(ROLLED, face_of(shell, _xyz(data[2:5])), note=unstable)
        return DieEvent(IGNORED, note=unstable)
    return DieEvent(OTHER, note=f"message {bytes(data[:4])!r}")


def parse_advert(address: str, name: str, services: list[str]) -> DieInfo | None:
    """A GoDice announces itself by its name (`GoDice_...`); the name is its id."""
    if not name.startswith(NAME_PREFIX):
        return None
    return DieInfo(GODICE, name, address, name)


# -- messages to the die ---------------------------------------------------------------------
def request_battery() -> bytes:
    return bytes([REQUEST_BATTERY])


def request_colour() -> bytes:
    return bytes([REQUEST_COLOUR])


def pulse(count: int, on_10ms: int, off_10ms: int, rgb: tuple[int, int, int]) -> bytes:
    """Pulse both LEDs `count` times, on and off in units of 10 ms, in colour `rgb`."""
    for value in (count, on_10ms, off_10ms, *rgb):
        if not 0 <= value <= 255:
            raise ValueError(f"pulse value {value} is outside 0..255")
    return bytes([PULSE, count, on_10ms, off_10ms, *rgb, 1, 0])


def stable(xyz: tuple[int, int, int], prefix: bytes = b"S") -> bytes:
    """A resting message as the die sends it (the virtual die's): `S`, `FS`, `TS`, `MS`."""
    return prefix + bytes(v & 0xFF for v in xyz)


def battery(percent: int) -> bytes:
    return b"Bat" + bytes([percent])


def colour(index: int) -> bytes:
    return b"Col" + bytes([index])
