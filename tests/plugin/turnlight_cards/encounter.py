"""Cards' encounter files: the teams, and each fighter's table (`[[fighter]]`) with its
trait dice, its Parry and Toughness; `[[template]]` tables for the fighters `add` brings in.

    ruleset = "cards"
    name = "Saloon"
    teams = ["Posse", "Outlaws"]
    [[fighter]]
    name = "Ruth"       # its first three letters are its board label (or label = "RTH")
    team = "Posse"
    wild = true         # a Wild Card: a Wild Die beside each trait die, three Wounds
    agility = 8         # trait dice: 4, 6, 8, 10 or 12 (default 6)
    fighting = 8
    spirit = 6
    strength = 6
    weapon = 6          # the die its weapon adds to Strength for damage
    parry = 6           # what an attack must reach (2..12, default 5)
    toughness = 5       # what damage must reach (2..12, default 5)
    group = "guns"      # fighters of one group share their action card
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.core import newcomers
from host.core.encounter_files import TEMPLATE, TableReader, check_templates, read_toml
from host.core.errors import EncounterError
from host.core.numbers import whole_or_none
from shared.limits import LABEL_LEN, MAX_SLOTS

ID = "cards"
EXAMPLE = Path(__file__).parent / "encounters" / "saloon.toml"
DIE = (4, 6, 8, 10, 12)
TRAITS = ("agility", "fighting", "spirit", "strength", "weapon")
LIMITS = ("parry", "toughness")
KEYS = ("name", "label", "team", "wild", "group", *TRAITS, *LIMITS)
# How the file writes a fighter, for `add` (host/core/newcomers.py).
ROSTER = newcomers.Roster("fighter", "team", KEYS)


@dataclass(frozen=True)
class Spec:
    """A fighter as the file writes it (team: an index into the teams)."""

    name: str
    label: str
    team: int
    wild: bool
    agility: int
    fighting: int
    spirit: int
    strength: int
    weapon: int
    parry: int
    toughness: int
    group: str = ""


@dataclass(frozen=True)
class Encounter:
    name: str
    teams: tuple[str, ...]
    fighters: tuple[Spec, ...]
    source: str = ""
    path: str = ""
    ruleset: str = ID


def parse(text: str, filename: str) -> Encounter:
    """Read and check a file; EncounterError (at its line) for anything wrong."""
    doc = read_toml(text, filename)
    read = TableReader(text, filename)
    templates = [dict(t) for t in doc.get(TEMPLATE, [])] if isinstance(doc, dict) else []
    doc.pop(TEMPLATE, None)
    read.known("", 0, doc, ("ruleset", "name", "teams", "fighter"), "the encounter")
    if doc.get("ruleset", ID) != ID:
        raise read.fail("", 0, "ruleset", f"not a {ID} encounter")
    name = read.text("", 0, doc, "name", "the encounter", "Cards")
    teams = doc.get("teams")
    if not (
        isinstance(teams, list)
        and 2 <= len(teams) <= 4
        and all(isinstance(t, str) and t.strip() for t in teams)
        and len({t.lower() for t in teams}) == len(teams)
    ):
        raise read.fail("", 0, "teams", "teams must name 2..4 teams, each once")
    found = doc.get("fighter", [])
    if not isinstance(found, list) or not 1 <= len(found) <= MAX_SLOTS:
        raise read.fail("fighter", 0, None, f"there are 1..{MAX_SLOTS} [[fighter]] tables")
    specs: list[Spec] = []
    for n, data in enumerate(found):
        specs.append(_fighter(read, n, data, teams, specs))
    encounter = Encounter(name, tuple(teams), tuple(specs), str(text), filename)
    if templates:
        check_templates(
            doc, templates, text, filename, lambda t: ("fighter", "team"), parse, MAX_SLOTS,
            ("fighter",),
        )  # fmt: skip
    return encounter


def _fighter(read: TableReader, n: int, data: Any, teams: list[str], before: list[Spec]) -> Spec:
    read.known("fighter", n, data, KEYS, "a fighter")
    name = read.text("fighter", n, data, "name", "a fighter")
    if " " in name or len(name) > 12:
        raise read.fail("fighter", n, "name", "a fighter's name is one word of 12 letters at most")
    team = data.get("team")
    if team not in teams:
        raise read.fail("fighter", n, "team", f"{name}: team must be one of {', '.join(teams)}")
    label = read.text("fighter", n, data, "label", name, name[:LABEL_LEN])[:LABEL_LEN]
    for other in before:
        if other.name.lower() == name.lower() or other.label.lower() == label.lower():
            raise read.fail(
                "fighter",
                n,
                "name",
                f'{name}: its name or label {label!r} is taken (label = "..." gives another)',
            )
    dice = {}
    for key in TRAITS:
        value = whole_or_none(str(data.get(key, 6)))
        if value not in DIE:
            raise read.fail("fighter", n, key, f"{name}: {key} is a die, one of 4, 6, 8, 10, 12")
        dice[key] = value
    limits = {}
    for key in LIMITS:
        value = whole_or_none(str(data.get(key, 5)))
        if value is None or not 2 <= value <= 12:
            raise read.fail("fighter", n, key, f"{name}: {key} is a whole number 2..12")
        limits[key] = value
    group = data.get("group", "")
    if not isinstance(group, str):
        raise read.fail("fighter", n, "group", f"{name}: group is a word")
    wild = read.flag("fighter", n, data, "wild", name)
    return Spec(name, label, teams.index(team), wild, group=group.strip(), **dice, **limits)


def example_path() -> Path:
    return EXAMPLE


def read_error(err: EncounterError) -> str:
    """An encounter error without its file and line (for `add`'s one line)."""
    return str(err).split(": ", 1)[-1]
