"""A stones encounter: its teams, players, characters with their abilities, the Speaking
Stone deck's make-up, the statuses its keywords add, and the options where the rules text
is silent. Read from TOML by `parse`; every error is one line, `FILE:LINE: what`.

An ability's effect is its keyword text, read here into steps the engine resolves in the
order written (docs/rulesets/stones.md, "Keywords").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host.core import numbers
from host.core.encounter_files import Lines, check_templates, read_toml, take_templates
from host.core.interface import EncounterError
from host.core.newcomers import MOST_FIGHTERS
from shared.state import LABEL_CHARS

ID = "stones"
EXAMPLE = Path(__file__).parent / "encounters" / "mossy_ford.toml"
TEMPLATE = Path(__file__).parent / "encounters" / "template.toml"

DEFAULT_ELEMENTS = ("fire", "water", "earth", "air", "light", "shadow", "spirit")
DEFAULT_VALUES = (1, 2, 3, 4)
DEFAULT_CLASSES = {
    "warrior": "physical",
    "ranger": "physical",
    "rogue": "physical",
    "guardian": "physical",
    "mage": "spirit",
    "shaman": "spirit",
    "cleric": "spirit",
    "seer": "spirit",
}
DAMAGE_TYPES = ("physical", "spirit")
DECK_OUT = ("reshuffle", "stop")
CARDS = ("offensive", "defensive")
INFINITE = "*"  # a card is ELEMENT then its stars, or ELEMENT* for the infinite one


@dataclass(frozen=True)
class Status:
    name: str
    damage: int = 0  # at the end of its bearer's player's turn, no armor
    turns: int = 1  # the owner's turn ends it lasts; adding it again sets it back to this
    stun: bool = False  # its bearer cannot be activated


DEFAULT_STATUSES = (Status("Burn", 2, 2), Status("Stun", 0, 1, True))


@dataclass(frozen=True)
class Step:
    """One keyword of an ability, with its chance: `lo..hi` on a new d100 (1..100 always)."""

    kind: str  # attack, damage, heal, status, armor, spirit_armor, hand
    amount: int = 0
    status: str = ""
    lo: int = 1
    hi: int = 100

    @property
    def chance(self) -> bool:
        return (self.lo, self.hi) != (1, 100)


@dataclass(frozen=True)
class Ability:
    name: str
    card: str  # offensive or defensive
    element: str
    cost: int
    text: str
    steps: tuple[Step, ...]
    fuse: bool = False
    reach: int | None = None  # None: the character's RNG; -1: any range

    def __deepcopy__(self, memo: dict) -> Ability:
        return self  # frozen: a copied game's fuses share it

    @property
    def hostile(self) -> bool:
        """Aimed at an opposing character (else at an ally, by default its user)."""
        return any(s.kind in ("attack", "damage", "status") for s in self.steps)


@dataclass(frozen=True)
class Character:
    name: str
    label: str
    player: int
    team: int
    cls: str
    damage_type: str
    hp: int
    atk: int
    armor: int
    spirit_armor: int
    crt: int
    move: int
    rng: int
    abilities: tuple[Ability, ...]

    def armor_against(self, damage_type: str) -> int:
        return self.armor if damage_type == "physical" else self.spirit_armor


@dataclass(frozen=True)
class Player:
    name: str
    team: int


@dataclass(frozen=True)
class Encounter:
    name: str
    teams: tuple[str, ...]
    players: tuple[Player, ...]
    characters: tuple[Character, ...]
    deck: tuple[str, ...]  # the whole deck, in its printed order (shuffled per game)
    statuses: tuple[Status, ...]
    elements: tuple[str, ...]
    deck_out: str = "reshuffle"
    hand_base: int = 1
    hand_per_character: int = 2
    source: str = ""
    path: str = ""
    ruleset: str = ID
    classes: dict[str, str] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict) -> Encounter:
        return self  # frozen: a copied game (the AI's plan, the legal-action check) shares it

    def status(self, name: str) -> Status | None:
        return next((s for s in self.statuses if s.name.lower() == name.lower()), None)


def card_element(card: str) -> str:
    return card.rstrip("0123456789" + INFINITE)


def card_stars(card: str) -> int | None:
    """The card's stars, None for an infinite card."""
    tail = card[len(card_element(card)) :]
    return None if tail == INFINITE else int(tail)


def _key(name: str) -> str:
    """A name as the commands match it: lower case, letters and digits only."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


def example_path() -> Path:
    return EXAMPLE


_CLAUSE = re.compile(r"^(?:\[On (\d+)-(\d+)\]\s*)?(.*)$", re.IGNORECASE | re.ASCII)
_EFFECTS = (
    (re.compile(r"^\[Standard Attack\]$", re.I), "attack"),
    (re.compile(r"^\[Damage (\d+)\]$", re.I | re.ASCII), "damage"),
    (re.compile(r"^\[Heal (\d+)\]$", re.I | re.ASCII), "heal"),
    (re.compile(r"^\[Spirit Armor \+(\d+)\]$", re.I | re.ASCII), "spirit_armor"),
    (re.compile(r"^\[Armor \+(\d+)\]$", re.I | re.ASCII), "armor"),
    (re.compile(r"^\[Hand \+(\d+)\]$", re.I | re.ASCII), "hand"),
    (re.compile(r"^(?:adds )?\[([A-Za-z][A-Za-z ]*)\]$", re.I), "status"),
)
PASSIVE = ("armor", "spirit_armor", "hand")  # keywords that hold only while fused


def read_keywords(text: str, statuses: tuple[Status, ...]) -> tuple[bool, tuple[Step, ...]]:
    """(is it a [Fuse] ability, its steps in the order written); ValueError says what is
    wrong."""
    body = text.strip()
    fuse = False
    if body.lower().startswith("[fuse]"):
        fuse, body = True, body[len("[fuse]") :].strip().lstrip(",").strip()
    steps = []
    for clause in body.split(","):
        clause = clause.strip()
        found = _CLAUSE.match(clause)
        assert found is not None
        lo, hi = (int(found.group(1)), int(found.group(2))) if found.group(1) else (1, 100)
        if not 1 <= lo <= hi <= 100:
            raise ValueError(f"[On {lo}-{hi}] is not a range within 1-100")
        effect = found.group(3).strip()
        for pattern, kind in _EFFECTS:
            m = pattern.match(effect)
            if m is None:
                continue
            if kind == "status":
                status = next((s for s in statuses if s.name.lower() == m.group(1).lower()), None)
                if status is None:
                    known = ", ".join(s.name for s in statuses)
                    raise ValueError(f"unknown keyword {effect!r} (statuses: {known})")
                steps.append(Step(kind, 0, status.name, lo, hi))
            else:
                steps.append(Step(kind, int(m.group(1)) if m.groups() else 0, "", lo, hi))
            break
        else:
            raise ValueError(f"unknown keyword {effect or clause!r}")
    passive = [s for s in steps if s.kind in PASSIVE]
    if passive and not fuse:
        raise ValueError(
            "[Armor +N], [Spirit Armor +N] and [Hand +N] hold only in a [Fuse] ability"
        )
    if fuse and (len(passive) != len(steps) or any(s.chance for s in steps)):
        raise ValueError(
            "a [Fuse] ability is passive: only [Armor +N], [Spirit Armor +N] and [Hand +N],"
            " without [On X-Y]"
        )
    return fuse, tuple(steps)


def _int(v: object) -> bool:
    return numbers.is_whole(v)


def parse(text: str, filename: str, most: int = MOST_FIGHTERS) -> Encounter:
    """The encounter in `text`; `most`: the characters it may hold (host/core/newcomers.py)."""
    doc = read_toml(text, filename)
    templates = take_templates(doc, text, filename)
    lines = Lines(text)

    def fail(table: str, index: int, key: str | None, what: str) -> EncounterError:
        return EncounterError(f"{filename}:{lines.of(table, index, key)}: {what}")

    top = (
        "ruleset name teams deck_out hand_base hand_per_character deck classes status player"
        " character"
    ).split()
    for key in doc:
        if key not in top:
            raise fail("", 0, key, f"unknown key {key!r} (known: {', '.join(top)})")
    if doc.get("ruleset", ID) != ID:
        raise fail("", 0, "ruleset", "not a stones encounter")
    teams = doc.get("teams")
    if (
        not isinstance(teams, list)
        or len(teams) != 2
        or not all(isinstance(t, str) and t for t in teams)
        or len(set(teams)) != 2
    ):
        raise fail("", 0, "teams", "teams must name two different teams")
    deck_out = doc.get("deck_out", "reshuffle")
    if deck_out not in DECK_OUT:
        raise fail("", 0, "deck_out", f"deck_out must be one of {', '.join(DECK_OUT)}")
    hand_base = doc.get("hand_base", 1)
    per_char = doc.get("hand_per_character", 2)
    for key, value in (("hand_base", hand_base), ("hand_per_character", per_char)):
        if not numbers.is_whole(value, 0, 7):
            raise fail("", 0, key, f"{key} must be a whole number 0..7")

    deck_doc = doc.get("deck", {})
    if not isinstance(deck_doc, dict):
        raise fail("deck", 0, None, "deck must be a table")
    for key in deck_doc:
        if key not in ("elements", "values", "copies", "infinite"):
            raise fail("deck", 0, key, f"unknown deck key {key!r}")
    elements = deck_doc.get("elements", list(DEFAULT_ELEMENTS))
    if (
        not isinstance(elements, list)
        or not elements
        or not all(isinstance(e, str) and e.isalpha() and e.islower() for e in elements)
        or len(set(elements)) != len(elements)
    ):
        raise fail("deck", 0, "elements", "elements must be different lower-case words")
    values = deck_doc.get("values", list(DEFAULT_VALUES))
    if not isinstance(values, list) or not all(numbers.is_whole(v, 1, 9) for v in values):
        raise fail("deck", 0, "values", "values must be star counts 1..9")
    copies = deck_doc.get("copies", 1)
    infinite = deck_doc.get("infinite", 1)
    for key, value in (("copies", copies), ("infinite", infinite)):
        if not numbers.is_whole(value, 0, 40):
            raise fail("deck", 0, key, f"{key} must be a whole number 0..40")
    deck = tuple(
        [f"{e}{v}" for e in elements for v in values for _ in range(copies)]
        + [f"{e}{INFINITE}" for e in elements for _ in range(infinite)]
    )
    if not deck:
        raise fail("deck", 0, None, "the deck has no cards")

    classes = dict(DEFAULT_CLASSES)
    cls_doc = doc.get("classes", {})
    if not isinstance(cls_doc, dict):
        raise fail("classes", 0, None, "classes must be a table of class = damage type")
    for cls, kind in cls_doc.items():
        if kind not in DAMAGE_TYPES:
            raise fail("classes", 0, cls, f"class {cls!r}: damage type physical or spirit")
        classes[cls.lower()] = kind

    statuses = list(DEFAULT_STATUSES)
    for n, st in enumerate(doc.get("status", [])):
        name = st.get("name") if isinstance(st, dict) else None
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z][A-Za-z ]*", name):
            raise fail("status", n, "name", "a status needs a name of letters")
        if name.lower() in ("standard attack", "fuse") or name.lower().startswith(
            ("damage ", "heal ", "armor ", "hand ", "spirit armor ", "on ")
        ):
            raise fail("status", n, "name", f"status {name!r} would read as a keyword")
        for key in st:
            if key not in ("name", "damage", "turns", "stun"):
                raise fail("status", n, key, f"unknown status key {key!r}")
        damage, turns, stun = st.get("damage", 0), st.get("turns", 1), st.get("stun", False)
        if not numbers.is_whole(damage, 0, 99):
            raise fail("status", n, "damage", "damage must be 0..99")
        if not numbers.is_whole(turns, 1, 15):
            raise fail("status", n, "turns", "turns must be 1..15")
        if not isinstance(stun, bool):
            raise fail("status", n, "stun", "stun must be true or false")
        statuses = [s for s in statuses if s.name.lower() != name.lower()]
        statuses.append(Status(name, damage, turns, stun))

    players: list[Player] = []
    for n, p in enumerate(doc.get("player", [])):
        if not isinstance(p, dict):
            raise fail("player", n, None, "a player is a table")
        name = p.get("name")
        if not isinstance(name, str) or not name.strip() or p.get("team") not in teams:
            raise fail("player", n, None, "a player needs a name and one of the teams")
        if any(q.name.lower() == name.lower() for q in players):
            raise fail("player", n, "name", f"player {name!r} is named twice")
        players.append(Player(name, teams.index(p["team"])))
    chars: list[Character] = []
    tables = 0  # [[character.abilities]] tables so far: their lines are counted over the file
    for n, c in enumerate(doc.get("character", [])):

        def where(k: int, n: int = n, first: int = tables) -> tuple[str, int, str | None]:
            if ("character.abilities", first + k) in lines.tables:
                return ("character.abilities", first + k, None)
            return ("character", n, "abilities")

        if isinstance(c, dict) and isinstance(c.get("abilities"), list):
            if ("character", n, "abilities") not in lines.keys:
                tables += len(c["abilities"])
        char = _character(c, n, players, classes, statuses, elements, fail, where)
        for other in chars:
            if {_key(char.name), _key(char.label)} & {_key(other.name), _key(other.label)}:
                raise fail(
                    "character", n, "name", f"{char.name}: its name or label is {other.name}'s"
                )
        chars.append(char)
    if len(chars) > most:
        raise fail("character", most, None, f"at most {most} characters in a fight")
    for i, p in enumerate(players):
        if not any(c.player == i for c in chars):
            raise fail("player", i, None, f"player {p.name!r} controls no character")
    for t, team in enumerate(teams):
        if not any(p.team == t for p in players):
            raise fail("", 0, "teams", f"team {team!r} has no player")
    check_templates(
        doc,
        templates,
        text,
        filename,
        lambda t: ("character", "player"),
        parse,
        MOST_FIGHTERS,
        ("character",),
    )
    return Encounter(
        str(doc.get("name", "Stones")),
        tuple(teams),
        tuple(players),
        tuple(chars),
        deck,
        tuple(statuses),
        tuple(elements),
        deck_out,
        hand_base,
        per_char,
        text,
        filename,
        classes=classes,
    )


CHAR_KEYS = "name label player class hp atk armor spirit_armor crt move range abilities".split()


def _character(
    c: Any,
    n: int,
    players: list[Player],
    classes: dict[str, str],
    statuses: list[Status],
    elements: list[str],
    fail: Callable[..., EncounterError],
    where: Callable[[int], tuple[str, int, str | None]],
) -> Character:
    if not isinstance(c, dict):
        raise fail("character", n, None, "a character is a table")
    for key in c:
        if key not in CHAR_KEYS:
            raise fail("character", n, key, f"unknown character key {key!r}")
    name = c.get("name")
    if not isinstance(name, str) or not name.strip():
        raise fail("character", n, "name", "a character needs a name")
    label = c.get("label", name[:3])
    if (
        not isinstance(label, str)
        or not 1 <= len(label) <= 3
        or any(ch not in LABEL_CHARS for ch in label)
    ):
        raise fail("character", n, "label", "label: 1..3 letters, digits, - or _")
    owner = c.get("player")
    index = next((i for i, p in enumerate(players) if p.name == owner), None)
    if index is None:
        raise fail("character", n, "player", f"{name}: player {owner!r} is not in the encounter")
    cls = c.get("class")
    if not isinstance(cls, str) or cls.lower() not in classes:
        raise fail(
            "character", n, "class", f"{name}: class must be one of {', '.join(sorted(classes))}"
        )
    read: dict[str, Any] = {}
    for key, low, high, default in (
        ("hp", 1, 255, None),
        ("atk", 0, 99, None),
        ("armor", 0, 99, 0),
        ("spirit_armor", 0, 99, None),
        ("crt", 0, 100, 0),
        ("move", 0, 99, 0),
        ("range", 1, 99, 1),
    ):
        value: Any = c.get(key, default if key != "spirit_armor" else c.get("armor", 0))
        if not numbers.is_whole(value, low, high):
            raise fail("character", n, key, f"{name}: {key} must be a whole number {low}..{high}")
        read[key] = value
    abilities: list[Ability] = []
    a: Any
    for k, a in enumerate(c.get("abilities", [])):
        at = where(k)
        if not isinstance(a, dict):
            raise fail(*at, f"{name}: an ability is a table")
        for key in a:
            if key not in ("name", "card", "element", "cost", "text", "range"):
                raise fail(*at, f"{name}: unknown ability key {key!r}")
        aname = a.get("name")
        if not isinstance(aname, str) or not aname.strip():
            raise fail(*at, f"{name}: an ability needs a name")
        if any(b.name.lower() == aname.lower() for b in abilities):
            raise fail(*at, f"{name}: ability {aname!r} is named twice")
        card = a.get("card", "offensive")
        if card not in CARDS:
            raise fail(*at, f"{aname}: card must be offensive or defensive")
        element = a.get("element")
        if element not in elements:
            raise fail(*at, f"{aname}: element must be one of {', '.join(elements)}")
        cost: Any = a.get("cost")
        if not numbers.is_whole(cost, 1, 30):
            raise fail(*at, f"{aname}: cost must be 1..30 stars")
        reach: Any = a.get("range")
        if reach == "any":
            reach = -1
        elif reach is not None and (not numbers.is_whole(reach, 1, 99)):
            raise fail(*at, f'{aname}: range must be 1..99 or "any"')
        text = a.get("text")
        if not isinstance(text, str):
            raise fail(*at, f"{aname}: text must be its keywords")
        try:
            fuse, steps = read_keywords(text, tuple(statuses))
        except ValueError as err:
            raise fail(*at, f"{aname}: {err}") from None
        if fuse and card != "defensive":
            raise fail(*at, f"{aname}: a [Fuse] ability is on a defensive card")
        if not steps:
            raise fail(*at, f"{aname}: the text has no keyword")
        abilities.append(Ability(aname, card, element, cost, text, steps, fuse, reach))
    return Character(
        name,
        label,
        index,
        players[index].team,
        cls.lower(),
        classes[cls.lower()],
        read["hp"],
        read["atk"],
        read["armor"],
        read["spirit_armor"],
        read["crt"],
        read["move"],
        read["range"],
        tuple(abilities),
    )
