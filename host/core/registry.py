"""Every ruleset the host can play, by id: `ids()`, `get(id)` and `described()`.

The built-in rulesets are imported only when one is asked for, so `turnlight --help`
stays fast. `register` adds one more (a test's ruleset, or a game that is not built in).
"""

from __future__ import annotations

import importlib

from host.core.interface import Ruleset

DEFAULT = "korxsol"  # an encounter file or a journal that names no ruleset is korxsol's
# id -> the module whose RULESET it is
BUILT_IN = {
    "korxsol": "host.rulesets.korxsol.ruleset",
    "stones": "host.rulesets.stones.ruleset",
    "forms": "host.rulesets.forms.ruleset",
    "flare": "host.rulesets.flare.ruleset",
    "advance": "host.rulesets.advance.ruleset",
}

_registered: dict[str, Ruleset] = {}


class UnknownRuleset(ValueError):
    """str() is one line naming the rulesets there are."""


def ids() -> list[str]:
    """The ids of every ruleset: the built-in ones, then those registered."""
    return list(BUILT_IN) + [i for i in _registered if i not in BUILT_IN]


def get(ruleset_id: str) -> Ruleset:
    if ruleset_id in _registered:
        return _registered[ruleset_id]
    module = BUILT_IN.get(ruleset_id)
    if module is None:
        raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (known: {', '.join(ids())})")
    ruleset = importlib.import_module(module).RULESET
    _registered[ruleset_id] = ruleset
    return ruleset


def register(ruleset: Ruleset) -> None:
    """Make a ruleset playable by its id (refused if the id is taken by another)."""
    if not ruleset.id or not ruleset.id.isidentifier():
        raise ValueError(f"a ruleset id is one word of letters, digits and _, not {ruleset.id!r}")
    known = _registered.get(ruleset.id)
    if ruleset.id in BUILT_IN or (known is not None and known is not ruleset):
        raise ValueError(f"ruleset {ruleset.id!r} is already registered")
    _registered[ruleset.id] = ruleset


def unregister(ruleset_id: str) -> None:
    """Forget a registered ruleset (a test's, when the test is over)."""
    if ruleset_id in BUILT_IN:
        raise ValueError(f"ruleset {ruleset_id!r} is built in")
    _registered.pop(ruleset_id, None)


def described() -> list[tuple[str, str]]:
    """(id, one line saying what it is) for every ruleset."""
    return [(i, get(i).description) for i in ids()]
