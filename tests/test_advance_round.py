"""Advance's round and its actions (advance-late-combat-round.txt), one test per rule, each
played through the generic session with entered dice (tests/advance_fixtures.py)."""

from __future__ import annotations

import pytest
from advance_fixtures import FAIL, PASS, play, session, start_round, text, to_step, who

from host.core.interface import IllegalAction


def test_a_round_runs_its_steps_from_a_to_e_in_order() -> None:
    # advance-late-combat-round.txt:5 (A to E), :7-15 (the five steps)
    s = session()
    st = s.ruleset.state(s.game)
    assert (s.game.step, st.phase, st.phase_count) == (0, 0, 5)
    assert start_round(s)[-1] == "step B: Adventurer Actions (Advance)"
    st = s.ruleset.state(s.game)  # (the game was rebuilt while step A waited for its dice)
    said = [play(s, "next")[-1] for _ in range(3)]
    assert said == [
        "step C: Enemy Actions",
        "step D: Adventurer Actions (Late)",
        "step E: Additional Actions",
    ]
    assert st.phase == 4
    assert play(s, "next") == ["round 2, step A: Initiative Check"]
    assert (s.game.round, st.phase, st.round) == (2, 0, 2)


def test_the_initiative_specialty_comes_from_the_encounters_table() -> None:
    # advance-late-combat-round.txt:19 (the Specialty from the Initiative Check Table)
    s = session()
    play(s, "dice d6 3", PASS, PASS, PASS)
    lines = play(s, "next")
    assert lines[0] == "round 1: the Initiative check is on <Perception>"
    # Ayla's nearest Specialty to <Perception> is <Reflexes>, 3 spaces: 5 + 3.
    assert lines[1] == "Ayla: 11 vs 8: Advance"


def test_initiative_success_acts_in_advance_and_failure_in_late() -> None:
    # advance-late-combat-round.txt:23
    s = session()
    start_round(s, late=("Bren",))
    assert (who(s, "Ayla").advance, who(s, "Bren").advance) == (True, False)
    with pytest.raises(
        IllegalAction, match="Bren failed the Initiative check: Late, acting in step D"
    ):
        play(s, "wait Bren")
    play(s, "wait Ayla")
    to_step(s, "D")
    with pytest.raises(IllegalAction, match="Ayla has already acted"):
        play(s, "wait Ayla")
    assert play(s, "wait Bren") == ["Bren takes no action"]


def test_the_order_within_advance_is_the_order_entered() -> None:
    # advance-late-combat-round.txt:25 (the players decide the order within a step)
    for first, second in (("Cyra", "Ayla"), ("Ayla", "Cyra")):
        s = session()
        start_round(s)
        assert play(s, f"wait {first}", f"wait {second}") == [
            f"{first} takes no action",
            f"{second} takes no action",
        ]


def test_enemies_act_in_step_c_and_adventurers_do_not() -> None:
    # advance-late-combat-round.txt:11, :102 (enemies take actions as adventurers do)
    s = session()
    start_round(s, late=("Ayla",))
    with pytest.raises(IllegalAction, match="step B is the adventurers'"):
        play(s, "wait Grub")
    to_step(s, "C")
    with pytest.raises(IllegalAction, match="step C is the enemies'"):
        play(s, "wait Ayla")
    play(s, PASS)
    assert "Ayla takes 3 damage: Stamina 14 -> 11" in play(s, "attack Grub Spear Ayla evade=no")


def test_each_character_takes_one_action_a_round() -> None:
    # advance-late-combat-round.txt:29
    s = session()
    start_round(s)
    play(s, FAIL, "attack Ayla Cleave Grub evade=no")
    with pytest.raises(IllegalAction, match="Ayla has already acted this round"):
        play(s, "attack Ayla Cleave Grub evade=no")
    # The step's characters who did not act take no action as it ends.
    assert play(s, "next")[:2] == ["Bren takes no action", "Cyra takes no action"]


def test_a_hit_check_applies_the_abilitys_effect_on_success_only() -> None:
    # advance-late-combat-round.txt:32 (a Hit check with an Attack ability)
    s = session()
    start_round(s)
    lines = play(s, PASS, "attack Ayla Cleave Grub evade=no")
    assert "Hit check: 11 vs 5: hit" in lines and who(s, "Grub").stamina == 2
    assert who(s, "Ayla").willpower == 5  # Cleave's Rebound
    lines = play(s, FAIL, "attack Bren 'Aimed Shot' Grub evade=no")
    assert "Hit check: 3 vs 5: miss" in lines and who(s, "Grub").stamina == 2


def test_a_weapon_attack_needs_the_weapon_equipped_and_equip_takes_it_from_the_bag() -> None:
    # advance-late-combat-round.txt:32 (an equipped weapon), :55 (Equip a Weapon)
    s = session()
    start_round(s)
    with pytest.raises(IllegalAction, match="Bren's Dagger is not equipped \\(it is in the bag\\)"):
        play(s, "attack Bren Dagger Grub")
    assert play(s, "equip Bren Dagger") == ["Bren equips Dagger"]
    with pytest.raises(IllegalAction, match="Ayla's Longsword is equipped, not in the bag"):
        play(s, "equip Ayla Longsword")
    to_step(s, "E")
    play(s, "next")
    start_round(s)
    lines = play(s, PASS, "attack Bren Dagger Grub evade=no")
    assert "Bren attacks Grub with Dagger (<Fists>)" in lines and who(s, "Grub").stamina == 5


def test_a_critical_hit_adds_the_hit_critical_tables_effect() -> None:
    # advance-late-combat-round.txt:34, :147 (a Critical adds a Hit Critical row)
    s = session()
    start_round(s)
    lines = play(s, "dice check 6 6", "dice d6 1", "attack Ayla Cleave MOR evade=no")
    assert "Hit check: 12 vs 5 (critical): hit" in lines
    assert "  hit critical: a telling blow: +2 damage" in lines
    assert who(s, "Mortha").stamina == 16 - 7


def test_a_fumbled_hit_rolls_the_hit_fumble_table() -> None:
    # advance-late-combat-round.txt:147 (a Fumble on a Hit check: the Hit Fumble table)
    s = session()
    start_round(s)
    lines = play(s, "dice check 1 1", "dice d6 3", "attack Ayla Cleave MOR evade=no")
    assert "Hit check: 2 vs 5 (fumble): miss" in lines
    assert "  hit fumble: shaken: 1 Willpower lost" in lines
    assert who(s, "Ayla").willpower == 6 - 1 - 1 and who(s, "Mortha").stamina == 16


def test_a_cooperative_attack_joins_the_allys_next_attack_and_its_rebound_is_paid_then() -> None:
    # advance-late-combat-round.txt:40-42 (support to the next attack, Rebound paid when it is
    # declared, not subject to the one-Support rule)
    s = session()
    start_round(s)
    play(s, "coop Cyra Ayla Bless")
    assert who(s, "Cyra").willpower == 8 and who(s, "Ayla").supports == [(2, "Bless")]
    assert s.ruleset.state(s.game).slots[0].flags & (8 << 4)  # the support mark
    lines = play(s, PASS, "attack Ayla Cleave MOR with=Rally evade=no")
    assert "Cyra pays 1 Willpower of Rebound for Bless" in lines
    assert who(s, "Cyra").willpower == 7 and who(s, "Ayla").willpower == 6 - 2
    assert who(s, "Mortha").stamina == 16 - (5 + 2 + 2)  # Cleave, Rally, Bless
    assert who(s, "Ayla").supports == []


def test_a_cooperative_attacks_support_ends_with_the_round() -> None:
    # advance-late-combat-round.txt:44
    s = session()
    start_round(s)
    play(s, "coop Cyra Ayla Bless", "wait Ayla")
    to_step(s, "E")
    play(s, "next")
    start_round(s)
    play(s, PASS, "attack Ayla Cleave MOR evade=no")
    assert who(s, "Mortha").stamina == 16 - 5 and who(s, "Cyra").willpower == 8


def test_an_assist_uses_an_assist_ability_or_an_item() -> None:
    # advance-late-combat-round.txt:48 (Assist type Ability or Item, or the GM's)
    s = session()
    start_round(s, late=("Ayla", "Cyra"))
    play(s, "wait Bren")
    to_step(s, "C")
    play(s, PASS, "attack Grub Spear Ayla evade=no", PASS, "attack Snag 'Hand Axe' Ayla evade=no")
    assert who(s, "Ayla").stamina == 8
    to_step(s, "D")
    assert play(s, "assist Ayla Potion")[-1] == "Ayla's Stamina 8 -> 12"
    assert "Potion" not in who(s, "Ayla").owned
    assert play(s, "assist Cyra Mend Ayla")[-1] == "Ayla's Stamina 12 -> 14"
    assert who(s, "Cyra").willpower == 7
    s2 = session()
    start_round(s2)
    assert play(s2, "assist Bren gm") == ["Bren takes an Assist action the GM allows"]


def test_a_successful_flee_check_withdraws_from_combat() -> None:
    # advance-late-combat-round.txt:51
    s = session()
    start_round(s)
    # <Flee> is 1 space from Bren's <Dodge>: difficulty 6.
    assert play(s, FAIL, "flee Bren")[-1] == "Bren cannot get away"
    play(s, "next", "next", "next", "next")
    start_round(s)
    assert play(s, PASS, "flee Bren")[-1] == "Bren withdraws from the fight"
    assert who(s, "Bren").status == "fled"
    assert s.ruleset.state(s.game).slots[1].flags & 4  # out of play on the board
    with pytest.raises(IllegalAction, match="Bren is out of the fight"):
        play(s, "wait Bren")


def test_exchange_gives_or_takes_one_item_between_allies() -> None:
    # advance-late-combat-round.txt:59
    s = session()
    start_round(s)
    assert play(s, "exchange Ayla Bren Potion") == ["Potion goes from Ayla to Bren"]
    assert play(s, "exchange Cyra Bren Potion") == ["Potion goes from Bren to Cyra"]
    assert who(s, "Cyra").places["Potion"] == "hand"
    with pytest.raises(IllegalAction, match="Grub is not Bren's ally"):
        play(s, "exchange Bren Grub Spear")


def test_item_storage_puts_an_item_into_the_bag_or_takes_it_out() -> None:
    # advance-late-combat-round.txt:63
    s = session()
    start_round(s)
    assert play(s, "store Ayla Potion") == ["Ayla puts Potion into the bag"]
    play(s, "next", "next", "next", "next")
    start_round(s)
    with pytest.raises(IllegalAction, match="in the bag: take it out first"):
        play(s, "assist Ayla Potion")
    s = session()
    start_round(s)
    assert play(s, "store Bren Dagger") == ["Bren puts Dagger out of the bag"]


def test_a_character_may_take_no_action() -> None:
    # advance-late-combat-round.txt:66
    s = session()
    start_round(s)
    assert play(s, "wait Ayla") == ["Ayla takes no action"]
    assert who(s, "Ayla").acted and s.ruleset.state(s.game).slots[0].flags & 2  # F_ACTED


def test_extra_actions_come_in_e_advance_adventurers_then_the_boss_then_late_ones() -> None:
    # advance-late-combat-round.txt:139-141 (extra actions after Late; the adventurers'
    # before or after the Boss's by the Initiative check), :143 ([Habit] and Criticals)
    s = session(text(("damage = 6\nrebound = 2", "damage = 6\nrebound = 5")))
    start_round(s, late=("Bren",))
    play(s, "dice check 6 6", "dice d6 6", "attack Ayla Cleave Grub evade=no")
    assert who(s, "Ayla").extra == 1  # the Hit Critical table's extra action
    play(s, "wait Cyra", "next", PASS, "attack MOR 'Grave Curse' Cyra evade=no")
    assert play(s, "fullpower MOR")[0].startswith("Mortha enters Full Power: 1 extra action")
    play(s, "next")
    assert play(s, "assist Bren Habit")[-1] == "Bren gains 1 extra action (step E)"
    play(s, "next")
    with pytest.raises(IllegalAction, match="waits for the Advance adventurers' extra actions"):
        play(s, "wait MOR")
    with pytest.raises(IllegalAction, match="waits for the Advance adventurers' extra actions"):
        play(s, "wait Bren")
    play(s, "wait Ayla")
    with pytest.raises(IllegalAction, match="Bren's extra action waits for the enemies'"):
        play(s, "wait Bren")
    play(s, "wait MOR", "wait Bren")
    with pytest.raises(IllegalAction, match="Ayla has no extra action in step E"):
        play(s, "wait Ayla")
