"""A name the rules do not know is refused with the names they do know, in every ruleset
(issue #28, item 3: `attack Ayla x Gru` named nothing), so the game master can type one of
them next."""

from __future__ import annotations

import pytest

from host.core import registry
from host.core.interface import IllegalAction
from host.core.session import Session


def started(ruleset_id: str, *lines: str) -> Session:
    ruleset = registry.get(ruleset_id)
    encounter = ruleset.parse_encounter(ruleset.example_path().read_text(), "example.toml")
    session = Session(encounter, 3)
    for line in [ruleset.start_command, *lines] if ruleset.start_command else lines:
        session.execute(line)
    return session


def refusal(session: Session, line: str) -> str:
    with pytest.raises(IllegalAction) as refused:
        session.execute(line)
    return str(refused.value)


def test_korxsol_names_the_moves_items_and_artifacts_a_fighter_has() -> None:
    session = started("korxsol")
    assert "Flame Slash, Rally Cry, Heavy Charge" in refusal(session, "attack Kaelen x Orrin")
    assert "(holds: Tonic)" in refusal(session, "item Kaelen x")
    assert "(has: Ember Charm)" in refusal(session, "artifact Kaelen x")
    assert "Kaelen, Vexa, Orrin, Brimm" in refusal(session, "move Nobody 1")


def test_advance_names_the_attack_abilities_and_weapons_a_fighter_has() -> None:
    session = started("advance", "next")
    said = refusal(session, "attack Ayla x Grub")
    assert said.startswith("Ayla has no attack ability or weapon named 'x' (known: ")
    assert "Cleave" in said and "Longsword" in said
    assert "(known: Rally)" in refusal(session, "attack Ayla Cleave Grub with=x")
    assert "(known: Potion)" in refusal(session, "assist Ayla x")


def test_flare_names_the_cards_in_the_player_s_hand() -> None:
    session = started("flare")
    hand = session.game.hands[session.game.current]
    said = refusal(session, "summon x at=a1")
    assert all(card in said for card in hand.creatures + hand.flares)


def test_forms_names_the_units_and_forms() -> None:
    session = started("forms")
    said = refusal(session, "form Nobody Slow")
    assert all(name in said for name in ("Ayla", "Bram", "Warden", "Shade"))
    assert "Slow, Fast, Flurry" in refusal(session, "form Bram x")


def test_stones_names_the_characters_and_abilities() -> None:
    session = started("stones")
    assert "(known: Flame Slash, Ember Ward)" in refusal(session, "ability Kaelen x")
    assert "Kaelen, Mira, Rook, Orrin, Sable, Vex" in refusal(session, "attack Kaelen x")
