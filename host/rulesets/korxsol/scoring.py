"""Per-player statistics and the score table: damage dealt and taken, hits, dodges, blocks,
critical successes, knock-outs and dice luck (successes against the expected number).

Stats live inside the game and are rebuilt with it by replay, so undo puts them back too.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

STAT_FIELDS = (
    "damage_dealt",
    "damage_taken",
    "hits",
    "misses",
    "dodges",
    "blocked",
    "crits",
    "kos",
    "dice",
    "successes",
    "expected3",
)


@dataclass
class Stats:
    damage_dealt: int = 0
    damage_taken: int = 0
    hits: int = 0
    misses: int = 0
    dodges: int = 0
    blocked: int = 0  # damage points blocked by resistance and armor
    crits: int = 0  # POWER_Roll successes: each one is a critical hit
    kos: int = 0
    dice: int = 0  # action dice rolled
    successes: int = 0
    expected3: int = 0  # three times the successes expected (exact, in integers)

    @property
    def expected(self) -> Fraction:
        return Fraction(self.expected3, 3)

    @property
    def luck(self) -> float:
        """Successes rolled minus the successes expected from the dice rolled."""
        return (3 * self.successes - self.expected3) / 3

    @property
    def score(self) -> int:
        """One number per player: damage dealt, 5 per knock-out, 1 per dodge."""
        return self.damage_dealt + 5 * self.kos + self.dodges

    def add(self, other: Stats) -> None:
        for name in STAT_FIELDS:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_json(self) -> dict:
        # Every field is a number: no deep copy (dataclasses.asdict) needed. The web
        # pages' views hold each fighter's, built at up to five views a second.
        data = {name: getattr(self, name) for name in STAT_FIELDS if name != "expected3"}
        data["expected"] = round(self.expected3 / 3, 4)
        data["luck"] = round(self.luck, 4)
        data["score"] = self.score
        return data
