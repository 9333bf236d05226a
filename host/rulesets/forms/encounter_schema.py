"""The forms ruleset's encounter files (TOML): units with the eight attributes, sides,
Forms as data, the checks an area holds and the numbers the text leaves open.

Every error is one line, `FILE:LINE: what is wrong` (host/core/encounter_files.py finds the line).
docs/rulesets/forms.md describes every key and its default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from host.core import kit, numbers
from host.core.encounter_files import (
    TableReader,
    check_templates,
    read_toml,
    take_templates,
)
from host.core.newcomers import MOST_FIGHTERS
from shared.limits import MAX_DICE, MAX_HEALTH, MAX_TEAMS
from shared.roster import check_label

ID = "forms"
# The eight attributes, in the order several checks of one social round are made.
ATTRIBUTES = (
    "Vitality",
    "Physique",
    "Resolve",
    "Insight",
    "Agility",
    "Passion",
    "Prowess",
    "Genius",
)
STEPS = 8
STEP_NAMES = (
    "Awareness",
    "Agility and Movement",
    "Slow Form",
    "Fast Form",
    "Dodge and Attack",
    "Aim and Block",
    "Damage",
    "Agility and late Movement",
)
DEFAULT_ATTRIBUTE = 2  # an attribute a unit's block leaves out
DEFAULT_HEALTH = 6
DEFAULT_DAMAGE = 2


EXAMPLE = kit.bundled(__package__, "sunken_vault.toml")  # the encounter played when none is named
TEMPLATE = kit.bundled(__package__, "template.toml")  # `turnlight encounter new`'s


def example_path() -> Path:
    return EXAMPLE


def attribute(name: str) -> str | None:
    """The attribute a word names (any case, or its first three letters), else None."""
    low = name.lower()
    for a in ATTRIBUTES:
        if low == a.lower() or low == a[:3].lower():
            return a
    return None


@dataclass(frozen=True)
class Form:
    """A Form as data: declared at `step` of a combat round (or, `social`, first in a social
    round as an Active Form); the unit then skips the steps in `skip`, acts twice in those
    in `extra`, moves "first" or "last" of everyone this round whatever its Agility
    (`movement`), rolls `dice` more dice on `attribute` this round, and heals `heal` as the
    round ends (an effect left over)."""

    name: str
    step: int = 0  # 1..8; 0 for a social (Active) Form
    skip: tuple[int, ...] = ()
    extra: tuple[int, ...] = ()
    attribute: str = ""
    dice: int = 0
    heal: int = 0
    movement: str = ""  # "", "first" or "last"

    @property
    def social(self) -> bool:
        return self.step == 0


# The two Forms the text builds into the combat round: Slow at step 3 goes to step 7
# (steps 4, 5 and 6 skipped), Fast is declared at step 4 and changes no step.
BUILT_IN_FORMS = (Form("Slow", 3, skip=(4, 5, 6)), Form("Fast", 4))


@dataclass(frozen=True)
class Check:
    """A check the area holds (the text names checks, not their table): the attribute it
    takes, the successes it needs, and, for a trap, the damage it deals when failed unless
    the unit's Dodge roll makes `dodge` successes."""

    name: str
    attribute: str
    difficulty: int = 1
    springs: int = 0
    dodge: int = 1


@dataclass(frozen=True)
class Rules:
    """The numbers the text leaves open (docs/rulesets/forms.md, "Choices")."""

    success: int = 6  # a D10 face at or above this succeeds
    awareness: int = 1  # Insight successes that make a unit Aware at step 1
    difficulty: int = 1  # an Environment check's successes when none is named
    attack: str = "Agility"
    dodge: str = "Vitality"
    aim: str = "Prowess"
    block: str = "Physique"


@dataclass(frozen=True)
class UnitSpec:
    name: str
    label: str
    side: int
    attributes: tuple[int, ...]  # in ATTRIBUTES' order
    health: int = DEFAULT_HEALTH
    damage: int = DEFAULT_DAMAGE
    forms: tuple[str, ...] = ("Slow", "Fast")
    aware: bool = False

    def score(self, name: str) -> int:
        return self.attributes[ATTRIBUTES.index(name)]


@dataclass(frozen=True)
class Encounter:
    name: str
    area: str
    teams: tuple[str, ...]
    units: tuple[UnitSpec, ...]
    forms: tuple[Form, ...]
    checks: tuple[Check, ...]
    rules: Rules = field(default_factory=Rules)
    source: str = ""
    path: str = ""
    ruleset: str = ID

    def form(self, name: str) -> Form | None:
        low = name.lower()
        return next((f for f in self.forms if f.name.lower() == low), None)

    def check(self, name: str) -> Check | None:
        low = name.lower()
        return next((c for c in self.checks if c.name.lower() == low), None)

    @property
    def most_dice(self) -> int:
        """The most dice any roll of this encounter takes (the board's roll key rolls these)."""
        bonus = max((f.dice for f in self.forms), default=0)
        return min(MAX_DICE, max(max(u.attributes) for u in self.units) + bonus)


TOP_KEYS = ("ruleset", "name", "area", "sides", "rules", "form", "check", "unit")
RULE_KEYS = ("success", "awareness", "difficulty", "attack", "dodge", "aim", "block")
FORM_KEYS = ("name", "step", "social", "skip", "extra", "attribute", "dice", "heal", "movement")
CHECK_KEYS = ("name", "attribute", "difficulty", "springs", "dodge")
UNIT_KEYS = ("name", "label", "side", "health", "damage", "forms", "aware") + tuple(
    a.lower() for a in ATTRIBUTES
)


class _Reader(TableReader):
    def attribute(self, table: str, index: int, data: dict, key: str, who: str, default) -> str:
        word = self.text(table, index, data, key, who, default)
        found = attribute(word)
        if found is None:
            raise self.fail(
                table,
                index,
                key,
                f"{who}: {key} must be an attribute ({', '.join(ATTRIBUTES)}), not {word!r}",
            )
        return found

    def steps(self, table: str, index: int, data: dict, key: str, who: str) -> tuple[int, ...]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(numbers.is_whole(s, 1, STEPS) for s in value):
            raise self.fail(table, index, key, f"{who}: {key} must be a list of steps 1..8")
        return tuple(sorted(set(value)))


def parse(text: str, filename: str, most: int = MOST_FIGHTERS) -> Encounter:
    """The encounter in `text`; `most`: the units it may hold (host/core/newcomers.py)."""
    doc = read_toml(text, filename)
    templates = take_templates(doc, text, filename)
    r = _Reader(text, filename)
    r.known("", 0, doc, TOP_KEYS, "the encounter")
    if doc.get("ruleset", ID) != ID:
        raise r.fail("", 0, "ruleset", f"not a {ID} encounter")
    name = r.text("", 0, doc, "name", "the encounter", "Encounter")
    area = r.text("", 0, doc, "area", "the encounter", "the area")
    sides = doc.get("sides")
    if (
        not isinstance(sides, list)
        or not 2 <= len(sides) <= MAX_TEAMS
        or not all(isinstance(s, str) and s.strip() for s in sides)
        or len({s.lower() for s in sides}) != len(sides)
    ):
        raise r.fail("", 0, "sides", f"sides must name 2..{MAX_TEAMS} different sides")
    rules_doc = doc.get("rules", {})
    r.known("rules", 0, rules_doc, RULE_KEYS, "[rules]")
    rules = Rules(
        success=r.integer("rules", 0, rules_doc, "success", "[rules]", 1, 10, 6),
        awareness=r.integer("rules", 0, rules_doc, "awareness", "[rules]", 0, MAX_DICE, 1),
        difficulty=r.integer("rules", 0, rules_doc, "difficulty", "[rules]", 0, MAX_DICE, 1),
        attack=r.attribute("rules", 0, rules_doc, "attack", "[rules]", "Agility"),
        dodge=r.attribute("rules", 0, rules_doc, "dodge", "[rules]", "Vitality"),
        aim=r.attribute("rules", 0, rules_doc, "aim", "[rules]", "Prowess"),
        block=r.attribute("rules", 0, rules_doc, "block", "[rules]", "Physique"),
    )
    forms = list(BUILT_IN_FORMS)
    for i, f in enumerate(_tables(r, doc, "form")):
        who = f"form {f.get('name', i + 1)!r}" if isinstance(f, dict) else f"form {i + 1}"
        r.known("form", i, f, FORM_KEYS, who)
        fname = r.text("form", i, f, "name", who)
        if any(x.name.lower() == fname.lower() for x in forms):
            built = fname.lower() in ("slow", "fast")
            why = "is built in" if built else "is named twice"
            raise r.fail("form", i, "name", f"form {fname!r} {why}")
        social = f.get("social", False)
        if not isinstance(social, bool):
            raise r.fail("form", i, "social", f"{who}: social must be true or false")
        step = 0 if social else r.integer("form", i, f, "step", who, 1, STEPS, None)
        if social and "step" in f:
            raise r.fail("form", i, "step", f"{who}: a social (Active) Form has no combat step")
        skip = r.steps("form", i, f, "skip", who)
        extra = r.steps("form", i, f, "extra", who)
        if social and (skip or extra):
            raise r.fail("form", i, "skip", f"{who}: a social Form skips and adds no steps")
        if any(s <= step for s in skip + extra):
            raise r.fail("form", i, "skip", f"{who}: it can skip or add only steps after {step}")
        if 7 in skip or 7 in extra:
            raise r.fail("form", i, "skip", f"{who}: step 7 (damage) is every unit's")
        dice = r.integer("form", i, f, "dice", who, 0, MAX_DICE, 0)
        attr = r.attribute("form", i, f, "attribute", who, "Vitality") if dice else ""
        heal = r.integer("form", i, f, "heal", who, 0, MAX_HEALTH, 0)
        movement = f.get("movement", "")
        if movement not in ("", "first", "last") or (social and movement):
            raise r.fail("form", i, "movement", f'{who}: movement is "first" or "last", in combat')
        forms.append(Form(fname, step, skip, extra, attr, dice, heal, movement))
    checks: list[Check] = []
    for i, c in enumerate(_tables(r, doc, "check")):
        who = f"check {c.get('name', i + 1)!r}" if isinstance(c, dict) else f"check {i + 1}"
        r.known("check", i, c, CHECK_KEYS, who)
        cname = r.text("check", i, c, "name", who)
        if attribute(cname) is not None or any(x.name.lower() == cname.lower() for x in checks):
            raise r.fail("check", i, "name", f"{who}: the name is an attribute's or taken")
        checks.append(
            Check(
                cname,
                r.attribute("check", i, c, "attribute", who, None),
                r.integer("check", i, c, "difficulty", who, 0, MAX_DICE, rules.difficulty),
                r.integer("check", i, c, "springs", who, 0, MAX_HEALTH, 0),
                r.integer("check", i, c, "dodge", who, 0, MAX_DICE, 1),
            )
        )
    units: list[UnitSpec] = []
    for i, u in enumerate(_tables(r, doc, "unit")):
        who = f"unit {u.get('name', i + 1)!r}" if isinstance(u, dict) else f"unit {i + 1}"
        r.known("unit", i, u, UNIT_KEYS, who)
        uname = r.text("unit", i, u, "name", who)
        label = r.text("unit", i, u, "label", who, uname[:3])
        try:
            check_label(label)
        except ValueError as err:
            raise r.fail("unit", i, "label", f"{who}: {err}") from None
        side = r.text("unit", i, u, "side", who)
        if side.lower() not in [s.lower() for s in sides]:
            raise r.fail("unit", i, "side", f"{who}: side {side!r} is not one of {sides}")
        attrs = tuple(
            r.integer("unit", i, u, a.lower(), who, 0, MAX_DICE, DEFAULT_ATTRIBUTE)
            for a in ATTRIBUTES
        )
        known = u.get("forms", ["Slow", "Fast"])
        if not isinstance(known, list) or not all(isinstance(k, str) for k in known):
            raise r.fail("unit", i, "forms", f"{who}: forms must be a list of Form names")
        names = []
        for k in known:
            form = next((f for f in forms if f.name.lower() == k.lower()), None)
            if form is None:
                raise r.fail("unit", i, "forms", f"{who}: no Form {k!r} in this encounter")
            names.append(form.name)
        aware = u.get("aware", False)
        if not isinstance(aware, bool):
            raise r.fail("unit", i, "aware", f"{who}: aware must be true or false")
        for other in units:
            if other.name.lower() == uname.lower() or other.label.lower() == label.lower():
                raise r.fail("unit", i, "name", f"{who}: its name or label is taken")
        units.append(
            UnitSpec(
                uname,
                label,
                [s.lower() for s in sides].index(side.lower()),
                attrs,
                r.integer("unit", i, u, "health", who, 1, MAX_HEALTH, DEFAULT_HEALTH),
                r.integer("unit", i, u, "damage", who, 0, MAX_HEALTH, DEFAULT_DAMAGE),
                tuple(names),
                aware,
            )
        )
    if not 2 <= len(units) <= most:
        raise r.fail("unit", 0, None, f"an encounter has 2..{most} units, not {len(units)}")
    for t, side in enumerate(sides):
        if not any(u.side == t for u in units):
            raise r.fail("", 0, "sides", f"side {side!r} has no unit")
    bonus = max((f.dice for f in forms), default=0)
    for i, u in enumerate(units):
        if max(u.attributes) + bonus > MAX_DICE:
            raise r.fail(
                "unit", i, None, f"unit {u.name!r}: an attribute and a Form's dice pass {MAX_DICE}"
            )
    check_templates(
        doc, templates, text, filename, lambda t: ("unit", "side"), parse, MOST_FIGHTERS, ("unit",)
    )
    return Encounter(
        name,
        area,
        tuple(s.strip() for s in sides),
        tuple(units),
        tuple(forms),
        tuple(checks),
        rules,
        text,
        filename,
    )


def _tables(r: _Reader, doc: dict, key: str) -> list:
    value = doc.get(key, [])
    if not isinstance(value, list):
        raise r.fail("", 0, key, f"{key} must be an array of tables: [[{key}]]")
    return value
