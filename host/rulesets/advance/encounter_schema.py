"""Advance's encounter: who fights (adventurers and enemies, with Stamina, Willpower,
Specialties, a character sheet, abilities and items), the Specialty table, the options, and
the tables the rules text names without printing them (Initiative Check, Body Part Chart,
Hit Critical, Hit Fumble, Evasion Critical, Evasion Fumble), all read from the TOML file.

Every error is one line, `FILE:LINE: what is wrong`. docs/rulesets/advance.md says what
each key means and the defaults.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host.core import kit, numbers
from host.core.encounter_files import (
    TableReader,
    check_templates,
    read_toml,
    take_templates,
)
from host.core.names import plain
from host.core.newcomers import MOST_FIGHTERS
from shared.limits import MAX_HEALTH
from shared.roster import check_label

ID = "advance"
TEAMS = ("Adventurers", "Enemies")
ABILITY_KINDS = ("attack", "support", "assist")
PLACES = ("equipped", "hand", "bag")
EFFECTS = ("none", "damage", "extra", "willpower", "stamina")
TABLES = (
    "initiative",
    "body",
    "hit_critical",
    "hit_fumble",
    "evasion_critical",
    "evasion_fumble",
)
TABLE_DIE = 6  # every table is read on 1D6
MAX_WILLPOWER = 15  # the board's counter cap
MAX_PARTS = 15
DEATH_TIES = ("survive", "die")
BOSS_DEATH_CHECKS = ("at_zero", "body_damage")
GAP = "|"  # a gap between the character sheet's columns: neighbours reach across it


EXAMPLE = kit.bundled(__package__, "barrow_gate.toml")  # the encounter played when none is named
TEMPLATE = kit.bundled(__package__, "template.toml")  # `turnlight encounter new`'s


def example_path() -> Path:
    return EXAMPLE


@dataclass(frozen=True)
class Ability:
    name: str
    kind: str  # attack | support | assist
    specialty: str = ""  # an attack's Hit check (and its Evasion's Target Specialty)
    damage: int = 0  # an attack's damage
    rebound: int = 0  # Willpower paid to use it
    bonus: int = 0  # a support's damage added to the attack it joins
    stamina: int = 0  # an assist: Stamina it restores to its target
    willpower: int = 0  # an assist: Willpower it restores to its target
    extra: int = 0  # an assist: extra actions its user gains this round ([Habit])


@dataclass(frozen=True)
class Item:
    name: str
    place: str = "hand"  # where it starts: equipped, in hand, in the bag
    specialty: str = ""  # a weapon's Hit check
    damage: int = 0  # a weapon has damage > 0
    stamina: int = 0  # a consumable used by Assist: Stamina restored, then it is gone
    willpower: int = 0

    @property
    def weapon(self) -> bool:
        return self.damage > 0


@dataclass(frozen=True)
class Character:
    name: str
    label: str
    side: int  # 0 adventurers, 1 enemies
    stamina: int
    willpower: int
    specialties: tuple[str, ...]
    sheet: tuple[tuple[str, ...], ...]  # rows of squares: a part, an ability, "" or "|"
    abilities: tuple[Ability, ...]
    items: tuple[Item, ...]
    boss: bool = False
    assists: int = 1  # support abilities it may join to one attack of its own
    # Where a campaign's last fight left it (host/rulesets/advance/campaign.py): its
    # Stamina and Willpower (None: the sheet's) and its damaged Body Parts.
    stamina_now: int | None = None
    willpower_now: int | None = None
    damaged: tuple[str, ...] = ()


@dataclass(frozen=True)
class Row:
    low: int
    high: int
    value: str  # the specialty (initiative), the part (body) or the effect
    amount: int = 0
    text: str = ""


@dataclass(frozen=True)
class Options:
    check_base: int = 5  # a check's difficulty before the distance
    critical: int = 12  # a 2D6 total at or above it is a Critical
    fumble: int = 2  # at or below it, a Fumble
    column_step: int = 2  # spaces one column of the Specialty table counts (its gap too)
    death_tie: str = "survive"  # a Death check equal to the damaged parts
    flee: str = "Flee"  # the Specialty of <Flee>
    yell: str = "Yell"  # the Specialty of <Yell>
    full_power_evasion: int = 2  # what Full Power takes off a Boss's Evasion difficulty
    # When a Boss makes a Death check: as its Stamina hits 0 (at_zero), or only on Body
    # Damage, as an adventurer (body_damage). docs/rulesets/advance.md says why.
    boss_death_check: str = "at_zero"


@dataclass(frozen=True)
class Encounter:
    name: str
    characters: tuple[Character, ...]
    specialties: tuple[tuple[str, ...], ...]  # the Specialty table's columns, top down
    tables: dict[str, tuple[Row, ...]]
    options: Options
    teams: tuple[str, ...] = TEAMS
    source: str = ""
    path: str = ""
    ruleset: str = ID
    parts: tuple[str, ...] = field(default=())  # the body parts, in the chart's order

    positions: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        for c, column in enumerate(self.specialties):
            for r, name in enumerate(column):
                self.positions[plain(name)] = (c, r)

    def where(self, specialty: str) -> tuple[int, int] | None:
        """(column, row) of a Specialty in the table, or None."""
        return self.positions.get(plain(specialty))


class _Reader(TableReader):
    def __init__(self, text: str, filename: str) -> None:
        super().__init__(text, filename)
        self.seen: dict[str, int] = {}  # sub-tables read so far, by name (their lines)

    def entries(
        self, key: str, kind: str, data: dict, allowed: tuple[str, ...], who: str
    ) -> Iterator[tuple[str, int, dict, str, str]]:
        """Each sub-table `kind` of table `key` (`[[adventurer.item]]`), checked for its
        keys and named: (its table, its index among all of that name in the file, its
        data, its name, the words that name it in an error)."""
        table = f"{key}.{kind}"
        for entry in data.get(kind, []):
            index = self.seen.get(table, 0)
            self.seen[table] = index + 1
            self.known(table, index, entry, allowed, f"{who}'s {kind}")
            name = self.text(table, index, entry, "name", f"{who}'s {kind}")
            yield table, index, entry, name, f"{who}'s {kind} {name!r}"


CHARACTER_KEYS = (
    "name",
    "label",
    "stamina",
    "willpower",
    "specialties",
    "sheet",
    "ability",
    "item",
    "boss",
    "assists",
    "stamina_now",
    "willpower_now",
    "damaged",
)
ABILITY_KEYS = (
    "name",
    "kind",
    "specialty",
    "damage",
    "rebound",
    "bonus",
    "stamina",
    "willpower",
    "extra",
)
ITEM_KEYS = ("name", "place", "specialty", "damage", "stamina", "willpower")
OPTION_KEYS = tuple(Options.__dataclass_fields__)


def parse(text: str, filename: str, most: int = MOST_FIGHTERS) -> Encounter:
    """The encounter in `text`; `most`: the characters it may hold (host/core/newcomers.py)."""
    doc = read_toml(text, filename)
    templates = take_templates(doc, text, filename)
    r = _Reader(text, filename)
    top = ("ruleset", "name", "options", "specialties", "tables", "sheet", "adventurer", "enemy")
    r.known("", 0, doc, top, "the encounter")
    if doc.get("ruleset", ID) != ID:
        raise r.fail("", 0, "ruleset", "not an advance encounter")
    name = r.text("", 0, doc, "name", "the encounter", "encounter")
    options = _options(r, doc.get("options", {}))
    columns = doc.get("specialties", {})
    r.known("specialties", 0, columns, ("columns",), "the Specialty table")
    cols = columns.get("columns")
    if (
        not isinstance(cols, list)
        or not cols
        or not all(
            isinstance(c, list) and c and all(isinstance(s, str) and s.strip() for s in c)
            for c in cols
        )
    ):
        raise r.fail("specialties", 0, "columns", "specialties.columns must be lists of names")
    specialties = tuple(tuple(s.strip() for s in c) for c in cols)
    seen: set[str] = set()
    for column in specialties:
        for s in column:
            if plain(s) in seen:
                raise r.fail("specialties", 0, "columns", f"Specialty {s!r} is in the table twice")
            seen.add(plain(s))
    for what in (options.flee, options.yell):
        if plain(what) not in seen:
            raise r.fail(
                "options", 0, None, f"the Specialty {what!r} is not in the Specialty table"
            )
    tables = _tables(r, doc.get("tables", {}), seen)
    parts = tuple(dict.fromkeys(row.value for row in tables["body"]))
    if len(parts) > MAX_PARTS:
        raise r.fail("tables", 0, "body", f"the Body Part Chart names more than {MAX_PARTS} parts")
    default_sheet = _sheet(r, "", 0, doc, "the encounter", ((p,) for p in parts))
    characters: list[Character] = []
    for side, key in enumerate(("adventurer", "enemy")):
        entries = doc.get(key, [])
        if not isinstance(entries, list):
            raise r.fail(key, 0, None, f"{key} must be an array of tables ([[{key}]])")
        for index, data in enumerate(entries):
            characters.append(
                _character(r, key, index, data, side, options, seen, parts, default_sheet)
            )
    for side, key in enumerate(("adventurer", "enemy")):
        if not any(c.side == side for c in characters):
            raise r.fail("", 0, None, f"the encounter needs at least one [[{key}]]")
    if len(characters) > most:
        raise r.fail(
            "enemy", 0, None, f"at most {most} characters in a fight, not {len(characters)}"
        )
    names: set[str] = set()
    for c in characters:
        # (a name of three letters may be its own label: one character, not two)
        own = {plain(c.name): c.name, plain(c.label): c.label}
        for word in own.values():
            if plain(word) in names:
                key = "adventurer" if c.side == 0 else "enemy"
                raise r.fail(key, 0, None, f"{word!r} names two characters")
            names.add(plain(word))
    check_templates(
        doc,
        templates,
        text,
        filename,
        lambda t: ("adventurer" if t.get("team") == TEAMS[0] else "enemy", ""),
        parse,
        MOST_FIGHTERS,
        ("adventurer", "enemy"),
    )
    return Encounter(
        name, tuple(characters), specialties, tables, options, TEAMS, text, filename, ID, parts
    )


def _options(r: _Reader, data: Any) -> Options:
    r.known("options", 0, data, OPTION_KEYS, "options")
    base = Options()
    check_base = r.integer("options", 0, data, "check_base", "options", 2, 12, base.check_base)
    critical = r.integer("options", 0, data, "critical", "options", 2, 12, base.critical)
    fumble = r.integer("options", 0, data, "fumble", "options", 2, 12, base.fumble)
    if fumble >= critical:
        raise r.fail("options", 0, "fumble", "options: fumble must be below critical")
    step = r.integer("options", 0, data, "column_step", "options", 1, 5, base.column_step)
    tie = r.text("options", 0, data, "death_tie", "options", base.death_tie)
    if tie not in DEATH_TIES:
        raise r.fail(
            "options", 0, "death_tie", f"options: death_tie must be {' or '.join(DEATH_TIES)}"
        )
    flee = r.text("options", 0, data, "flee", "options", base.flee)
    yell = r.text("options", 0, data, "yell", "options", base.yell)
    fp = r.integer(
        "options", 0, data, "full_power_evasion", "options", 0, 12, base.full_power_evasion
    )
    boss = r.text("options", 0, data, "boss_death_check", "options", base.boss_death_check)
    if boss not in BOSS_DEATH_CHECKS:
        raise r.fail(
            "options",
            0,
            "boss_death_check",
            f"options: boss_death_check must be {' or '.join(BOSS_DEATH_CHECKS)}",
        )
    return Options(check_base, critical, fumble, step, tie, flee, yell, fp, boss)


def _tables(r: _Reader, data: Any, specialties: set[str]) -> dict[str, tuple[Row, ...]]:
    r.known("tables", 0, data, TABLES, "tables")
    out: dict[str, tuple[Row, ...]] = {}
    for name in TABLES:
        rows = data.get(name)
        if not isinstance(rows, list) or not rows:
            raise r.fail(
                "tables", 0, name if name in data else None, f"tables.{name} must be a list of rows"
            )
        read: list[Row] = []
        covered: list[int] = []
        for row in rows:
            who = f"tables.{name}"
            value_key = {"initiative": "specialty", "body": "part"}.get(name, "effect")
            allowed = ("roll", value_key) + (("amount", "text") if value_key == "effect" else ())
            r.known("tables", 0, row, allowed, who)
            roll = row.get("roll")
            if numbers.is_whole(roll):
                low, high = roll, roll
            elif (
                isinstance(roll, list) and len(roll) == 2 and all(numbers.is_whole(x) for x in roll)
            ):
                low, high = roll
            else:
                raise r.fail("tables", 0, name, f"{who}: a row's roll is a face or [low, high]")
            if not 1 <= low <= high <= TABLE_DIE:
                raise r.fail(
                    "tables", 0, name, f"{who}: a row's roll must be within 1..{TABLE_DIE}"
                )
            value = r.text("tables", 0, row, value_key, who)
            if name == "initiative" and plain(value) not in specialties:
                raise r.fail("tables", 0, name, f"{who}: {value!r} is not in the Specialty table")
            if value_key == "effect" and value not in EFFECTS:
                raise r.fail(
                    "tables", 0, name, f"{who}: effect {value!r} is not one of {', '.join(EFFECTS)}"
                )
            amount = (
                r.integer("tables", 0, row, "amount", who, -15, 15, 0)
                if value_key == "effect"
                else 0
            )
            text = row.get("text", "")
            if not isinstance(text, str):
                raise r.fail("tables", 0, name, f"{who}: text must be a string")
            read.append(Row(low, high, value, amount, text.strip()))
            covered += range(low, high + 1)
        if sorted(covered) != list(range(1, TABLE_DIE + 1)):
            raise r.fail(
                "tables", 0, name, f"tables.{name}: the rows must cover 1..{TABLE_DIE} once each"
            )
        out[name] = tuple(read)
    return out


def _sheet(
    r: _Reader, table: str, index: int, data: dict, who: str, default: Any
) -> tuple[tuple[str, ...], ...]:
    rows = data.get("sheet")
    if rows is None:
        return tuple(tuple(row) for row in default)
    if (
        not isinstance(rows, list)
        or not rows
        or not all(isinstance(row, list) and all(isinstance(c, str) for c in row) for row in rows)
    ):
        raise r.fail(
            table, index, "sheet", f"{who}: sheet must be rows of squares (lists of strings)"
        )
    return tuple(tuple(c.strip() for c in row) for row in rows)


def _character(
    r: _Reader,
    key: str,
    index: int,
    data: Any,
    side: int,
    options: Options,
    specialties: set[str],
    parts: tuple[str, ...],
    default_sheet: tuple[tuple[str, ...], ...],
) -> Character:
    r.known(key, index, data, CHARACTER_KEYS, key)
    name = r.text(key, index, data, "name", key)
    who = f"{key} {name!r}"
    label = data.get("label", name[:3])
    try:
        if not isinstance(label, str):
            raise ValueError("label must be a string")
        check_label(label)
    except ValueError as err:
        raise r.fail(key, index, "label", f"{who}: {err}") from None
    stamina = r.integer(key, index, data, "stamina", who, 1, MAX_HEALTH, 10)
    willpower = r.integer(key, index, data, "willpower", who, 1, MAX_WILLPOWER, 5)
    own = r.words(key, index, data, "specialties", who)
    for s in own:
        if plain(s) not in specialties:
            raise r.fail(
                key, index, "specialties", f"{who}: Specialty {s!r} is not in the Specialty table"
            )
    boss = data.get("boss", False)
    if not isinstance(boss, bool):
        raise r.fail(key, index, "boss", f"{who}: boss must be true or false")
    if boss and side == 0:
        raise r.fail(key, index, "boss", f"{who}: only an enemy can be a Boss")
    assists = r.integer(key, index, data, "assists", who, 1, 5, 1)
    sheet = _sheet(r, key, index, data, who, default_sheet)
    abilities: list[Ability] = []
    for t, n, a, aname, what in r.entries(key, "ability", data, ABILITY_KEYS, who):
        kind = r.text(t, n, a, "kind", what)
        if kind not in ABILITY_KINDS:
            raise r.fail(
                key, index, None, f"{what}: kind must be one of {', '.join(ABILITY_KINDS)}"
            )
        spec = str(a.get("specialty", ""))
        if kind == "attack" and plain(spec) not in specialties:
            raise r.fail(
                key, index, None, f"{what}: an attack needs a specialty from the Specialty table"
            )
        ints = {
            k: r.integer(t, n, a, k, what, 0, 99, 0)
            for k in ("damage", "rebound", "bonus", "stamina", "willpower", "extra")
        }
        if kind == "attack" and ints["damage"] < 1:
            raise r.fail(t, n, None, f"{what}: an attack needs damage of 1 or more")
        abilities.append(Ability(aname, kind, spec, **ints))
    items: list[Item] = []
    for t, n, it, iname, what in r.entries(key, "item", data, ITEM_KEYS, who):
        place = r.text(t, n, it, "place", what, "hand")
        if place not in PLACES:
            raise r.fail(t, n, None, f"{what}: place must be one of {', '.join(PLACES)}")
        spec = str(it.get("specialty", ""))
        ints = {
            k: r.integer(t, n, it, k, what, 0, 99, 0) for k in ("damage", "stamina", "willpower")
        }
        if ints["damage"] and plain(spec) not in specialties:
            raise r.fail(
                key, index, None, f"{what}: a weapon needs a specialty from the Specialty table"
            )
        if place == "equipped" and not ints["damage"]:
            raise r.fail(t, n, None, f"{what}: only a weapon (damage > 0) is equipped")
        items.append(Item(iname, place, spec, **ints))
    taken = [plain(x.name) for x in abilities] + [plain(x.name) for x in items]
    if len(set(taken)) != len(taken):
        raise r.fail(key, index, None, f"{who}: two abilities or items share a name")
    stamina_now = r.integer(key, index, data, "stamina_now", who, 0, stamina, stamina)
    willpower_now = r.integer(key, index, data, "willpower_now", who, 0, MAX_WILLPOWER, willpower)
    damaged = r.words(key, index, data, "damaged", who)
    by_part = {plain(p): p for p in parts}
    for part in damaged:
        if plain(part) not in by_part:
            raise r.fail(
                key,
                index,
                "damaged",
                f"{who}: damaged: {part!r} is no Body Part ({', '.join(parts)})",
            )
    return Character(
        name,
        label,
        side,
        stamina,
        willpower,
        own,
        sheet,
        tuple(abilities),
        tuple(items),
        boss,
        assists,
        stamina_now if stamina_now != stamina else None,
        willpower_now if willpower_now != willpower else None,
        tuple(dict.fromkeys(by_part[plain(p)] for p in damaged)),
    )
