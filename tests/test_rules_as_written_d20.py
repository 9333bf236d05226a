"""d20 as its rules text is written: one test per rule of d20-srd-combat.txt, named after
it and citing its number in brackets, with the dice of every roll given (d20_fixtures.py).
The options a rule leaves open have a test each, named after the option."""

from __future__ import annotations

import pytest
from d20_fixtures import ANA, BO, DRAKE, ORC, WOLVES, Table, d20, dmg, save

# -- Starting a fight ----------------------------------------------------------------------


def test_a_surprised_creature_neither_moves_nor_acts_on_its_first_turn_nor_reacts_before_it_ends():
    # d20-srd-combat.txt [1]
    t = Table(ANA, ORC)
    t.play("initiative surprised=Orc", d20(15, "initiative"), d20(5, "initiative"))
    assert t.turn() == ["Ana"]
    assert "surprised" in t.refused("react Orc")
    t.play("attack Ana Orc", d20(2))  # everyone else plays round 1 as usual (a miss)
    t.play("next")
    assert t.turn() == ["Orc"]
    assert "surprised" in t.refused("attack Orc Ana")
    assert "surprised" in t.refused("move Orc 5")
    t.play("next")
    assert t.game.round == 2 and t.turn() == ["Ana"]
    assert t.play("react Orc shove") == ["Orc uses its reaction: shove"]


def test_initiative_is_a_d20_plus_the_modifier_and_a_group_rolls_once_and_plays_as_one():
    # d20-srd-combat.txt [2]: three rolls for Ana, the two wolves and the orc
    t = Table(ANA, WOLVES, ORC)
    lines = t.start(10, 12, 3)
    assert lines[0] == "Ana: initiative d20 10 +3 = 13"
    assert lines[1] == "Wolf 1, Wolf 2: initiative d20 12 +2 = 14"
    assert t.turn() == ["Wolf 1", "Wolf 2"]
    t.play("attack WF1 Ana", d20(2))
    t.play("attack WF2 Ana", d20(3))  # both in the same turn, each its own action
    t.play("next")
    assert t.turn() == ["Ana"]


def test_the_order_runs_from_the_highest_total_and_stays_the_same_every_round():
    # d20-srd-combat.txt [3]
    t = Table(ANA, BO, ORC)
    t.start(1, 18, 9)  # Ana 4, Bo 19, Orc 10
    seen = []
    for _ in range(6):
        seen.append(t.turn()[0])
        t.play("next")
    assert seen == ["Bo", "Orc", "Ana", "Bo", "Orc", "Ana"]


def test_option_ties_gm_keeps_the_encounter_s_order_for_tied_totals():
    # d20-srd-combat.txt [3]: the players and the GM decide (by the order they wrote)
    t = Table(BO, ORC, options='ties = "gm"')
    t.start(10, 10)  # both 11
    assert t.turn() == ["Bo"]
    t = Table(ORC, BO)
    t.start(10, 10)
    assert t.turn() == ["Orc"]


def test_option_ties_roll_has_the_tied_roll_a_d20_each_until_one_is_higher():
    # d20-srd-combat.txt [3], the optional roll-off
    t = Table(BO, ORC, options='ties = "roll"')
    t.play(
        "initiative",
        d20(10, "initiative"),
        d20(10, "initiative"),
        d20(7, "tie"),
        d20(7, "tie"),  # tied again: again
        d20(4, "tie"),
        d20(16, "tie"),
    )
    assert t.turn() == ["Orc"]


def test_option_ties_dex_puts_the_higher_dexterity_first():
    # d20-srd-combat.txt [3]: the table rule the text names, an option
    orc = ORC.replace("dex = 1", "dex = 1\ninitiative = 2")  # Orc +2 initiative, Dex +1
    t = Table(ANA, orc, WOLVES, options='ties = "dex"')
    t.start(1, 10, 10)  # both 12: the wolves' Dexterity +2 beats the orc's +1
    assert t.turn() == ["Wolf 1", "Wolf 2"]


# -- A creature's turn ---------------------------------------------------------------------


def test_a_turn_has_one_action_one_bonus_action_and_movement_up_to_the_speed():
    # d20-srd-combat.txt [4]
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("attack Ana Orc", d20(2))
    assert "used its action" in t.refused("act Ana dash")
    t.play("bonus Ana second wind")
    assert "used its bonus action" in t.refused("bonus Ana again")
    t.play("move Ana 25")
    assert "5 feet of movement left" in t.refused("move Ana 10")
    assert "not Orc's" in t.refused("act Orc dodge")


def test_a_reaction_is_one_a_round_on_another_s_turn_and_comes_back_at_the_start_of_its_own():
    # d20-srd-combat.txt [5]
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("attack Orc Ana as=reaction", d20(2))  # an opportunity attack on Ana's turn
    assert "used its reaction: it comes back at the start of its own turn" in t.refused("react Orc")
    t.play("next")  # the orc's turn starts: its reaction is back
    t.play("next")
    assert t.play("react Orc parry") == ["Orc uses its reaction: parry"]


def test_an_incapacitated_creature_keeps_its_turn_without_actions_or_reactions_but_saves():
    # d20-srd-combat.txt [6]
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("condition Orc stunned")
    assert "incapacitated" in t.refused("react Orc")
    t.play("next")
    assert t.turn() == ["Orc"]
    assert "incapacitated" in t.refused("attack Orc Ana")
    assert "succeeds" in t.play("save Orc con 5", save(10))[0]


def test_a_readied_action_takes_the_reaction_when_triggered_and_is_lost_at_the_next_turn():
    # d20-srd-combat.txt [7]
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("ready Ana shoot when the orc comes near")
    assert not t.who("Ana").action
    t.play("next")
    assert t.play("trigger Ana") == [
        "Ana takes its readied action with its reaction: shoot when the orc comes near [7]"
    ]
    assert not t.who("Ana").reaction
    t.play("next")  # round 2, Ana's turn: a new readiness, never triggered
    t.play("ready Ana strike")
    t.play("next")
    lines = t.play("next")
    assert "Ana's readied action was not taken and is lost" in lines


# -- Rolls -----------------------------------------------------------------------------------


def test_an_attack_hits_when_the_total_is_at_least_the_ac():
    # d20-srd-combat.txt [8]: Sword +5 against the orc's AC 13
    t = Table(ANA, ORC)
    t.start(15, 1)
    assert t.play("attack Ana Orc", d20(7))[-1].endswith("= 12 vs AC 13: miss")
    t.play("next")
    t.play("next")
    lines = t.play("attack Ana Orc", d20(8), dmg(4))
    assert "= 13 vs AC 13: hit" in lines[0] and t.who("Orc").hp == 15 - 7


def test_a_natural_20_always_hits_as_a_critical_hit_rolling_the_damage_dice_twice():
    # d20-srd-combat.txt [8]
    t = Table(ANA, ORC.replace("ac = 13", "ac = 30"))
    t.start(15, 1)
    lines = t.play("attack Ana Orc", d20(20), dmg(3, 4))  # two d8s, the +3 once
    assert "a natural 20, a critical hit" in lines[0]
    assert t.who("Orc").hp == 15 - 10


def test_a_natural_1_always_misses():
    # d20-srd-combat.txt [8]: 1 + 5 would reach AC 5
    t = Table(ANA, ORC.replace("ac = 13", "ac = 5"))
    t.start(15, 1)
    assert t.play("attack Ana Orc", d20(1))[-1].endswith("a natural 1 misses")
    assert t.who("Orc").hp == 15


@pytest.mark.parametrize(
    "options, faces, used",
    [("adv", (3, 17), 17), ("dis", (3, 17), 3), ("adv dis", (9,), 9)],
)
def test_advantage_takes_the_higher_of_two_d20s_disadvantage_the_lower_and_both_one_d20(
    options, faces, used
):
    # d20-srd-combat.txt [9]
    t = Table(ANA, ORC.replace("ac = 13", "ac = 30"))
    t.start(15, 1)
    lines = t.play(f"attack Ana Orc {options}", ("attack", faces))
    assert f"= {used + 5} vs AC 30" in lines[0]


def test_several_sources_of_advantage_still_roll_just_two_dice():
    # d20-srd-combat.txt [9]: prone within 5 feet and the GM's adv: two d20s, not three
    t = Table(ANA, ORC.replace("ac = 13", "ac = 30"))
    t.start(15, 1)
    t.play("condition Orc prone")
    lines = t.play("attack Ana Orc adv", ("attack", (2, 6)))
    assert "d20 2 and 6 with advantage: 6" in lines[-1]


def test_a_saving_throw_succeeds_when_d20_plus_the_modifier_reaches_the_dc():
    # d20-srd-combat.txt [10]: Ana's CON save +2
    t = Table(ANA, ORC)
    t.start(15, 1)
    assert t.play("save Ana con 12", save(10))[0].endswith("= 12 vs DC 12: succeeds")
    assert t.play("save Ana con 12", save(9))[0].endswith("= 11 vs DC 12: fails")


# -- Hit points and damage -------------------------------------------------------------------


def test_temporary_hit_points_go_first_do_not_add_up_and_healing_never_restores_them():
    # d20-srd-combat.txt [11]
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("temp Ana 5")
    t.play("temp Ana 3")  # not 8: the higher stays (the option temp_hp, "higher")
    assert t.who("Ana").temp == 5
    t.play("temp Ana 3 keep=new")
    assert t.who("Ana").temp == 3
    t.play("damage Ana 7")
    assert (t.who("Ana").temp, t.who("Ana").hp) == (0, 16)
    t.play("heal Ana 50")
    assert (t.who("Ana").temp, t.who("Ana").hp) == (0, 20)  # never above the maximum


def test_option_temp_hp_old_keeps_the_amount_a_creature_has():
    # d20-srd-combat.txt [11]: "chooses whether to keep the old amount"
    t = Table(ANA, ORC, options='temp_hp = "old"')
    t.start(15, 1)
    t.play("temp Ana 2")
    t.play("temp Ana 9")
    assert t.who("Ana").temp == 2


def test_resistance_halves_rounded_down_and_vulnerability_doubles():
    # d20-srd-combat.txt [12]: the orc resists fire and is vulnerable to cold
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("damage Orc 7 type=fire")
    assert t.who("Orc").hp == 15 - 3
    t.play("damage Orc 4 type=cold")
    assert t.who("Orc").hp == 12 - 8


def test_damage_left_over_at_0_hp_equal_to_the_maximum_kills_else_the_creature_falls():
    # d20-srd-combat.txt [13]: Bo has 12 HP
    t = Table(ANA, BO, ORC)
    t.start(15, 1, 1)
    t.play("damage Bo 23")  # 11 left over
    assert t.who("Bo").hp == 0 and t.who("Bo").dying and not t.who("Bo").dead
    assert "unconscious" in t.conditions("Bo")
    t = Table(ANA, BO, ORC)
    t.start(15, 1, 1)
    t.play("damage Bo 24")  # 12 left over: its maximum
    assert t.who("Bo").dead and t.who("Bo").hp == 0


def test_a_monster_at_0_hp_dies():
    # d20-srd-combat.txt [14]
    t = Table(ANA, ORC, WOLVES)
    t.start(15, 1, 1)
    t.play("damage Orc 15")
    assert t.who("Orc").dead


def test_option_monsters_at_zero_knocked_out_and_spare_leave_a_monster_alive():
    # d20-srd-combat.txt [14]: "the game master may instead have it knocked out"
    t = Table(ANA, ORC, WOLVES, options='monsters_at_zero = "knocked_out"')
    t.start(15, 1, 1)
    t.play("damage Orc 15")
    assert not t.who("Orc").dead and t.who("Orc").knocked_out
    t = Table(ANA, ORC, WOLVES)
    t.start(15, 1, 1)
    t.play("attack Ana Orc spare", d20(15), dmg(8))
    t.play("damage Orc 4 spare")
    assert not t.who("Orc").dead and "unconscious" in t.conditions("Orc")


# -- Dying -------------------------------------------------------------------------------------


def _dying_bo() -> Table:
    """Ana, then Bo, then the orc; Bo is dying at 0 HP, and it is Ana's turn."""
    t = Table(ANA, BO, ORC)
    t.start(15, 5, 1)
    t.play("damage Bo 12")
    return t


def test_a_character_starting_its_turn_at_0_hp_makes_a_death_save_10_or_more_a_success():
    # d20-srd-combat.txt [15]: a plain d20, no modifier
    t = _dying_bo()
    assert t.play("next", d20(10, "death"))[-1] == "Bo's death save: d20 10: a success (1 of 3)"
    t.play("next")
    t.play("next")
    assert t.play("next", d20(9, "death"))[-1] == "Bo's death save: d20 9: a failure (1 of 3)"


def test_a_death_save_of_1_is_two_failures_and_of_20_one_hp_and_conscious():
    # d20-srd-combat.txt [16]
    t = _dying_bo()
    t.play("next", d20(1, "death"))
    assert t.who("Bo").failures == 2
    t.play("next")
    t.play("next")
    t.play("next", d20(20, "death"))
    bo = t.who("Bo")
    assert bo.hp == 1 and not bo.dying and "unconscious" not in t.conditions("Bo")
    assert (bo.successes, bo.failures) == (0, 0)


def test_three_successes_stabilize_three_failures_kill_and_they_need_not_be_in_a_row():
    # d20-srd-combat.txt [17]
    t = _dying_bo()
    for face in (12, 3, 15, 18):  # success, failure, success, success
        t.play("next", d20(face, "death"))
        if face != 18:
            t.play("next")
            t.play("next")
    bo = t.who("Bo")
    assert bo.stable and bo.hp == 0 and (bo.successes, bo.failures) == (0, 0)
    t.play("next")
    t.play("next")
    t.play("next")  # stable: no death save wanted
    t = _dying_bo()
    for face in (3, 15, 4, 12, 2):
        t.play("next", d20(face, "death"))
        if not t.who("Bo").dead:
            t.play("next")
            t.play("next")
    assert t.who("Bo").dead


def test_damage_at_0_hp_is_one_failure_two_from_a_critical_and_the_maximum_kills():
    # d20-srd-combat.txt [18]
    t = _dying_bo()
    t.play("damage Bo 3")
    assert t.who("Bo").failures == 1
    t.play("damage Bo 3 crit")
    assert t.who("Bo").dead  # 1 + 2 = three failures
    t = _dying_bo()
    t.play("damage Bo 12")
    assert t.who("Bo").dead


def test_a_dc_10_medicine_check_with_an_action_stabilizes_and_any_healing_ends_dying():
    # d20-srd-combat.txt [19]: Ana's Medicine +4
    t = _dying_bo()
    assert "still dying" in t.play("stabilize Ana Bo", d20(5, "check"))[-1]
    assert "used its action" in t.refused("stabilize Ana Bo")
    t = _dying_bo()
    t.play("stabilize Ana Bo", d20(6, "check"))
    assert t.who("Bo").stable
    t = _dying_bo()
    t.play("heal Bo 1d4+2 by=Ana", ("heal", (1,)))
    assert t.who("Bo").hp == 3 and not t.who("Bo").dying


# -- Concentration -----------------------------------------------------------------------------


def test_concentrating_on_a_new_spell_ends_the_old_one():
    # d20-srd-combat.txt [20]
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("concentrate Ana bless")
    t.play("condition Orc blessed by=Ana concentration")
    lines = t.play("concentrate Ana hold person")
    assert lines[0] == "Ana's concentration on bless ends"
    assert "blessed" not in t.conditions("Orc") and t.who("Ana").concentration == "hold person"


def test_each_source_of_damage_calls_for_a_con_save_dc_10_or_half_and_a_failure_ends_it():
    # d20-srd-combat.txt [21]: two sources, two saves (DC 10, then DC 15)
    t = Table(ANA.replace("hp = 20", "hp = 60"), ORC)
    t.start(15, 1)
    t.play("concentrate Ana hold person")
    t.play("condition Orc paralyzed by=Ana concentration")
    lines = t.play("damage Ana 5,30", save(8), save(12))
    assert [x for x in lines if "save" in x] == [
        "concentration: Ana's CON save: d20 8 +2 = 10 vs DC 10: succeeds",
        "concentration: Ana's CON save: d20 12 +2 = 14 vs DC 15: fails",
    ]
    assert t.who("Ana").concentration == "" and "paralyzed" not in t.conditions("Orc")


def test_concentration_ends_when_the_creature_is_incapacitated_or_dies():
    # d20-srd-combat.txt [22]
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("concentrate Ana bless")
    t.play("condition Ana stunned")
    assert t.who("Ana").concentration == ""
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("concentrate Ana bless")
    t.play("damage Ana 40")
    assert t.who("Ana").dead and t.who("Ana").concentration == ""


# -- Conditions and durations ------------------------------------------------------------------


def test_every_condition_of_the_list_can_be_put_on_and_exhaustion_has_six_levels():
    # d20-srd-combat.txt [23]
    from host.rulesets.d20.encounter_schema import CONDITION_NAMES

    t = Table(ANA, BO, ORC)
    t.start(15, 1, 1)
    assert len(CONDITION_NAMES) == 14
    for name in CONDITION_NAMES:
        t.play(f"condition Orc {name}")
        assert name in t.conditions("Orc")
        t.play(f"recover Orc {name}")
    t.play("exhaustion Ana 5")
    assert "exhaustion 5" in t.conditions("Ana") and not t.who("Ana").dead
    t.play("exhaustion Ana 6")
    assert t.who("Ana").dead
    assert "0..6" in t.refused("exhaustion Orc 7")


@pytest.mark.parametrize("name", ["paralyzed", "petrified", "stunned", "unconscious"])
def test_paralyzed_petrified_stunned_and_unconscious_include_incapacitated(name):
    # d20-srd-combat.txt [24]
    t = Table(ANA, ORC)
    t.start(1, 15)
    t.play(f"condition Orc {name}")
    assert "incapacitated" in t.refused("act Orc dodge")
    assert ("prone" in t.conditions("Orc")) == (name == "unconscious")


def test_attacks_on_the_paralyzed_have_advantage_and_hits_within_5_feet_are_critical():
    # d20-srd-combat.txt [25]
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("condition Orc paralyzed")
    lines = t.play("attack Ana Orc", ("attack", (4, 9)), dmg(1, 2))  # a crit: two d8s
    assert "advantage: 9" in lines[1] and "critical" in lines[2]
    t.play("next")
    t.play("next")
    lines = t.play("attack Ana Orc Bow", ("attack", (4, 9)), dmg(1))  # from afar: no crit
    assert "hit" in lines[1] and not any("critical" in x for x in lines)


def test_prone_gives_advantage_within_5_feet_disadvantage_from_afar_and_on_its_own_attacks():
    # d20-srd-combat.txt [25]
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("condition Orc prone")
    assert "advantage: 9" in t.play("attack Ana Orc", ("attack", (4, 9)), dmg(1))[1]
    t.play("next")
    assert "disadvantage: 4" in t.play("attack Orc Ana", ("attack", (4, 9)))[1]
    t.play("next")
    assert "disadvantage: 4" in t.play("attack Ana Orc far", ("attack", (4, 9)))[1]


def test_standing_up_from_prone_costs_half_the_speed():
    # d20-srd-combat.txt [25]
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("condition Ana prone")
    t.play("move Ana 20")
    assert "standing costs 15 feet" in t.refused("stand Ana")
    t.play("next")
    t.play("next")
    t.play("stand Ana")
    assert t.who("Ana").movement == 15 and "prone" not in t.conditions("Ana")


def test_until_the_end_of_its_next_turn_begun_on_its_own_turn_lasts_through_the_following_one():
    # d20-srd-combat.txt [26], the first edge case
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("condition Ana dodging until=end")  # during Ana's own turn
    t.play("next")
    t.play("next")  # round 2: Ana's next turn
    assert "dodging" in t.conditions("Ana")
    t.play("next")  # ... ends: now it ends
    assert "dodging" not in t.conditions("Ana")
    t.play("next")
    t.play("condition Orc dazed until=end")  # begun on Ana's turn: the orc's next turn
    t.play("next")
    assert "dazed" in t.conditions("Orc")
    t.play("next")
    assert "dazed" not in t.conditions("Orc")


def test_until_the_start_of_the_source_s_next_turn_ends_there_even_with_the_source_gone():
    # d20-srd-combat.txt [26], the second edge case: the orc marks Ana on its turn, and
    # dies before its next one; the mark ends as the orc's turn would have come
    t = Table(ANA, BO, ORC, WOLVES)
    t.start(1, 5, 15, 1)  # Orc 16, Bo 6, Ana 4, the wolves 3
    t.play("condition Ana marked until=start by=Orc")
    t.play("next")  # Bo
    t.play("damage Orc 15")
    t.play("next")  # Ana
    t.play("next")  # the wolves
    assert "marked" in t.conditions("Ana")
    t.play("next")  # round 2: the orc's place comes, it is dead, Bo plays: the mark is over
    assert t.turn() == ["Bo"] and "marked" not in t.conditions("Ana")


def test_for_1_minute_is_10_rounds_ending_at_the_same_point_in_the_order():
    # d20-srd-combat.txt [26], the third edge case: begun on Bo's turn of round 1
    t = Table(ANA, BO, ORC)
    t.start(15, 5, 1)
    t.play("next")
    t.play("condition Orc blessed rounds=10")
    while (t.game.round, t.turn()) != (11, ["Ana"]):
        t.play("next")
    assert "blessed" in t.conditions("Orc")
    t.play("next")  # round 11, Bo's turn starts: 10 rounds are over
    assert "blessed" not in t.conditions("Orc")


def test_a_save_at_the_end_of_each_of_its_turns_ends_the_effect_on_a_success():
    # d20-srd-combat.txt [26], the fourth edge case
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("condition Orc frightened save=wis:12")
    t.play("next")  # Ana's turn ends: no save (not the orc's turn)
    lines = t.play("next", save(5))  # the orc's turn ends: its save fails
    assert "fails" in lines[0] and "frightened" in t.conditions("Orc")
    t.play("next")
    lines = t.play("next", save(12))
    assert "succeeds" in lines[0] and "frightened" not in t.conditions("Orc")


# -- Legendary creatures and lairs -------------------------------------------------------------


def test_a_legendary_action_comes_one_at_the_end_of_another_s_turn_and_all_return_on_its_own():
    # d20-srd-combat.txt [27]
    t = Table(ANA, BO, DRAKE.replace("lair = ", "# lair = "))
    t.start(15, 10, 1)  # Ana 18, Bo 11, Drake 1
    t.play("attack DRK Ana Tail as=legendary", d20(2))
    assert "taken its legendary action" in t.refused("legendary Drake")
    assert "Ana's turn is over" in t.refused("act Ana dash")
    t.play("next")
    t.play("legendary Drake wing cost=2")
    assert t.who("Drake").legendary_left == 0
    t.play("next")  # the drake's own turn: all three back
    assert t.who("Drake").legendary_left == 3
    assert "another creature's turn" in t.refused("legendary Drake")


def test_no_legendary_action_while_incapacitated_or_surprised_before_its_first_turn():
    # d20-srd-combat.txt [27]
    t = Table(ANA, DRAKE.replace("lair = ", "# lair = "))
    t.play("initiative surprised=Drake", d20(15, "initiative"), d20(1, "initiative"))
    assert "surprised" in t.refused("legendary Drake")
    t.play("next")
    t.play("next")  # the drake's first turn is over
    t.play("legendary Drake")
    t.play("next")
    t.play("condition Drake stunned")
    t.play("next")
    assert "incapacitated" in t.refused("legendary Drake")


def test_a_lair_acts_on_count_20_after_the_creatures_with_20():
    # d20-srd-combat.txt [28]
    t = Table(ANA, ORC, DRAKE)
    t.start(17, 15, 2)  # Ana 20, Orc 16, Drake 2
    order = []
    for _ in range(4):
        order.append(t.turn()[0])
        t.play("next")
    assert order == ["Ana", "lair", "Orc", "Drake"]
    t.play("next")  # round 2's count 20
    assert t.turn() == ["lair"]
    lines = t.play("lair Drake Ana", save(3), dmg(4))
    assert "prone" in t.conditions("Ana") and t.who("Ana").hp == 16
    assert "the lair has acted" in t.refused("lair Drake Ana")
    assert lines[0] == "Drake's lair: a quake"


# -- Ending a fight ----------------------------------------------------------------------------


def test_the_fight_ends_when_one_side_is_down_and_effects_that_outlast_it_are_listed():
    # d20-srd-combat.txt [29]
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("condition Ana blessed rounds=10")
    lines = t.play("damage Orc 15")
    assert t.game.over == "Heroes"
    assert lines[-2:] == [
        "the fight is over: Heroes won",
        "effects that go on after the fight: blessed on Ana: 10 rounds left",
    ]


def test_option_end_gm_ends_the_fight_only_when_the_game_master_says_so():
    # d20-srd-combat.txt [29]: "when the game master says so"
    t = Table(ANA, ORC, options='end = "gm"')
    t.start(15, 1)
    t.play("damage Orc 15")
    assert t.game.over is None
    t.play("finish Heroes")
    assert t.game.over == "Heroes"
    assert "over" in t.refused("next")
