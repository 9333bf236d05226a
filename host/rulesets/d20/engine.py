"""A d20 fight's state: its creatures (hit points, temporary hit points, death saves,
concentration, what each has used this turn and this round), the initiative order as
entries (a creature, a group of identical creatures, or a lair on count 20), the round and
whose turn it is, and every die of an action.

A game is a pure function of its encounter, its seed and its actions with their records:
every die comes from `Dice.draw`, in the kit's order (host/core/kit.py): the record's when
replaying, else the roll given to the waiting action while the session takes the dice from
the board or the table, else the engine's generator seeded by the game's seed and the
action's number. The rules that change a game live beside it: turns.py (initiative and the
turn's ends), harm.py (damage, healing, dying, concentration), conditions.py (conditions and
their durations), verbs.py (each verb).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from host.core import kit
from host.core.interface import game_log
from host.core.timeline import Timeline
from host.rulesets.d20.encounter_schema import Creature, Encounter

# The rules' version: raise it when the same journal would play out differently.
# 2: `end` ends the turn as in every game (it ended the fight, now `finish`).
RULES_VERSION = 2
# What each roll is for, and its number on the board (the wanted roll's purpose, 0..15).
CODES = {
    "initiative": 1,
    "tie": 2,
    "attack": 3,
    "damage": 4,
    "save": 5,
    "death": 6,
    "check": 7,
    "heal": 8,
    "recharge": 9,
}
LUCK = ("nat20", "nat1", "above", "below")


@dataclass
class Fighter(kit.Creature):
    """One creature in the fight."""

    spec: Creature
    index: int
    hp: int
    temp: int = 0
    dead: bool = False
    fled: bool = False
    stable: bool = False  # a character at 0 HP that makes no more death saves
    knocked_out: bool = False  # a monster at 0 HP left alive [14]
    successes: int = 0  # death saves
    failures: int = 0
    exhaustion: int = 0
    concentration: str = ""  # the spell it concentrates on ("" for none)
    surprised: bool = False  # until its first turn is over [1]
    action: bool = True  # what it has left: this turn's action and bonus action,
    bonus: bool = True
    reaction: bool = True  # this round's reaction (back at the start of its turn)
    movement: int = 0
    readied: str = ""  # the readied action's trigger and what it does [7]
    legendary_left: int = 0
    initiative: int | None = None  # its entry's total
    legendary_resistance: int = 0  # uses left (the stat line's a day; a fight is one day)
    recharging: list[str] = field(default_factory=list)  # actions used, waiting to recharge
    used: dict[str, int] = field(default_factory=dict)  # uses so far of an action N a day
    # Its luck too (a campaign's scores, host/core/campaign.py): its d20s' natural 20s and
    # 1s, and its dice above and below their average.
    stats: dict[str, int] = field(default_factory=lambda: kit.creature_stats(*LUCK))

    def __post_init__(self) -> None:
        self.legendary_resistance = self.spec.legendary_resistance

    @property
    def dying(self) -> bool:
        """A character at 0 HP still making death saves."""
        return self.in_fight and self.hp == 0 and not self.stable and not self.knocked_out


@dataclass
class Entry:
    """One place in the initiative order: its total, its `rank` (entries run in rank
    order: higher totals first, a lair after the creatures tied at 20, then the tie's
    decision), and who takes the turn (a lone creature, a group; none for a lair, whose
    owner is `lair_of`)."""

    total: int
    rank: tuple[int, int, int]
    members: list[int]
    lair_of: int = -1


class Dice(kit.SeededDice):
    """Every die of an action, in the kit's order (host/core/kit.py `SeededDice`: plain dice
    of given sides, its record [purpose, faces, source] a roll)."""

    codes = CODES

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.fighters: list[Fighter] = []  # the game's: whose dice each roll counts for

    def draw(self, purpose: str, who: int, sides: tuple[int, ...]) -> tuple[int, ...]:
        faces = super().draw(purpose, who, sides)
        if 0 <= who < len(self.fighters):
            count_luck(self.fighters[who].stats, faces, sides)
        return faces


def count_luck(stats: dict[str, int], faces: tuple[int, ...], sides: tuple[int, ...]) -> None:
    """Add a roll's dice to a fighter's luck (its `stats`)."""
    for face, top in zip(faces, sides, strict=True):
        if top == 20 and face in (1, 20):
            stats["nat20" if face == 20 else "nat1"] += 1
        if 2 * face > top + 1:
            stats["above"] += 1
        elif 2 * face < top + 1:
            stats["below"] += 1


def arrives(game: Game, f: Fighter) -> None:
    """A creature comes into the fight as its stat line says a campaign's last fight left it
    (host/rulesets/d20/campaign.py): its hit points, temporary hit points and exhaustion (its
    lasting conditions: conditions.lasting). At 0 HP it is stable [17]."""
    spec = f.spec
    if spec.hp_now is not None:
        f.hp = spec.hp_now
        f.stable = spec.hp_now == 0 and spec.kind == "character"
    f.temp = spec.temp
    f.exhaustion = spec.exhaustion


class Game(kit.Fight[Fighter, Entry]):
    def __init__(self, encounter: Encounter, seed: int) -> None:
        self.meet(encounter, seed, Fighter)
        self.effects: list[Any] = []  # d20's own conditions.Effect, in the order they began
        for f in self.fighters:
            f.surprised = f.spec.surprised
            f.movement = f.spec.speed
            f.legendary_left = f.spec.legendary
            arrives(self, f)
        self.round = 0  # 0 before initiative is rolled
        self.order: list[Entry] = []
        self.at = 0  # the position in `order` whose turn it is
        # The creatures that took a legendary action at the end of this turn [27]; once one
        # has, the turn is over for whoever was taking it.
        self.legendary_now: list[int] = []
        self.lair_used = False
        # The host effect book's action count when d20's rules last looked at it
        # (conditions.settle): the conditions its `effect` verb put on since are new.
        self.settled_at = 0
        self.links: list[Any] = []  # conditions.Link: effects that end with a concentration
        # Creatures who joined under way ((table, fields) each: host/core/newcomers.py) and
        # who left (name -> why).
        self.joined: list[tuple[str, dict]] = []
        self.gone: dict[str, str] = {}
        self.dice = Dice(seed)
        self.dice.fighters = self.fighters  # (shared: a newcomer's rolls are counted too)
        self.actions = 0
        self.log = game_log()
        self.timeline = Timeline()
        self.over: str | None = None  # the winning team, "nobody", or None
        self.state: Any = None  # the board's view (device.py keeps it)

    def entry_of(self, index: int) -> Entry | None:
        return next((e for e in self.order if index in e.members), None)

    def turn_of(self, f: Fighter) -> bool:
        """Whether it is `f`'s turn (its group's) and the turn is not over."""
        e = self.entry()
        return e is not None and f.index in e.members and not self.legendary_now

    def now(self) -> tuple[int, int, int, int]:
        """Where the fight is: (round, *the current entry's rank)."""
        e = self.entry()
        return (self.round, *(e.rank if e else (0, 0, 0)))
