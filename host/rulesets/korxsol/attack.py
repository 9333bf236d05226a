"""One strike of a move, item or artifact as data: what each target rolls against it
(Defence), the strike decided before anything changes (AttackPlan), and the strike while
it resolves (Attack). combat.py decides and resolves them; the other seams of the engine
(grapple_and_charge.py, game_core.py) only read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from host.core.errors import IllegalAction
from host.rulesets.korxsol.fighter import Fighter
from host.rulesets.korxsol.model import Effects


@dataclass(frozen=True)
class Defence:
    """What one target rolls against a strike, counted as the strike will find it."""

    target: int  # the fighter's index
    cornered: bool  # it cannot step out of the area: hit without a dodge roll
    dodge_dice: int  # its AGILITY_Roll (0: no chance to dodge, an automatic hit)
    dodge_sol: bool  # ... with SOL's dice in it
    resist_dice: int  # its RESIST_Roll (0 with resistance piercing)
    resist_sol: bool
    armor_dice: int  # its ARMOR_Roll, after the strike's sunder (0 with armor piercing)


@dataclass(frozen=True)
class AttackPlan:
    """One use of a move, item or artifact, decided before anything changes: its options
    checked (all the SOL it declares held), and the dice and damage of its strike as the
    strike will find them. A double hit's second strike rolls again on what the first left.
    """

    user: int  # the fighter's index
    name: str
    hit_dice: int  # the user's HIT_Roll (0: no hit instance)
    hit_bonus: int  # added to the hit successes: blinded, true sight, `hit` modifiers
    hit_bonus_parts: tuple[tuple[str, int], ...]  # ... each with its reason
    power_dice: int  # the user's POWER_Roll, with the move's ATTRIBUTE and SOL
    power_sol: bool
    reroll_below: int  # Brutality: a POWER_Roll with fewer successes is rolled again (0: no)
    base_damage: int  # the damage instance's base (0 when there is none)
    per_success: int  # damage per POWER_Roll success (conversion)
    full_draw: int | None  # unused action points that become damage (None: no full draw)
    exchange: int  # N given in the exchange (0: none)
    exchange_damage: int  # damage the exchange buys
    hit_damage: int  # a `hit` condition's damage: each hit's damage instance gains it
    power_success_damage: int  # a `power_success` condition's damage, on a success
    defences: tuple[Defence, ...]  # one per target, in the order named
    knockback: tuple[tuple, ...]  # the game master's kb= paths, parsed
    collide_sol: frozenset[int]  # fighters spending SOL to dodge a body knocked into them

    @property
    def bonus(self) -> int:
        """Damage added to every damage instance of the use: full draw and exchange."""
        return (self.full_draw or 0) + self.exchange_damage

    def defence(self, t: Fighter) -> Defence:
        for d in self.defences:
            if d.target == t.index:
                return d
        raise IllegalAction(f"{t.name} is not a target of {self.name}")

    def sol(self, kind: str) -> frozenset[int]:
        """The fighters spending SOL on their `dodge` or `resist` roll."""
        return frozenset(d.target for d in self.defences if getattr(d, kind + "_sol"))


@dataclass
class Attack:
    """One use of a move, item or artifact that strikes, while it resolves."""

    user: Fighter
    name: str
    fx: Effects
    timer: int
    plan: AttackPlan
    paid: set[tuple[int, str]] = field(default_factory=set)  # (fighter, roll) SOL spent
    dodged: set[int] = field(default_factory=set)
    moved: set[int] = field(default_factory=set)  # knocked back out of the area
