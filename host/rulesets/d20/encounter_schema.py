"""The d20 encounter file: the options the rules text leaves open, and every creature's stat
line (name, team, hit points, Armor Class, initiative modifier and Dexterity modifier, speed,
saving throw modifiers, resistances and vulnerabilities, attacks, healing, legendary actions,
a lair), a monster group of identical creatures, and `[[template]]` creatures that may join
a fight under way, written with the same keys.

Every error is one line, `FILE:LINE: what is wrong`. docs/rulesets/d20.md says what each
key means and the defaults.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from host.core import numbers
from host.core.encounter_files import TableReader, read_toml
from host.core.names import plain
from host.core.newcomers import MOST_FIGHTERS
from shared.limits import MAX_TEAMS
from shared.roster import check_label

ID = "d20"
TEAMS = ("Adventurers", "Monsters")
KINDS = ("character", "monster")  # a character makes death saves; a monster at 0 HP dies
ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
TIE_RULES = ("gm", "roll", "dex")  # [3]: the file's order, a d20 roll-off, Dexterity first
AT_ZERO = ("die", "knocked_out")  # [14]: a monster brought to 0 HP
TEMP_RULES = ("higher", "new", "old")  # [11]: which temporary hit points a creature keeps
ENDS = ("auto", "gm")  # [29]: the fight ends once a side is down, or only when the GM says
MAX_HP = 999
MAX_GROUP = 8  # a group's labels are two letters and each member's one digit
DICE = re.compile(r"^\s*(\d+d\d+(\s*\+\s*\d+d\d+)*)(\s*[+-]\s*\d+)?\s*$", re.ASCII)
DIE = re.compile(r"(\d+)d(\d+)", re.ASCII)
SIDES = (2, 4, 6, 8, 10, 12, 20, 100)
# A roll the board and the table can make: at most 3 kinds of die, and 7 dice, so that a
# critical hit's doubled dice (14) are still one roll of the board's 15.
MOST_KINDS = 3
MOST_DICE = 7


def example_path() -> Path:
    return Path(str(resources.files("host.rulesets.d20") / "encounters" / "wyrmling_den.toml"))


def template_path() -> Path:
    return Path(str(resources.files("host.rulesets.d20") / "encounters" / "template.toml"))


@dataclass(frozen=True)
class Roll:
    """Dice and a flat modifier: `2d6+1d8+3` is dice ((2, 6), (1, 8)) and flat 3."""

    dice: tuple[tuple[int, int], ...]
    flat: int = 0

    @property
    def sides(self) -> tuple[int, ...]:
        """Each die's faces, one entry a die (the wanted roll's `sides`)."""
        return tuple(s for n, s in self.dice for _ in range(n))

    def text(self) -> str:
        out = "+".join(f"{n}d{s}" for n, s in self.dice)
        return out + (f"{self.flat:+d}" if self.flat else "")


def read_roll(text: str) -> Roll | None:
    """`2d6+3` as a Roll, or None when it is not one: each die one of SIDES, each kind
    written once, at most MOST_KINDS kinds and MOST_DICE dice."""
    m = DICE.match(text)
    if not m:
        return None
    dice = tuple((int(n), int(s)) for n, s in DIE.findall(m.group(1)))
    kinds = {s for _, s in dice}
    if any(s not in SIDES for s in kinds) or len(kinds) != len(dice) or len(kinds) > MOST_KINDS:
        return None
    if not 1 <= sum(n for n, _ in dice) <= MOST_DICE:
        return None
    flat = numbers.whole("".join(m.group(3).split()), signed=True) if m.group(3) else 0
    return Roll(dice, flat)


@dataclass(frozen=True)
class Attack:
    name: str
    bonus: int  # added to the d20
    damage: Roll
    type: str = ""  # the damage type, for resistance and vulnerability
    ranged: bool = False  # from farther than 5 feet by default


@dataclass(frozen=True)
class Lair:
    """What the creature's lair does on initiative count 20, to one target: a saving throw
    against `dc`; on a failure `damage` and the condition `condition` (until it is removed:
    prone, until the creature stands up)."""

    text: str
    save: str = "dex"
    dc: int = 10
    damage: Roll | None = None
    type: str = ""
    condition: str = ""


@dataclass(frozen=True)
class Creature:
    name: str
    label: str
    team: int
    kind: str  # character | monster
    hp: int
    ac: int
    initiative: int  # the initiative modifier (Dexterity's and any bonus)
    dex: int  # the Dexterity modifier (the `dex` tie rule)
    speed: int
    saves: dict[str, int]  # ability -> saving throw modifier (0 for any not given)
    medicine: int = 0  # the Wisdom (Medicine) check's modifier, to stabilize
    resist: tuple[str, ...] = ()
    vulnerable: tuple[str, ...] = ()
    attacks: tuple[Attack, ...] = ()
    healing: Roll | None = None  # a healing spell or potion it can give with its action
    legendary: int = 0  # legendary actions a round
    lair: Lair | None = None
    group: int = -1  # identical creatures of one [[creature]] with count > 1 share it
    surprised: bool = False


@dataclass(frozen=True)
class Options:
    ties: str = "gm"
    monsters_at_zero: str = "die"
    temp_hp: str = "higher"
    end: str = "auto"


@dataclass(frozen=True)
class Encounter:
    name: str
    creatures: tuple[Creature, ...]
    options: Options
    teams: tuple[str, ...] = TEAMS
    templates: tuple[Creature, ...] = ()
    source: str = ""
    path: str = ""
    ruleset: str = ID


CREATURE_KEYS = (
    "name",
    "label",
    "team",
    "kind",
    "hp",
    "ac",
    "initiative",
    "dex",
    "speed",
    "saves",
    "medicine",
    "resist",
    "vulnerable",
    "attack",
    "healing",
    "legendary",
    "lair",
    "count",
    "surprised",
)
ATTACK_KEYS = ("name", "bonus", "damage", "type", "ranged")
LAIR_KEYS = ("text", "save", "dc", "damage", "type", "condition")
OPTION_KEYS = tuple(Options.__dataclass_fields__)
CONDITION_NAMES = (
    "blinded",
    "charmed",
    "deafened",
    "frightened",
    "grappled",
    "incapacitated",
    "invisible",
    "paralyzed",
    "petrified",
    "poisoned",
    "prone",
    "restrained",
    "stunned",
    "unconscious",
)


class _Reader(TableReader):
    def integer(
        self, table: str, index: int, data: dict, key: str, who: str, low: int, high: int, default
    ) -> int:
        value = data.get(key, default)
        if not numbers.is_whole(value, low, high):
            raise self.fail(table, index, key, f"{who}: {key} must be a whole number {low}..{high}")
        return value

    def choice(
        self, table: str, index: int, data: dict, key: str, who: str, allowed, default: str
    ) -> str:
        value = self.text(table, index, data, key, who, default)
        if value not in allowed:
            raise self.fail(table, index, key, f"{who}: {key} must be {' or '.join(allowed)}")
        return value

    def words(self, table: str, index: int, data: dict, key: str, who: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.fail(table, index, key, f"{who}: {key} must be a list of names")
        return tuple(plain(v) for v in value)

    def roll(self, table: str, index: int, data: dict, key: str, who: str) -> Roll | None:
        if key not in data:
            return None
        value = data[key]
        found = read_roll(value) if isinstance(value, str) else None
        if found is None:
            raise self.fail(
                table,
                index,
                key,
                f'{who}: {key} must be dice such as "2d6+3" (d{", d".join(map(str, SIDES))};'
                f" at most {MOST_DICE} dice of {MOST_KINDS} kinds)",
            )
        return found


def parse(text: str, filename: str) -> Encounter:
    doc = read_toml(text, filename)
    r = _Reader(text, filename)
    r.known("", 0, doc, ("ruleset", "name", "teams", "options", "creature", "template"), "the file")
    if doc.get("ruleset", ID) != ID:
        raise r.fail("", 0, "ruleset", "not a d20 encounter")
    name = r.text("", 0, doc, "name", "the encounter", "encounter")
    teams = doc.get("teams", list(TEAMS))
    if (
        not isinstance(teams, list)
        or not 2 <= len(teams) <= MAX_TEAMS
        or not all(isinstance(t, str) and t.strip() for t in teams)
        or len({plain(t) for t in teams}) != len(teams)
    ):
        raise r.fail("", 0, "teams", f"teams must be 2..{MAX_TEAMS} different names")
    teams = tuple(t.strip() for t in teams)
    options = _options(r, doc.get("options", {}))
    entries = doc.get("creature", [])
    if not isinstance(entries, list) or not entries:
        raise r.fail("", 0, None, "the encounter needs its creatures as [[creature]] tables")
    if len(entries) > MOST_FIGHTERS:
        # (entries in the order: a group is one)
        raise r.fail(
            "creature",
            MOST_FIGHTERS,
            None,
            f"a fight holds at most {MOST_FIGHTERS} [[creature]] entries, not {len(entries)}"
            " (a group of like creatures is one: count=N)",
        )
    creatures: list[Creature] = []
    for index, data in enumerate(entries):
        creatures += _creatures(r, "creature", index, data, teams)
    present = {c.team for c in creatures}
    if len(present) < 2:
        raise r.fail("creature", 0, None, "the encounter needs creatures on two teams")
    seen: set[str] = set()
    for c in creatures:
        for word in {plain(c.name), plain(c.label)}:
            if word in seen:
                raise r.fail("creature", 0, None, f"{word!r} names two creatures")
            seen.add(word)
    templates: list[Creature] = []
    raw = doc.get("template", [])
    if not isinstance(raw, list):
        raise r.fail("", 0, "template", "templates are written as [[template]] tables")
    for index, data in enumerate(raw):
        if isinstance(data, dict) and "count" in data:
            raise r.fail("template", index, "count", "a template is one creature: no count")
        templates += _creatures(r, "template", index, data, teams)
    return Encounter(name, tuple(creatures), options, teams, tuple(templates), text, filename)


def _options(r: _Reader, data: Any) -> Options:
    r.known("options", 0, data, OPTION_KEYS, "options")
    base = Options()
    return Options(
        r.choice("options", 0, data, "ties", "options", TIE_RULES, base.ties),
        r.choice("options", 0, data, "monsters_at_zero", "options", AT_ZERO, base.monsters_at_zero),
        r.choice("options", 0, data, "temp_hp", "options", TEMP_RULES, base.temp_hp),
        r.choice("options", 0, data, "end", "options", ENDS, base.end),
    )


def _creatures(
    r: _Reader, table: str, index: int, data: Any, teams: tuple[str, ...]
) -> list[Creature]:
    """One [[creature]] (or [[template]]): a creature, or `count` identical ones, a group."""
    r.known(table, index, data, CREATURE_KEYS, f"{table} {index + 1}")
    name = r.text(table, index, data, "name", table)
    who = f"{table} {name!r}"
    label = r.text(table, index, data, "label", who, name[:3].upper())
    team_name = r.text(table, index, data, "team", who, teams[0])
    by_name = {plain(t): n for n, t in enumerate(teams)}
    if plain(team_name) not in by_name:
        raise r.fail(table, index, "team", f"{who}: team must be one of {', '.join(teams)}")
    team = by_name[plain(team_name)]
    # The first team's creatures are characters unless told; the others', monsters.
    kind = r.choice(table, index, data, "kind", who, KINDS, KINDS[min(team, 1)])
    hp = r.integer(table, index, data, "hp", who, 1, MAX_HP, None)
    ac = r.integer(table, index, data, "ac", who, 0, 40, 10)
    dex = r.integer(table, index, data, "dex", who, -5, 10, 0)
    initiative = r.integer(table, index, data, "initiative", who, -10, 20, dex)
    speed = r.integer(table, index, data, "speed", who, 0, 200, 30)
    saves_data = data.get("saves", {})
    r.known(table, index, saves_data, ABILITIES, f"{who}: saves")
    saves = {
        a: r.integer(table, index, saves_data, a, f"{who}: saves", -5, 20, 0) for a in ABILITIES
    }
    medicine = r.integer(table, index, data, "medicine", who, -5, 20, saves["wis"])
    resist = r.words(table, index, data, "resist", who)
    vulnerable = r.words(table, index, data, "vulnerable", who)
    attacks: list[Attack] = []
    raw_attacks = data.get("attack", [])
    if not isinstance(raw_attacks, list):
        raise r.fail(table, index, "attack", f"{who}: attacks are [[{table}.attack]] tables")
    for a in raw_attacks:
        r.known(table, index, a, ATTACK_KEYS, f"{who}: an attack")
        aname = r.text(table, index, a, "name", f"{who}: an attack")
        damage = r.roll(table, index, a, "damage", f"{who}: {aname}")
        if damage is None:
            raise r.fail(table, index, "attack", f"{who}: {aname} needs its damage")
        attacks.append(
            Attack(
                aname,
                r.integer(table, index, a, "bonus", f"{who}: {aname}", -5, 30, 0),
                damage,
                plain(a.get("type", "")) if isinstance(a.get("type", ""), str) else "",
                r.flag(table, index, a, "ranged", f"{who}: {aname}"),
            )
        )
    healing = r.roll(table, index, data, "healing", who)
    legendary = r.integer(table, index, data, "legendary", who, 0, 15, 0)
    lair = None
    if "lair" in data:
        ld = data["lair"]
        r.known(table, index, ld, LAIR_KEYS, f"{who}: lair")
        condition = plain(ld.get("condition", "")) if isinstance(ld.get("condition"), str) else ""
        if condition and condition not in CONDITION_NAMES:
            raise r.fail(
                table,
                index,
                "lair",
                f"{who}: lair condition must be one of {', '.join(CONDITION_NAMES)}",
            )
        lair = Lair(
            r.text(table, index, ld, "text", f"{who}: lair", "the lair stirs"),
            r.choice(table, index, ld, "save", f"{who}: lair", ABILITIES, "dex"),
            r.integer(table, index, ld, "dc", f"{who}: lair", 1, 40, 10),
            r.roll(table, index, ld, "damage", f"{who}: lair"),
            plain(ld.get("type", "")) if isinstance(ld.get("type", ""), str) else "",
            condition,
        )
    count = r.integer(table, index, data, "count", who, 1, MAX_GROUP, 1)
    surprised = r.flag(table, index, data, "surprised", who)
    if count > 1 and len(label) > 2:
        label = label[:2]
    out: list[Creature] = []
    for n in range(count):
        each_name = f"{name} {n + 1}" if count > 1 else name
        each_label = f"{label}{n + 1}" if count > 1 else label
        try:
            check_label(each_label)
        except ValueError as err:
            raise r.fail(table, index, "label", f"{who}: {err}") from None
        out.append(
            Creature(
                each_name,
                each_label,
                team,
                kind,
                hp,
                ac,
                initiative,
                dex,
                speed,
                saves,
                medicine,
                resist,
                vulnerable,
                tuple(attacks),
                healing,
                legendary,
                lair,
                index if count > 1 else -1,
                surprised,
            )
        )
    return out
