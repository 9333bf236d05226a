"""A running game as plain data and back, with no code from the file run: the body of a
persisted checkpoint (host/core/journal_checkpoints.py, docs/checkpoints.md).

`encode(game, allowed)` walks the game's object graph and returns JSON-able data;
`decode(data, allowed)` builds an equal graph again. What it takes:

- None, bool, int, float and str, as themselves;
- list, tuple, dict (keys of any kind it takes), set, frozenset, deque (and its maxlen),
  bytes, bytearray, a memoryview of a bytearray (one flat run of its bytes), and
  random.Random (its state, through getstate/setstate);
- an instance of a class whose module is `host.*`, `shared.*` or one the caller allows
  (the ruleset's `state_modules`): its `__dict__` and `__slots__` attributes, set again on
  an instance made with `object.__new__` (no `__init__` runs); an Enum member, by name;
  such a class itself.

Anything else (a function, a file, a class from elsewhere) raises Unsupported: the game
cannot be checkpointed, and its session replays instead. Decoding imports nothing: it
takes a class only from an allowed module this process has already loaded, and only one
that module defines.

Decoding builds no more than the data holds, with one bound of its own: the sets,
frozensets and dicts of keys other than strings together hold at most MAX_HASHED items.
Their keys' hashes can be chosen to collide (ints n and n + 2**61 - 1 hash alike), and
each collision costs a probe of every key before it: 40,000 such ints took 16.5 s.

Every object other than the five primitives is numbered as it is first met, and met again
as a reference, so what the game shares stays shared (two fighters holding one spec, a
memoryview and its bytearray) and cycles come back as cycles.

A node is a primitive, or a list whose first item is its tag:
  ["R", n] the n-th object again          ["L", [node...]] list
  ["T", [node...]] tuple                  ["d", {str: node}] dict with string keys
  ["D", [[key, value]...]] other dict     ["S", [node...]] set   ["F", [node...]] frozenset
  ["Q", maxlen, [node...]] deque          ["B", hex] bytes       ["A", hex] bytearray
  ["M", node, start, stop] memoryview     ["N", class, state] random.Random (or subclass)
  ["O", class, {attr: node}] instance     ["E", class, name] Enum member
  ["C", class] a class itself             ["J", json] a list or dict referred to once that
                                          holds only primitives and such (json builds it)
(class: "module:QualName")
"""

from __future__ import annotations

import ctypes
import enum
import random
import sys
from collections import deque
from collections.abc import Iterable
from typing import Any

BUILT_IN_MODULES = ("host", "shared")
MAX_HASHED = 1_024  # items of sets, frozensets and non-string-keyed dicts in one state

# Where the house move (issue #25) put the modules whose classes a checkpoint stored before
# it may name: such a checkpoint still loads, its classes found under their new paths.
MOVED_MODULES = {
    "host.advance.engine": "host.rulesets.advance.engine",
    "host.advance.model": "host.rulesets.advance.encounter_schema",
    "host.advance.ruleset": "host.rulesets.advance.ruleset",
    "host.checkpoints": "host.core.memory_checkpoints",
    "host.commandline": "host.core.commandline",
    "host.encounters": "host.core.encounter_files",
    "host.flare.cards": "host.rulesets.flare.cards",
    "host.flare.encounter": "host.rulesets.flare.encounter_schema",
    "host.flare.engine": "host.rulesets.flare.engine",
    "host.flare.ruleset": "host.rulesets.flare.ruleset",
    "host.forms.engine": "host.rulesets.forms.engine",
    "host.forms.model": "host.rulesets.forms.encounter_schema",
    "host.forms.ruleset": "host.rulesets.forms.ruleset",
    "host.journal": "host.core.journal",
    "host.korxsol.combat": "host.rulesets.korxsol.combat",
    "host.korxsol.effects": "host.rulesets.korxsol.effects",
    "host.korxsol.encounter": "host.rulesets.korxsol.encounter_schema",
    "host.korxsol.engine": "host.rulesets.korxsol.engine",
    "host.korxsol.fighter": "host.rulesets.korxsol.fighter",
    "host.korxsol.game_core": "host.rulesets.korxsol.game_core",
    "host.korxsol.grapple_and_charge": "host.rulesets.korxsol.grapple_and_charge",
    "host.korxsol.model": "host.rulesets.korxsol.model",
    "host.korxsol.odds": "host.rulesets.korxsol.exact_odds",
    "host.korxsol.rolls": "host.rulesets.korxsol.rolls",
    "host.korxsol.ruleset": "host.rulesets.korxsol.ruleset",
    "host.korxsol.scoring": "host.rulesets.korxsol.scoring",
    "host.korxsol.terrain": "host.rulesets.korxsol.terrain",
    "host.korxsol.turn_flow": "host.rulesets.korxsol.turn_flow",
    "host.korxsol.views": "host.rulesets.korxsol.views",
    "host.registry": "host.core.registry",
    "host.ruleset": "host.core.interface",
    "host.session": "host.core.session",
    "host.statefile": "host.core.plain_data",
    "host.stones.engine": "host.rulesets.stones.engine",
    "host.stones.model": "host.rulesets.stones.encounter_schema",
    "host.stones.ruleset": "host.rulesets.stones.ruleset",
    "host.stored_checkpoints": "host.core.journal_checkpoints",
    "host.textfile": "host.core.textfile",
    "host.timeline": "host.core.timeline",
    "host.web.view": "host.web.page_data",
}


class Unsupported(ValueError):
    """A value the state format does not take (encoding), or data that is not a state this
    code can build (decoding); str() is one line."""


def allowed_module(module: str, extra: Iterable[str] = ()) -> bool:
    """Whether classes of `module` may be in a state: host.*, shared.*, or `extra`."""
    for root in (*BUILT_IN_MODULES, *extra):
        if module == root or module.startswith(root + "."):
            return True
    return False


_PRIMITIVE = (str, int, float, bool, type(None))


def _offset(view: memoryview) -> tuple[Any, int, int]:
    """(the bytearray under a flat byte view, where the view starts in it, where it ends)."""
    base = view.obj
    if not isinstance(base, bytearray) or view.ndim != 1 or view.format != "B":
        raise Unsupported("a memoryview that is not a flat run of a bytearray's bytes")
    if view.nbytes == 0:
        return base, 0, 0
    if view.readonly or not view.c_contiguous:
        raise Unsupported("a read-only or strided memoryview")
    start = ctypes.addressof(ctypes.c_char.from_buffer(view)) - ctypes.addressof(
        ctypes.c_char.from_buffer(base)
    )
    return base, start, start + view.nbytes


def _class_name(cls: type, extra: Iterable[str]) -> str:
    if not allowed_module(cls.__module__, extra):
        raise Unsupported(f"a {cls.__module__}.{cls.__qualname__} (not a class the state takes)")
    if "<locals>" in cls.__qualname__:
        raise Unsupported(f"a class defined in a function ({cls.__qualname__})")
    return f"{cls.__module__}:{cls.__qualname__}"


def _slots(cls: type) -> list[str]:
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and name not in names:
                names.append(name)
    return names


def _children(value: Any) -> Iterable[Any]:
    kind = type(value)
    if kind is dict:
        return [*value.keys(), *value.values()]
    if kind in (list, tuple, set, frozenset, deque):
        return value
    if kind is memoryview:
        return (value.obj,)
    if kind in (bytes, bytearray) or isinstance(value, type | enum.Enum | random.Random):
        return ()
    found = list(getattr(value, "__dict__", {}).values())
    found += [getattr(value, k) for k in _slots(kind) if hasattr(value, k)]
    return found


def _references(root: Any) -> dict[int, int]:
    """How many times each object under `root` is referred to (the root once)."""
    counts: dict[int, int] = {}
    stack = [root]
    while stack:
        value = stack.pop()
        if type(value) in _PRIMITIVE:
            continue
        seen = counts.get(id(value))
        if seen is not None:
            counts[id(value)] = seen + 1
            continue
        counts[id(value)] = 1
        stack.extend(_children(value))
    return counts


class _Shared(Exception):
    """A list or dict taken as plain JSON turned out to be referred to twice."""


def encode(root: Any, extra_modules: Iterable[str] = ()) -> Any:
    """The object graph under `root` as JSON-able data (see the module's docstring).

    Lists and dicts of plain JSON are taken as they are (["J", ...]) when nothing else
    refers to them: first on the guess that what is plain is not shared (one walk), and
    if one turns out shared after all, again with every reference counted first."""
    try:
        return _encode(root, tuple(extra_modules), None)
    except _Shared:
        return _encode(root, tuple(extra_modules), _references(root))


def _encode(root: Any, extra: tuple[str, ...], counts: dict[int, int] | None) -> Any:
    memo: dict[int, int] = {}
    keep: list[Any] = []  # what is numbered stays alive, so no id is reused meanwhile
    claimed: dict[int, Any] = {}  # the lists and dicts inside what went out as plain JSON

    def plain(value: Any, claim: dict[int, Any]) -> bool:
        """A list or a dict of string keys holding only primitives and such lists and
        dicts, none of them met before: JSON as it is, built again by json alone. Its
        lists and dicts go into `claim`."""
        kind = type(value)
        if kind is list:
            items: Iterable[Any] = value
        elif kind is dict:
            for key in value:
                if type(key) is not str:
                    return False
            items = value.values()
        else:
            return False
        vid = id(value)
        if vid in memo or vid in claim:
            return False  # referred to from elsewhere already
        if vid in claimed or (counts is not None and counts.get(vid) != 1):
            if counts is None:
                raise _Shared
            return False
        claim[vid] = value
        for v in items:
            if type(v) in _PRIMITIVE:
                continue
            if not plain(v, claim):
                return False
        return True

    def enc(value: Any) -> Any:
        kind = type(value)
        if kind in _PRIMITIVE:
            return value
        known = memo.get(id(value))
        if known is not None:
            return ["R", known]
        if id(value) in claimed:
            raise _Shared  # it went out as plain JSON, and is referred to again
        if kind is list or kind is dict:
            claim: dict[int, Any] = {}
            if plain(value, claim):
                claimed.update(claim)
                return ["J", value]  # not numbered: nothing else refers to it
        memo[id(value)] = len(keep)
        keep.append(value)
        if kind is list:
            return ["L", [v if type(v) in _PRIMITIVE else enc(v) for v in value]]
        if kind is dict:
            if all(type(k) is str for k in value):
                return ["d", {k: v if type(v) in _PRIMITIVE else enc(v) for k, v in value.items()}]
            return ["D", [[enc(k), enc(v)] for k, v in value.items()]]
        if kind is tuple:
            return ["T", [enc(v) for v in value]]
        if kind is set or kind is frozenset:
            return ["S" if kind is set else "F", [enc(v) for v in value]]
        if kind is deque:
            return ["Q", value.maxlen, [enc(v) for v in value]]
        if kind is bytes:
            return ["B", value.hex()]
        if kind is bytearray:
            return ["A", value.hex()]
        if kind is memoryview:
            base, start, stop = _offset(value)
            return ["M", enc(base), start, stop]
        if isinstance(value, type):
            return ["C", _class_name(value, extra)]
        if kind is random.Random:
            version, internal, gauss = value.getstate()
            return ["N", _RANDOM, [version, list(internal), gauss]]
        name = _class_name(kind, extra)
        if isinstance(value, enum.Enum):
            return ["E", name, value.name]
        if isinstance(value, random.Random):
            version, internal, gauss = value.getstate()
            state: Any = [version, list(internal), gauss]
            return ["N", name, state]
        if kind.__module__ == "builtins" or not hasattr(kind, "__mro__"):
            raise Unsupported(f"a {kind.__name__}")
        attrs: dict[str, Any] = {}
        for key, v in getattr(value, "__dict__", {}).items():
            attrs[key] = v if type(v) in _PRIMITIVE else enc(v)
        for key in _slots(kind):
            if hasattr(value, key):
                v = getattr(value, key)
                attrs[key] = v if type(v) in _PRIMITIVE else enc(v)
        return ["O", name, attrs]

    return enc(root)


_RANDOM = "random:Random"  # the one class from outside host and shared it takes by name


def find_class(name: Any, extra_modules: Iterable[str] = ()) -> type:
    """The class "module:QualName" names, if its module is allowed and defines it."""
    if name == _RANDOM:
        return random.Random
    if not isinstance(name, str) or ":" not in name:
        raise Unsupported(f"not a class name: {name!r}")
    module, qualname = name.split(":", 1)
    module = MOVED_MODULES.get(module, module)
    if not allowed_module(module, extra_modules):
        raise Unsupported(f"class {name} is from a module the state does not take")
    # Only a module this process has already imported (the ruleset's, by the time a game
    # is loaded), and only what it defines: a file never makes a module import, or a
    # module's __getattr__ run.
    found: Any = sys.modules.get(module)
    for part in qualname.split("."):
        found = vars(found).get(part) if found is not None and hasattr(found, "__dict__") else None
    if found is None:
        raise Unsupported(f"class {name} is not there (its module is not loaded)")
    if not isinstance(found, type) or found.__module__ != module:
        raise Unsupported(f"{name} is not a class that module defines")
    return found


def decode(
    data: Any, extra_modules: Iterable[str] = (), shapes: dict[type, set[str]] | None = None
) -> Any:
    """The object graph `encode` made `data` of. Raises Unsupported for data it cannot
    have made (a damaged or foreign state), never runs code from it. `shapes`, if given,
    gets each class built and the attributes its instances were given."""
    extra = tuple(extra_modules)
    met: dict[type, set[str]] = shapes if shapes is not None else {}
    objects: list[Any] = []
    classes: dict[str, type] = {}
    hashed = [0]  # items of sets, frozensets and non-string-keyed dicts so far

    def hashing(items: Any) -> Any:
        hashed[0] += len(items)
        if hashed[0] > MAX_HASHED:
            raise Unsupported(
                f"more than {MAX_HASHED:,} items in sets and dicts of keys other than strings"
            )
        return items

    def cls_of(name: Any) -> type:
        found = classes.get(name)
        if found is None:
            found = classes[name] = find_class(name, extra)
        return found

    def dec(node: Any) -> Any:
        if type(node) in _PRIMITIVE:
            return node
        if type(node) is not list or not node or type(node[0]) is not str:
            raise Unsupported(f"not a state node: {str(node)[:40]}")
        tag = node[0]
        if tag == "R":
            ref = node[1]
            if type(ref) is not int or not 0 <= ref < len(objects) or objects[ref] is None:
                # None: an immutable still being built (a cycle through a tuple, which
                # encode never writes) or a reference to nothing
                raise Unsupported(f"a reference to no object made yet: {ref!r}")
            return objects[ref]
        if tag == "J":
            return node[1]
        at = len(objects)
        if tag == "L":
            out: Any = []
            objects.append(out)
            out.extend(v if type(v) in _PRIMITIVE else dec(v) for v in node[1])
            return out
        if tag == "d":
            out = {}
            objects.append(out)
            for k, v in node[1].items():
                out[k] = v if type(v) in _PRIMITIVE else dec(v)
            return out
        if tag == "D":
            out = {}
            objects.append(out)
            for k, v in hashing(node[1]):
                out[dec(k)] = dec(v)
            return out
        if tag == "S":
            out = set()
            objects.append(out)
            out.update(dec(v) for v in hashing(node[1]))
            return out
        if tag == "Q":
            out = deque(maxlen=node[1])
            objects.append(out)
            out.extend(dec(v) for v in node[2])
            return out
        if tag == "A":
            out = bytearray.fromhex(node[1])
            objects.append(out)
            return out
        if tag == "O":
            cls = cls_of(node[1])
            out = object.__new__(cls)
            objects.append(out)
            slots = set(_slots(cls))
            met.setdefault(cls, set()).update(node[2])
            for key, v in node[2].items():
                value = v if type(v) in _PRIMITIVE else dec(v)
                if key in slots or not hasattr(out, "__dict__"):
                    object.__setattr__(out, key, value)
                else:
                    out.__dict__[key] = value
            return out
        # Immutable ones: numbered before their parts, as encode met them, and filled after.
        objects.append(None)
        if tag == "T":
            out = tuple(dec(v) for v in node[1])
        elif tag == "F":
            out = frozenset(dec(v) for v in hashing(node[1]))
        elif tag == "B":
            out = bytes.fromhex(node[1])
        elif tag == "M":
            base = dec(node[1])
            if not isinstance(base, bytearray):
                raise Unsupported("a memoryview of something other than a bytearray")
            out = memoryview(base)[node[2] : node[3]]
        elif tag == "C":
            out = cls_of(node[1])
        elif tag == "E":
            cls = cls_of(node[1])
            if not issubclass(cls, enum.Enum):
                raise Unsupported(f"{node[1]} is not an Enum")
            out = cls[node[2]]
        elif tag == "N":
            cls = cls_of(node[1])
            if not issubclass(cls, random.Random):
                raise Unsupported(f"{node[1]} is not a random.Random")
            out = cls.__new__(cls)
            random.Random.__init__(out)
            version, internal, gauss = node[2]
            out.setstate((version, tuple(internal), gauss))
        else:
            raise Unsupported(f"unknown state tag {tag!r}")
        objects[at] = out
        return out

    try:
        return dec(data)
    except Unsupported:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError) as err:
        raise Unsupported(f"the state does not build ({type(err).__name__}: {err})") from None


def shapes(root: Any) -> dict[type, frozenset[str]]:
    """Each class met under `root` (instances of host/shared/allowed classes and others)
    and the attribute names its instances have: two graphs built by different code show
    it here (an attribute added to a class since a checkpoint was written)."""
    found: dict[type, set[str]] = {}
    seen: set[int] = set()
    stack = [root]
    while stack:
        value = stack.pop()
        if type(value) in _PRIMITIVE or id(value) in seen:
            continue
        seen.add(id(value))
        kind = type(value)
        if kind is dict:
            stack.extend(value.keys())
            stack.extend(value.values())
        elif kind in (list, tuple, set, frozenset, deque):
            stack.extend(value)
        elif hasattr(value, "__dict__") and not isinstance(value, type | enum.Enum):
            if kind.__module__ == "builtins":
                continue
            names = found.setdefault(kind, set())
            names.update(vars(value))
            names.update(k for k in _slots(kind) if hasattr(value, k))
            stack.extend(vars(value).values())
        elif hasattr(kind, "__slots__") and kind.__module__ != "builtins":
            names = found.setdefault(kind, set())
            for k in _slots(kind):
                if hasattr(value, k):
                    names.add(k)
                    stack.append(getattr(value, k))
    return {k: frozenset(v) for k, v in found.items()}
