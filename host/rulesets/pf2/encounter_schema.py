"""The pf2 encounter file: the options the rules text leaves open, and every creature's stat
line (name, team, level, hit points, Armor Class, Perception and the check it rolls for
initiative, Fortitude, Reflex and Will, resistances, weaknesses and immunities, Strikes,
Hero Points), a group of identical creatures, and `[[template]]` creatures that may join
a fight under way, written with the same keys.

Every error is one line, `FILE:LINE: what is wrong`. docs/rulesets/pf2.md says what each
key means and the defaults. Rules: pf2-combat.txt.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.core import kit, numbers
from host.core.encounter_files import TableReader, creature_reader
from host.core.kit import Roll
from host.core.names import plain
from host.core.newcomers import MOST_FIGHTERS
from host.rulesets.pf2.keys import CREATURE_KEYS

ID = "pf2"
TEAMS = ("Party", "Foes")
KINDS = ("character", "monster")  # [13]: a character is knocked out at 0 HP
SAVES = ("fort", "ref", "will")
CRITICAL = ("double", "dice_twice")  # [8]: a critical hit's double damage
KNOCKED_OUT = ("characters", "named", "all")  # [13]: who falls dying at 0 HP
ENDS = ("auto", "gm")  # [27]: the fight ends by itself once a side is down, or at `finish`
MAX_HP = 999
MAX_GROUP = 8  # a group's labels are two letters and each member's one digit
SIDES = (2, 4, 6, 8, 10, 12, 20)
# A roll the board and the table can make: at most 3 kinds of die and 7 dice, so that a
# critical hit's dice rolled twice (14) are still one roll of the board's 15.
MOST_KINDS = 3
MOST_DICE = 7
# [19]: the conditions with a value; and those without one the rules name.
VALUED = (
    "stunned",
    "slowed",
    "frightened",
    "sickened",
    "drained",
    "enfeebled",
    "clumsy",
    "stupefied",
    "doomed",
)
MARKED = (
    "off-guard",
    "prone",
    "grabbed",
    "restrained",
    "paralyzed",
    "immobilized",
    "quickened",
    "dazzled",
    "concealed",
    "hidden",
    "blinded",
    "invisible",
    "unconscious",
    "deafened",
    "fascinated",
    "fleeing",
    "confused",
)
CONDITION_NAMES = VALUED + MARKED


EXAMPLE = kit.bundled(__package__, "bridge_ambush.toml")  # the encounter played when none is named
TEMPLATE = kit.bundled(__package__, "template.toml")  # `turnlight encounter new`'s


def example_path() -> Path:
    return EXAMPLE


def read_roll(text: str) -> Roll | None:
    """`2d6+3` (or a plain number) as a Roll, or None when it is not one."""
    whole = numbers.whole_or_none(text.strip())
    if whole is not None:
        return Roll((), whole) if 0 <= whole <= 9999 else None
    return kit.read_dice(text, SIDES, MOST_KINDS, MOST_DICE)


@dataclass(frozen=True)
class Strike:
    name: str
    bonus: int  # the attack modifier added to the d20
    damage: Roll
    type: str = ""  # the damage type, for resistance, weakness and immunity [11]
    agile: bool = False  # [6]: -4 and -8
    ranged: bool = False  # clumsy, not enfeebled, lowers it [19]


@dataclass(frozen=True)
class Creature:
    name: str
    label: str
    team: int
    kind: str  # character | monster
    level: int
    hp: int
    ac: int
    perception: int
    initiative: int  # the modifier of the check it rolls for initiative [1]
    saves: dict[str, int]  # fort, ref, will
    resist: dict[str, int]
    weak: dict[str, int]
    immune: tuple[str, ...]
    strikes: tuple[Strike, ...] = ()
    named: bool = False  # [13]: a creature the GM knocks out at 0 HP (knocked_out = "named")
    hero: int = 0  # Hero Points [26]
    group: int = -1  # identical creatures of one [[creature]] with count > 1 share it
    # As a campaign's fight before left it (campaign.py): HP (None: `hp`), wounded [16],
    # doomed [17], dying [13] (at 0 HP only).
    hp_now: int | None = None
    wounded: int = 0
    doomed: int = 0
    dying: int = 0


@dataclass(frozen=True)
class Options:
    critical: str = "double"
    knocked_out: str = "named"
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


STRIKE_KEYS = ("name", "bonus", "damage", "type", "agile", "ranged")


class _Reader(TableReader):
    def amounts(self, table: str, index: int, data: dict, key: str, who: str) -> dict[str, int]:
        value = data.get(key, {})
        if not isinstance(value, dict) or not all(
            isinstance(k, str) and k.strip() and numbers.is_whole(v, 1, 99)
            for k, v in value.items()
        ):
            raise self.fail(
                table, index, key, f"{who}: {key} is a table of types and amounts: {{ fire = 5 }}"
            )
        return {plain(k): v for k, v in value.items()}


# The words each option takes (Options' fields, whose defaults are the options').
OPTION_WORDS = {"critical": CRITICAL, "knocked_out": KNOCKED_OUT, "end": ENDS}


def _strikes(r: _Reader, table: str, index: int, data: dict, who: str) -> list[Strike]:
    raw = data.get("strike", [])
    if not isinstance(raw, list):
        raise r.fail(table, index, "strike", f"{who}: Strikes are [[{table}.strike]] tables")
    out: list[Strike] = []
    for s in raw:
        r.known(table, index, s, STRIKE_KEYS, f"{who}: a Strike")
        sname = r.text(table, index, s, "name", f"{who}: a Strike")
        value = s.get("damage")
        damage = read_roll(value) if isinstance(value, str) else None
        if damage is None:
            raise r.fail(
                table,
                index,
                "strike",
                f'{who}: {sname} needs its damage as dice such as "1d8+4"'
                f" (d{', d'.join(map(str, SIDES))}; at most"
                f" {MOST_DICE} dice of {MOST_KINDS} kinds)",
            )
        kind = s.get("type", "")
        out.append(
            Strike(
                sname,
                r.integer(table, index, s, "bonus", f"{who}: {sname}", -5, 50, 0),
                damage,
                plain(kind) if isinstance(kind, str) else "",
                r.flag(table, index, s, "agile", f"{who}: {sname}"),
                r.flag(table, index, s, "ranged", f"{who}: {sname}"),
            )
        )
    return out


def _not_an_option(r: _Reader, table: str, index: int, who: str, name: str, label: str) -> None:
    """A creature is named in commands by its name or label, and a word the commands read
    as an option (`hero`, `agile`, `crit` ...) wherever it stands would never reach it:
    `strike Hero Ogre` would be a Hero Point's Strike with no target."""
    from host.rulesets.pf2.language import LANGUAGE

    taken = set(LANGUAGE.flags)
    for key, words in (("name", name.split()), ("label", [label])):
        clash = next((w for w in words if plain(w) in taken), None)
        if clash is not None:
            raise r.fail(
                table,
                index,
                key,
                f"{who}: {clash!r} is a word the commands read as an option"
                f" ({', '.join(sorted(taken))}): give it another {key}",
            )


def _creatures(
    r: _Reader, table: str, index: int, data: Any, teams: tuple[str, ...]
) -> list[Creature]:
    """One [[creature]] (or [[template]]): a creature, or `count` identical ones, a group
    that rolls initiative once and takes its turns together [1]."""
    r.known(table, index, data, CREATURE_KEYS, f"{table} {index + 1}")
    name, who, label, team = r.named(table, index, data, teams)
    kind = r.choice(table, index, data, "kind", who, KINDS, KINDS[min(team, 1)])
    level = r.integer(table, index, data, "level", who, -1, 25, 1)
    hp = r.integer(table, index, data, "hp", who, 1, MAX_HP, None)
    ac = r.integer(table, index, data, "ac", who, 0, 60, 15)
    perception = r.integer(table, index, data, "perception", who, -5, 50, 0)
    initiative = r.integer(table, index, data, "initiative", who, -5, 50, perception)
    saves = {s: r.integer(table, index, data, s, who, -5, 50, 0) for s in SAVES}
    resist = r.amounts(table, index, data, "resist", who)
    weak = r.amounts(table, index, data, "weak", who)
    immune = r.words(table, index, data, "immune", who, plain)
    strikes = _strikes(r, table, index, data, who)
    named = r.flag(table, index, data, "named", who)
    hero = r.integer(table, index, data, "hero", who, 0, 3, 1 if kind == "character" else 0)
    count = r.integer(table, index, data, "count", who, 1, MAX_GROUP, 1)
    hp_now = r.integer(table, index, data, "hp_now", who, 0, hp, hp)
    wounded = r.integer(table, index, data, "wounded", who, 0, 9, 0)
    doomed = r.integer(table, index, data, "doomed", who, 0, 3, 0)
    dying = r.integer(table, index, data, "dying", who, 0, 3, 0)
    if dying and hp_now:
        raise r.fail(table, index, "dying", f"{who}: dying goes with hp_now = 0 [13]")
    _not_an_option(r, table, index, who, name, label)
    out: list[Creature] = []
    for each_name, each_label in r.members(table, index, who, name, label, count):
        out.append(
            Creature(
                each_name,
                each_label,
                team,
                kind,
                level,
                hp,
                ac,
                perception,
                initiative,
                saves,
                resist,
                weak,
                immune,
                tuple(strikes),
                named,
                hero,
                index if count > 1 else -1,
                hp_now if hp_now != hp else None,
                wounded,
                doomed,
                dying,
            )
        )
    return out


# The file's reader (host/core/encounter_files.py): Encounter = parse(text, filename).
parse = creature_reader(
    _Reader, ID, TEAMS, (Options, OPTION_WORDS), _creatures, MOST_FIGHTERS, Encounter
)
