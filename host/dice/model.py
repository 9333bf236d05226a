"""What a smart die is and what it says, whatever its make: `DieInfo` (from an
advertisement or a pairing), `DieEvent` (decoded from a notification), and the die
kinds (`D4` .. `D20`, `D00` the tens die) the matcher reads."""

from __future__ import annotations

from dataclasses import dataclass

PIXELS = "pixels"
GODICE = "godice"

# A die's kind is its faces' count, and "d00" for the tens die of a d100 (00, 10 .. 90).
D00 = "d00"
KINDS = ("d4", "d6", "d8", "d10", D00, "d12", "d20")


def sides_of(kind: str) -> int:
    """A kind's faces' count (d00: 10)."""
    return 10 if kind == D00 else int(kind[1:])


def battery_problem(percent: int) -> str:
    """Why `percent` is no battery level ("" when it is one: 0..100)."""
    return "" if 0 <= percent <= 100 else f"battery {percent}%, past 0..100"


@dataclass(frozen=True)
class DieInfo:
    """A die as a scan or the settings know it. `die_id` is the die's own id (a Pixels
    die's pixel id in hex, a GoDice's name), never the Bluetooth address, which a die
    may change. `kind` is "" while unknown (a GoDice's shell is set at pairing).
    `battery` is a percentage or -1; `colour` a GoDice's colour name or ""."""

    make: str
    die_id: str
    address: str
    name: str = ""
    kind: str = ""
    battery: int = -1
    charging: bool = False
    colour: str = ""
    roll_state: str = ""
    face: int = 0  # the face up as the advertisement says (Pixels), 0 if unknown

    @property
    def label(self) -> str:
        """`smart:<die id>`: the source a face from this die is journalled with."""
        return f"smart:{self.die_id}"


# What a die says (`DieEvent.what`):
ROLLED = "rolled"  # a roll that counts: `value` is its face
ROLLING = "rolling"  # moving: nothing to use yet
STATE = "state"  # a roll state that is not a roll (handling, crooked, on face, ...): `note`
IGNORED = "ignored"  # a resting message not counted as a roll (GoDice fake/tilt/move stable)
BATTERY = "battery"  # `value` is a percentage
COLOUR = "colour"  # `note` is the colour's name
IDENTITY = "identity"  # who the die is (Pixels IAmADie): `info`
OTHER = "other"  # an acknowledgement or a message this code has no use for
REFUSED = "refused"  # a message that cannot be (a face the die has not, a battery over
# 100%): `note` says what; never a roll, never a battery level


@dataclass(frozen=True)
class DieEvent:
    what: str
    value: int = 0
    note: str = ""
    info: DieInfo | None = None
    kind: str = ""  # IDENTITY: the die's kind as it reports it
