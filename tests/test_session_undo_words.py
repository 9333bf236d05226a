"""The first-hour issue, item 9: undo and redo past what there is say so in words a
person reads ("nothing to redo", not "only 0 actions can be redone")."""

from __future__ import annotations

import pytest

from host.core import registry
from host.core.interface import IllegalAction
from host.core.session import Session


def _session() -> Session:
    ruleset = registry.get("korxsol")
    encounter = ruleset.parse_encounter(ruleset.example_path().read_text(), "x.toml")
    return Session(encounter, 3)


def test_redo_with_nothing_undone_says_nothing_to_redo() -> None:
    s = _session()
    with pytest.raises(IllegalAction, match=r"^nothing to redo$"):
        s.redo()


def test_undo_before_any_action_says_nothing_to_undo() -> None:
    s = _session()
    with pytest.raises(IllegalAction, match=r"^nothing to undo: no action yet$"):
        s.undo()


def test_undo_past_what_was_done_counts_the_actions() -> None:
    s = _session()
    s.execute("initiative")
    with pytest.raises(IllegalAction, match=r"^only 1 action can be undone$"):
        s.undo(2)
