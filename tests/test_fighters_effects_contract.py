"""Every ruleset's fighters show each effect the host's verb put on once, with its
duration, on every screen (issue #37 item 9). d20's `fighters()` left `Fighter.effects`
empty and named the effect among its conditions ("Mark"), so the players' page and the
console showed it without its duration, and play's terminal showed it twice ("Mark;
effects: Mark 3 rounds"). The host now fills each fighter's effects from its effect book
after any ruleset's `fighters` (host/core/effects.py `fighters`): a ruleset can neither
forget them nor show them twice."""

from __future__ import annotations

from io import StringIO

import pytest
from effects_fixtures import session_of
from rich.console import Console

from host.core import effects, registry
from host.screens.play_ui import PlayUI
from host.web.hub import Hub
from host.web.sources import PlayLive

NAME = "Glimmerward"  # an effect no ruleset knows by that name


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_an_effect_shows_once_with_its_duration_on_every_screen(ruleset_id: str) -> None:
    session = session_of(ruleset_id)
    target = next(f for f in session.ruleset.fighters(session.game) if not f.out)
    session.execute(f'effect "{target.name}" {NAME} rounds=3')
    [shown] = effects.on_fighter(session.game, target.name)
    assert shown.startswith(NAME) and "round" in shown  # the book's words: its duration
    ui = PlayUI(session, Console(file=StringIO(), width=400, color_system=None), "no board")
    player, console = Hub(PlayLive(ui), "token").views_now()
    # The players' page (on a phone or a TV: one view) and the game master's console
    for view in (player, console):
        [fighter] = [f for f in view["fighters"] if f["name"] == target.name]
        assert fighter["effects"] == [shown], view
        assert not [s for s in fighter["statuses"] if NAME in s], fighter
    # play's terminal: the live table, each fighter's effects in its row's note
    roster = ui.roster().plain
    assert roster.count(NAME) == 1 and shown in roster, roster


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_the_host_fills_the_effects_whatever_a_ruleset_s_fighters_left_there(
    ruleset_id: str,
) -> None:
    session = session_of(ruleset_id)
    ruleset = session.ruleset
    target = next(f for f in ruleset.fighters(session.game) if not f.out)
    session.execute(f'effect "{target.name}" {NAME} until=end')
    wrong = ruleset.fighters

    def doubled(game):  # a ruleset that fills them itself, twice over
        found = wrong(game)
        for f in found:
            f.effects = ["left by the ruleset"] * 2
        return found

    ruleset.fighters = doubled  # type: ignore[method-assign]
    try:
        filled = {f.name: f.effects for f in effects.fighters(ruleset, session.game)}
    finally:
        del ruleset.fighters
    assert filled[target.name] == effects.on_fighter(session.game, target.name)
    assert all(shown == [] for name, shown in filled.items() if name != target.name)
