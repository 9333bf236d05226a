"""Whether a game read back from a stored checkpoint is one its ruleset could have made:
the types of its objects' attributes, and the ranges its ruleset declares (issue #27, 3.5).

The digest of a checkpoint is not keyed: whoever can write the journal can store a game
whose digest checks, with a fighter's spec swapped for another object (a traceback later)
or armor "lots" (a game no event makes). host/core/journal_checkpoints.py refuses a game
that does not fit, and the session replays it from the journal instead. Two checks:

- kinds, for every ruleset and nothing to declare: each attribute of an object whose class
  a new game of the same encounter holds has the kind of value it has there (a whole
  number or a truth value, a number with a fraction, text, bytes, a sequence, a dict, a
  set, or an object of the same class). An attribute that is None in the new game holds
  what its class's annotation says (`x: Move | None`), or anything where there is none,
  unless declared.
- declarations: a ruleset's `StateSchema` (`Ruleset.state_schema`, by default the SCHEMA
  of the module `state_schema` beside the ruleset's own: host/rulesets/<id>/state_schema.py)
  names, for (class, attribute), the types it may hold and, for whole numbers, the least
  and greatest; and may add a check across attributes (`relations`).

A value within what the rules can reach cannot be told from a real one: a game master's
`adjust` can give any SOL, so SOL 999 fits; SOL -1 does not.
"""

from __future__ import annotations

import enum
import functools
import importlib
import types
import typing
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Field:
    """What one attribute may hold: values of `types` (empty: the kind a new game gives it;
    None among them allows None), whole numbers from `low` to `high` (None: no bound), and
    with `each`, the bounds hold for every item of a list, tuple or deque, or value of a
    dict, instead of the value itself; a text one of `one_of`."""

    types: tuple[type | None, ...] = ()
    low: int | None = None
    high: int | None = None
    each: bool = False
    one_of: tuple[str, ...] = ()  # the words a text may be (empty: any)


@dataclass(frozen=True)
class StateSchema:
    """A ruleset's declarations: {class: {attribute: Field}}, and a check across attributes
    that returns what is wrong in one line (None: nothing)."""

    fields: dict[type, dict[str, Field]] = field(default_factory=dict)
    relations: Callable[[Any], str | None] | None = None


def each_at_its_index(attribute: str) -> Callable[[Any], str | None]:
    """A relation: each item of the game's list `attribute` has `index` its place in it."""

    def check(game: Any) -> str | None:
        for n, item in enumerate(getattr(game, attribute)):
            if item.index != n:
                return f"{attribute} {n} calls itself {attribute} {item.index}"
        return None

    return check


def fight_relations(
    fighter: Callable[[Any], str | None] = lambda f: None,
) -> Callable[[Any], str | None]:
    """A creature fight's relations (host/core/kit.py `Fight`: d20's, pf2's): each fighter
    at its own place, none over its stat line's hit points or what `fighter(f)` refuses,
    and the turn at a place of the initiative order."""

    def check(game: Any) -> str | None:
        found = each_at_its_index("fighters")(game)
        if found:
            return found
        for f in game.fighters:
            if f.hp > f.spec.hp:
                return f"{f.name} has {f.hp} HP, over its maximum {f.spec.hp}"
            found = fighter(f)
            if found:
                return found
        if game.order and not 0 <= game.at < len(game.order):
            return f"the turn is at place {game.at} of an order of {len(game.order)}"
        return None

    return check


# What a creature fight's game (host/core/kit.py `Fight`) may hold: its round and place in
# the order, its count of actions, its winner.
FIGHT = {
    "round": Field((int,), low=0),
    "at": Field((int,), low=0),
    "actions": Field((int,), low=0),
    "over": Field((str, None)),
}


def schema_of(ruleset: object) -> StateSchema:
    """The SCHEMA of the `state_schema` module beside the ruleset's class, or an empty one
    (a ruleset with nothing to declare: the kinds are still checked)."""
    package = type(ruleset).__module__.rpartition(".")[0]
    if not package:
        return StateSchema()
    name = f"{package}.state_schema"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name != name:
            raise
        return StateSchema()
    schema = getattr(module, "SCHEMA", None)
    if not isinstance(schema, StateSchema):
        raise TypeError(f"{name}.SCHEMA is not a StateSchema")
    return schema


def _kind(value: Any) -> Any:
    """What kind of value this is, as the check compares it: None for None."""
    kind = type(value)
    if value is None:
        return None
    if kind is int or kind is bool:
        return "a whole number"
    if kind is float:
        return "a number with a fraction"
    if kind is str:
        return "text"
    if kind in (bytes, bytearray, memoryview):
        return "bytes"
    if kind in (list, tuple, deque):
        return "a sequence"
    if kind is dict:
        return "a dict"
    if kind in (set, frozenset):
        return "a set"
    return kind


def _said(kind: Any) -> str:
    if kind is None:
        return "None"
    if isinstance(kind, str):
        return kind
    return f"a {kind.__name__}"


def _attributes(value: Any) -> dict[str, Any] | None:
    """An object's attributes, if it is one whose attributes are checked (not a container,
    a class, an Enum member or a built-in value)."""
    kind = type(value)
    if kind.__module__ == "builtins" or isinstance(value, type | enum.Enum):
        return None
    found = dict(getattr(value, "__dict__", {}))
    for klass in kind.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and hasattr(value, name):
                found[name] = getattr(value, name)
    return found


_ATOMS = frozenset((str, int, float, bool, type(None)))  # values with nothing under them
_SEQUENCES = frozenset((list, tuple, deque, set, frozenset))


def kinds(root: Any) -> dict[type, dict[str, set[Any]]]:
    """For each class of object under `root`, each attribute's kinds of value."""
    found: dict[type, dict[str, set[Any]]] = {}
    for value, attributes in _objects(root):
        per = found.setdefault(type(value), {})
        for name, item in attributes.items():
            per.setdefault(name, set()).add(_kind(item))
    return found


def _objects(root: Any) -> list[tuple[Any, dict[str, Any]]]:
    """Every object under `root` whose attributes are checked, once, with its attributes
    (no recursion: a state may nest deep). A resume checks the game a checkpoint holds,
    thousands of objects: each is looked at once."""
    seen: set[int] = set()
    out: list[tuple[Any, dict[str, Any]]] = []
    stack = [root]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind in _ATOMS or id(value) in seen:
            continue
        seen.add(id(value))
        if kind is dict:
            stack.extend(value.keys())
            stack.extend(value.values())
        elif kind in _SEQUENCES:
            stack.extend(value)
        else:
            attributes = _attributes(value)
            if attributes is not None:
                out.append((value, attributes))
                stack.extend(attributes.values())
    return out


def problem(game: Any, fresh: Any, schema: StateSchema) -> str | None:
    """What in `game` no game of this ruleset holds, in one line (None: it fits), judged by
    a new game of the same encounter (`fresh`) and the ruleset's `schema`."""
    expected = kinds(fresh)
    for value, attributes in _objects(game):
        cls = type(value)
        declared = schema.fields.get(cls, {})
        usual = expected.get(cls, {})
        for name, item in attributes.items():
            rule = declared.get(name)
            seen = usual.get(name)
            if rule is None and seen is not None and None in seen:
                annotated = _annotated(cls, name)  # None in a new game: what may it hold?
                rule = Field(annotated) if annotated else None
            wrong = _wrong(item, rule, seen)
            if wrong:
                return f"a {cls.__name__}'s {name} is {wrong}"
    if schema.relations is not None:
        return schema.relations(game)
    return None


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - an annotation that does not resolve says nothing
        return {}


def _annotated(cls: type, name: str) -> tuple[type | None, ...]:
    """The types the class's annotation of `name` allows (None among them for None);
    () when it has none, or one the check cannot use (Any, a type variable)."""
    hint = _hints(cls).get(name)
    found: list[type | None] = []
    for part in typing.get_args(hint) if _is_union(hint) else (hint,):
        origin = typing.get_origin(part) or part
        if part is type(None):
            found.append(None)
        elif isinstance(origin, type):
            found.append(origin)
        else:
            return ()
    return tuple(found)


def _is_union(hint: Any) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType)


def _wrong(value: Any, rule: Field | None, usual: set[Any] | None) -> str | None:
    """Why `value` does not fit (None: it does)."""
    kind = _kind(value)
    if rule is not None and rule.types:
        if not any(
            (t is None and value is None) or (t is not None and isinstance(value, t))
            for t in rule.types
        ):
            allowed = " or ".join("None" if t is None else t.__name__ for t in rule.types)
            return f"{_said(kind)}, not {allowed}"
    elif usual is not None and None not in usual and kind not in usual:
        return f"{_said(kind)}, not {' or '.join(sorted(map(_said, usual)))} as in a new game"
    if rule is not None and rule.one_of and value not in rule.one_of:
        return f"{str(value)[:40]!r}, not one of {', '.join(rule.one_of)}"
    if rule is None or (rule.low is None and rule.high is None):
        return None
    items = value if not rule.each else (value.values() if type(value) is dict else value)
    for number in [items] if not rule.each else list(items):
        if type(number) is not int:
            return f"{_said(_kind(number))}, not a whole number"
        if (rule.low is not None and number < rule.low) or (
            rule.high is not None and number > rule.high
        ):
            low = "" if rule.low is None else f"{rule.low:,}"
            high = "" if rule.high is None else f"{rule.high:,}"
            return f"{number:,}, outside {low}..{high}"
    return None
