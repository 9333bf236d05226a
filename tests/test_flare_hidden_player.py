"""Flare on the players' web page: a player kept from the players (`hide NAME`) is a side
of its own in a Duel, so the scores line must not name it either (issue 37, item 14)."""

from __future__ import annotations

import json

from flare_fixtures import duel, teams

from host.web.page_data import Secrets, gm_view, player_view


def _players_page(session, hidden: set[str]) -> dict:
    full = gm_view(
        session.ruleset,
        session.game,
        tuple(session.encounter.teams),
        Secrets(hidden=hidden),
        [],
        [],
        [],
        {},
    )
    return player_view(full)


def test_a_hidden_player_who_is_a_side_is_left_out_of_the_players_scores_line() -> None:
    # flare-summoning-turn.txt:83-92 (a Duel's scoring: each player is a side of its own)
    s = duel()
    assert _players_page(s, set())["scores"] == "Ann 0 · Bo 0"
    page = _players_page(s, {"Bo"})
    assert page["scores"] == "Ann 0"
    assert "Bo" not in json.dumps(page)


def test_a_hidden_player_in_team_play_leaves_its_teams_total_shown() -> None:
    # flare-summoning-turn.txt:105-114 (team play: a team is two players, named apart)
    page = _players_page(teams(), {"Bo"})
    assert page["scores"] == "Sun 0 · Moon 0"
