"""pf2 as its rules text is written: one test per rule of pf2-combat.txt, named after it
and citing its number in brackets, with the dice of every roll given (pf2_fixtures.py).
The options a rule leaves open have a test each, named after the option."""

from __future__ import annotations

from pf2_fixtures import BOSS, GOBLINS, ORC, PEL, VAL, Table, d20, dmg, flat

# -- Starting an encounter ------------------------------------------------------------------


def test_initiative_is_a_d20_plus_perception_or_the_named_check_and_a_group_rolls_once():
    # pf2-combat.txt [1]
    t = Table(VAL, GOBLINS, ORC.replace("perception = 2", "perception = 2\ninitiative = 9"))
    lines = t.start(10, 12, 3)
    assert lines[0] == "Valka: initiative d20 10 +5 = 15"
    assert lines[1] == "Goblin 1, Goblin 2: initiative d20 12 +2 = 14"
    assert lines[2] == "Orc: initiative d20 3 +9 = 12"  # Stealth, say, named by the file
    t.play("next")
    assert t.turn() == ["Goblin 1", "Goblin 2"]  # one entry, their turns together
    t = Table(VAL, ORC)
    lines = t.play("initiative check=Valka:+2", d20(10, "initiative"), d20(3, "initiative"))
    assert lines[0] == "Valka: initiative d20 10 +2 = 12"  # Deception, the GM says


def test_the_order_runs_highest_first_stays_each_round_and_an_adversary_wins_a_tie():
    # pf2-combat.txt [2]
    t = Table(VAL, PEL, ORC)
    t.start(10, 5, 13)  # Valka 15, Pell 8, Orc 15: the Orc first on the tie
    seen = []
    for _ in range(6):
        seen.append(t.turn()[0])
        t.play("next")
    assert seen == ["Orc", "Valka", "Pell"] * 2
    t = Table(VAL, PEL, ORC)
    t.start(3, 5, 1)  # Valka 8, Pell 8: the players' call, as the file has them
    assert [t.game.fighters[e.members[0]].name for e in t.game.order] == ["Valka", "Pell", "Orc"]


# -- A creature's turn --------------------------------------------------------------------------


def test_a_turn_brings_three_actions_and_one_reaction_and_unused_actions_are_lost():
    # pf2-combat.txt [3]
    t = Table(VAL, ORC)
    t.start(15, 1)
    v = t.who("Valka")
    assert (v.actions, v.reaction) == (3, True)
    t.play("act Valka Stride cost=2")
    t.play("strike Valka Orc", d20(2))  # a miss
    assert "0 action(s) left" in t.refused("act Valka Interact")
    t.play("react Valka Shield Block")
    assert "used its reaction" in t.refused("react Valka again")
    t.play("next")
    t.play("next")
    assert (v.actions, v.reaction) == (3, True)  # back as its turn starts, none carried over


def test_the_start_of_a_turn_counts_effects_down_then_the_recovery_check_then_the_actions():
    # pf2-combat.txt [4]
    t = Table(VAL, PEL, ORC)
    t.start(15, 10, 1)
    t.play("effect Pell Bless rounds=1")  # made on Valka's turn: it counts on hers [23]
    t.play("condition Valka slowed 1")
    t.play("next")
    t.play("strike Pell Orc", d20(2))
    t.play("next")
    t.play("damage Valka 20")  # on the Orc's turn: knocked out, dying 1
    lines = t.play("next", d20(12, "recovery"))
    assert "Bless" not in " ".join(t.effects("Pell"))  # (a) ended as Valka's turn began
    at = next(i for i, x in enumerate(lines) if "recovery check" in x)
    assert "d20 12 vs DC 11: success, dying 1 -> 0" in lines[at]  # (b)
    t.play("heal Valka 5")
    assert t.who("Valka").actions == 0  # (c) regained as the turn began: none, unconscious
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("condition Valka slowed 1")
    t.play("next")
    t.play("next")
    assert t.who("Valka").actions == 2  # (c) slowed 1 takes one


def test_the_end_of_a_turn_ends_effects_then_persistent_damage_then_frightened_falls():
    # pf2-combat.txt [5]
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("effect Valka Dodge until=end of=Valka")  # until the end of its next turn
    t.play("persistent Valka fire 1d6")
    t.play("condition Valka frightened 2")
    lines = t.play("next", ("persistent", (3,)), flat(4))
    assert "Dodge" in t.effects("Valka")  # this turn is not its next
    burn = next(i for i, x in enumerate(lines) if "persistent fire damage" in x)
    fall = next(i for i, x in enumerate(lines) if "frightened falls to 1" in x)
    assert burn < fall  # (b) then (c)
    assert t.who("Valka").hp == 17
    t.play("next")
    t.play("next", ("persistent", (3,)), flat(15))
    assert "Dodge" not in t.effects("Valka")  # (a) at the end of that next turn


def test_the_multiple_attack_penalty_is_5_then_10_agile_4_then_8_and_none_off_its_turn():
    # pf2-combat.txt [6]
    t = Table(VAL, ORC)
    t.start(15, 1)
    assert "+7 = 9 vs AC 16" in t.play("strike Valka Orc Sword", d20(2))[0]
    assert "-5: d20 2 +2 = 4" in t.play("strike Valka Orc Sword", d20(2))[0]
    assert "-10: d20 2 -3 = -1" in t.play("strike Valka Orc Sword", d20(2))[0]
    t.play("next")
    assert "+8 = 10" in t.play("strike Orc Valka", d20(2))[0]
    assert "d20 2 +7 = 9" in t.play("strike Valka Orc Dagger reaction", d20(2))[0]
    t.play("next")  # a new turn: the penalty starts again
    t.play("act Valka Shove attack")
    assert "-5: d20 2" in t.play("strike Valka Orc Sword reaction", d20(2))[0]  # its own turn
    t.play("next")
    t.play("next")
    assert "+7 = 9" in t.play("strike Valka Orc Dagger", d20(2))[0]
    assert "agile -4: d20 2 +3 = 5" in t.play("strike Valka Orc Dagger", d20(2))[0]
    assert "agile -8: d20 2 -1 = 1" in t.play("strike Valka Orc Dagger", d20(2))[0]
    t.play("next")
    t.play("next")  # map=N says the step where the table counts otherwise
    assert "-10: d20 2 -3 = -1" in t.play("strike Valka Orc Sword map=2", d20(2))[0]


def test_another_attack_action_counts_toward_the_multiple_attack_penalty():
    # pf2-combat.txt [6]: a Grapple, Shove, Trip has the attack trait too
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("act Valka Grapple attack")
    assert "-5: d20 2 +2 = 4" in t.play("strike Valka Orc", d20(2))[0]


def test_four_degrees_of_success_and_a_natural_20_or_1_moves_one_degree():
    # pf2-combat.txt [7]: Valka's Will +4 against DC 20
    t = Table(VAL, ORC)
    t.start(15, 1)
    said = {}
    for face in (19, 16, 15, 6, 5, 20, 1, 2):
        line = t.play("save Valka will dc=20", d20(face, "save"))[-1]
        said[face] = line.rsplit(": ", 1)[1]
    assert said[19] == "success [9]"  # 23
    assert said[16] == "success [9]"  # 20: DC or more
    assert said[15] == "failure [9]"  # 19
    assert said[6] == "critical failure [9]"  # 10: DC - 10
    assert said[5] == "critical failure [9]"
    assert said[1] == "critical failure [9]"
    assert said[2] == "critical failure [9]"
    assert said[20] == "critical success [9]"  # 24 a success, the natural 20 one better
    t = Table(VAL, ORC)
    t.start(15, 1)
    assert t.play("save Valka will dc=5", d20(11, "save"))[-1].endswith("critical success [9]")
    assert t.play("save Valka will dc=5", d20(1, "save"))[-1].endswith(
        ": failure [9]"
    )  # 5: a success
    assert t.play("save Valka will dc=30", d20(20, "save"))[-1].endswith(
        ": success [9]"
    )  # 24: a failure


def test_a_strike_deals_its_damage_on_a_success_double_on_a_critical_none_on_a_failure():
    # pf2-combat.txt [8]: Valka's Sword +7 (1d8+4) against the Orc's AC 16
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("strike Valka Orc map=0", d20(9), dmg(5))  # 16: a success, 9 damage
    assert t.who("Orc").hp == 11
    t.play("strike Valka Orc map=0", d20(8))  # 15: a failure, no damage roll
    assert t.who("Orc").hp == 11
    lines = t.play("strike Valka Orc map=0", d20(19), dmg(1))  # 26: a critical, (1+4) x 2
    assert "critical success" in lines[0] and t.who("Orc").hp == 1


def test_option_critical_dice_twice_rolls_the_damage_dice_twice_and_doubles_the_modifier():
    # pf2-combat.txt [8]: the table's choice
    t = Table(VAL, ORC, options='critical = "dice_twice"')
    t.start(15, 1)
    lines = t.play("strike Valka Orc", d20(19), dmg(1, 2))
    assert "dice rolled twice: 11" in lines[1]  # 1 + 2 + 4 x 2
    assert t.who("Orc").hp == 9


def test_a_basic_save_deals_none_half_full_or_double_by_its_degree():
    # pf2-combat.txt [9]: Valka's Reflex +5 against DC 18, 4d6 fire (10)
    dealt = {}
    for face, degree in (
        (20, "critical success"),
        (14, "success"),
        (8, "failure"),
        (2, "critical failure"),
    ):
        t = Table(VAL, ORC)
        t.start(15, 1)
        lines = t.play(
            "save Valka ref dc=18 basic=4d6 type=fire", d20(face, "save"), dmg(1, 2, 3, 4)
        )
        assert degree in lines[0]
        dealt[degree] = 20 - t.who("Valka").hp
    assert dealt == {"critical success": 0, "success": 5, "failure": 10, "critical failure": 20}


def test_of_each_type_only_the_best_bonus_and_worst_penalty_and_a_flat_check_has_none():
    # pf2-combat.txt [10]
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("condition Valka frightened 2")  # status -2
    # status -1 (worse is -2: it stays), circumstance +2 (one bonus of its type)
    line = t.play("save Valka will dc=10 status=-1 circumstance=2", d20(10, "save"))[-1]
    assert "d20 10 +4 = 14" in line  # 4 - 2 + 2
    line = t.play("strike Valka Orc map=1 item=1", d20(10))[0]
    assert "d20 10 +1 = 11" in line  # 7 - 5 (untyped) - 2 (status) + 1 (item)
    line = t.play("flat Valka dc=11", flat(10))[0]
    assert line == "Valka's flat check: d20 10 vs DC 11: failure [10]"  # frightened or not


def test_a_concealed_target_takes_a_dc_5_flat_check_and_a_hidden_one_dc_11():
    # pf2-combat.txt [10] [19]
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("condition Orc concealed")
    lines = t.play("strike Valka Orc", flat(4))  # lost: no attack roll
    assert "flat check d20 4 vs DC 5: failure, the Strike is lost" in lines[0]
    lines = t.play("strike Valka Orc", flat(5), d20(2))
    assert "DC 5: success" in lines[0] and "-5: d20 2" in lines[1]  # the lost one counted
    t.play("recover Orc concealed")
    t.play("condition Orc hidden")
    assert "DC 11: failure" in t.play("strike Valka Orc", flat(10))[0]


def test_resistance_lowers_weakness_raises_immunity_removes_and_a_hit_deals_at_least_1():
    # pf2-combat.txt [11]
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("damage Orc 7 type=fire")  # resistance 5
    assert t.who("Orc").hp == 18
    t.play("damage Orc 2 type=cold")  # weakness 3
    assert t.who("Orc").hp == 13
    t.play("damage Orc 9 type=poison")  # immune
    assert t.who("Orc").hp == 13
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("condition Valka enfeebled 4")  # -4 to the roll and the damage
    lines = t.play("strike Valka Orc Sword", d20(14), dmg(1))  # 17: 1 + 4 - 4 = 1, at least
    assert "enfeebled -4: 1" in lines[1] and t.who("Orc").hp == 19


def test_temporary_hit_points_go_first_do_not_stack_and_healing_never_restores_them():
    # pf2-combat.txt [12]
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("temp Valka 5")
    t.play("temp Valka 3")  # the higher stays
    assert t.who("Valka").temp == 5
    t.play("damage Valka 7")
    assert (t.who("Valka").temp, t.who("Valka").hp) == (0, 18)
    t.play("heal Valka 10")
    assert (t.who("Valka").temp, t.who("Valka").hp) == (0, 20)


def test_a_character_at_0_hp_is_knocked_out_dying_1_or_2_plus_wounded_and_others_die():
    # pf2-combat.txt [13]
    t = Table(VAL, ORC, options='end = "gm"')
    t.start(15, 1)
    lines = t.play("damage Valka 30")
    assert t.who("Valka").hp == 0 and t.who("Valka").dying == 1  # never below 0
    assert "unconscious" in t.who("Valka").marks and "dying 1" in lines[-1]
    t.play("heal Valka 5")  # wounded 1 now
    t.play("damage Valka 30 crit")  # a critical: dying 2, and wounded 1 added
    assert t.who("Valka").dying == 3
    t.play("damage Orc 25")
    assert t.who("Orc").dead


def test_a_critically_failed_save_knocks_out_at_dying_2_and_raises_dying_by_2():
    # pf2-combat.txt [13] [15]: "a critical hit or a critically failed save"
    t = Table(VAL, ORC, options='end = "gm"')
    t.start(15, 1)
    t.who("Valka").hero = 0
    t.play("damage Valka 15")
    t.play("save Valka fort dc=30 basic=10", d20(2, "save"))  # 9 vs 30: a critical failure
    assert t.who("Valka").dying == 2  # 20 damage at 5 HP: knocked out, dying 2
    t.play("save Valka fort dc=30 basic=1", d20(2, "save"))
    assert t.who("Valka").dead  # dying 2 + 2 = 4


def test_option_knocked_out_says_who_falls_dying_rather_than_dead():
    # pf2-combat.txt [13]: the named creatures the game master chooses
    for rule, boss_dies, orc_dies in (
        ("characters", True, True),
        ("named", False, True),
        ("all", False, False),
    ):
        t = Table(VAL, BOSS, ORC, options=f'knocked_out = "{rule}"\nend = "gm"')
        t.start(15, 1, 1)
        t.play("damage Boss 40")
        t.play("damage Orc 40")
        assert (t.who("Boss").dead, t.who("Orc").dead) == (boss_dies, orc_dies), rule
        assert t.who("Boss").dying == (0 if boss_dies else 1)


def test_the_recovery_check_is_a_flat_check_against_10_plus_dying_by_its_degree():
    # pf2-combat.txt [14]: dying 2 (a critical), DC 12
    moved = {}
    for face in (20, 12, 11, 2):
        t = Table(VAL, PEL, ORC, options='end = "gm"')
        t.start(15, 10, 1)
        t.play("damage Valka 20 crit")
        t.who("Valka").hero = 0  # (no Hero Point to save it [26])
        t.to("Orc")
        t.play("next", d20(face, "recovery"))
        v = t.who("Valka")
        moved[face] = "dead" if v.dead else v.dying
    # 20 (DC + 8, a natural 20): critical success -2 (dying 0); 12: -1; 11: +1; 2 (DC - 10): +2
    assert moved == {20: 0, 12: 1, 11: 3, 2: "dead"}


def test_a_creature_dies_at_dying_4_and_damage_while_dying_raises_it_1_or_2_on_a_critical():
    # pf2-combat.txt [15]
    t = Table(VAL, ORC, options='end = "gm"')
    t.start(15, 1)
    t.who("Valka").hero = 0
    t.play("damage Valka 20")
    assert t.who("Valka").dying == 1
    t.play("damage Valka 1")
    assert t.who("Valka").dying == 2
    lines = t.play("damage Valka 1 crit")
    assert t.who("Valka").dead and "dies (dying 4 [15])" in lines[-1]


def test_dying_lost_by_healing_or_at_0_gives_wounded_and_at_0_hp_it_stays_unconscious():
    # pf2-combat.txt [16]
    t = Table(VAL, PEL, ORC, options='end = "gm"')
    t.start(15, 10, 1)
    t.play("damage Valka 20")
    lines = t.play("heal Valka 4")
    v = t.who("Valka")
    assert (v.dying, v.wounded, v.hp) == (0, 1, 4) and "unconscious" not in v.marks
    assert any("wakes up" in x for x in lines)
    t.play("damage Valka 20")  # dying 1 + wounded 1
    assert v.dying == 2
    t.to("Orc")
    t.play("next", d20(20, "recovery"))  # dying 2 -> 0: wounded 2, unconscious at 0 HP
    assert (v.dying, v.wounded, v.hp) == (0, 2, 0) and "unconscious" in v.marks
    t.play("recover Valka wounded")  # treated and healed: the GM clears it
    assert v.wounded == 0
    t.play("recover Valka unconscious")  # the GM wakes it, at 0 HP
    assert "unconscious" not in v.marks and v.hp == 0


def test_doomed_drops_by_1_after_a_full_nights_rest():
    # pf2-combat.txt [17]: outside the encounter, a campaign's night's rest
    from host.rulesets.pf2.campaign import PF2Carry

    party = {"Pell": {"name": "Pell", "hp": 16, "hp_now": 5, "doomed": 2, "wounded": 1}}
    after, lines = PF2Carry().rest("night", party, {})
    assert after["Pell"] == {"hp_now": 5, "doomed": 1}  # wounded stays: the GM clears it [16]
    assert lines == ["Pell: doomed 2 -> 1"]


def test_doomed_lowers_the_dying_value_that_kills():
    # pf2-combat.txt [17]
    t = Table(VAL, ORC, options='end = "gm"')
    t.start(15, 1)
    t.who("Valka").hero = 0
    t.play("condition Valka doomed 2")
    t.play("damage Valka 20 crit")  # dying 2 = 4 - doomed 2
    assert t.who("Valka").dead


def test_an_unconscious_creature_has_minus_4_ac_is_off_guard_prone_and_takes_no_actions():
    # pf2-combat.txt [18]: AC 18 - 4 (status) - 2 (off-guard, circumstance) = 12
    t = Table(VAL, ORC, options='end = "gm"')
    t.start(1, 15)
    t.play("damage Valka 20")
    line = t.play("strike Orc Valka", d20(1))[0]
    assert "vs AC 12" in line and "prone" in t.who("Valka").marks
    t.play("next", d20(15, "recovery"))
    assert t.who("Valka").actions == 0
    assert "unconscious" in t.refused("act Valka Stride")
    assert "unconscious" in t.refused("react Valka Shield")


def test_an_unconscious_creature_drops_what_it_holds_and_has_minus_4_to_reflex():
    # pf2-combat.txt [18]: however it falls unconscious (knocked out, or the condition)
    t = Table(VAL, PEL, ORC, options='end = "gm"')
    t.start(15, 10, 1)
    lines = t.play("damage Valka 20")
    assert any("falls prone and drops what it holds" in x and "[18]" in x for x in lines)
    line = t.play("save Valka ref dc=10", d20(10, "save"))[-1]
    assert "d20 10 +1 = 11" in line  # Reflex +5, -4 status
    lines = t.play("heal Valka 5")
    assert any("wakes up" in x and "dropped" in x for x in lines)
    lines = t.play("condition Pell unconscious")  # in its turn's place: no actions, no reaction
    p = t.who("Pell")
    assert "prone" in p.marks and any("drops what it holds" in x for x in lines)
    t.play("next")
    assert (p.actions, p.reaction) == (0, False)
    line = t.play("strike Orc Pell reaction", d20(1))[0]
    assert "vs AC 10" in line  # AC 16 - 4 status - 2 off-guard


def test_conditions_with_values_do_what_the_rules_say():
    # pf2-combat.txt [19]
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("condition Valka frightened 2")
    t.play("condition Valka sickened 1")
    assert "d20 10 +2 = 12" in t.play("save Valka will dc=10", d20(10, "save"))[-1]  # worst status
    t.play("next")  # the Orc's turn
    assert t.who("Valka").values == {"frightened": 1, "sickened": 1}  # sickened stays
    t.play("condition Orc clumsy 2")
    assert "vs AC 14" in t.play("strike Valka Orc reaction", d20(1))[0]
    t.play("next")  # Valka's, round 2
    t.play("condition Orc stunned 4")
    t.play("condition Orc slowed 1")
    t.play("next")  # the Orc's: stunned takes its 3 actions, stunned 1 left
    assert (t.who("Orc").actions, t.who("Orc").values.get("stunned")) == (0, 1)
    assert "stunned" in t.refused("act Orc Stride")
    t.play("next")
    t.play("condition Valka quickened")
    t.play("next")  # stunned 1 takes 1, which counts toward slowed 1: 2 actions
    assert t.who("Orc").actions == 2 and "stunned" not in t.who("Orc").values
    t.play("next")
    assert t.who("Valka").actions == 4  # quickened: a fourth
    t.play("condition Orc prone")  # off-guard: -2 circumstance, with clumsy 2's -2 status
    assert "vs AC 12" in t.play("strike Valka Orc", d20(1))[0]
    t.play("condition Valka prone")  # -2 circumstance to its attacks, sickened 1 still
    assert "d20 1 +4 = 5" in t.play("strike Valka Orc map=0", d20(1))[0]
    t.play("stand Valka")
    assert "prone" not in t.who("Valka").marks and t.who("Valka").actions == 1


def test_each_valued_condition_lowers_the_checks_and_dcs_the_rules_name():
    # pf2-combat.txt [19]: frightened all checks and DCs (AC too); clumsy Reflex; drained
    # Fortitude; stupefied Will; only the worst status penalty [10]
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("condition Orc frightened 1")
    assert "vs AC 15" in t.play("strike Valka Orc map=0", d20(2))[0]  # 16 - 1
    t.play("condition Valka clumsy 2")
    assert "d20 10 +3 = 13" in t.play("save Valka ref dc=10", d20(10, "save"))[-1]  # 5 - 2
    assert "d20 10 +7 = 17" in t.play("save Valka fort dc=10", d20(10, "save"))[-1]  # none
    t.play("condition Valka drained 1")
    assert "d20 10 +6 = 16" in t.play("save Valka fort dc=10", d20(10, "save"))[-1]  # 7 - 1
    t.play("condition Valka stupefied 3")
    assert "d20 10 +1 = 11" in t.play("save Valka will dc=10", d20(10, "save"))[-1]  # 4 - 3
    t.play("condition Valka frightened 1")  # status -1 beside stupefied's -3: -3 stands
    assert "d20 10 +1 = 11" in t.play("save Valka will dc=10", d20(10, "save"))[-1]


def test_dazzled_attackers_and_invisible_targets_take_a_flat_check_first():
    # pf2-combat.txt [19] [10]: dazzled, DC 5 to target anything; invisible, DC 11
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("condition Valka dazzled")
    assert "DC 5: failure, the Strike is lost" in t.play("strike Valka Orc", flat(4))[0]
    t.play("recover Valka dazzled")
    t.play("condition Orc invisible")
    assert "DC 11: failure" in t.play("strike Valka Orc", flat(10))[0]


def test_sickened_retches_stupefied_casts_with_a_flat_check_drained_lowers_the_maximum():
    # pf2-combat.txt [19]
    t = Table(VAL, PEL, ORC)
    t.start(15, 10, 1)
    t.play("condition Valka sickened 3")
    lines = t.play("retch Valka dc=15", d20(9, "save"))  # 9 + 7 - 3 = 13: a failure
    assert "sickened 3 -> 3" in lines[0]
    lines = t.play("retch Valka dc=15", d20(18, "save"))  # 22: a success
    assert "sickened 3 -> 2" in lines[0] and t.who("Valka").actions == 1
    t.play("condition Valka stupefied 2")
    lines = t.play("act Valka spell", flat(6))
    assert "flat check d20 6 vs DC 7: failure, the spell is lost" in lines[-1]
    t.play("condition Pell drained 2")  # level 2: the maximum 16 - 4 = 12
    assert t.who("Pell").hp == 12
    t.play("damage Pell 5")
    t.play("heal Pell 10")
    assert t.who("Pell").hp == 12
    t.play("condition Orc restrained")
    t.play("next")
    t.play("next")
    assert "restrained" in t.refused("strike Orc Valka")


def test_grabbed_and_restrained_immobilize_restrained_stops_manipulating_paralyzed_acting():
    # pf2-combat.txt [19]: grabbed: off-guard, immobilized; restrained: also no attack or
    # manipulate action but to Escape; paralyzed: off-guard, no action (nor reaction)
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("condition Valka grabbed")
    assert "immobilized" in t.refused("act Valka Stride")
    assert "immobilized" in t.refused("act Valka Tumble Through move")
    t.play("act Valka Interact")  # a grabbed creature may manipulate
    t.play("act Valka Escape attack")
    t.play("next")
    assert "vs AC 16" in t.play("strike Orc Valka", d20(2))[0]  # AC 18 - 2 off-guard
    t.play("recover Valka grabbed")
    t.play("condition Valka restrained")
    t.play("next")
    assert "immobilized" in t.refused("act Valka Step")
    assert "no manipulate actions but to Escape" in t.refused("act Valka Interact")
    assert "no attacks" in t.refused("act Valka Shove attack")
    t.play("act Valka Escape attack")
    t.play("recover Valka restrained")
    t.play("act Valka Stride")
    t.play("condition Orc paralyzed")
    assert "vs AC 14" in t.play("strike Valka Orc", d20(2))[0]  # AC 16 - 2 off-guard
    assert "paralyzed" in t.refused("react Orc Attack of Opportunity")
    t.play("next")
    assert t.who("Orc").actions == 0 and "paralyzed" in t.refused("act Orc Stride")


def test_a_condition_held_again_takes_the_higher_value_and_a_lower_changes_nothing():
    # pf2-combat.txt [20]
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("condition Valka frightened 2")
    t.play("condition Valka frightened 1")
    assert t.who("Valka").values["frightened"] == 2
    t.play("condition Valka frightened 3")
    assert t.who("Valka").values["frightened"] == 3
    t.play("condition Valka prone")
    t.play("condition Valka prone")
    assert t.who("Valka").marks.count("prone") == 1


# -- Changing the order ---------------------------------------------------------------------


def test_ready_costs_2_actions_keeps_the_penalty_it_had_and_lapses_at_its_next_turn():
    # pf2-combat.txt [21]
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("strike Valka Orc", d20(1))
    t.play("ready Valka Strike when the Orc comes close")
    assert t.who("Valka").actions == 0
    t.play("next")
    line = t.play("strike Valka Orc readied", d20(10))
    assert "-5: d20 10 +2 = 12" in " ".join(line) and not t.who("Valka").reaction
    t.play("next")
    t.play("ready Valka Strike again")
    t.play("next")
    lines = t.play("next")
    assert "readied action was not taken and is lost [21]" in " ".join(lines)


def test_delay_leaves_the_order_returns_after_another_for_good_and_a_whole_round_is_lost():
    # pf2-combat.txt [22]
    t = Table(VAL, PEL, ORC)
    t.start(15, 10, 1)  # Valka 20, Pell 13, Orc 3
    t.play("persistent Valka fire 1d6")
    lines = t.play("delay Valka", ("persistent", (2,)), flat(3))
    assert any("persistent fire damage" in x for x in lines)  # its turn's end harm, now
    assert t.turn() == ["Pell"]
    assert "delaying" in t.refused("react Valka Shield")  # no reactions while delayed
    t.play("next")
    assert t.turn() == ["Orc"]
    t.play("return Valka")  # at the end of the Orc's turn
    assert t.turn() == ["Valka"] and t.who("Valka").actions == 3
    t.play("next", ("persistent", (1,)), flat(20))
    seen = []
    for _ in range(3):
        seen.append(t.turn()[0])
        t.play("next")
    assert seen == ["Pell", "Orc", "Valka"]  # right after the Orc from now on
    t = Table(VAL, PEL, ORC)
    t.start(15, 10, 1)
    t.play("delay Valka")
    t.play("next")
    t.play("next")  # round 2 reaches its old place: the delayed turn is lost, it acts
    assert t.turn() == ["Valka"] and t.game.round == 2 and t.game.delayed == []


# -- Time and effects ------------------------------------------------------------------------


def test_durations_count_on_the_makers_turn_even_after_the_maker_has_left():
    # pf2-combat.txt [23]
    t = Table(VAL, PEL, ORC)
    t.start(15, 10, 1)
    t.play("next")
    t.play("effect Orc Marked rounds=1")  # made on Pell's turn: ends as Pell's next begins
    t.play("next")
    t.play("next")
    assert t.effects("Orc") == ["Marked"]  # Valka's turn: not yet
    t.play("effect Pell Guarded until=start of=Valka")
    t.play("next")
    assert t.effects("Orc") == []
    t.play("remove Valka gone")
    t.play("next")
    t.play("next")  # round 3: Valka's turn would come
    assert t.effects("Pell") == []


def test_an_effect_made_off_its_makers_turn_counts_down_on_the_makers_turns():
    # pf2-combat.txt [23]: made by Pell's reaction on the Orc's turn, 1 round (of=Pell)
    t = Table(VAL, PEL, ORC)
    t.start(15, 10, 1)  # Valka, Pell, the Orc
    t.to("Orc")
    t.play("effect Valka Shielded rounds=1 of=Pell")
    t.play("next")  # round 2: Valka's turn (a plain rounds=1 would end here)
    assert t.effects("Valka") == ["Shielded"]
    t.play("next")  # Pell's turn begins: counted down to 0, it ends
    assert t.effects("Valka") == []
    t.play("effect Orc Hexed rounds=2 of=Pell")  # on Pell's own turn: not counted
    t.play("remove Pell gone")  # the maker leaves: its turns still count where they would
    ended = None
    for _ in range(8):
        t.play("next")
        if t.effects("Orc") == [] and ended is None:
            ended = (t.game.round, t.turn())
    assert ended == (4, ["Orc"])  # Pell's place passed in round 3, then in round 4


def test_a_sustained_effect_lasts_to_the_end_of_the_makers_next_turn_unless_sustained():
    # pf2-combat.txt [24]
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("effect Orc Glow until=end of=Valka")
    t.play("next")
    t.play("next")
    assert t.effects("Orc") == ["Glow"]
    t.play("sustain Valka Orc Glow")
    assert t.who("Valka").actions == 2
    t.play("next")
    t.play("next")
    assert t.effects("Orc") == ["Glow"]  # sustained: to the end of this turn
    t.play("next")
    assert t.effects("Orc") == []


def test_a_sustained_effect_lasts_10_minutes_at_most_unless_it_says_otherwise():
    # pf2-combat.txt [24]: up to 10 minutes, 100 rounds of 6 seconds (docs/rulesets/pf2.md):
    # its first round is its own and each Sustain adds one, so the 99th Sustain is the last
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("effect Orc Glow until=end of=Valka")
    for _ in range(99):
        t.play("next")
        t.play("next")
        t.play("sustain Valka Orc Glow")
    t.play("next")
    t.play("next")
    assert t.game.round == 101 and t.effects("Orc") == ["Glow"]
    assert "100 rounds in all" in t.refused("sustain Valka Orc Glow")
    t.play("next")  # not sustained: it ends with Valka's turn
    assert t.effects("Orc") == []
    t.play("next")
    t.play("effect Orc Glow until=end of=Valka")  # put on anew: counted anew
    # (a Sustain on the turn it is put on extends nothing: refused, pf2-blind-audit-2.md 1)
    assert "already lasts" in t.refused("sustain Valka Orc Glow limit=3")
    for _ in range(2):
        t.play("next")
        t.play("next")
        t.play("sustain Valka Orc Glow limit=3")  # the effect says 3 rounds
    t.play("next")
    t.play("next")
    assert "3 rounds in all" in t.refused("sustain Valka Orc Glow limit=3")


def test_persistent_damage_comes_at_the_end_of_the_turn_then_a_dc_15_flat_check_ends_it():
    # pf2-combat.txt [25]
    t = Table(VAL, ORC)
    t.start(15, 1)
    t.play("persistent Valka fire 1d6")
    t.play("persistent Valka fire 1d4")  # the same type: the higher stays
    assert t.who("Valka").persistent == {"fire": "1d6"}
    t.play("next", ("persistent", (4,)), flat(14))  # 14 < 15: it goes on
    assert t.who("Valka").hp == 16 and t.who("Valka").persistent
    t.play("next")
    t.play("persistent Valka fire assist")
    t.play("next", ("persistent", (1,)), flat(10))  # assisted: DC 10, it ends
    assert t.who("Valka").persistent == {}
    t.play("next")
    t.play("persistent Valka fire 1d6 assist")
    t.play("next", ("persistent", (1,)), flat(9))  # assisted: 9 < 10, it goes on
    t.play("next")
    lines = t.play("next", ("persistent", (1,)), flat(10))  # the help was for one check
    check = next(x for x in lines if "flat check against persistent" in x)
    assert "vs DC 15" in check and t.who("Valka").persistent == {"fire": "1d6"}


def test_a_hero_point_rerolls_a_check_or_all_of_them_save_a_dying_character():
    # pf2-combat.txt [26]
    t = Table(VAL, ORC, options='end = "gm"')
    t.start(15, 1)
    lines = t.play("save Valka fort dc=15 hero", d20(2, "save"), d20(17, "reroll"))
    assert "2 rerolled, 17 stands" in lines[0] and "success" in lines[1]
    assert t.who("Valka").hero == 0
    t.who("Valka").hero = 2
    t.play("next")
    assert "right after it" in t.refused("hero Valka")  # no check of hers just made
    t.play("damage Valka 20 crit")
    t.play("damage Valka 5 crit")  # dying 4: it would die
    assert t.who("Valka").dead
    lines = t.play("hero Valka")
    v = t.who("Valka")
    assert not v.dead and (v.dying, v.wounded, v.hp, v.hero) == (0, 0, 0, 0)
    t = Table(VAL, ORC, options='end = "gm"')  # or at the start of its turn while dying
    t.start(1, 15)  # the Orc first
    t.play("damage Valka 20")
    assert "start of its turn" in t.refused("hero Valka")  # on the Orc's turn
    t.play("next", d20(5, "recovery"))  # 5 vs DC 11: dying 2
    t.play("hero Valka")
    assert (t.who("Valka").dying, t.who("Valka").wounded, t.who("Valka").hero) == (0, 0, 0)


def test_a_hero_point_rerolls_a_check_after_it_is_rolled_and_the_new_result_stands():
    # pf2-combat.txt [26]: the roll seen, `hero NAME` rerolls it; what the first did is undone
    t = Table(VAL, PEL, ORC)
    t.start(15, 10, 1)
    t.play("strike Valka Orc", d20(2))  # 9 vs AC 16: a miss
    lines = t.play("hero Valka", d20(17, "reroll"), dmg(5))  # 24: a success, 9 damage
    assert "2 rerolled, 17 stands" in lines[0] and "success" in lines[1]
    assert t.who("Orc").hp == 11 and t.who("Valka").hero == 0
    assert t.who("Valka").actions == 2  # the Strike's action, spent once
    assert "no Hero Points" in t.refused("hero Valka")
    t.who("Valka").hero = 1
    t.play("strike Valka Orc", d20(18), dmg(6))  # 20 vs 16: 10 damage
    assert t.who("Orc").hp == 1
    t.play("hero Valka", d20(1, "reroll"))  # worse, and it stands: the damage taken back
    assert t.who("Orc").hp == 11 and t.who("Valka").stats["hits"] == 1
    t.play("next")
    t.who("Pell").hero = 1
    t.play("save Pell ref dc=15 basic=2d6 type=fire", d20(8, "save"), dmg(3, 3))  # failure
    assert t.who("Pell").hp == 10
    t.play("hero Pell", d20(20, "reroll"), dmg(3, 3))  # a critical success: no damage
    assert t.who("Pell").hp == 16 and t.who("Pell").hero == 0
    t.who("Pell").hero = 1
    t.play("strike Pell Orc", d20(2))
    t.play("act Pell Interact")
    assert "right after it" in t.refused("hero Pell")  # another action came between


def test_the_fight_ends_by_itself_once_one_side_has_nobody_conscious():
    # pf2-combat.txt [27]
    t = Table(VAL, ORC)
    t.start(15, 1)
    lines = t.play("damage Orc 40")
    assert t.game.over == "Party" and lines[-1] == "the fight is over: Party won"


def test_option_end_gm_leaves_the_end_to_the_game_master():
    # pf2-combat.txt [27]: ending it by itself is an option
    t = Table(VAL, ORC, options='end = "gm"')
    t.start(15, 1)
    t.play("damage Orc 40")
    assert t.game.over is None
    t.play("finish Party")
    assert t.game.over == "Party"


def test_a_return_from_delay_counts_no_round_of_the_makers_effects():
    # pf2-combat.txt [22] [23]: its durations counted down as its turn first began; the
    # turn it takes back from Delay is that same turn
    t = Table(VAL, PEL, ORC)
    t.start(15, 10, 1)  # Valka, Pell, the Orc
    t.play("effect Orc Hexed rounds=2 of=Valka")
    t.play("next")
    t.to("Valka")  # round 2: 1 round left
    assert t.game.round == 2 and t.effects("Orc") == ["Hexed"]
    t.play("delay Valka")
    t.play("next")
    t.play("return Valka")  # after the Orc's turn: no round counted
    assert t.turn() == ["Valka"] and t.effects("Orc") == ["Hexed"]
    t.play("next")  # round 3: Pell, the Orc, then Valka
    t.play("next")
    assert t.effects("Orc") == ["Hexed"]
    t.play("next")
    assert t.turn() == ["Valka"] and t.effects("Orc") == []


def test_delaying_ends_the_delayers_turn_for_its_effects_and_starts_the_next_one():
    # pf2-combat.txt [22] [23]: the effects of the turn's end end as it Delays
    t = Table(VAL, PEL, ORC)
    t.start(15, 10, 1)
    t.play("effect Orc Marked until=end of=Valka")  # to the end of Valka's next turn
    # (`t.to` alone stayed in round 1, where a Delay ended Marked a turn early, which this
    # test took for right: pf2-blind-audit-2.md, finding 4)
    t.play("next")
    t.to("Valka")  # round 2
    t.play("effect Orc Warded until=start of=Pell")
    assert t.effects("Orc") == ["Marked", "Warded"]
    t.play("delay Valka")
    assert t.effects("Orc") == []  # Valka's turn is over, Pell's has begun
    t.play("effect Pell Braced until=end of=Orc")  # on Pell's turn: the Orc's next ends it
    t.play("next")
    t.play("return Valka")  # the Orc's turn ends, Valka's begins
    assert t.effects("Pell") == [] and t.turn() == ["Valka"]
