"""Every ruleset the host can play, by id: which there are (`ids()`, and of them turnlight's
own, `built_in()`), one by its id (`get`), what each is (`described()`), and those found
that cannot be played, with why (`unavailable()`).

Rulesets are found, not listed: turnlight's own and any installed package's declare
themselves as entry points of the group `turnlight.rulesets` (pyproject.toml:
`korxsol = "host.rulesets.korxsol.ruleset:RULESET"`). Finding them reads the installed
packages' metadata only; a ruleset is imported when it is asked for or listed, so
`turnlight --help` stays fast. One that cannot be imported, or that declares the board id
of one found before it, is not played and says why in one line; the others play on.
`register` adds one more in this process (a test's ruleset).

A ruleset that declares `board_id = None` is given a free one: a found one once every found
ruleset's own is known (in the order they are found, so the same installed packages give
the same numbers), a registered one when it is registered (and `unregister` frees it). The
number is stored nowhere (journals name a ruleset by its id; the host describes its game on
every link), so it need only differ from the others' in this process:
docs/writing-a-ruleset.md, "Your board id".
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points

from host.core.interface import Ruleset

DEFAULT = "korxsol"  # an encounter file or a journal that names no ruleset is korxsol's
GROUP = "turnlight.rulesets"  # the entry-point group a ruleset declares itself in
OWN = "turnlight"  # the distribution whose rulesets are the built-in ones
# The state's ruleset field is 4 bits (shared/codec.py); 0 is the board's table before a
# host has described a game, so rulesets that describe none may share it.
BOARD_IDS = range(16)


class UnknownRuleset(ValueError):
    """str() is one line naming the rulesets there are."""


class UnavailableRuleset(UnknownRuleset):
    """A ruleset that is installed but cannot be played; str() is one line: its id and why."""


@dataclass
class _Found:
    id: str
    entry: EntryPoint
    dist: str  # the distribution that declares it
    ruleset: Ruleset | None = None
    problem: str = ""  # why it cannot be played, once it has been tried
    tried: bool = False


_found: list[_Found] | None = None
_twice: list[tuple[str, str]] = []  # (id, why) of an id a second distribution declares too
_registered: dict[str, Ruleset] = {}
_given: set[str] = set()  # the ids of the registered rulesets whose board id was given here
_lock = threading.RLock()  # the web server's threads may ask for one while it is loaded


def ids() -> list[str]:
    """The id of every ruleset: those found (turnlight's own first), then those registered.
    Nothing is imported: one that cannot be played is among them (`get` says why)."""
    found = [f.id for f in _all_found()]
    return found + [i for i in _registered if i not in found]


def built_in() -> list[str]:
    """The ids of the rulesets turnlight itself declares."""
    return [f.id for f in _all_found() if f.dist == OWN]


def get(ruleset_id: str) -> Ruleset:
    """The ruleset of that id; UnknownRuleset (one line) when there is none, and its
    UnavailableRuleset when it is installed but cannot be played."""
    if ruleset_id in _registered:
        return _registered[ruleset_id]
    for found in _loaded(ruleset_id):
        if found.id == ruleset_id and found.ruleset is not None and found.ruleset.board_id is None:
            _loaded()  # a number is given once every found ruleset's own is known
        if found.id == ruleset_id:
            if found.ruleset is None:
                raise UnavailableRuleset(f"ruleset {ruleset_id!r} {found.problem}")
            return found.ruleset
    # From a checkout never installed there are none: its entry points are not declared.
    known = ", ".join(ids()) or "none found: install turnlight, e.g. `make`"
    raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (known: {known})")


def described() -> list[tuple[str, str]]:
    """(id, one line saying what it is) for every ruleset that can be played."""
    return [(r.id, r.description) for r in _playable()]


def unavailable() -> list[tuple[str, str]]:
    """(id, why in one line) for every ruleset found that cannot be played."""
    return [(f.id, f.problem) for f in _loaded() if f.ruleset is None] + _twice


def register(ruleset: Ruleset) -> None:
    """Make a ruleset playable by its id (refused, in one line, if the id or its board id
    is another's)."""
    if not ruleset.id or not ruleset.id.isidentifier():
        raise ValueError(f"a ruleset id is one word of letters, digits and _, not {ruleset.id!r}")
    known = _registered.get(ruleset.id)
    if any(f.id == ruleset.id for f in _all_found()) or (
        known is not None and known is not ruleset
    ):
        raise ValueError(f"ruleset {ruleset.id!r} is already registered")
    if known is None:
        others = [r for r in _playable() if r is not ruleset]
        if ruleset.board_id is None:
            free = _free_ids(others)
            if not free:
                raise ValueError(
                    f"ruleset {ruleset.id!r} asks for a board id and none is free"
                    f" ({_held(others)}): unregister one"
                )
            ruleset.board_id = free[0]
            _given.add(ruleset.id)
        else:
            clash = _board_id_problem(ruleset, others, name_free=True)
            if clash:
                raise ValueError(clash)
    _registered[ruleset.id] = ruleset


def unregister(ruleset_id: str) -> None:
    """Forget a registered ruleset (a test's, when the test is over)."""
    for found in _all_found():
        if found.id == ruleset_id:
            where = "built in" if found.dist == OWN else f"installed ({found.dist})"
            raise ValueError(f"ruleset {ruleset_id!r} is {where}, not registered")
    gone = _registered.pop(ruleset_id, None)
    if gone is not None and ruleset_id in _given:
        _given.discard(ruleset_id)
        gone.board_id = None  # given, not declared: the next registration gives one again


def _all_found() -> list[_Found]:
    """Every ruleset an installed distribution declares, in the order a board id is settled
    in: turnlight's own first (the default, then by id), then the others' by distribution
    and id. An id declared again by another distribution is played from the first."""
    global _found
    with _lock:
        if _found is None:
            declared = [(ep.dist.name if ep.dist else "", ep) for ep in entry_points(group=GROUP)]
            own = sorted(
                (d for d in declared if d[0] == OWN),
                key=lambda d: (d[1].name != DEFAULT, d[1].name),
            )
            others = sorted((d for d in declared if d[0] != OWN), key=lambda d: (d[0], d[1].name))
            found: dict[str, _Found] = {}
            for dist, entry in own + others:
                first = found.get(entry.name)
                if first is None:
                    found[entry.name] = _Found(entry.name, entry, dist)
                elif first.dist != dist:
                    why = f"not loaded (declared by {first.dist} and {dist}: {first.dist}'s plays)"
                    _twice.append((entry.name, why))
            _found = list(found.values())
        return _found


def _loaded(upto: str | None = None) -> list[_Found]:
    """The found rulesets, imported in order through the one of id `upto` (all for None),
    each once: a board id goes to the first that declares it."""
    with _lock:
        found = _all_found()
        for n, one in enumerate(found):
            if not one.tried:
                _load(one, [f.ruleset for f in found[:n] if f.ruleset is not None])
            if one.id == upto:
                break
        else:
            _give_found_ids(found)
        return found


def _give_found_ids(found: list[_Found]) -> None:
    """Give each found ruleset that declares no board id the lowest free one, in the order
    found (every found ruleset is loaded: its own are all known)."""
    for one in found:
        if one.ruleset is not None and one.ruleset.board_id is None:
            held = [f.ruleset for f in found if f.ruleset is not None and f is not one]
            held += list(_registered.values())
            free = _free_ids(held)
            if free:
                one.ruleset.board_id = free[0]
            else:
                one.problem = f"not loaded (it asks for a board id and none is free: {_held(held)})"
                one.ruleset = None


def _load(found: _Found, before: list[Ruleset]) -> None:
    """Import a found ruleset and check it beside those found before it."""
    found.tried = True
    try:
        loaded = found.entry.load()
    except Exception as err:  # a package's import may fail in any way: it is reported
        found.problem = f"cannot load ({_one_line(err)})"
        return
    if not isinstance(loaded, Ruleset):
        found.problem = f"cannot load ({found.entry.value} is not a Ruleset)"
    elif loaded.id != found.id:
        found.problem = (
            f"cannot load (its entry point names it {found.id!r}, its id is {loaded.id!r})"
        )
    else:
        clash = _board_id_problem(loaded, before)
        if clash:
            found.problem = f"not loaded ({clash})"
        else:
            found.ruleset = loaded


def _playable() -> list[Ruleset]:
    """Every ruleset that can be played, the found ones loaded."""
    found = [f.ruleset for f in _loaded() if f.ruleset is not None]
    return found + list(_registered.values())


def _board_id_problem(ruleset: Ruleset, others: list[Ruleset], name_free: bool = False) -> str:
    """Why `ruleset` cannot have its board id beside `others` ("" if it can, or if it
    declares None: it is given one)."""
    board_id = ruleset.board_id
    if board_id is None:
        return ""
    if not isinstance(board_id, int) or board_id not in BOARD_IDS:
        return (
            f"ruleset {ruleset.id!r} declares board id {board_id!r}, not one of"
            f" {BOARD_IDS.start}..{BOARD_IDS.stop - 1}"
        )
    for other in others:
        if board_id and other.board_id == board_id:
            # A found ruleset is checked before those found after it are loaded: which ids
            # stay free is known only for a registered one.
            free = ", ".join(str(n) for n in _free_ids(others)) or "none"
            would = f"free: {free}; or " if name_free else ""
            return (
                f"ruleset {ruleset.id!r} declares board id {board_id},"
                f" which {other.id!r} already has ({would}declare board_id = None to be given one)"
            )
    return ""


def _free_ids(others: list[Ruleset]) -> list[int]:
    """The board ids 1..15 none of `others` holds (0 is the board's own table's)."""
    held = {r.board_id for r in others}
    return [n for n in BOARD_IDS if n and n not in held]


def _held(others: list[Ruleset]) -> str:
    """Who holds the board ids, in one short phrase: "1 korxsol, 3 forms, ..."."""
    pairs = sorted((r.board_id or 0, r.id) for r in others if r.board_id)
    return ", ".join(f"{n} {i}" for n, i in pairs)


def _one_line(err: Exception) -> str:
    said = " ".join(str(err).split())
    return f"{type(err).__name__}: {said}" if said else type(err).__name__
