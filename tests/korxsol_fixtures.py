"""Builders for the korxsol engine tests: a small encounter written as TOML from Python
values, a session with the turn order set by hand, and dice entered face by face (a 3 is
the only success, as the encounter's success_faces say), so a test states every die."""

from __future__ import annotations

from host.core.session import Session
from host.rulesets.korxsol import encounter_schema

BASE = {
    "team": "A",
    "kor": 12,
    "power": 2,
    "resistance": 1,
    "armor": 0,
    "agility": 2,
    "actions": 2,
    "inventory": 2,
    "weight": 3,
}
SUCCESS, FAIL = 3, 1
STRIKE = {"name": "Strike", "type": "melee", "cooldown": 1, "hit": 2, "damage": 2}
FROST = {"name": "Chill", "type": "range", "cooldown": 1, "hit": 1, "frost": 2}
ASH = {"name": "Ash", "team": "A", "moves": ["Strike"]}
BO = {"name": "Bo", "team": "B", "moves": ["Strike"]}


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, str)):
        return repr(v) if isinstance(v, int) else '"' + v + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def _table(name: str, data: dict) -> str:
    return f"[[{name}]]\n" + "".join(f"{k} = {_value(v)}\n" for k, v in data.items())


def toml(fighters, moves=(), items=(), artifacts=()) -> str:
    parts = ['[encounter]\nname = "test"\nsuccess_faces = [3]\n', '[[team]]\nname = "A"\n']
    parts.append('[[team]]\nname = "B"\n')
    for f in fighters:
        data = dict(BASE)
        data.update(f)
        parts.append(_table("solighter", data))
    for kind, rows in (("move", moves), ("item", items), ("artifact", artifacts)):
        for row in rows:
            parts.append(_table(kind, row))
    return "\n".join(parts)


def session(
    fighters, moves=(), items=(), artifacts=(), order=None, seed=1, journal=None
) -> Session:
    """A started game: the order is the fighters' order unless given (order=False: not
    started, initiative not rolled). STRIKE is added to the moves when a fighter names it
    and the test did not define it."""
    fighters = [dict(f) for f in fighters]
    for f in fighters:
        f.setdefault("moves", ["Strike"] if f.get("team", "A") == "B" else [])
    if not any(m["name"] == "Strike" for m in moves):
        moves = (*moves, STRIKE)
    enc = encounter_schema.parse(toml(fighters, moves, items, artifacts), "test.toml")
    s = Session(enc, seed, journal)
    if order is False:
        return s
    names = order or [f["name"] for f in fighters]
    s.execute("order " + " ".join(names))
    return s


def enter(s: Session, purpose: str, *faces: int) -> None:
    s.execute(f"dice {purpose} " + " ".join(str(f) for f in faces))


def hits(n: int, of: int) -> list[int]:
    """Faces with exactly n successes among `of` dice."""
    return [SUCCESS] * n + [FAIL] * (of - n)


def fighter(s: Session, name: str):
    return s.game.fighter(name)


def slot(s: Session, name: str):
    return s.game.slot(s.game.fighter(name))


def duel(ash=None, bo=None, moves=(STRIKE,), **kw) -> Session:
    """Ash (team A) against Bo (team B), each with Strike unless changed; Ash acts first."""
    a = dict(ASH)
    a.update(ash or {})
    b = dict(BO)
    b.update(bo or {})
    if not any(m["name"] == "Strike" for m in moves):
        moves = (*moves, STRIKE)
    return session([a, b], moves, **kw)


def attack(s, line, hit=(), dodge=(), power=(), resist=(), armor=(), chance=()):
    """Enter the faces of each roll the line will need, then run it."""
    for purpose, faces in (
        ("hit", hit),
        ("dodge", dodge),
        ("power", power),
        ("resist", resist),
        ("armor", armor),
        ("chance", chance),
    ):
        if faces:
            enter(s, purpose, *faces)
    return s.execute(line)


def tools(n, cooldown=1):
    """n tools named Tool1..Tooln, each with that cooldown."""
    return [{"name": f"Tool{i}", "kind": "tool", "cooldown": cooldown} for i in range(1, n + 1)]
