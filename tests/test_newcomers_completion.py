"""Completion of `add` (the encounter's templates, then `as` and the stat keys) and of
`remove` (the fighters still in the fight, then the reasons), in every game that takes
them (docs/commands.md, "Fighters who join and leave")."""

from __future__ import annotations

import pytest
from newcomer_games import JOINING, SCENES, session

from host.core.interface import IllegalAction
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


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_add_completes_the_team_s_values_and_offers_a_key_once(ruleset_id: str) -> None:
    """After the team's key (korxsol's `team=`, stones' `player=`, forms' `side=`), Tab
    offers what it takes: the teams (or players) the refusal of a wrong one names; a key
    already given is not offered again."""
    s = session(ruleset_id)
    key = SCENES[ruleset_id].teams_key
    stat_line = SCENES[ruleset_id].stat_line
    given = next(w for w in stat_line.split() if w.startswith(key + "="))
    offered = s.ruleset.complete(s.game, ["add", "Gorm", key + "="])
    assert given in offered and all(o.startswith(key + "=") for o in offered)
    wrong = stat_line.replace(given, f"{key}=Nobody")
    with pytest.raises(IllegalAction) as err:  # the refusal names the known ones
        s.execute(wrong)
    refusal = str(err.value)
    assert all(o.split("=", 1)[1].strip('"') in refusal for o in offered), refusal
    assert key + "=" not in s.ruleset.complete(s.game, ["add", "Gorm", given, ""])
