"""What an encounter describes: Solighters, their combat moves, items and artifacts.

These are plain, immutable definitions read from an encounter file; the running game keeps
its changing numbers elsewhere (host.rulesets.korxsol.engine).
"""

from __future__ import annotations

from dataclasses import dataclass, field

ATTRIBUTES = ("power", "resistance", "armor", "agility")
STATUS_FLIPS = ("burn", "frost", "fear", "pin", "grapple", "blind")
MOVE_TYPES = ("melee", "range", "buff", "debuff")
WEAPONS = ("", "sword", "axe", "bow")
ELEMENTS = ("fire", "mineral", "ice")
# Modifier keys a buff or debuff may change while its move is on cooldown.
MODIFIER_KEYS = ATTRIBUTES + ("hit",) + tuple(s + "_flips" for s in STATUS_FLIPS)
GAINS = ("armor", "kor", "sol", "damage")
CONDITIONS = ("hit", "power_success", "knockout", "resist_success")
RESIST_SUCCESS = "resist_success_"  # + gain: the key of the modifier that watches resist rolls


@dataclass(frozen=True)
class Effects:
    """What a move, an item or an active artifact does, in the order it is resolved."""

    hit: int = 0  # HIT_Roll dice; 0 = no hit instance (the effect lands)
    damage: int | None = None  # base damage of the damage instance; None = no damage instance
    flips: dict[str, int] = field(default_factory=dict)  # status -> chance flips
    blinds: bool = False  # the target gains Blinded outright (`blind = true`), no flip
    knockback: bool = False
    knockdown: bool = False
    resist_piercing: bool = False
    armor_piercing: bool = False
    sunder: int = 0
    double_hit: bool = False
    charge: bool = False
    bless: bool = False
    release: bool = False
    threat: bool = False
    true_sight: bool = False
    cleanse: tuple[str, ...] = ()
    heal: int = 0  # KOR restored to each target (never above its starting value)
    armor_gain: int = 0  # armor restored to each target
    modifiers: dict[str, int] = field(default_factory=dict)  # while the move is on cooldown
    # ATTRIBUTE: the user's attributes until the move goes on cooldown (the end of the turn);
    # armor changes stay (until chipped), KOR changes are immediate and kept
    during: dict[str, int] = field(default_factory=dict)
    exchange: tuple[str, str, int] | None = None  # (give, get, rate)
    conversion: int = 0  # each POWER_Roll success is worth this much base damage (0 = 1)
    condition: tuple[str, str, int] | None = None  # (when, gain, amount)
    movement: int = 0  # MOVEMENT: spaces the user may move, hit or miss (`moved=N`)
    range: int = 0  # spaces away a target may be (0: not stated; the map is the GM's)
    wall: bool = False  # WALL: places a wall on the map (the GM's), hit or miss
    buster: bool = False  # BUSTER: ignores and removes any cover or wall in its area
    targets: int = 1

    @property
    def strikes(self) -> bool:
        """Whether an item or artifact attacks its targets: a hit or damage instance, status
        flips or blinding, knockback, knockdown or sunder (these go through the attack's
        resolution)."""
        return bool(
            self.hit
            or self.damage is not None
            or self.flips
            or self.blinds
            or self.knockback
            or self.knockdown
            or self.sunder
        )


@dataclass(frozen=True)
class Move:
    name: str
    type: str
    cooldown: int
    effects: Effects
    line: int = 0

    @property
    def is_attack(self) -> bool:
        return self.type in ("melee", "range")

    @property
    def helps_allies(self) -> bool:
        return self.type == "buff" or self.effects.bless


@dataclass(frozen=True)
class Item:
    name: str
    kind: str  # "consumable" or "tool"
    cooldown: int
    effects: Effects
    line: int = 0


@dataclass(frozen=True)
class Artifact:
    name: str
    kind: str  # "passive" or "active"
    cooldown: int
    effects: Effects  # active: what activating does
    passive: dict[str, int] = field(default_factory=dict)  # passive: attribute/trait bonuses
    line: int = 0


@dataclass(frozen=True)
class Solighter:
    name: str
    label: str
    team: int
    kor: int
    power: int
    resistance: int
    armor: int
    agility: int
    actions: int
    inventory: int
    weight: int
    weapon: str
    elements: tuple[str, ...]
    moves: tuple[Move, ...]
    items: tuple[Item, ...]
    artifacts: tuple[Artifact, ...]
    line: int = 0

    def passive(self) -> dict[str, int]:
        """What its passive artifacts add, summed per attribute or trait."""
        bonus: dict[str, int] = {}
        for art in self.artifacts:
            if art.kind == "passive":
                for key, amount in art.passive.items():
                    bonus[key] = bonus.get(key, 0) + amount
        return bonus

    def timed(self) -> list[tuple[str, str]]:
        """(kind, name) of what goes on cooldown, in the order it is given cooldown ids 1..7:
        moves, then items, then an active artifact, each only if it has a cooldown."""
        active = [a for a in self.artifacts if a.kind == "active"]
        return [
            (kind, thing.name)
            for kind, things in (("move", self.moves), ("item", self.items), ("artifact", active))
            for thing in things
            if thing.cooldown > 0
        ]


@dataclass(frozen=True)
class Options:
    """Ruleset options the encounter may set; docs/rulesets/korxsol.md explains each."""

    dice: str = "d3"  # "d3" or "d6" (a D6 read as a D3)
    success_faces: tuple[int, ...] = (3,)
    attribute_cap: int = 7
    sol_points: int = 3
    sol_dice: int = 3
    # Where a fighter who joins a fight under way takes its place (`add`): "next", right
    # after the fighter whose turn it is, or "last", at the end of the order.
    newcomers: str = "next"


@dataclass(frozen=True)
class Encounter:
    name: str
    teams: tuple[str, ...]
    solighters: tuple[Solighter, ...]
    options: Options
    source: str = ""  # the TOML text, kept so a journal can rebuild the game alone
    path: str = ""
    ruleset: str = "korxsol"  # the ruleset that reads it (host/core/registry.py)
