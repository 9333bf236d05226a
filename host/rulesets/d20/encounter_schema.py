"""The d20 encounter file: the options the rules text leaves open, and every creature's stat
line (name, team, hit points, Armor Class, initiative modifier and Dexterity modifier, speed,
saving throw modifiers, resistances, vulnerabilities and immunities, condition immunities,
attacks, save-based actions, a multiattack, healing, legendary actions and resistance, a
lair), a monster group of identical creatures, and `[[template]]` creatures that may join
a fight under way, written with the same keys. `from = "goblin"` takes a stat line from the
bestiary (bestiary.py), every key written beside it overriding the book's.

Every error is one line, `FILE:LINE: what is wrong`. docs/rulesets/d20.md says what each
key means and the defaults.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.core import kit
from host.core.encounter_files import TableReader, creature_reader
from host.core.kit import Roll
from host.core.names import plain
from host.core.newcomers import MOST_FIGHTERS
from host.rulesets.d20 import bestiary

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
FLAT = re.compile(r"^\s*(\d{1,3})\s*$", re.ASCII)  # a flat amount (a cat's bite does 1)
SIDES = (2, 4, 6, 8, 10, 12, 20, 100)
# A roll the board and the table can make: at most 3 kinds of die, and 7 dice, so that a
# critical hit's doubled dice (14) are still one roll of the board's 15.
MOST_KINDS = 3
MOST_DICE = 7
# A save-based action's damage is never doubled by a critical hit: it may hold more dice (a
# dragon's breath is 18d6), rolled in draws of at most BOARD_DICE (harm.roll_damage).
MOST_ACTION_DICE = 99


EXAMPLE = kit.bundled(__package__, "wyrmling_den.toml")  # the encounter played when none is named
TEMPLATE = kit.bundled(__package__, "template.toml")  # `turnlight encounter new`'s


def example_path() -> Path:
    return EXAMPLE


def read_roll(text: str, most: int = MOST_DICE) -> Roll | None:
    """`2d6+3` as a Roll (or a flat amount, `1`), or None when it is not one: each die one
    of SIDES, each kind written once, at most MOST_KINDS kinds and `most` dice."""
    alone = FLAT.match(text)
    if alone:
        return Roll((), int(alone.group(1)))
    return kit.read_dice(text, SIDES, MOST_KINDS, most)


@dataclass(frozen=True)
class Attack:
    name: str
    bonus: int  # added to the d20
    damage: Roll
    type: str = ""  # the damage type, for resistance and vulnerability
    ranged: bool = False  # from farther than 5 feet by default
    extra: tuple[tuple[Roll, str], ...] = ()  # more damage of other types (a bite's fire)
    magic: bool = False  # a magic weapon: what resists only nonmagical weapons does not


@dataclass(frozen=True)
class Power:
    """An action that is no attack roll: each target's saving throw (`save`, `dc`) against
    its damage, all of it on a failure and half (`half`) or none on a success; one with no
    `save` is only said (a legendary creature's Detect). `recharge` N: once used, it comes
    back on a d6 of N or more as the creature's turn starts; `uses`: N a day (0: no limit).
    As a legendary action, `cost` actions, and `attack` names the attack it makes."""

    name: str
    save: str = ""
    dc: int = 0
    half: bool = False
    damage: tuple[tuple[Roll, str], ...] = ()
    recharge: int = 0
    uses: int = 0
    cost: int = 1
    attack: str = ""


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
    immune: tuple[str, ...] = ()  # damage types that do it no harm
    condition_immune: tuple[str, ...] = ()
    actions: tuple[Power, ...] = ()  # its save-based actions (`use`)
    multiattack: tuple[str, ...] = ()  # the attacks and actions its Multiattack makes, in order
    legendary_actions: tuple[Power, ...] = ()
    legendary_resistance: int = 0  # a failed save it may turn into a success, N times a day
    xp: int = 0  # what defeating it is worth (the bestiary's, by its challenge rating)
    # Where a campaign's last fight left it (host/rulesets/d20/campaign.py): its hit points
    # (None: the maximum), temporary hit points, exhaustion and lasting conditions.
    hp_now: int | None = None
    temp: int = 0
    exhaustion: int = 0
    conditions: tuple[str, ...] = ()


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
    "from",
    "immune",
    "condition_immune",
    "action",
    "multiattack",
    "legendary_action",
    "legendary_resistance",
    "xp",
    "hp_now",
    "temp",
    "exhaustion",
    "conditions",
)
ATTACK_KEYS = ("name", "bonus", "damage", "type", "ranged", "extra", "magic")
POWER_KEYS = (
    "name",
    "save",
    "dc",
    "half",
    "damage",
    "type",
    "extra",
    "recharge",
    "uses",
    "cost",
    "attack",
)
LAIR_KEYS = ("text", "save", "dc", "damage", "type", "condition")
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
    def roll(
        self, table: str, index: int, data: dict, key: str, who: str, most: int = MOST_DICE
    ) -> Roll | None:
        if key not in data:
            return None
        value = data[key]
        found = read_roll(value, most) if isinstance(value, str) else None
        if found is None:
            raise self.fail(
                table,
                index,
                key,
                f'{who}: {key} must be dice such as "2d6+3" (d{", d".join(map(str, SIDES))};'
                f" at most {most} dice of {MOST_KINDS} kinds)",
            )
        return found

    def extra(
        self, table: str, index: int, data: dict, who: str, most: int = MOST_DICE
    ) -> tuple[tuple[Roll, str], ...]:
        """`extra = [["2d6", "fire"], ...]`: more damage, of its own type."""
        value = data.get("extra", [])
        pairs = value if isinstance(value, list) else None
        out: list[tuple[Roll, str]] = []
        for pair in pairs or [None]:
            if pairs == []:
                break
            ok = isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, str) for v in pair)
            found = read_roll(pair[0], most) if ok and pair else None
            if found is None or pair is None:
                raise self.fail(
                    table, index, "extra", f'{who}: extra must be pairs such as [["2d6", "fire"]]'
                )
            out.append((found, plain(pair[1])))
        return tuple(out)


# The words each option takes (Options' fields, whose defaults are the options').
OPTION_WORDS = {
    "ties": TIE_RULES,
    "monsters_at_zero": AT_ZERO,
    "temp_hp": TEMP_RULES,
    "end": ENDS,
}


def _creatures(
    r: _Reader, table: str, index: int, data: Any, teams: tuple[str, ...]
) -> list[Creature]:
    """One [[creature]] (or [[template]]): a creature, or `count` identical ones, a group."""
    r.known(table, index, data, CREATURE_KEYS, f"{table} {index + 1}")
    if "from" in data:
        data = _from_book(r, table, index, data, teams)
    name, who, label, team = r.named(table, index, data, teams)
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
    resist = r.words(table, index, data, "resist", who, plain)
    vulnerable = r.words(table, index, data, "vulnerable", who, plain)
    immune = r.words(table, index, data, "immune", who, plain)
    condition_immune = r.words(table, index, data, "condition_immune", who, plain)
    for word in condition_immune:
        if word not in (*CONDITION_NAMES, "exhaustion"):
            raise r.fail(
                table,
                index,
                "condition_immune",
                f"{who}: condition_immune takes {', '.join(CONDITION_NAMES)}, exhaustion",
            )
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
                r.extra(table, index, a, f"{who}: {aname}"),
                r.flag(table, index, a, "magic", f"{who}: {aname}"),
            )
        )
    healing = r.roll(table, index, data, "healing", who)
    legendary = r.integer(table, index, data, "legendary", who, 0, 15, 0)
    actions = _powers(r, table, index, data, "action", who)
    legendary_actions = _powers(r, table, index, data, "legendary_action", who)
    usable = {plain(a.name) for a in attacks} | {plain(p.name) for p in actions}
    for p in legendary_actions:
        if p.attack and plain(p.attack) not in {plain(a.name) for a in attacks}:
            raise r.fail(
                table, index, "legendary_action", f"{who}: {p.name}: no attack {p.attack!r}"
            )
    multiattack = r.words(table, index, data, "multiattack", who, plain)
    for word in multiattack:
        if word not in usable:
            raise r.fail(
                table,
                index,
                "multiattack",
                f"{who}: multiattack names {word!r}, none of its attacks or actions",
            )
    legendary_resistance = r.integer(table, index, data, "legendary_resistance", who, 0, 9, 0)
    xp = r.integer(table, index, data, "xp", who, 0, 999_999, 0)
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
    hp_now = r.integer(table, index, data, "hp_now", who, 0, hp, hp)
    temp = r.integer(table, index, data, "temp", who, 0, MAX_HP, 0)
    exhaustion = r.integer(table, index, data, "exhaustion", who, 0, 5, 0)
    lasting = r.words(table, index, data, "conditions", who)
    out: list[Creature] = []
    for each_name, each_label in r.members(table, index, who, name, label, count):
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
                immune,
                condition_immune,
                actions,
                multiattack,
                legendary_actions,
                legendary_resistance,
                xp,
                hp_now if hp_now != hp else None,
                temp,
                exhaustion,
                lasting,
            )
        )
    return out


def _from_book(r: _Reader, table: str, index: int, data: dict, teams: tuple[str, ...]) -> dict:
    """`from = "goblin"`: the bestiary's stat line on the second team (the monsters), each
    key written beside `from` in place of the book's."""
    word = data["from"]
    found = bestiary.find(word) if isinstance(word, str) else None
    if found is None:
        raise r.fail(table, index, "from", bestiary.unknown(str(word)))
    book = bestiary.stat_line(found)
    book["team"] = teams[min(1, len(teams) - 1)]
    return {**book, **{k: v for k, v in data.items() if k != "from"}}


def _powers(
    r: _Reader, table: str, index: int, data: dict, key: str, who: str
) -> tuple[Power, ...]:
    """[[creature.action]] (save-based actions) or [[creature.legendary_action]]."""
    raw = data.get(key, [])
    if not isinstance(raw, list):
        raise r.fail(table, index, key, f"{who}: {key} is written as [[{table}.{key}]] tables")
    out: list[Power] = []
    for p in raw:
        r.known(table, index, p, POWER_KEYS, f"{who}: {key}")
        pname = r.text(table, index, p, "name", f"{who}: {key}")
        what = f"{who}: {pname}"
        save = r.choice(table, index, p, "save", what, ("", *ABILITIES), "") if "save" in p else ""
        dc = r.integer(table, index, p, "dc", what, 1, 40, None) if save else 0
        damage = r.roll(table, index, p, "damage", what, MOST_ACTION_DICE)
        kind = plain(p.get("type", "")) if isinstance(p.get("type", ""), str) else ""
        parts: tuple[tuple[Roll, str], ...] = ((damage, kind),) if damage is not None else ()
        parts += r.extra(table, index, p, what, MOST_ACTION_DICE)
        out.append(
            Power(
                pname,
                save,
                dc,
                r.flag(table, index, p, "half", what),
                parts,
                r.integer(table, index, p, "recharge", what, 0, 6, 0),
                r.integer(table, index, p, "uses", what, 0, 9, 0),
                r.integer(table, index, p, "cost", what, 1, 3, 1),
                r.text(table, index, p, "attack", what, "") if "attack" in p else "",
            )
        )
    names = [plain(p.name) for p in out]
    if len(set(names)) != len(names):
        raise r.fail(table, index, key, f"{who}: two {key}s have one name")
    return tuple(out)


# The file's reader (host/core/encounter_files.py): Encounter = parse(text, filename).
parse = creature_reader(
    _Reader, ID, TEAMS, (Options, OPTION_WORDS), _creatures, MOST_FIGHTERS, Encounter
)
