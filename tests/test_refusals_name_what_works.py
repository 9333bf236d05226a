"""The first-hour issue, item 6: a refusal names what would work, not only what is wrong.
One test per refusal that said what was wrong and left the game master to guess the way
on (korxsol-players-guide.txt, CHARGE and GRAPPLE)."""

from __future__ import annotations

import pytest
from korxsol_fixtures import STRIKE, SUCCESS, attack, duel, hits

from host.rulesets.korxsol.rolls import IllegalAction

CHARGE = dict(STRIKE, name="Ram", cooldown=2, charge=True)
GRIP = {"name": "Grip", "type": "melee", "cooldown": 1, "hit": 1, "grapple": 1}
SLIP = dict(STRIKE, name="Slip Free", release=True)


def test_a_charger_using_another_move_is_told_how_to_unleash_the_charge() -> None:
    # CHARGE: the charged move is performed on the charger's next turn.
    s = duel(ash={"moves": ["Ram", "Strike"]}, moves=(CHARGE, STRIKE))
    s.execute("attack Ash Ram Bo")
    s.execute("end")
    s.execute("end")
    with pytest.raises(IllegalAction) as refused:
        s.execute("attack Ash Strike Bo")
    assert str(refused.value) == "Ash is charging Ram: unleash it first (`attack Ash Ram TARGET`)"


def test_a_grappled_fighter_is_told_which_moves_free_it_and_that_struggle_does() -> None:
    # GRAPPLE: a grappled creature acts only with something that releases, or struggles.
    s = duel(
        ash={"moves": ["Grip"]}, bo={"moves": ["Strike", "Slip Free"]}, moves=(GRIP, STRIKE, SLIP)
    )
    attack(s, "attack Ash Grip Bo", [SUCCESS], hits(0, 2), chance=(1,))
    s.execute("end")
    with pytest.raises(IllegalAction) as refused:
        s.execute("attack Bo Strike Ash")
    said = str(refused.value)
    assert "one with release: Slip Free" in said and "`struggle Bo`" in said, said


def test_words_past_a_name_say_that_a_name_of_several_words_goes_in_quotes() -> None:
    """`add Warden as Warden Two` said only "unexpected 'Two'"."""
    from host.core import registry
    from host.core.session import Session

    ruleset = registry.get("korxsol")
    s = Session(ruleset.parse_encounter(ruleset.example_path().read_text(), "x.toml"), 3)
    with pytest.raises(IllegalAction) as refused:
        s.execute("add Warden as Warden Two")
    assert 'a name of several words goes in quotes: "Warden Two"' in str(refused.value)


def test_a_pattern_that_does_not_match_says_what_its_letters_ask_for() -> None:
    """flare-summoning-turn.txt (summoning): "pattern does not match ... */x/o" left the
    letters to be guessed; the refusal spells out each letter the card's pattern uses."""
    from flare_fixtures import duel

    s = duel(("1c . . . .", ". . . . .", ". . 1c . ."))
    with pytest.raises(IllegalAction) as refused:
        s.execute("summon bent at=b2")
    said = str(refused.value)
    assert "bent's pattern does not match around b2" in said
    assert "* the marked square" in said and "\n" not in said
