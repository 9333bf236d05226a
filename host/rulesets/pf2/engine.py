"""A pf2 fight's state: its creatures (hit points, temporary hit points, dying, wounded,
conditions with and without a value, persistent damage, the actions and reaction left,
the attacks made this turn, Hero Points), the initiative order as entries (a creature or a
group of identical creatures), those who Delay, the round and whose turn it is, and every
die of an action.

A game is a pure function of its encounter, its seed and its actions with their records:
every die comes from `Dice.draw` in the kit's order (host/core/kit.py). The rules that
change a game live beside it: checks.py (degrees of success and modifiers), harm.py
(damage, healing, dying), turns.py (initiative, the turn's two ends), delay.py (Delay),
verbs.py (each verb). Rules: pf2-combat.txt.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from host.core import kit
from host.core.interface import game_log
from host.core.timeline import Timeline
from host.rulesets.pf2.encounter_schema import Creature, Encounter

# The rules' version: raise it when the same journal would play out differently.
RULES_VERSION = 1
# What each roll is for, and its number on the board (the wanted roll's purpose, 0..15).
CODES = {
    "initiative": 1,
    "attack": 2,
    "damage": 3,
    "save": 4,
    "recovery": 5,
    "flat": 6,
    "persistent": 7,
    "heal": 8,
    "reroll": 9,
}
ACTIONS = 3  # [3]


@dataclass
class Fighter(kit.Creature):
    """One creature in the fight."""

    spec: Creature
    index: int
    hp: int
    temp: int = 0
    dead: bool = False
    fled: bool = False
    dying: int = 0  # [13]-[16]
    wounded: int = 0
    values: dict[str, int] = field(default_factory=dict)  # [19] frightened 2, doomed 1 ...
    marks: list[str] = field(default_factory=list)  # [19] prone, off-guard ...
    persistent: dict[str, str] = field(default_factory=dict)  # [25] type -> dice ("1d6")
    assisted: bool = False  # [25]: its next flat check against persistent damage is DC 10
    actions: int = 0  # left this turn [3]
    actions_max: int = ACTIONS  # what it regained at the start of this turn [4]
    reaction: bool = True  # [3]
    attacks: int = 0  # attack actions this turn [6]
    readied: str = ""  # [21]: the readied action
    readied_step: int = -1  # the multiple attack penalty's step as it readied (-1: none)
    hero: int = 0  # Hero Points [26]
    initiative: int | None = None
    stats: dict[str, int] = field(default_factory=kit.creature_stats)

    def has(self, condition: str) -> bool:
        return condition in self.marks or self.values.get(condition, 0) > 0


@dataclass
class Entry:
    """One place in the initiative order: its total and who takes the turn (a lone creature,
    or a group of identical creatures [1])."""

    total: int
    members: list[int]


@dataclass
class Delayed:
    """[22] An entry that Delays: out of the order since round `since`, its place there the
    entry it came after (`after`, -1: the round's first place) by its first member."""

    entry: Entry
    since: int
    after: int


class Dice(kit.SeededDice):
    """Every die of an action, in the kit's order (host/core/kit.py `SeededDice`: plain dice
    of given sides, its record [purpose, faces, source] a roll)."""

    codes = CODES

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        # The degree of success (0..3; -1 none) of the action's last check [7]: what the
        # board would show with the roll, were there a place for it (device.py).
        self.degree = -1


def fighter(spec: Creature, index: int) -> Fighter:
    """A creature as it comes into the fight: at its full HP, or as a campaign's fight
    before left it (`hp_now`, wounded [16], doomed [17], dying [13]); at 0 HP unconscious
    and prone [16][18]."""
    f = Fighter(spec, index, spec.hp if spec.hp_now is None else spec.hp_now)
    f.hero = spec.hero
    f.wounded = spec.wounded
    f.dying = spec.dying
    if spec.doomed:
        f.values["doomed"] = spec.doomed
    if f.hp == 0:
        f.marks += ["unconscious", "prone"]
    return f


class Game(kit.Fight[Fighter, Entry]):
    def __init__(self, encounter: Encounter, seed: int) -> None:
        self.meet(encounter, seed, lambda spec, i, hp: fighter(spec, i))
        self.round = 0  # 0 before initiative is rolled
        self.order: list[Entry] = []
        self.at = 0  # the position in `order` whose turn it is
        self.delayed: list[Delayed] = []  # [22]
        # The last action's turn moments, for the effect clock, when it Delayed (delay.py;
        # `Ruleset.turn_moments`); None: the clock reads the turn from the board's order.
        self.moments: list[tuple[str, Any]] | None = None
        # Where the last action's end-of-turn lines begin, if it ended a turn: the effect
        # book's ends are said there, before persistent damage [5](a) (ruleset.book_places).
        self.turn_end_at: int | None = None
        self.died_now: list[int] = []  # who died of its dying value in the last action [26]
        # [24] each sustained effect's Sustains so far, by "target/effect" (plain words),
        # with the action that last put it on (the book's `since`): a new one counts anew.
        self.sustained: dict[str, list[int]] = {}
        # [26] the last action's check, kept for a Hero Point's reroll after it (verbs.py
        # `keep_check`): who rolled, the face, what the check needs to be resolved again,
        # and the creatures its result may change, as they were before it ({}: none).
        self.last_check: dict[str, Any] = {}
        self.joined: list[tuple[str, dict]] = []
        self.gone: dict[str, str] = {}
        self.dice = Dice(seed)
        self.actions = 0
        self.log = game_log()
        self.timeline = Timeline()
        self.over: str | None = None  # the winning team, "nobody", or None
        self.state: Any = None  # the board's view (device.py keeps it)

    def turn_of(self, f: Fighter) -> bool:
        e = self.entry()
        return e is not None and f.index in e.members

    def is_delayed(self, f: Fighter) -> bool:
        return any(f.index in d.entry.members for d in self.delayed)
