"""A game's timeline (one point a turn, for the chart and the export), kept compact.

A point is a plain dict whose values are ints or dicts of ints (`{"turn": 3, "hp": {"Vex":
12, ...}, "score": {...}}`). A game of 100,000 actions holds 100,000 of them, and as dicts
they were most of a long game's memory and of its checkpoint (about 600 B a point). Here
the keys are kept once (the shape of the first point) and each point's numbers as eight
bytes each, in chunks; a point of another shape, or with a value that is not an int, is
kept as it is. `points()` gives the dicts back, equal to the ones appended.

The timeline only grows, so a game's copy (checkpoints, the legal-action check) shares its
sealed chunks; host/core/plain_data.py stores it as plain data (bytes, a bytearray, a dict).
"""

from __future__ import annotations

from array import array
from typing import Any

Shape = tuple[tuple[str, tuple[str, ...] | None], ...]
_LOW, _HIGH = -(2**63), 2**63 - 1
CHUNK = 4096  # bytes of numbers sealed together (see __copy__)


def _shape(point: dict) -> Shape | None:
    """The keys of `point`, or None when it is not ints and dicts of ints."""
    shape: list[tuple[str, tuple[str, ...] | None]] = []
    for key, value in point.items():
        if _number(value):
            shape.append((key, None))
        elif isinstance(value, dict) and all(_number(v) for v in value.values()):
            shape.append((key, tuple(value)))
        else:
            return None
    return tuple(shape)


def _number(value: Any) -> bool:
    return type(value) is int and _LOW <= value <= _HIGH


class Timeline:
    def __init__(self) -> None:
        self.shape: list = []  # the common shape, as lists (plain data); empty until a point
        self.sealed: list[bytes] = []  # full chunks of numbers, never changed again
        self.tail = bytearray()  # the numbers after them, up to CHUNK bytes
        self.count = 0  # points appended
        self.odd: dict[int, dict] = {}  # the points of another shape, by their index

    def __len__(self) -> int:
        return self.count

    def __copy__(self) -> Timeline:
        # The sealed chunks are shared: a copy costs one pointer a chunk and the tail, so
        # the session's many checkpoints of a long game do not each hold its timeline.
        clone = Timeline()
        clone.shape = self.shape  # never changed once set
        clone.sealed = list(self.sealed)
        clone.tail = bytearray(self.tail)
        clone.count = self.count
        clone.odd = dict(self.odd)
        return clone

    def _common(self) -> Shape:
        return tuple((key, None if sub is None else tuple(sub)) for key, sub in self.shape)

    def append(self, point: dict) -> None:
        if not self.shape:
            shape = _shape(point)
            if shape is not None:
                self.shape = [[key, None if sub is None else list(sub)] for key, sub in shape]
        values = self._numbers(point)
        self.count += 1
        if values is None:
            self.odd[self.count - 1] = point
            return
        self.tail += array("q", values).tobytes()
        if len(self.tail) >= CHUNK:
            self.sealed.append(bytes(self.tail))
            self.tail = bytearray()

    def _numbers(self, point: dict) -> list[int] | None:
        """The numbers of a point of the common shape, in its order; None for a point of
        another (read in one pass: a replay appends a point an action)."""
        common = self.shape
        if len(point) != len(common):
            return None
        values: list[int] = []
        for (key, value), (known, sub) in zip(point.items(), common, strict=True):
            if key != known:
                return None
            if sub is None:
                if not _number(value):
                    return None
                values.append(value)
                continue
            if not isinstance(value, dict) or len(value) != len(sub):
                return None
            for (name, number), wanted in zip(value.items(), sub, strict=True):
                if name != wanted or not _number(number):
                    return None
                values.append(number)
        return values

    def points(self) -> list[dict]:
        """Every point, as the dicts that were appended."""
        shape = self._common()
        numbers = array("q")
        for chunk in self.sealed:
            numbers.frombytes(chunk)
        numbers.frombytes(self.tail)
        out: list[dict] = []
        at = 0
        for index in range(self.count):
            if index in self.odd:
                out.append(self.odd[index])
                continue
            point: dict = {}
            for key, sub in shape:
                if sub is None:
                    point[key] = numbers[at]
                    at += 1
                else:
                    point[key] = dict(zip(sub, numbers[at : at + len(sub)], strict=True))
                    at += len(sub)
            out.append(point)
        return out
