"""Which place of a wanted roll a smart die's face fills.

A wanted roll (host/core/interface.py `WantedRoll`) has one place per face, in order. Each
place takes dice of a kind and reads their value as the face the rules want:
- plain dice (dN): a die of N sides, as it reads; a d2 from a d6 read by halves (1-3: 1);
- action dice: a D6 as it reads; a D3 from a d6 read in pairs (1-2: 1, 3-4: 2, 5-6: 3,
  the rules' converted D6); a ten-faced action die from a d10 (0 reads 10);
- a chance flip from a d6: 4-6 is heads (1), 1-3 tails (0);
- a d100's two places, tens then units: the tens from a tens die (d00) or a d10, the units
  from a d10 (its 10 reads 0). While a tens die is at the table, a d10 fills the units only.
A die fills the first empty place that takes its kind. A die that already gave a face to
this roll gives another only when the table has fewer dice of its kind than the roll has
places for them (one d20 rolled twice for a roll with advantage); else its second roll is
shown as unused."""

from __future__ import annotations

from dataclasses import dataclass, field

from host.core.interface import WantedRoll
from host.dice.model import D00
from shared import dice


@dataclass
class Place:
    name: str  # "d20", "tens", "D3", ...
    takes: tuple[str, ...]  # the die kinds that fill it
    face: int | None = None
    die_id: str = ""
    kind: str = ""


def _read(place: Place, kind: str, value: int) -> int:
    """The face `place` takes from a die of `kind` showing `value`."""
    if place.name == "tens":
        return value // 10 if kind == D00 else value % 10
    if place.name == "units":
        return value % 10
    if place.name == "D3":
        return (value + 1) // 2
    if place.name in ("chance", "d2"):
        return int(value >= 4) if place.name == "chance" else 1 + int(value >= 4)
    return value


def places_of(wanted: WantedRoll, tens_die_at_table: bool) -> list[Place]:
    """The places of `wanted`, each with the kinds that fill it (a place no smart die
    fills takes none: `unfillable`)."""
    kind = wanted.kind
    if kind == dice.KIND_D100:
        units_only = ("d10",)
        tens = (D00,) if tens_die_at_table else (D00, "d10")
        return [Place("tens", tens), Place("units", units_only)]
    if kind == dice.KIND_DN:
        sides = wanted.sides or ()
        out = []
        for s in sides:
            if s == 2:
                out.append(Place("d2", ("d6",)))
            elif f"d{s}" in ("d4", "d6", "d8", "d10", "d12", "d20"):
                out.append(Place(f"d{s}", (f"d{s}",)))
            else:
                out.append(Place(f"d{s}", ()))
        return out
    takes = {
        dice.KIND_ACTION_D3: ("D3", ("d6",)),
        dice.KIND_ACTION_D6: ("D6", ("d6",)),
        dice.KIND_D10: ("D10", ("d10",)),
        dice.KIND_CHANCE: ("chance", ("d6",)),
    }.get(kind)
    if takes is None:
        return [Place("?", ()) for _ in range(wanted.count)]
    return [Place(takes[0], takes[1]) for _ in range(wanted.count)]


@dataclass
class Matcher:
    """The places of one wanted roll as smart dice fill them. `dice_of_kind` counts the
    paired dice of each kind at the table (how many places one die may fill)."""

    wanted: WantedRoll
    dice_of_kind: dict[str, int] = field(default_factory=dict)
    places: list[Place] = field(init=False)

    def __post_init__(self) -> None:
        self.places = places_of(self.wanted, self.dice_of_kind.get(D00, 0) > 0)

    @property
    def complete(self) -> bool:
        return all(p.face is not None for p in self.places)

    def unfillable(self) -> list[str]:
        """The places no smart die can fill (a d3 of a dN roll, a chance flip without a d6)."""
        return [p.name for p in self.places if not p.takes]

    def kinds_wanted(self) -> set[str]:
        """The kinds that fill an empty place: the dice to blink."""
        return {k for p in self.places if p.face is None for k in p.takes}

    def offer(self, die_id: str, kind: str, value: int) -> tuple[int, str]:
        """Give a die's roll to the first empty place that takes it: (its index, "") or
        (-1, why it is unused)."""
        empty = [i for i, p in enumerate(self.places) if p.face is None and kind in p.takes]
        if not empty:
            if any(kind in p.takes for p in self.places):
                return -1, f"every {kind} place is filled"
            return -1, f"the roll wants no {kind}"
        given = sum(1 for p in self.places if p.die_id == die_id)
        places_for_kind = sum(1 for p in self.places if kind in p.takes)
        dice_here = max(1, self.dice_of_kind.get(kind, 1))
        if given and given >= -(-places_for_kind // dice_here):
            return -1, "this die already gave its roll (throw another)"
        at = empty[0]
        place = self.places[at]
        place.face, place.die_id, place.kind = _read(place, kind, value), die_id, kind
        return at, ""

    def faces(self) -> tuple[int, ...]:
        return tuple(p.face if p.face is not None else 0 for p in self.places)

    def source(self) -> str:
        """`smart:<die id>` for a roll one die filled, `smart:<id>,<id>,...` (one per face,
        in order) for several."""
        ids = [p.die_id for p in self.places]
        if len(set(ids)) == 1:
            return f"smart:{ids[0]}"
        return "smart:" + ",".join(ids)

    def lines(self) -> list[str]:
        """Which die filled which place: `place 1 (d20): 17 from smart:0A1B2C3D`."""
        out = []
        for i, p in enumerate(self.places):
            if p.face is None:
                out.append(f"place {i + 1} ({p.name}): waiting for a {' or '.join(p.takes)}")
            else:
                out.append(f"place {i + 1} ({p.name}): {p.face} from smart:{p.die_id}")
        return out
