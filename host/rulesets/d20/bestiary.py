"""d20's bestiary: the SRD 5.1's 334 monsters (data/srd51-monsters.json, read through
importlib.resources so an installed copy has them), found by name, listed by words, and
each turned into a d20 stat line written with the encounter file's keys
(encounter_schema.py), so that `from = "goblin"`, `add goblin` and `--monsters` read it
with the same code, and the same errors, as a stat line typed by hand.

What the data gives is taken: AC, HP, the Dexterity modifier (its initiative), speed,
saving throws (the ability modifier where no proficiency is listed), damage resistances,
vulnerabilities and immunities, condition immunities, attacks (bonus and damage by type),
save-based actions (DC, ability, half or nothing on a success, recharge or uses a day),
the multiattack's sequence, legendary actions with their costs, and XP. What it does not
(spells, lair actions, special traits such as Legendary Resistance, which the file does not
list) stays the game master's to type beside `from`. docs/rulesets/d20.md, "The bestiary".
"""

from __future__ import annotations

import difflib
import json
import re
from functools import cache
from importlib import resources
from typing import Any

from host.core import numbers
from host.core.encounter_files import read_toml, write_toml
from host.core.interface import IllegalAction
from host.core.names import closest, plain

DATA = "srd51-monsters.json"
ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
# The SRD 5.1's experience points by challenge rating (a CR 0 creature is worth 0 or 10).
XP_BY_CR: dict[float, int] = {
    0: 10,
    0.125: 25,
    0.25: 50,
    0.5: 100,
    1: 200,
    2: 450,
    3: 700,
    4: 1100,
    5: 1800,
    6: 2300,
    7: 2900,
    8: 3900,
    9: 5000,
    10: 5900,
    11: 7200,
    12: 8400,
    13: 10000,
    14: 11500,
    15: 13000,
    16: 15000,
    17: 18000,
    18: 20000,
    19: 22000,
    20: 25000,
    21: 33000,
    22: 41000,
    23: 50000,
    24: 62000,
    25: 75000,
    26: 90000,
    27: 105000,
    28: 120000,
    29: 135000,
    30: 155000,
}
TYPES = (
    "acid",
    "bludgeoning",
    "cold",
    "fire",
    "force",
    "lightning",
    "necrotic",
    "piercing",
    "poison",
    "psychic",
    "radiant",
    "slashing",
    "thunder",
)
# "bludgeoning, piercing, and slashing from nonmagical weapons (that aren't silvered)": the
# types, each resisted only from a weapon that is not magic (harm.py: "nonmagical TYPE").
_NONMAGICAL = re.compile(r"^(.*) from nonmagical (weapons|attacks)\b")
_COSTS = re.compile(r"\s*\(costs? \d+ actions?\)\s*$", re.IGNORECASE)


@cache
def book() -> dict[str, Any]:
    """The data file: `source`, `credit` and `monsters`."""
    text = resources.files("host.rulesets.d20").joinpath("data").joinpath(DATA).read_text("utf-8")
    return json.loads(text)


def monsters() -> list[dict[str, Any]]:
    return book()["monsters"]


def credit() -> str:
    return book()["credit"]


def norm(word: str) -> str:
    """A monster's name as it is looked up: `adult-red-dragon` is `Adult Red Dragon`."""
    return plain(re.sub(r"[-_,]", " ", word))


@cache
def _by_name() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for m in monsters():
        found.setdefault(norm(m["name"]), m)
        found.setdefault(norm(m["index"]), m)
    return found


def find(word: str) -> dict[str, Any] | None:
    """The monster named `word` (its name or index, case and dashes aside), or None."""
    return _by_name().get(norm(word))


def closest_name(word: str) -> str:
    """The monster name nearest `word`: a close misspelling, else the nearest at all."""
    names = [m["name"] for m in monsters()]
    typed = norm(word)
    # the first words of a name ("werewolf": "Werewolf, Human Form"), else a misspelling
    begun = [n for n in names if norm(n).startswith(typed + " ")]
    if typed and begun:
        return min(begun, key=len)
    near = closest(word, names, norm)
    if near is not None:
        return near[0]
    return max(names, key=lambda n: difflib.SequenceMatcher(None, typed, norm(n)).ratio())


def unknown(word: str) -> str:
    """The one line that refuses a monster not in the book, naming the closest."""
    return (
        f"no monster {word!r} in the SRD 5.1 bestiary; the closest is {closest_name(word)!r}"
        " (`turnlight bestiary WORDS` lists them)"
    )


def search(words: list[str]) -> list[dict[str, Any]]:
    """The monsters whose name, type or subtype holds every word (all of them for none)."""
    wanted = [norm(w) for w in words if norm(w)]
    out = []
    for m in monsters():
        about = norm(" ".join([m["name"], m["type"], m.get("subtype", "")]))
        if all(w in about for w in wanted):
            out.append(m)
    return out


def cr_text(cr: float) -> str:
    """A challenge rating as the book writes it: 1/8, 1/4, 1/2, 1, 2 ..."""
    return {0.125: "1/8", 0.25: "1/4", 0.5: "1/2"}.get(cr, str(int(cr)))


def xp(m: dict[str, Any]) -> int:
    """What the monster is worth: the SRD's XP for its challenge rating (the data gives a
    few others: a Dretch at CR 1/4 with 25), but a CR 0 creature's own 0 or 10."""
    return m["xp"] if m["cr"] == 0 else XP_BY_CR[m["cr"]]


def modifier(score: int) -> int:
    return (score - 10) // 2


def _types(words: list[str]) -> list[str]:
    """The data's damage types as d20 checks them: "nonmagical X" for each type resisted
    only from nonmagical weapons; a qualification no attack carries ("damage from spells")
    is left to the game master."""
    out: list[str] = []
    for word in words:
        text = word.lower()
        m = _NONMAGICAL.match(text)
        found = [t for t in TYPES if re.search(rf"\b{t}\b", m.group(1) if m else text)]
        if m:
            out += [f"nonmagical {t}" for t in found]
        elif text in TYPES:
            out.append(text)
    return list(dict.fromkeys(out))


def _parts(damage: list[list[str]]) -> tuple[str, str, list[list[str]]]:
    """(dice, type, the other [dice, type] pairs) of a data entry's damage."""
    first, *rest = damage
    return first[0], plain(first[1]), [[d, plain(t)] for d, t in rest]


def _legendary_name(name: str) -> str:
    return _COSTS.sub("", name).strip()


def stat_line(m: dict[str, Any]) -> dict[str, Any]:
    """The monster as an encounter file's [[creature]] table (without its team)."""
    mods = {a: modifier(m["abilities"][a]) for a in ABILITIES}
    line: dict[str, Any] = {
        "name": m["name"],
        "kind": "monster",
        "hp": m["hp"],
        "ac": m["ac"],
        "dex": mods["dex"],
        "initiative": mods["dex"],
        "speed": m["speed"].get("walk", max(m["speed"].values(), default=0)),
        "saves": {a: m.get("saves", {}).get(a, mods[a]) for a in ABILITIES},
        "medicine": m.get("skills", {}).get("medicine", mods["wis"]),
        "xp": xp(m),
    }
    for key in ("resist", "vulnerable", "immune"):
        types = _types(m.get(key, []))
        if types:
            line[key] = types
    if m.get("condition_immune"):
        line["condition_immune"] = [plain(c) for c in m["condition_immune"]]
    attacks, actions, sequence = [], [], []
    for a in m.get("actions", []):
        if "multiattack" in a:
            sequence = a["multiattack"]
        elif "bonus" in a and ("save" not in a or "damage" in a):  # (a rider save: the GM's)
            attack: dict[str, Any] = {"name": a["name"], "bonus": a["bonus"], "damage": "0"}
            if a.get("damage"):
                attack["damage"], attack["type"], extra = _parts(a["damage"])
                if extra:
                    attack["extra"] = extra
            attacks.append(attack)
        elif "save" in a:
            actions.append(_power(a))
    if attacks:
        line["attack"] = attacks
    if actions:
        line["action"] = actions
    usable = {plain(a["name"]) for a in attacks} | {plain(p["name"]) for p in actions}
    steps: list[str] = []
    for name, count in sequence:
        if plain(name) in usable:
            # a count the document words ("Number of Heads") is the game master's: once here
            steps += [name] * (count if numbers.is_whole(count, 1) else 1)
    if steps:
        line["multiattack"] = steps
    if m.get("legendary"):
        line["legendary"] = m["legendary"]
        line["legendary_action"] = [
            _legendary(a, {plain(x["name"]): x["name"] for x in attacks})
            for a in m.get("legendary_actions", [])
        ]
    if m.get("legendary_resistance"):
        line["legendary_resistance"] = m["legendary_resistance"]
    return line


def _power(a: dict[str, Any]) -> dict[str, Any]:
    """A save-based action (or a legendary action) as [[creature.action]]'s keys."""
    p: dict[str, Any] = {"name": a["name"]}
    if "save" in a:
        p["save"] = a["save"]["ability"]
        p["dc"] = a["save"]["dc"]
        if a["save"].get("on_success") == "half":
            p["half"] = True
    if a.get("damage"):
        p["damage"], p["type"], extra = _parts(a["damage"])
        if extra:
            p["extra"] = extra
    usage = a.get("usage", {})
    if usage.get("type") == "recharge on roll":
        p["recharge"] = usage["min_value"]
    elif usage.get("type") == "per day":
        p["uses"] = usage["times"]
    elif usage.get("type") == "recharge after rest":
        p["uses"] = 1
    return p


def _legendary(a: dict[str, Any], attacks: dict[str, str]) -> dict[str, Any]:
    """A legendary action: its cost, and the attack it makes ("Tail Attack": the Tail)."""
    name = _legendary_name(a["name"])
    p = _power({**a, "name": name})
    p.pop("recharge", None)
    p.pop("uses", None)
    if a.get("cost", 1) != 1:
        p["cost"] = a["cost"]
    made = attacks.get(plain(re.sub(r"\s+attack$", "", name, flags=re.IGNORECASE)))
    if made is not None and "save" not in a:
        p["attack"] = made
    return p


# -- a fight's monsters by name (`--monsters "4 goblin, bugbear"`) -----------------------------
def wanted(text: str, most: int) -> list[tuple[int, dict[str, Any]]]:
    """`4 goblin, bugbear, adult red dragon` as (count, monster) each, in order (one
    monster named twice counts once, its counts added); refused in one line (IllegalAction)
    for a monster not in the book or a count that is no whole number 1..`most` (a group's
    most creatures)."""
    out: dict[str, list[Any]] = {}
    parts = text.split(",")
    while parts:
        part = parts.pop(0)
        words = part.split()
        if not words:
            continue
        # a name with a comma of its own ("Vampire, Mist Form") reads on into the next part
        if parts and find(" ".join(words[1:] or words)) is None and find(part) is None:
            if find(" ".join([*words, parts[0]])) or find(" ".join([*words[1:], parts[0]])):
                words += parts.pop(0).split()
        n = 1
        if len(words) > 1 and numbers.whole_or_none(words[0]) is not None:
            n = numbers.whole(words.pop(0), "a monster's count", 1, most)
        found = find(" ".join(words))
        if found is None:
            raise IllegalAction(unknown(" ".join(words)))
        out.setdefault(found["index"], [0, found])[0] += n
    if not out:
        raise IllegalAction('--monsters names no monster: write it as "4 goblin, bugbear"')
    for n, m in out.values():
        if n > most:
            raise IllegalAction(f"{n} {m['name']}: a group holds at most {most}")
    return [(n, m) for n, m in out.values()]


def _label(name: str, n: int, taken: set[str]) -> str:
    """A board label for `name` not in `taken`: its first letters (2 for a group, whose
    creatures add their number), else its initials, else a letter and a digit."""
    size = 2 if n > 1 else 3
    letters = "".join(ch for ch in name.upper() if ch.isalnum())
    initials = "".join(w[0] for w in name.upper().split() if w[:1].isalnum())
    tries = [letters[:size], (initials + letters[1:])[:size]]
    tries += [letters[: size - 1] + ch for ch in letters[size - 1 :] + "XYZQ"]
    for label in tries:
        if len(label) == size and label not in taken:
            return label
    return next(f"M{d}" for d in "0123456789" if f"M{d}" not in taken)


def encounter_with(source: str, text: str, most: int) -> str:
    """The encounter file `source` with its monsters replaced by those `text` names (its
    first team's creatures, its options and templates kept), each a `from =` creature of
    the second team, a group when there are several."""
    found = wanted(text, most)
    doc = read_toml(source, "<encounter>")
    teams = doc.get("teams", ["Adventurers", "Monsters"])
    party = [
        c
        for c in doc.get("creature", [])
        if isinstance(c, dict) and plain(str(c.get("team", teams[0]))) == plain(teams[0])
    ]
    taken = {str(c.get("label", str(c.get("name", ""))[:3])).upper() for c in party}
    added: list[dict[str, Any]] = []
    for n, m in found:
        label = _label(m["name"], n, taken)
        taken.add(label)
        table: dict[str, Any] = {"from": m["name"], "label": label, "team": teams[1]}
        if n > 1:
            table["count"] = n
        added.append(table)
    doc["creature"] = party + added
    head = (
        "# The monsters come from the SRD 5.1 bestiary (`from`): a key written beside `from`\n"
        "# takes the place of the book's. docs/rulesets/d20.md explains every key.\n"
    )
    return head + write_toml(doc)


def xp_line(creatures: list[Any]) -> str:
    """`XP 400: Goblin x4 200, Bugbear 200`: what the creatures with XP are worth."""
    worth: dict[str, list[int]] = {}
    for c in creatures:
        if c.xp:
            key = c.name.rsplit(" ", 1)[0] if c.group >= 0 else c.name
            worth.setdefault(key, [0, 0])
            worth[key][0] += 1
            worth[key][1] += c.xp
    total = sum(x for _, x in worth.values())
    parts = [f"{name}{f' x{n}' if n > 1 else ''} {x:,}" for name, (n, x) in worth.items()]
    return f"XP {total:,}" + (": " + ", ".join(parts) if parts else " (no creature gives XP)")
