"""Completion of `add` (the encounter's templates, then `as` and the stat keys) and of
`remove` (the fighters still in the fight, then the reasons), in every game that takes
them (docs/commands.md, "Fighters who join and leave")."""

from __future__ import annotations

import pytest
from newcomer_games import JOINING, SCENES, session

from host.core.newcomers import REASONS


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_add_completes_templates_then_stat_keys(ruleset_id: str) -> None:
    s = session(ruleset_id)
    assert SCENES[ruleset_id].template in s.ruleset.complete(s.game, ["add", ""])
    third = s.ruleset.complete(s.game, ["add", "Gorm", ""])
    assert "as" in third and f"{SCENES[ruleset_id].teams_key}=" in third
    assert f"{SCENES[ruleset_id].teams_key}=" in s.ruleset.complete(s.game, ["add", "G", "x=1", ""])


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_remove_completes_the_fighters_still_in_the_fight(ruleset_id: str) -> None:
    s = session(ruleset_id)
    leaver = SCENES[ruleset_id].leaver
    assert leaver in s.ruleset.complete(s.game, ["remove", ""])
    s.execute(f"remove {leaver}")
    offered = s.ruleset.complete(s.game, ["remove", ""])
    assert leaver not in offered and offered
    assert s.ruleset.complete(s.game, ["remove", offered[0], ""]) == list(REASONS)
