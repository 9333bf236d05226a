"""Korxsol's encounter files (TOML): read, check and turn into model definitions. Reading
the TOML and finding the file's ruleset is every ruleset's (host/core/encounter_files.py).

Every error names the file, the line and what is wrong, in one line:
`duel.toml:14: solighter "Kae": power must be a whole number 0..7, not "lots"`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from host.core import kit, numbers
from host.core.encounter_files import (
    TableReader,
    check_templates,
    read_toml,
    take_templates,
)
from host.core.interface import EncounterError
from host.core.newcomers import MOST_FIGHTERS
from host.core.plurals import plural
from host.rulesets.korxsol.fighter import norm
from host.rulesets.korxsol.model import (
    ATTRIBUTES,
    CONDITIONS,
    ELEMENTS,
    GAINS,
    MODIFIER_KEYS,
    MOVE_TYPES,
    STATUS_FLIPS,
    WEAPONS,
    Artifact,
    Effects,
    Encounter,
    Item,
    Move,
    Options,
    Solighter,
)
from shared.limits import (
    MAX_ACTIONS,
    MAX_COOLDOWN_ID,
    MAX_COOLDOWN_TURNS,
    MAX_HEALTH,
    MAX_TEAMS,
)
from shared.roster import check_label

ID = "korxsol"  # the ruleset id an encounter file names (host/core/registry.py)
EXAMPLE = kit.bundled(__package__, "ember_ridge.toml")  # played when none is named
TEMPLATE = kit.bundled(__package__, "template.toml")  # `turnlight encounter new`'s
MAX_MOVES = 3  # korxsol: each Solighter equips at most 3 unique combat moves
# A fighter's `weapon` as a file writes it: "none" (or no key) is the fighter with no weapon.
NO_WEAPON = "none"
WEAPON_WORDS = (NO_WEAPON, *(w for w in WEAPONS if w))


def example_path() -> Path:
    """The bundled example encounter (shipped inside the package)."""
    return EXAMPLE


def load(path: str | Path) -> Encounter:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise EncounterError(f"{path}: cannot read the encounter: {err.strerror}") from None
    return parse(text, str(path))


class _Reader(TableReader):
    def text(self, table, index, data, key, who, default=None, choices=None) -> str:
        if key not in data:
            if default is None:
                raise self.fail(table, index, None, f"{who}: {key} is missing")
            return str(default)
        value = data[key]
        if not isinstance(value, str) or not value.strip():
            raise self.fail(table, index, key, f"{who}: {key} must be a non-empty string")
        if choices is not None and value not in choices:
            raise self.fail(
                table,
                index,
                key,
                f"{who}: {key} {value!r} is not one of {', '.join(c or '(none)' for c in choices)}",
            )
        return value

    def names(self, table, index, data, key, who) -> list[str]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(table, index, key, f"{who}: {key} must be a list of names")
        return value

    def table_of_ints(self, table, index, data, key, who, allowed, low, high) -> dict[str, int]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(table, index, key, f"{who}: {key} must be a table")
        for name, amount in value.items():
            if name not in allowed:
                raise self.fail(
                    table, index, key, f"{who}: {key}.{name} is not one of {', '.join(allowed)}"
                )
            if not numbers.is_whole(amount, low, high):
                raise self.fail(
                    table, index, key, f"{who}: {key}.{name} must be a whole number {low}..{high}"
                )
        return dict(value)

    def triple(self, table, index, data, key, who, first, second) -> tuple[str, str, int] | None:
        if key not in data:
            return None
        value = data[key]
        ok = (
            isinstance(value, list)
            and len(value) == 3
            and value[0] in first
            and value[1] in second
            and numbers.is_whole(value[2], 1, 9)
        )
        if not ok:
            raise self.fail(
                table,
                index,
                key,
                f"{who}: {key} must be [one of {'/'.join(first)}, one of {'/'.join(second)}, 1..9]",
            )
        return (value[0], value[1], value[2])


_EFFECT_KEYS = (
    "hit",
    "damage",
    "targets",
    "knockback",
    "knockdown",
    "resist_piercing",
    "armor_piercing",
    "sunder",
    "double_hit",
    "charge",
    "bless",
    "release",
    "threat",
    "true_sight",
    "cleanse",
    "heal",
    "armor_gain",
    "modifiers",
    "during",
    "exchange",
    "conversion",
    "condition",
    "movement",
    "range",
    "wall",
    "buster",
) + STATUS_FLIPS


def _effects(r: _Reader, table: str, index: int, data: dict, who: str) -> Effects:
    flips = {}
    # BLINDED: `blind = true` blinds outright, `blind = N` on N chance flips.
    blind = data.get("blind", 0)
    blinds = blind is True
    if not isinstance(blind, bool) and not numbers.is_whole(blind, 0, 9):
        raise r.fail(
            table, index, "blind", f"{who}: blind must be true or chance flips 0..9, not {blind!r}"
        )
    for status in STATUS_FLIPS:
        if status == "blind" and isinstance(blind, bool):
            continue
        n = r.integer(table, index, data, status, who, 0, 9, default=0)
        if n:
            flips[status] = n
    damage = None
    if "damage" in data:
        damage = r.integer(table, index, data, "damage", who, 0, 30)
    cleanse = r.names(table, index, data, "cleanse", who)
    for name in cleanse:
        if name not in STATUS_FLIPS + ("knockdown", "all"):
            raise r.fail(table, index, "cleanse", f"{who}: cleanse names unknown status {name!r}")
    return Effects(
        hit=r.integer(table, index, data, "hit", who, 0, 7, default=0),
        damage=damage,
        flips=flips,
        blinds=blinds,
        knockback=r.flag(table, index, data, "knockback", who),
        knockdown=r.flag(table, index, data, "knockdown", who),
        resist_piercing=r.flag(table, index, data, "resist_piercing", who),
        armor_piercing=r.flag(table, index, data, "armor_piercing", who),
        sunder=r.integer(table, index, data, "sunder", who, 0, 9, default=0),
        double_hit=r.flag(table, index, data, "double_hit", who),
        charge=r.flag(table, index, data, "charge", who),
        bless=r.flag(table, index, data, "bless", who),
        release=r.flag(table, index, data, "release", who),
        threat=r.flag(table, index, data, "threat", who),
        true_sight=r.flag(table, index, data, "true_sight", who),
        cleanse=tuple(cleanse),
        heal=r.integer(table, index, data, "heal", who, 0, 99, default=0),
        armor_gain=r.integer(table, index, data, "armor_gain", who, 0, 9, default=0),
        modifiers=r.table_of_ints(table, index, data, "modifiers", who, MODIFIER_KEYS, -9, 9),
        during=r.table_of_ints(table, index, data, "during", who, ATTRIBUTES + ("kor",), -9, 9),
        exchange=_exchange(r, table, index, data, who),
        conversion=r.integer(table, index, data, "conversion", who, 0, 9, default=0),
        condition=_condition(r, table, index, data, who),
        movement=r.integer(table, index, data, "movement", who, 0, 9, default=0),
        range=r.integer(table, index, data, "range", who, 0, 15, default=0),
        wall=r.flag(table, index, data, "wall", who),
        buster=r.flag(table, index, data, "buster", who),
        targets=r.integer(table, index, data, "targets", who, 1, MOST_FIGHTERS, default=1),
    )


def _damage_instance(data: dict) -> bool:
    """Whether a move, item or artifact has a damage instance (a buff never strikes)."""
    return "damage" in data and data.get("type") != "buff"


def _exchange(r: _Reader, table: str, index: int, data: dict, who: str):
    """EXCHANGE is the user's choice on anything that carries it; damage bought with it
    joins a damage instance, so it needs one."""
    trade = r.triple(table, index, data, "exchange", who, ("armor", "kor", "sol"), GAINS)
    if trade is not None and trade[1] == "damage" and not _damage_instance(data):
        raise r.fail(
            table,
            index,
            "exchange",
            f"{who}: exchange gives damage only with a damage instance (damage = N, not a buff)",
        )
    return trade


def _condition(r: _Reader, table: str, index: int, data: dict, who: str):
    """Damage gained from a condition joins the damage instance of the strike that met it:
    a resist_success (the defender's roll) and a knockout (the target is down) have none to
    join, and neither has a move without a damage instance."""
    cond = r.triple(table, index, data, "condition", who, CONDITIONS, GAINS)
    if cond is None or cond[1] != "damage":
        return cond
    if cond[0] == "resist_success":
        raise r.fail(
            table, index, "condition", f"{who}: resist_success gains armor, kor or sol, not damage"
        )
    if cond[0] == "knockout":
        raise r.fail(
            table,
            index,
            "condition",
            f"{who}: knockout gains armor, kor or sol: its target is down, so no damage",
        )
    if not _damage_instance(data):
        raise r.fail(
            table,
            index,
            "condition",
            f"{who}: {cond[0]} gains damage only with a damage instance (damage = N, not a buff)",
        )
    return cond


def _list(r: _Reader, doc: dict, name: str) -> list[dict]:
    value = doc.get(name, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise r.fail(name, 0, None, f"{name} must be written as [[{name}]] tables")
    return value


def parse(text: str, filename: str = "<encounter>") -> Encounter:
    doc = read_toml(text, filename)
    templates = take_templates(doc, text, filename)
    r = _Reader(text, filename)
    known = ("ruleset", "encounter", "team", "solighter", "move", "item", "artifact")
    r.known("", 0, doc, known, "file")
    r.text("", 0, doc, "ruleset", "file", default=ID, choices=(ID,))

    head = doc.get("encounter", {})
    if not isinstance(head, dict):
        raise r.fail("", 0, "encounter", "encounter must be a table")
    r.known(
        "encounter", 0, head, ("name", "ruleset", "dice", "success_faces", "newcomers"), "encounter"
    )
    name = r.text("encounter", 0, head, "name", "encounter", default="encounter")
    r.text("encounter", 0, head, "ruleset", "encounter", default=ID, choices=(ID,))  # older files
    dice_kind = r.text(
        "encounter", 0, head, "dice", "encounter", default="d3", choices=("d3", "d6")
    )
    faces = head.get("success_faces", [3])
    if (
        not isinstance(faces, list)
        or not faces
        or not all(numbers.is_whole(f, 1, 3) for f in faces)
        or len(set(faces)) == 3
    ):
        raise r.fail(
            "encounter", 0, "success_faces", "encounter: success_faces must list 1 or 2 of 1, 2, 3"
        )
    newcomers = r.text(
        "encounter", 0, head, "newcomers", "encounter", default="next", choices=("next", "last")
    )
    options = Options(dice=dice_kind, success_faces=tuple(sorted(set(faces))), newcomers=newcomers)

    teams = []
    for i, team in enumerate(_list(r, doc, "team")):
        r.known("team", i, team, ("name",), f"team {i + 1}")
        teams.append(r.text("team", i, team, "name", f"team {i + 1}"))
    if not 2 <= len(teams) <= MAX_TEAMS or len(set(teams)) != len(teams):
        raise r.fail("team", 0, None, f"an encounter needs 2..{MAX_TEAMS} teams with unique names")

    moves = _definitions(r, doc, "move")
    items = _definitions(r, doc, "item")
    artifacts = _definitions(r, doc, "artifact")

    fighters = []
    labels: set[str] = set()
    for i, data in enumerate(_list(r, doc, "solighter")):
        fighters.append(_solighter(r, i, data, teams, moves, items, artifacts, labels, options))
    if not 2 <= len(fighters) <= MOST_FIGHTERS:
        raise r.fail("solighter", 0, None, f"an encounter needs 2..{MOST_FIGHTERS} solighters")
    _every_reference_unique(r, fighters)
    for t, team_name in enumerate(teams):
        if not any(f.team == t for f in fighters):
            raise r.fail("team", t, None, f"team {team_name!r} has no solighter")
    check_templates(
        doc,
        templates,
        text,
        filename,
        lambda template: ("solighter", "team"),
        parse,
        MOST_FIGHTERS,
        ("solighter",),
    )
    return Encounter(name, tuple(teams), tuple(fighters), options, text, filename, ID)


def _every_reference_unique(r: _Reader, fighters: list[Solighter]) -> None:
    """A name or label picks one fighter, as commands and board presses match it
    (host/rulesets/korxsol/fighter.py's norm: case, spaces and punctuation aside): two fighters
    named Orrin, or one named after another's label, would let a press on one land on the
    other. A fighter's own name and label may be the same."""
    taken: dict[str, tuple[int, str]] = {}
    for i, f in enumerate(fighters):
        for what, ref in (("name", f.name), ("label", f.label)):
            key = norm(ref)
            owner = taken.get(key)
            if owner is not None and owner[0] != i:
                first = fighters[owner[0]]
                raise r.fail(
                    "solighter",
                    i,
                    what,
                    f"solighter {f.name!r}: {what} {ref!r} is already the {owner[1]} of"
                    f" solighter {first.name!r} (line {first.line}); a command or board press"
                    " naming it could reach either",
                )
            taken.setdefault(key, (i, what))


def _definitions(r: _Reader, doc: dict, kind: str) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for i, data in enumerate(_list(r, doc, kind)):
        who = f"{kind} {i + 1}"
        name = r.text(kind, i, data, "name", who)
        who = f"{kind} {name!r}"
        if name.lower() in found:
            raise r.fail(kind, i, "name", f"{who} is defined twice")
        line = r.lines.of(kind, i)
        cooldown = r.integer(kind, i, data, "cooldown", who, 0, MAX_COOLDOWN_TURNS, default=0)
        if kind == "move":
            r.known(kind, i, data, ("name", "type", "cooldown") + _EFFECT_KEYS, who)
            mtype = r.text(kind, i, data, "type", who, choices=MOVE_TYPES)
            effects = _effects(r, kind, i, data, who)
            found[name.lower()] = Move(name, mtype, cooldown, effects, line)
        elif kind == "item":
            r.known(kind, i, data, ("name", "kind", "cooldown") + _EFFECT_KEYS, who)
            _no_charge(r, kind, i, data, who)
            ikind = r.text(kind, i, data, "kind", who, choices=("consumable", "tool"))
            found[name.lower()] = Item(name, ikind, cooldown, _effects(r, kind, i, data, who), line)
        else:
            r.known(kind, i, data, ("name", "kind", "cooldown", "passive") + _EFFECT_KEYS, who)
            _no_charge(r, kind, i, data, who)
            akind = r.text(kind, i, data, "kind", who, choices=("passive", "active"))
            passive = r.table_of_ints(
                kind, i, data, "passive", who, ATTRIBUTES + ("actions", "kor", "sol"), -9, 9
            )
            effects = _effects(r, kind, i, data, who)
            found[name.lower()] = Artifact(name, akind, cooldown, effects, passive, line)
    return found


def _no_charge(r: _Reader, kind: str, i: int, data: dict, who: str) -> None:
    if data.get("charge"):
        raise r.fail(
            kind, i, "charge", f"{who}: charge is a combat move's indicator, not an {kind}'s"
        )


def _check_totals(r: _Reader, i: int, fighter: Solighter, who: str, sol_points: int) -> None:
    """What a fighter starts with is its own value plus its passive artifacts (and, for
    action points, Tactician): KOR 1..MAX_HEALTH (0 is a collapse), action points
    1..MAX_ACTIONS (what the board holds), SOL, armor and the attributes 0 or more (above the
    cap is capped)."""
    passive = fighter.passive()
    names = ", ".join(a.name for a in fighter.artifacts if a.kind == "passive")
    checks: list[tuple[str, str, int, list[tuple[int, str]], int, int | None]] = [
        ("KOR", "kor", fighter.kor, [], 1, MAX_HEALTH),
        (
            "action points",
            "actions",
            fighter.actions,
            [(1, "Tactician")] if fighter.weapon == "sword" else [],
            1,
            MAX_ACTIONS,
        ),
        ("SOL", "sol", sol_points, [], 0, None),
    ]
    checks += [(a, a, getattr(fighter, a), [], 0, None) for a in ATTRIBUTES]
    for label, key, own, bonuses, low, high in checks:
        extra = passive.get(key, 0)
        total = own + sum(n for n, _ in bonuses) + extra
        if low <= total and (high is None or total <= high):
            continue
        expr = f"{own}" + "".join(f" + {n} ({why})" for n, why in bonuses)
        if extra:
            expr += f" {'+' if extra > 0 else '-'} {abs(extra)}"
        if expr != str(total):
            expr += f" = {total}"
        limit = f"{low}..{high}" if high is not None else f"{low} or more"
        what = f"{label} {expr}, not {limit}"
        if extra:
            raise r.fail("solighter", i, "artifacts", f"{who}: with the passive of {names}, {what}")
        raise r.fail("solighter", i, key if key != "sol" else None, f"{who}: {what}")


SOLIGHTER_KEYS = (
    "name",
    "label",
    "team",
    "kor",
    "actions",
    "inventory",
    "weight",
    "weapon",
    "elements",
    "moves",
    "items",
    "artifacts",
) + ATTRIBUTES


def _free_label(name: str, labels: set[str]) -> str:
    """The label a fighter who names none gets: its name's first 3 characters, or, taken
    by a fighter read before it, the first 2 and a digit (`Ann2` after Ann: `An2`), then the
    first and two digits. The fighters before it keep theirs: a newcomer never moves one."""
    candidates = [name[:3]]
    candidates += [f"{name[:2]}{n}" for n in range(2, 10)]
    candidates += [f"{name[:1]}{n}" for n in range(10, 100)]
    return next((c for c in candidates if c.lower() not in labels), name[:3])


def _solighter(r, i, data, teams, moves, items, artifacts, labels, options) -> Solighter:
    table = "solighter"
    who = f"solighter {i + 1}"
    if isinstance(data.get("name"), str) and data["name"].strip():
        who = f"solighter {data['name']!r}"
    r.known(table, i, data, SOLIGHTER_KEYS, who)
    name = r.text(table, i, data, "name", who)
    who = f"solighter {name!r}"
    label = r.text(table, i, data, "label", who, default=_free_label(name, labels))
    try:
        check_label(label)
    except ValueError as err:
        raise r.fail(table, i, "label", f"{who}: {err}") from None
    if label.lower() in labels:
        raise r.fail(table, i, "label", f"{who}: label {label!r} is already taken")
    labels.add(label.lower())
    team_name = r.text(table, i, data, "team", who, choices=tuple(teams))
    stats = {a: r.integer(table, i, data, a, who, 0, 7, default=0) for a in ATTRIBUTES}
    weapon = ""
    if data.get("weapon"):
        weapon = r.text(table, i, data, "weapon", who, choices=WEAPON_WORDS)
        weapon = "" if weapon == NO_WEAPON else weapon
    elements = r.names(table, i, data, "elements", who)
    for element in elements:
        if element not in ELEMENTS:
            raise r.fail(
                table, i, "elements", f"{who}: element {element!r} is not one of {ELEMENTS}"
            )
    if len(elements) > 2 or len(set(elements)) != len(elements):
        raise r.fail(table, i, "elements", f"{who}: at most 2 different elements")

    def pick(key: str, pool: dict[str, Any], most: int) -> tuple:
        chosen = r.names(table, i, data, key, who)
        if len(chosen) > most:
            raise r.fail(
                table, i, key, f"{who}: at most {plural(most, key[:-1], key)}, not {len(chosen)}"
            )
        if len({c.lower() for c in chosen}) != len(chosen):
            raise r.fail(table, i, key, f"{who}: {key} must be unique")
        out = []
        for c in chosen:
            if c.lower() not in pool:
                raise r.fail(table, i, key, f"{who}: unknown {key[:-1]} {c!r}")
            out.append(pool[c.lower()])
        return tuple(out)

    inventory = r.integer(table, i, data, "inventory", who, 0, 9, default=2)
    fighter = Solighter(
        name=name,
        label=label,
        team=teams.index(team_name),
        kor=r.integer(table, i, data, "kor", who, 1, MAX_HEALTH),
        actions=r.integer(table, i, data, "actions", who, 0, MAX_ACTIONS - 1, default=2),
        inventory=inventory,
        weight=r.integer(table, i, data, "weight", who, 1, 5, default=3),
        weapon=weapon,
        elements=tuple(elements),
        moves=pick("moves", moves, MAX_MOVES),
        items=pick("items", items, inventory),
        artifacts=pick("artifacts", artifacts, 1),
        line=r.lines.of(table, i),
        **stats,
    )
    _check_totals(r, i, fighter, who, options.sol_points)
    timed = len(fighter.timed())
    if timed > MAX_COOLDOWN_ID:
        raise r.fail(
            table,
            i,
            "items",
            f"{who}: {timed} moves, items and active artifacts have a cooldown, but a character"
            f" has {MAX_COOLDOWN_ID} cooldown timers (ids 1..{MAX_COOLDOWN_ID})",
        )
    return fighter
