"""Advance's rules: a combat round from A to E (advance-late-combat-round.txt), one action per
character per round, Hit checks and Evasion, damage to Stamina and Body Damage, Death
checks, Helpless, a Boss's Full Power and <Yell>, extra actions, and the tables as data.

A game is a pure function of its encounter, its seed and its actions with their records:
every die comes from `Dice.draw`, in the kit's order (host/core/kit.py): the record's when
replaying, else the roll given to the waiting action while the session takes the dice from
the board or the table, else the engine's generator seeded by the game's seed and the
action's number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from host.core import kit
from host.core.interface import IllegalAction, game_log
from host.core.names import plain
from host.core.timeline import Timeline
from host.rulesets.advance.encounter_schema import GAP, Ability, Character, Encounter, Item, Row
from shared import dice

# 2: a Boss brought to exactly 0 Stamina owes a Death check; Helpless ends with the fight
RULES_VERSION = 2
STEPS = ("A", "B", "C", "D", "E")
STEP_NAMES = (
    "Initiative Check",
    "Adventurer Actions (Advance)",
    "Enemy Actions",
    "Adventurer Actions (Late)",
    "Additional Actions",
)
# What each roll is and how many D6 it takes: a check's 2D6, a Death check's 1D6, and one D6
# on a table.
PURPOSES = {"check": 2, "death": 1, "d6": 1}
CODES = {"check": 1, "death": 2, "d6": 3}  # the wanted roll's purpose on the board (0..15)


@dataclass
class Fighter:
    spec: Character
    index: int
    stamina: int
    willpower: int
    places: dict[str, str]  # item name -> equipped | hand | bag
    owned: dict[str, Item]  # the items it holds now (exchange moves them)
    damaged: list[str] = field(default_factory=list)  # body parts, in the order damaged
    status: str = "in"  # in | dead | fled | left (`remove`)
    full_power: bool = False
    advance: bool | None = None  # this round's initiative: True Advance, False Late
    acted: bool = False  # it has taken (or let pass) its action this round
    joins: int = 0  # a newcomer added after a round's step A: the round it acts from
    extra: int = 0  # extra actions left this round (taken in E)
    yelled: bool = False
    supports: list[tuple[int, str]] = field(default_factory=list)  # (supporter, ability)
    # Helpless as the fight ended: the end lifts it (Willpower 1), the score still counts it
    put_down: bool = False
    stats: dict[str, int] = field(
        default_factory=lambda: {"damage": 0, "body": 0, "hits": 0, "evasions": 0, "downs": 0}
    )

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def in_combat(self) -> bool:
        return self.status == "in"

    @property
    def helpless(self) -> bool:
        return self.status == "in" and self.willpower == 0

    @property
    def enemy(self) -> bool:
        return self.spec.side == 1

    @property
    def done(self) -> bool:
        """Done with its action this round: it acted, or it is Helpless (always considered
        Done while Helpless; freed before acting, it is not: docs/rulesets/advance.md)."""
        return self.acted or self.helpless


@dataclass
class Hit:
    """A Hit check that succeeded, its damage decided: the target may Evade or take it."""

    attacker: int
    target: int
    damage: int
    specialty: str
    result: int  # the Hit check's result: X of the Evasion's difficulty
    spare: bool  # a non-Boss enemy brought to 0 Stamina is left Helpless, not dead


@dataclass
class Death:
    """A Death check owed for Body Damage: rolled (`death`), cancelled (`break`), then
    Willpower spent (`spend`) when the roll fails."""

    who: int
    by: int  # who dealt the Body Damage
    roll: int | None = None


class Dice(kit.SeededDice):
    """Every die of an action, in the kit's order (host/core/kit.py `SeededDice`: action
    dice, its record [purpose, faces, source] a roll)."""

    codes = CODES

    def action_dice(self, purpose: str, who: int) -> tuple[int, ...]:
        """The action dice `purpose` takes (PURPOSES), rolled by slot `who`."""
        return self.draw_kind(purpose, who, PURPOSES[purpose], dice.KIND_ACTION_D6, 6)


class Game(kit.EncounterGame[Encounter]):
    def __init__(self, encounter: Encounter, seed: int) -> None:
        self.encounter = encounter
        self.options = encounter.options
        self.seed = seed
        self.fighters = [
            Fighter(
                spec,
                i,
                spec.stamina if spec.stamina_now is None else spec.stamina_now,
                spec.willpower if spec.willpower_now is None else spec.willpower_now,
                {it.name: it.place for it in spec.items},
                {it.name: it for it in spec.items},
                list(spec.damaged),
            )
            for i, spec in enumerate(encounter.characters)
        ]
        self.round = 1
        self.step = 0  # index into STEPS
        self.started = False
        self.pending: Hit | Death | None = None
        self.dice = Dice(seed)
        self.actions = 0
        self.log = game_log()
        self.timeline = Timeline()
        self.initiative_specialty = ""
        self.over: str | None = None  # the winning team, "nobody", or None
        self.last_ok = False  # the last check's outcome (the board's last roll)
        # Characters who joined under way ((table, fields) each: host/core/newcomers.py) and
        # those who left (`remove`), by name, with why.
        self.joined: list[tuple[str, dict]] = []
        self.gone: dict[str, str] = {}
        self.state: Any = None  # the board's view (host/rulesets/advance/device.py keeps it)

    # -- looking things up ------------------------------------------------------------------
    def fighter(self, word: str) -> Fighter:
        key = plain(word)
        for f in self.fighters:
            if key in (plain(f.spec.name), plain(f.spec.label)):
                return f
        known = ", ".join(f.spec.name for f in self.fighters)
        raise IllegalAction(f"unknown character {word!r} (known: {known})")

    def ability(self, f: Fighter, word: str) -> Ability | None:
        key = plain(word)
        return next((a for a in f.spec.abilities if plain(a.name) == key), None)

    def item(self, f: Fighter, word: str) -> Item | None:
        key = plain(word)
        return next((it for name, it in f.owned.items() if plain(name) == key), None)

    def locked(self, f: Fighter) -> dict[str, str]:
        """The squares next to a damaged part (8 around it, reaching across gaps): name ->
        the part that locks it."""
        out: dict[str, str] = {}
        sheet = f.spec.sheet
        for part in f.damaged:
            for r, row in enumerate(sheet):
                for c, name in enumerate(row):
                    if plain(name) != plain(part):
                        continue
                    for dr in (-1, 0, 1):
                        for dc in (-1, 0, 1):
                            if dr or dc:
                                found = _neighbour(sheet, r, c, dr, dc)
                                if found.strip():
                                    out.setdefault(plain(found), part)
        return out

    def usable_specialties(self, f: Fighter) -> list[str]:
        broken = {plain(p) for p in f.damaged}
        return [s for s in f.spec.specialties if plain(s) not in broken]

    def distance(self, f: Fighter, specialty: str) -> int:
        """Spaces from `specialty` to the nearest Specialty `f` can use (a damaged part is
        not one); with none, as far as the table reaches."""
        enc = self.encounter
        target = enc.where(specialty)
        step = self.options.column_step
        far = len(enc.specialties) * step + max(len(c) for c in enc.specialties)
        if target is None:
            return far
        best = far
        for s in self.usable_specialties(f):
            at = enc.where(s)
            if at is not None:
                best = min(best, abs(at[0] - target[0]) * step + abs(at[1] - target[1]))
        return best

    def standing(self, side: int) -> list[Fighter]:
        """Who on a side can still fight: in combat and not Helpless (a Helpless Boss can
        still <Yell> back, so it stands)."""
        return [
            f
            for f in self.fighters
            if f.spec.side == side and f.in_combat and (not f.helpless or f.spec.boss)
        ]

    def group(self, f: Fighter) -> int:
        """Extra actions in E go Advance adventurers, then enemies, then Late ones."""
        if f.enemy:
            return 1
        return 0 if f.advance else 2

    def can_act_now(self, f: Fighter) -> str:
        """ "" if `f` may take an action now, else why not."""
        if not f.in_combat:
            return f"{f.name} is {'dead' if f.status == 'dead' else 'out of the fight'}"
        if f.helpless:
            return f"{f.name} is Helpless (0 Willpower) and takes no action"
        step = STEPS[self.step]
        if step == "A":
            return "step A: roll initiative first (`next`)"
        if step == "E":
            if f.extra <= 0:
                return f"{f.name} has no extra action in step E"
            first = min(
                (
                    self.group(g)
                    for g in self.fighters
                    if g.extra > 0 and g.in_combat and not g.helpless
                ),
                default=3,
            )
            if self.group(f) > first:
                ahead = {0: "Advance adventurers'", 1: "enemies'", 2: ""}[first]
                return f"{f.name}'s extra action waits for the {ahead} extra actions"
            return ""
        if f.joins > self.round:
            return (
                f"{f.name} joined after round {self.round}'s Initiative Check: it acts"
                f" from round {f.joins}'s"
            )
        if f.acted:
            return f"{f.name} has already acted this round"
        if step == "C" and not f.enemy:
            own = "B" if f.advance else "D"
            return f"step C is the enemies' ({f.name} acts in step {own})"
        if step in "BD" and f.enemy:
            return f"step {step} is the adventurers' (enemies act in step C)"
        if step == "B" and not f.advance:
            return f"{f.name} failed the Initiative check: Late, acting in step D"
        if step == "D" and f.advance:
            return f"{f.name} succeeded the Initiative check: Advance, acting in step B"
        return ""

    def acting_now(self) -> list[Fighter]:
        return [f for f in self.fighters if not self.can_act_now(f)]

    # -- the action log's dice ---------------------------------------------------------------
    def check(
        self, f: Fighter, specialty: str, difficulty: int | None = None
    ) -> tuple[int, bool, str, int]:
        """A 2D6 Specialty check: (result, success, "critical"|"fumble"|"", difficulty)."""
        if difficulty is None:
            difficulty = self.options.check_base + self.distance(f, specialty)
        faces = self.dice.action_dice("check", f.index)
        result = sum(faces)
        special = ""
        if result >= self.options.critical:
            special = "critical"
        elif result <= self.options.fumble:
            special = "fumble"
        ok = special == "critical" or (special != "fumble" and result >= difficulty)
        self.last_ok = ok
        return result, ok, special, difficulty

    def table(self, name: str, who: int) -> Row:
        rows = self.encounter.tables[name]
        if len(rows) == 1:
            return rows[0]
        face = self.dice.action_dice("d6", who)[0]
        return next(r for r in rows if r.low <= face <= r.high)


def _neighbour(sheet: tuple[tuple[str, ...], ...], r: int, c: int, dr: int, dc: int) -> str:
    """The square next to (r, c) in direction (dr, dc), reaching across gap squares."""
    while True:
        r += dr
        c += dc
        if not 0 <= r < len(sheet) or not 0 <= c < len(sheet[r]):
            return ""
        if sheet[r][c] != GAP:
            return sheet[r][c]
