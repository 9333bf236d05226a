"""Advance's damage, Body Damage, Death checks, Evasion, Helpless and the Boss
(advance-late-combat-round.txt), one test per rule, through the generic session with
entered dice (tests/advance_fixtures.py)."""

from __future__ import annotations

import pytest
from advance_fixtures import FAIL, PASS, play, session, start_round, text, to_step, who

from host.core.interface import IllegalAction

# Mortha's Grave Curse costs all 8 of her Willpower, or 5 of it.
CURSE_8 = ("damage = 6\nrebound = 2", "damage = 6\nrebound = 8")
CURSE_5 = ("damage = 6\nrebound = 2", "damage = 6\nrebound = 5")
AYLA_1 = ("stamina = 14", "stamina = 1")  # Ayla's Stamina: her next hit is Body Damage
MORTHA_1 = ("stamina = 16", "stamina = 1")


def enemy_turn(*changes: tuple[str, str], late: tuple[str, ...] = ()):
    """A session at step C of round 1."""
    s = session(text(*changes))
    start_round(s, late)
    to_step(s, "C")
    return s


def test_damage_comes_off_stamina_and_past_0_it_is_body_damage() -> None:
    # advance-late-combat-round.txt:70
    s = enemy_turn(("stamina = 14", "stamina = 5"))
    lines = play(s, PASS, "attack MOR Rend Ayla evade=no")  # 5 damage: exactly to 0
    assert "Ayla takes 5 damage: Stamina 5 -> 0" in lines
    assert not any(line.startswith("Body Damage") for line in lines)
    assert s.game.pending is None
    lines = play(s, PASS, "dice d6 4", "attack Grub Spear Ayla evade=no")  # at 0: Body Damage
    assert "Body Damage: Ayla's Torso (1 damaged)" in lines
    s = enemy_turn(("stamina = 14", "stamina = 4"))
    lines = play(s, PASS, "dice d6 2", "attack MOR Rend Ayla evade=no")  # past 0
    assert "Body Damage: Ayla's Right Arm (1 damaged)" in lines and who(s, "Ayla").stamina == 0


def test_the_body_part_chart_picks_the_part_and_a_damaged_part_is_rerolled() -> None:
    # advance-late-combat-round.txt:72
    s = enemy_turn(AYLA_1)
    play(s, PASS, "dice d6 2", "attack Grub Spear Ayla evade=no", "dice death 6", "death Ayla")
    lines = play(s, PASS, "dice d6 2", "dice d6 4", "attack Snag 'Hand Axe' Ayla evade=no")
    assert "Body Damage: Ayla's Torso (2 damaged)" in lines
    assert who(s, "Ayla").damaged == ["Right Arm", "Torso"]
    assert [r[0] for r in s.done[-1].rolls] == ["check", "d6", "d6"]  # the re-roll is journalled


def test_a_damaged_part_cannot_be_used_for_checks_and_locks_the_8_abilities_around_it() -> None:
    # advance-late-combat-round.txt:76 (the 8 squares around it, gaps not counted)
    s = enemy_turn(AYLA_1)
    game = s.game
    assert game.distance(who(s, "Ayla"), "Right Arm") == 0
    lines = play(s, PASS, "dice d6 2", "attack Grub Spear Ayla evade=no", "dice death 6")
    assert "locked: Cleave" in lines  # Cleave is next to the Right Arm; Rally is not
    play(s, "death Ayla")
    # Her <Right Arm> Specialty is gone: the nearest she has is <Sword>, 3 spaces away.
    assert game.distance(who(s, "Ayla"), "Right Arm") == 3
    play(s, "next", "next", "next")
    start_round(s)
    with pytest.raises(IllegalAction, match="Ayla's Cleave is locked: it is next to the damaged"):
        play(s, "attack Ayla Cleave MOR")
    assert "Hit check: 11 vs 5: hit" in play(
        s, PASS, "attack Ayla Longsword MOR with=Rally evade=no"
    )
    # Across a gap: Mortha's Left Arm (column 3) locks Dread and Grave Curse past the gap.
    m = session(text(MORTHA_1))
    start_round(m)
    play(m, PASS, "dice d6 3", "attack Ayla Cleave MOR evade=no")
    assert m.game.locked(who(m, "Mortha")) == {
        "grave curse": "Left Arm",
        "dread": "Left Arm",
        "torso": "Left Arm",
        "left leg": "Left Arm",
    }


def test_a_death_check_above_the_damaged_parts_lives_and_below_dies() -> None:
    # advance-late-combat-round.txt:82
    s = enemy_turn(AYLA_1)
    play(s, PASS, "dice d6 2", "attack Grub Spear Ayla evade=no")
    assert play(s, "dice death 2", "death Ayla")[1:] == [
        "Ayla's Death check: 2 vs 1 damaged parts",
        "Ayla lives",
    ]
    play(s, PASS, "dice d6 4", "attack Snag 'Hand Axe' Ayla evade=no")
    lines = play(s, "dice death 1", "death Ayla")
    assert lines[1] == "Ayla's Death check: 1 vs 2 damaged parts"
    assert play(s, "spend Ayla 0")[-1] == "Ayla dies"
    assert who(s, "Ayla").status == "dead"


TIE_LIVES = 'Ayla lives: a tie survives (death_tie = "survive", this encounter\'s reading)'


@pytest.mark.parametrize("tie, said", [("survive", TIE_LIVES), ("die", "Ayla dies")])
def test_a_death_check_equal_to_the_damaged_parts_follows_the_death_tie_option(tie, said):
    # advance-late-combat-round.txt:82 (the text says neither: an option, "survive" by default)
    s = enemy_turn(AYLA_1, ('death_tie = "survive"', f'death_tie = "{tie}"'))
    play(s, PASS, "dice d6 2", "attack Grub Spear Ayla evade=no", "dice death 1")
    lines = play(s, "death Ayla")
    if tie == "die":  # one Willpower would still save her; she keeps it
        assert lines[-1] == "1 Willpower saves Ayla: `spend Ayl 1` (0 to die)"
        lines = play(s, "spend Ayla 0")
    assert lines[-1] == said


def test_breaking_an_equipped_weapon_before_the_roll_cancels_the_death_check() -> None:
    # advance-late-combat-round.txt:86
    s = enemy_turn(AYLA_1)
    play(s, PASS, "dice d6 2", "attack Grub Spear Ayla evade=no")
    with pytest.raises(IllegalAction, match="Ayla has no equipped weapon named 'Potion'"):
        play(s, "break Ayla Potion")
    assert play(s, "break Ayla Longsword") == [
        "Ayla's Longsword breaks: the Death check is cancelled"
    ]
    assert s.game.pending is None and "Longsword" not in who(s, "Ayla").owned
    play(s, PASS, "dice d6 4", "attack Snag 'Hand Axe' Ayla evade=no", "dice death 1")
    play(s, "death Ayla")
    with pytest.raises(IllegalAction, match="before the Death check is rolled, not after"):
        play(s, "break Ayla Longsword")


def test_willpower_spent_after_the_roll_raises_the_death_check_one_for_one() -> None:
    # advance-late-combat-round.txt:90
    s = enemy_turn(AYLA_1)
    play(s, PASS, "dice d6 2", "attack Grub Spear Ayla evade=no", "dice death 5", "death Ayla")
    play(s, PASS, "dice d6 4", "attack Snag 'Hand Axe' Ayla evade=no", "dice death 1")
    assert play(s, "death Ayla")[-1] == "1 Willpower saves Ayla: `spend Ayl 1` (0 to die)"
    with pytest.raises(IllegalAction, match="Ayla has 6 Willpower, not 9"):
        play(s, "spend Ayla 9")
    assert play(s, "spend Ayla 1") == ["Ayla spends 1 Willpower: 1 + 1 = 2", TIE_LIVES]
    assert who(s, "Ayla").willpower == 5


def test_a_boss_in_full_power_spends_no_willpower_on_its_death_check() -> None:
    # advance-late-combat-round.txt:92, :113
    s = enemy_turn(CURSE_5, ("stamina = 16", "stamina = 2"), late=("Ayla",))
    play(s, PASS, "attack MOR 'Grave Curse' Cyra evade=no", "fullpower MOR", "next")
    play(s, PASS, "dice d6 1", "attack Ayla Cleave MOR evade=no", "dice death 6", "death MOR")
    play(s, "next", "next")
    start_round(s)
    play(s, PASS, "dice d6 2", "attack Bren 'Aimed Shot' MOR evade=no", "dice death 1")
    assert play(s, "death MOR")[-2:] == [
        "in Full Power a Boss spends no Willpower on it",
        "Mortha dies",
    ]


def test_a_boss_makes_death_checks_at_0_stamina() -> None:
    # advance-late-combat-round.txt:96
    s = session(text(MORTHA_1))
    start_round(s)
    lines = play(s, PASS, "dice d6 1", "attack Ayla Cleave MOR evade=no")
    assert lines[-1] == (
        "Mortha owes a Death check (1D6 against 1 damaged parts, a tie survives): `death MOR`"
    )
    assert who(s, "Mortha").in_combat


def test_other_enemies_die_at_0_stamina_or_are_left_helpless_if_the_gm_says() -> None:
    # advance-late-combat-round.txt:98
    s = session()
    start_round(s)
    play(s, PASS, "attack Ayla Cleave Grub evade=no")
    assert play(s, PASS, "attack Bren 'Aimed Shot' Grub evade=no")[-1] == "Grub dies"
    assert who(s, "Grub").status == "dead" and who(s, "Bren").stats["downs"] == 1
    lines = play(s, PASS, "attack Cyra Smite Snag evade=no spare")
    assert lines[-1] == "Snag takes 4 damage: Stamina 7 -> 3"
    play(s, "next", "next", "next", "next")
    start_round(s)
    lines = play(s, PASS, "attack Ayla Cleave Snag evade=no spare")
    assert lines[-2:] == ["Snag is left Helpless at 0 Stamina", "Snag has 0 Willpower: Helpless"]
    assert who(s, "Snag").helpless and who(s, "Snag").in_combat


def test_full_power_needs_willpower_below_half_gives_an_extra_action_and_no_rebound() -> None:
    # advance-late-combat-round.txt:113 (below 1/2, not an action, 1 additional action,
    # Rebound 0)
    s = enemy_turn()
    with pytest.raises(IllegalAction, match="only a Boss has Full Power"):
        play(s, "fullpower Grub")
    with pytest.raises(IllegalAction, match="Mortha's Willpower 8 is not below half of 8"):
        play(s, "fullpower MOR")
    s = enemy_turn(CURSE_5)
    play(s, PASS, "attack MOR 'Grave Curse' Cyra evade=no")
    assert who(s, "Mortha").willpower == 3
    play(s, "fullpower MOR")
    assert who(s, "Mortha").full_power and who(s, "Mortha").extra == 1
    flags = s.ruleset.state(s.game).slots[5].flags
    assert flags & (8 << 2)  # the Full Power mark
    to_step(s, "E")
    lines = play(s, PASS, "attack MOR 'Grave Curse' Ayla evade=no")
    assert who(s, "Mortha").willpower == 3 and not any("Rebound" in line for line in lines)
    play(s, "next")
    assert who(s, "Mortha").extra == 0  # only in the round it was declared


def test_full_power_takes_2_off_the_boss_evasion_difficulty() -> None:
    # advance-late-combat-round.txt:113 (Evasion target -2), :127 (X + Y)
    s = session(text(CURSE_5))
    start_round(s)
    # Ayla's Hit check of 11, and <Sword> is 6 spaces from Mortha's nearest: 17.
    assert play(s, PASS, "attack Ayla Cleave MOR")[-1].startswith(
        "Mortha may evade (1 Willpower, difficulty 17)"
    )
    play(s, "take MOR", "next", PASS, "attack MOR 'Grave Curse' Cyra evade=no", "fullpower MOR")
    play(s, "next", "next", "next")
    start_round(s)
    assert play(s, PASS, "attack Ayla Longsword MOR")[-1].startswith(
        "Mortha may evade (1 Willpower, difficulty 15)"
    )


def test_a_helpless_boss_may_yell_once_a_round_for_1_willpower() -> None:
    # advance-late-combat-round.txt:116
    s = enemy_turn(CURSE_8)
    play(s, PASS, "attack MOR 'Grave Curse' Cyra evade=no")
    assert who(s, "Mortha").helpless
    with pytest.raises(IllegalAction, match="only a Boss may <Yell>"):
        play(s, "yell Grub")
    assert play(s, FAIL, "yell MOR")[-1] == "Mortha stays Helpless"
    with pytest.raises(IllegalAction, match="has tried <Yell> this round already"):
        play(s, "yell MOR")
    play(s, "next", "next", "next")
    start_round(s)
    assert play(s, PASS, "yell MOR")[-1] == "Mortha is no longer Helpless"
    assert who(s, "Mortha").willpower == 1


def test_evasion_after_a_hit_is_hit_result_plus_distance_and_costs_1_willpower() -> None:
    # advance-late-combat-round.txt:125-131 (after damage is decided; X + Y; success: no
    # effect; 1 Willpower)
    s = session()
    start_round(s)
    lines = play(s, "dice check 3 3", "attack Ayla Cleave Snag")
    # Hit result 6; <Sword> is 1 space from Snag's <Axe>: 7.
    assert lines[-2:] == [
        "damage 5",
        "Snag may evade (1 Willpower, difficulty 7): `evade Sna` or `take Sna`",
    ]
    with pytest.raises(IllegalAction, match="Snag's answer to the hit waits"):
        play(s, "wait Bren")
    lines = play(s, "dice check 4 4", "evade Snag")
    assert lines[-2:] == ["Evasion: 8 vs 7: evaded", "the attack has no effect"]
    assert who(s, "Snag").willpower == 2 and who(s, "Snag").stamina == 7
    # Failing it, the hit lands.
    play(s, "dice check 3 3", "attack Bren Shortbow Snag")
    assert play(s, "dice check 1 3", "evade Snag")[-1] == "Snag takes 3 damage: Stamina 7 -> 4"


def test_only_one_evasion_is_made_per_attack() -> None:
    # advance-late-combat-round.txt:131
    s = session()
    start_round(s)
    play(s, "dice check 3 3", "attack Ayla Cleave Snag", "dice check 1 3", "evade Snag")
    with pytest.raises(IllegalAction, match="no hit waits for an answer"):
        play(s, "evade Snag")
    with pytest.raises(IllegalAction, match="Snag has no Willpower to evade with"):
        s2 = session(
            text(('willpower = 3\nspecialties = ["Axe"', 'willpower = 1\nspecialties = ["Axe"'))
        )
        start_round(s2)
        play(s2, "dice check 3 3", "attack Ayla Cleave Snag", "dice check 1 3", "evade Snag")
        play(s2, "dice check 3 3", "attack Bren Shortbow Snag evade=yes")


def test_an_evasion_fumble_or_critical_rolls_its_table() -> None:
    # advance-late-combat-round.txt:127 (a Critical on Evasion), :133, :147 (Evasion Fumble)
    s = session()
    start_round(s)
    play(s, "dice check 3 3", "attack Ayla Cleave Snag")
    lines = play(s, "dice check 1 1", "dice d6 1", "evade Snag")
    assert "  evasion fumble: stumbled into it: +1 damage" in lines
    assert lines[-1] == "Snag takes 6 damage: Stamina 7 -> 1"
    play(s, "dice check 3 3", "attack Bren Shortbow Grub")
    lines = play(s, "dice check 6 6", "dice d6 6", "evade Grub")
    assert "  evasion critical: heartened: 1 Willpower back" in lines
    assert lines[-1] == "the attack has no effect" and who(s, "Grub").willpower == 3


def test_at_0_willpower_a_character_is_helpless_until_willpower_rises() -> None:
    # advance-late-combat-round.txt:161 (no actions; raised to 1 or more, freed)
    s = session(
        text(
            ("stamina = 11\nwillpower = 6", "stamina = 11\nwillpower = 2"),
            ("stamina = 5\nrebound = 1", "stamina = 5\nwillpower = 1\nrebound = 1"),
        )
    )
    start_round(s)
    assert play(s, "assist Bren Habit")[1] == "Bren has 0 Willpower: Helpless"
    play(s, "next", "next", "next")
    with pytest.raises(
        IllegalAction, match="Bren is Helpless \\(0 Willpower\\) and takes no action"
    ):
        play(s, "wait Bren")
    play(s, "next")
    start_round(s, late=("Cyra",))
    assert s.ruleset.state(s.game).slots[1].flags & 2  # Helpless: always done
    to_step(s, "D")
    lines = play(s, "assist Cyra Mend Bren")
    assert "Bren is no longer Helpless" in lines and not who(s, "Bren").helpless


def test_a_helpless_character_still_makes_initiative_checks() -> None:
    # advance-late-combat-round.txt:163
    s = session(text(("stamina = 11\nwillpower = 6", "stamina = 11\nwillpower = 2")))
    start_round(s)
    play(s, "assist Bren Habit", "next", "next", "next", "next")
    lines = start_round(s, late=("Bren",))
    assert "Bren: 3 vs 8: Late" in lines and who(s, "Bren").advance is False


def test_a_non_boss_enemy_whose_stamina_a_table_takes_to_0_dies_too() -> None:
    # advance-late-combat-round.txt:98 (dies when its Stamina hits 0, whatever took it)
    s = enemy_turn(('name = "Grub"\nstamina = 7', 'name = "Grub"\nstamina = 2'))
    lines = play(s, "dice check 1 1", "dice d6 5", "attack Grub Spear Ayla evade=no")
    assert lines[-2:] == ["  hit fumble: wrenched: 2 Stamina lost", "Grub dies"]
    assert who(s, "Grub").status == "dead" and who(s, "Grub").stats["downs"] == 0
