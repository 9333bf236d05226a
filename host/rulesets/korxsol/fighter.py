"""A fighter as the desktop engine keeps it beside the device view: its sheet, SOL, armor as
chipped, buffs and debuffs, grapple and charge, hand, cooldown ids and statistics; and the
name matching every lookup uses."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from host.rulesets.korxsol.model import Item, Move, Solighter
from host.rulesets.korxsol.scoring import Stats
from shared.limits import NO_SLOT


@lru_cache(maxsize=1024)
def norm(name: str) -> str:
    """A name as matched: lower case, letters and digits only."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


@dataclass
class Modifier:
    """A buff or debuff: lasts while its source's cooldown timer runs."""

    owner: int  # slot of the one whose move or item gave it
    timer: int  # the owner's cooldown id that keeps it alive (0: none, ends with this turn)
    key: str  # an attribute, "hit", "<status>_flips", "true_sight" or "threat"
    amount: int
    source: str  # the move's name, for display


@dataclass
class Fighter:
    spec: Solighter
    index: int
    sol: int
    armor: int
    hand: list[Item]
    modifiers: list[Modifier] = field(default_factory=list)
    blinded: bool = False
    grappling: int = NO_SLOT
    grappled_by: int = NO_SLOT
    charging: Move | None = None
    charge_turn: int = -1  # the game's turn number when the charge began
    combat_used: bool = False
    terrain: str = "ground"  # what it stands on, as the game master last said (terrain.py)
    stats: Stats = field(default_factory=Stats)
    # (kind, normalised name) -> cooldown id 1..7, for what has a cooldown (Solighter.timed)
    timers: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.spec.name

    def has(self, key: str) -> bool:
        return any(m.key == key for m in self.modifiers)
