"""Stones: a player whose last character leaves the fight (`remove`) during its own turn
(issue 37, item 12)."""

from __future__ import annotations

from newcomer_games import session


def test_a_player_eliminated_in_its_own_turn_passes_the_turn_at_once() -> None:
    # speaking-stones-turn-order.txt:64, 66 (turns alternate between teams; an eliminated
    # player takes no more turns): nobody is left to end Ann's turn, so it passes.
    s = session("stones")
    g = s.game
    assert g.player_name == "Ann"
    lines = s.execute("remove Kaelen fled") + s.execute("remove Mira fled")
    assert lines[-3:-1] == [
        "Ann is eliminated: the hand goes to the discard pile",
        "Ann has no character left: the turn passes",
    ]
    assert lines[-1].startswith("Bo's turn (Dusk): draws ")
    assert g.player_name == "Bo" and g.turns == 1 and g.played == [0]
