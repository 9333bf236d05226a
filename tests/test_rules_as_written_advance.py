"""Advance as its text is written (issue #26, "Rules"): what an audit of
advance-late-combat-round.txt found the game doing otherwise, one test per rule, each
citing the text's line; played through the generic session with entered dice
(tests/advance_fixtures.py)."""

from __future__ import annotations

import pytest
from advance_fixtures import PASS, play, session, start_round, text, to_step, who
from demo_games import seen

from host.core.interface import EncounterError, IllegalAction

MORTHA_5 = ("stamina = 16", "stamina = 5")  # Ayla's Cleave (5) takes her exactly to 0


@pytest.mark.parametrize("option", ['boss_death_check = "at_zero"', "# (the default)"])
def test_a_boss_makes_a_death_check_once_its_stamina_hits_0(option: str) -> None:
    # advance-late-combat-round.txt:96 ("once their [Stamina] hits 0"): exactly 0 too, with
    # no Body Damage (line 70 makes Body Damage only below 0, or at 0)
    s = session(text(MORTHA_5, ('boss_death_check = "at_zero"', option)))
    start_round(s)
    lines = play(s, PASS, "attack Ayla Cleave MOR evade=no")
    assert lines[-2:] == [
        "Mortha takes 5 damage: Stamina 5 -> 0",
        "Mortha's Stamina hits 0: Mortha owes a Death check (1D6 against 0 damaged parts,"
        " a tie survives): `death MOR`",
    ]
    assert who(s, "Mortha").damaged == []
    with pytest.raises(IllegalAction, match="Mortha's Death check waits"):
        play(s, "wait Bren")
    assert play(s, "dice death 1", "death MOR")[1:] == [
        "Mortha's Death check: 1 vs 0 damaged parts",
        "Mortha lives",
    ]
    assert who(s, "Mortha").in_combat and s.game.pending is None


def test_a_boss_makes_a_death_check_only_on_body_damage_if_the_encounter_says_so() -> None:
    # advance-late-combat-round.txt:96 read as "like adventurers" (line 82: a Death check
    # for Body Damage): the encounter option boss_death_check = "body_damage"
    option = ('boss_death_check = "at_zero"', 'boss_death_check = "body_damage"')
    s = session(text(MORTHA_5, option))
    start_round(s)
    lines = play(s, PASS, "attack Ayla Cleave MOR evade=no")
    assert lines[-1] == "Mortha takes 5 damage: Stamina 5 -> 0"
    assert s.game.pending is None and who(s, "Mortha").in_combat
    with pytest.raises(EncounterError, match="boss_death_check must be at_zero or body_damage"):
        session(text(('boss_death_check = "at_zero"', 'boss_death_check = "never"')))


def test_helpless_ends_with_combat_and_willpower_becomes_1() -> None:
    # advance-late-combat-round.txt:161 ("When combat ends, they are no longer [Helpless]
    # ... [Willpower] is increased to 1"). Ayla's Cleave costs all 6 of her Willpower: the
    # blow that fells the last enemy leaves her, the last adventurer, Helpless. Both sides
    # are then without anyone standing, but the fight is over and Ayla gets up: the
    # Adventurers win (they once "nobody wins"), and the score still counts her put down.
    s = session(
        text(
            ("damage = 5\nrebound = 1", "damage = 5\nrebound = 6"),
            ('name = "Snag"\nstamina = 7', 'name = "Snag"\nstamina = 5'),
        )
    )
    start_round(s)
    play(s, PASS, "flee Bren", PASS, "flee Cyra", "wait Ayla", "next")
    play(s, PASS, "flee MOR", PASS, "flee Grub", "wait Snag")
    to_step(s, "E")
    play(s, "next")
    start_round(s)
    lines = play(s, PASS, "attack Ayla Cleave Snag evade=no")
    assert "Ayla has 0 Willpower: Helpless" in lines
    assert lines[-3:] == [
        "Snag dies",
        "the fight is over: Adventurers win",
        "Ayla is no longer Helpless: Willpower 1 as the fight ends",
    ]
    ayla = who(s, "Ayla")
    assert s.game.over == "Adventurers" and ayla.willpower == 1 and not ayla.helpless
    # The foes each side put down: Bren and Cyra fled, and Ayla, Helpless as it ended.
    teams = s.ruleset.summary(s.game)["teams"]
    assert (teams["Adventurers"]["downs"], teams["Enemies"]["downs"]) == (3, 3)
    assert list(s.ruleset.state(s.game).scores[:2]) == [3, 3]


def test_an_attack_names_one_target_and_a_word_past_it_is_refused() -> None:
    # advance-late-combat-round.txt:32 (the player "selects a target": one), and the
    # declared grammar of attack (docs/commands.md, advance's table): `attack Ayla Blade
    # Goblin Queen` once hit the Goblin and dropped "Queen" without a word.
    s = session(
        text(('name = "Longsword"', 'name = "Blade"'), ('name = "Grub"', 'name = "Goblin"'))
    )
    start_round(s)
    before = seen(s), len(s.done)
    with pytest.raises(IllegalAction) as err:
        s.execute("attack Ayla Blade Goblin Queen")
    assert str(err.value) == (
        "attack: unexpected 'Queen' (usage: attack NAME ABILITY|WEAPON TARGET"
        " [with=SUPPORT,...] [evade=yes|no] [spare])"
    )
    assert (seen(s), len(s.done)) == before
    assert play(s, PASS, "attack Ayla Blade Goblin evade=no")[1] == (
        "Ayla attacks Goblin with Blade (<Sword>)"
    )
