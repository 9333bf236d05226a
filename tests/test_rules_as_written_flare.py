"""Flare as its text is written (issue #26, "Rules"): what an audit of
flare-summoning-turn.txt found the game saying or doing otherwise, one test per rule, each
citing the text's line; played through the generic session with the test duel of
tests/flare_fixtures.py (Ann first, holding every creature card, a wyrm and a flash)."""

from __future__ import annotations

import pytest
from demo_games import seen
from flare_fixtures import duel, teams

from host.core.interface import EncounterError, IllegalAction


def refused(session, line: str, said: str) -> None:
    """`line` is refused with exactly `said`, and the game is as it was."""
    before = seen(session), len(session.done)
    with pytest.raises(IllegalAction) as err:
        session.execute(line)
    assert str(err.value) == said
    assert (seen(session), len(session.done)) == before


def test_discard_and_draw_discards_a_creature_card_and_says_so_of_a_flare_card() -> None:
    """flare-summoning-turn.txt:15 (a drawn creature card): a Flare card is refused as
    one, not as a card the player does not hold (Ann holds flash)."""
    s = duel()
    assert "flash" in s.game.hands[0].flares
    refused(s, "discard flash", "'flash' is a Flare card, not a creature or legendary card")


def test_control_passes_by_handing_over_legendary_cards_and_says_so_of_a_creature_card():
    """flare-summoning-turn.txt:105 (handing over legendary cards): a creature card is
    refused as one, not as a card the player does not hold (Ann holds stepper)."""
    s = teams()
    assert "stepper" in s.game.hands[0].creatures
    refused(s, "pass stepper", "'stepper' is a creature card, not a legendary card")


@pytest.mark.parametrize("setting", [{}, {"discard_legendary": True}])
def test_a_legendary_card_may_be_discard_and_draws_creature_card(setting: dict) -> None:
    """flare-summoning-turn.txt:15 (a creature card) and :102 (creature cards and legendary
    cards are drawn as two kinds): by default a legendary card may be discarded too."""
    s = duel(**setting)
    assert s.execute("discard wyrm")[0] == "Ann discards wyrm"


def test_only_a_creature_card_is_discarded_if_the_encounter_says_so() -> None:
    """flare-summoning-turn.txt:15 read with :102 (a legendary card is not a creature
    card): `discard_legendary = false`."""
    s = duel(discard_legendary=False)
    refused(s, "discard wyrm", "'wyrm' is a legendary card, not a creature card")
    assert s.execute("discard stepper")[0] == "Ann discards stepper"
    with pytest.raises(EncounterError, match="discard_legendary must be true or false"):
        duel(discard_legendary="no")


@pytest.mark.parametrize("setting", [{}, {"flare_timing": "before_first_action"}])
def test_a_flare_is_called_before_the_turns_first_action(setting: dict) -> None:
    """flare-summoning-turn.txt:36 ("Before any action"), read as before the turn's first
    action: the default."""
    s = duel(("2h . . . .",), **setting)
    s.execute("place e5")
    refused(s, "flare flash", "a Flare is called before any action of the turn")


def test_a_flare_is_called_before_each_action_if_the_encounter_says_so() -> None:
    """flare-summoning-turn.txt:36 read as :105 reads "Before or during any action" (each
    action): `flare_timing = "before_each_action"`, still once a turn, and only while an
    action is left for it to come before."""
    s = duel(("2h . . . .",), flare_timing="before_each_action")
    s.execute("place e5")
    assert s.execute("flare flash")[0] == "Ann calls the Flare flash (top); Bo scores 1"
    assert s.game.actions_left == 2  # flash's top half adds one; the call cost none
    refused(s, "flare", "Ann has called a Flare this turn")
    spent = duel(("2h . . . .",), flare_timing="before_each_action")
    spent.execute("place e5")
    spent.execute("place e4")
    refused(spent, "flare flash", "a Flare is called before an action, and Ann has none left")
    with pytest.raises(EncounterError, match="flare_timing must be"):
        duel(flare_timing="whenever")
