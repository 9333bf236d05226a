"""The forms ruleset, one test per rule of forms-turns-rounds-encounters.txt (each cites the
line it tests). The dice are entered (`dice FACE ...`), so every outcome is the rule's."""

from __future__ import annotations

import pytest
from forms_fixtures import HALL, HIT, MISS, fight, hall, run, seen

from host.core.interface import IllegalAction
from host.rulesets.forms.encounter_schema import ATTRIBUTES

# ---------------------------------------------------------------- time and encounters


def test_an_encounter_is_the_social_actions_made_in_one_area() -> None:
    # forms-turns-rounds-encounters.txt:8
    s = hall()
    assert s.game.encounters[-1]["kind"] == "social"
    lines = run(s, f"dice {HIT}", "check Ann Genius", "next", "area Crypt")
    assert "encounter 1 (social) closes" in lines
    assert "encounter 2 opens: social in Crypt (round 2)" in lines
    assert [e["area"] for e in s.game.encounters] == ["Hall", "Crypt"]
    # Moving on while a check of the round waits is refused.
    run(s, "check Ann Genius")
    with pytest.raises(IllegalAction, match="still to roll"):
        s.execute("area Attic")


def test_combat_opens_an_encounter_in_a_new_round_and_closes_it_when_complete() -> None:
    # forms-turns-rounds-encounters.txt:9
    # Blue's units have 1 health (set in the file: a game is rebuilt by replay from it).
    s = hall(
        text=HALL.replace('name = "Cy"', 'name = "Cy"\nhealth = 1').replace(
            'name = "Di"', 'name = "Di"\nhealth = 1'
        )
    )
    run(s, f"dice {HIT}", "check Ann Genius", "next")  # round 1 had a check
    fight(s)
    combat = s.game.encounters[-1]
    assert combat["kind"] == "combat" and combat["opened"] == 2 and s.game.round == 2
    assert s.game.encounters[0]["closed"] == 1
    # Blue falls: the combat is complete, and its encounter closes.
    run(s, "pass", "pass", "pass")  # steps 2 to 4
    run(s, f"dice {HIT}", "attack Ann Cy", f"dice {HIT}", "attack Bo Di")
    run(s, f"dice {MISS}", f"dice {MISS}", "pass")  # Di's and Cy's Dodge rolls end step 5
    run(s, "pass")  # step 6: nobody Aims or Blocks; step 7 takes Blue down
    assert s.game.winner == 0 and s.ruleset.winner(s.game) == "Red"
    assert s.game.encounters[1]["closed"] == 2 and s.game.mode == "over"


def test_a_chance_to_gain_a_form_is_an_encounter_of_its_own() -> None:
    # forms-turns-rounds-encounters.txt:10
    s = hall()
    lines = run(s, "gain Bo Flurry")
    assert "Bo gains the Form Flurry" in lines
    assert [e["kind"] for e in s.game.encounters] == ["social", "form", "social"]
    assert all(e["closed"] for e in s.game.encounters[:2])
    assert "Flurry" in s.game.units[1].known
    with pytest.raises(IllegalAction, match="already knows"):
        s.execute("gain Bo Flurry")


def test_a_round_ends_when_every_eligible_unit_has_finished_then_effects_left_over() -> None:
    # forms-turns-rounds-encounters.txt:26
    s = hall()
    fight(s)
    ann = s.game.units[0]
    ann.health = 2
    run(s, "pass")  # step 2
    run(s, "form Ann Mend")  # step 3: Mend, to step 7, heals as the round ends
    assert ann.health == 2
    run(s, "pass", "pass", "pass")  # steps 3 (the others), 4, 5 (nobody attacks)
    assert s.game.step == 8 and s.game.round == 1  # combat took over the unused round 1
    # Still in the round while anyone eligible has not finished step 8.
    run(s, "done Di", "done Cy", "done Bo")
    assert s.game.round == 1 and ann.health == 2
    lines = run(s, "done Ann")
    assert lines.index("Ann heals 2 (Mend): 4") < lines.index("combat round 1 is over")
    assert s.game.round == 2 and s.game.step == 2  # all Aware: step 1 has nobody


def test_all_turns_of_a_round_happen_at_once_except_movement() -> None:
    # forms-turns-rounds-encounters.txt:26
    s = hall()
    fight(s)
    # Movement goes in order: Di first.
    with pytest.raises(IllegalAction, match="Di moves before Ann"):
        s.execute("move Ann")
    run(s, "pass", "pass", "pass")
    # Step 5: any order at all, the last of the movement order first.
    run(s, f"dice {MISS}", "attack Ann Cy", f"dice {MISS}", "attack Di Bo")
    assert s.game.step == 5 and sorted(s.game.name(i) for i in s.game.to_act()) == ["Bo", "Cy"]


# ---------------------------------------------------------------- social rounds


def test_an_active_form_is_declared_first() -> None:
    # forms-turns-rounds-encounters.txt:34
    s = hall()
    run(s, "check Bo Genius")
    before = seen(s)
    with pytest.raises(IllegalAction, match="declared first, before any check of the round"):
        s.execute("form Ann Charm")
    assert seen(s) == before
    # Declared first, it counts: Passion 2 dice + 1 from Charm.
    s = hall()
    assert run(s, "form Ann Charm") == ["Ann declares the Active Form Charm (+1 Passion dice)"]
    run(s, "check Ann Passion", "dice 10 1 1 9")
    assert run(s, "next")[0].startswith("Ann rolls Passion [10 1 1]: 1 success")


def test_a_challenge_check_is_rolled_with_the_challenging_unit() -> None:
    # forms-turns-rounds-encounters.txt:35
    s = hall()
    run(s, "check Ann Passion vs=Cy:Resolve", "dice 10 10", "dice 10 1")
    lines = run(s, "next")
    assert lines[0] == "Ann rolls Passion [10 10]: 2 successes; Cy rolls Resolve [10 1]: 1 success"
    assert lines[1] == "Ann's Passion challenge succeeds"
    assert [r.who for r in s.game.last] == [0, 2]  # both dice rolled in one go


def test_an_environment_check_needs_its_difficulty() -> None:
    # forms-turns-rounds-encounters.txt:35
    s = hall()
    run(s, "check Bo Physique dc=2", "dice 10 1")
    assert run(s, "next")[0].endswith("the Physique check fails (needs 2)")
    run(s, "check Bo Physique", "dice 10 1")  # the file's difficulty: 1
    assert run(s, "next")[0].endswith("the Physique check succeeds")


def test_several_checks_go_in_attribute_order_whatever_the_entry_order() -> None:
    # forms-turns-rounds-encounters.txt:36-45
    s = hall()
    for attribute in reversed(ATTRIBUTES):
        s.execute(f"check Bo {attribute}")
    s.execute("check Ann Vitality")  # entered last, a Vitality check: after Bo's
    made = []
    while s.game.checks:
        c = s.game.checks[0]
        made.append((s.game.name(c.unit), c.attribute))
        assert (
            s.ruleset.state(s.game).slots[c.unit].counters[0] == ATTRIBUTES.index(c.attribute) + 1
        )
        s.execute("next")
    assert made == [("Bo", "Vitality"), ("Ann", "Vitality")] + [("Bo", a) for a in ATTRIBUTES[1:]]
    run(s, "check Bo Genius", "check Ann Vitality")
    with pytest.raises(IllegalAction, match="Ann's Vitality check comes first"):
        s.execute("roll Bo")


def test_a_combat_round_combines_with_a_social_round_as_the_disarmed_trap() -> None:
    # forms-turns-rounds-encounters.txt:21-23
    s = hall()
    run(s, "check Ann trap", "check Bo Passion", f"dice {MISS}")
    lines = run(s, "next")  # Genius comes after Passion: Bo's check first
    lines = run(s, f"dice {MISS}", "next")
    assert lines[-1] == "the trap springs: combat at once, Ann rolls Vitality to Dodge (step 5)"
    assert s.ruleset.state(s.game).phase == 4  # the board shows step 5
    lines = run(s, f"dice {MISS}", "next")
    assert "Ann takes 3 damage (3 left)" in lines[0]
    assert lines[-1] == "no foes: the combat is over, the social encounter goes on"
    assert s.game.mode == "social" and len(s.game.encounters) == 1


# ---------------------------------------------------------------- the combat round


def test_step_1_awareness_comes_from_insight_and_without_it_a_unit_skips_to_step_7() -> None:
    # forms-turns-rounds-encounters.txt:49, 54
    s = hall()
    run(s, "fight")
    assert s.game.step == 1 and len(s.game.to_act()) == 4
    assert run(s, f"dice {MISS}", "roll Di") == [
        "Di rolls Insight [1 1]: 0 successes: not Aware, on to step 7"
    ]
    for name in ("Bo", "Cy", "Ann"):
        run(s, f"dice {HIT}", f"roll {name}")
    run(s, "pass", "pass", "pass")  # steps 2, 3, 4
    assert s.game.step == 5 and 3 not in s.game.to_act()
    with pytest.raises(IllegalAction, match="Di has no part in step 5"):
        s.execute("attack Di Ann")


def test_step_2_checks_agility_for_the_newly_aware_and_declares_movement() -> None:
    # forms-turns-rounds-encounters.txt:55
    s = hall()
    lines = fight(s)
    assert "Ann rolls Agility [4 4 4]: 0 successes: top die 4" in lines
    assert s.game.step == 2
    run(s, "move Di", "done Cy")
    assert s.game.units[3].moved_at == 2 and s.game.units[2].moved_at == 0


def test_step_3_slow_form_goes_to_step_7() -> None:
    # forms-turns-rounds-encounters.txt:56
    s = hall()
    fight(s)
    run(s, "pass")
    lines = run(s, "form Bo Slow")
    assert lines[0] == "Bo declares Slow: steps 4, 5, 6 skipped, on to step 7"
    run(s, "pass")  # the others at step 3
    assert s.game.step == 4 and 1 not in s.game.to_act()  # no Fast Form for Bo
    assert s.game.units[1].path == {1, 2, 3, 7, 8}
    with pytest.raises(IllegalAction, match="Bo has declared Slow this round"):
        s.execute("form Bo Fast")


def test_step_4_fast_form_is_declared_after_step_3() -> None:
    # forms-turns-rounds-encounters.txt:57
    s = hall()
    fight(s)
    run(s, "pass")
    with pytest.raises(IllegalAction, match="Fast is declared at step 4"):
        s.execute("form Ann Fast")
    run(s, "pass")
    assert run(s, "form Ann Fast") == ["Ann declares Fast"]
    assert s.ruleset.state(s.game).slots[0].flags & (1 << 6)  # the board's "fast" mark


def test_step_5_rolls_attack_dice_and_the_targets_dodge_dice() -> None:
    # forms-turns-rounds-encounters.txt:58
    s = hall()
    fight(s)
    run(s, "pass", "pass", "pass")
    run(s, "dice 10 10 10", "attack Ann Cy", "dice 10 1", "attack Bo Cy")
    run(s, "dice 10 1", "attack Cy Ann", "dice 1", "dice 10 1", "dice 1 1", "dice 10 10")
    lines = run(s, "attack Di Bo")  # the last one: the targets' Dodge dice are rolled
    assert lines[:8] == [
        "Di rolls Agility [1]: 0 successes to attack Bo",
        "Cy rolls Vitality [10 1]: 1 success to Dodge",
        "Bo rolls Vitality [1 1]: 0 successes to Dodge",
        "Ann rolls Vitality [10 10]: 2 successes to Dodge",
        "Ann's attack hits Cy",
        "Bo's attack misses Cy",
        "Cy's attack misses Ann",
        "Di's attack misses Bo",
    ]
    assert s.game.step == 6


def test_step_6_aim_adds_and_block_takes_off() -> None:
    # forms-turns-rounds-encounters.txt:59
    s = hall()
    fight(s)
    run(s, "pass", "pass", "pass")
    run(s, f"dice {HIT}", "attack Ann Cy", f"dice {MISS}", "pass")  # Cy's Dodge: 0
    assert s.game.step == 6 and sorted(s.game.to_act()) == [0, 2]
    with pytest.raises(IllegalAction, match="no hit on it to Block"):
        s.execute("block Ann")
    run(s, "dice 10 10", "aim Ann", "dice 10 1", "block Cy")
    # step 7: 2 damage + 2 Aim - 1 Block
    assert s.game.units[2].health == 6 - 3


def test_step_7_deals_and_receives_all_damage_at_once() -> None:
    # forms-turns-rounds-encounters.txt:60
    two = HALL
    for name in ("Ann", "Bo", "Cy", "Di"):  # 2 health each (in the file: replay keeps it)
        two = two.replace(f'name = "{name}"', f'name = "{name}"\nhealth = 2')
    s = hall(text=two)
    fight(s)
    run(s, "pass", "pass", "pass")
    run(s, f"dice {HIT}", "attack Ann Cy", f"dice {HIT}", "attack Cy Ann")
    run(s, f"dice {MISS}", f"dice {MISS}", "pass")  # the Dodge rolls end step 5
    lines = run(s, "pass")  # step 6
    damage = next(line for line in lines if line.startswith("step 7"))
    assert "Cy takes 2 (0 left)" in damage and "Ann takes 2 (0 left)" in damage
    assert s.game.units[0].down and s.game.units[2].down  # both fell: it was at once


def test_step_8_movement_only_for_a_unit_that_did_not_move_at_step_2() -> None:
    # forms-turns-rounds-encounters.txt:61
    s = hall()
    fight(s)
    run(s, "move Di", "pass", "pass", "pass", "pass")
    assert s.game.step == 8
    assert [s.game.name(i) for i in s.game.to_act()] == ["Cy", "Bo", "Ann"]
    with pytest.raises(IllegalAction, match="Di has no part in step 8"):
        s.execute("move Di")
    run(s, "move Cy")
    assert s.game.units[2].moved_at == 8


# ---------------------------------------------------------------- the movement order


def test_movement_goes_by_agility_low_to_high() -> None:
    # forms-turns-rounds-encounters.txt:51, 53
    s = hall()
    fight(s)
    assert [s.game.name(i) for i in s.game.order] == ["Di", "Cy", "Bo", "Ann"]
    assert s.game.order_reason(3) == (1, "Agility 1")  # Di alone at 1


def test_equal_agility_goes_by_the_top_die_and_ties_reroll_only_among_the_tied() -> None:
    # forms-turns-rounds-encounters.txt:51
    s = hall()
    # Bo and Cy both show a top die of 7; Di and Ann are not rerolled.
    lines = fight(s, ("5", "3 7", "7 2", "4 4 4", "9 1", "2 2"))
    assert "tied, rerolled: Bo top die 9, Cy top die 2" in lines
    assert [s.game.name(i) for i in s.game.order] == ["Di", "Cy", "Bo", "Ann"]
    assert s.game.units[3].chain == [5] and s.game.units[0].chain == [4]
    assert s.game.order_reason(2) == (2, "Agility 2, top die 7 tied, rerolls 2")


def test_the_order_is_remade_when_a_unit_first_becomes_aware() -> None:
    # forms-turns-rounds-encounters.txt:55, 61
    s = hall()
    run(s, "fight", f"dice {MISS}", "roll Cy")  # Cy not Aware
    run(s, f"dice {HIT}", f"dice {HIT}", f"dice {HIT}", "roll Di", "roll Bo", "dice 5")
    run(s, "dice 3 1", "dice 4 4 4", "roll Ann")
    # Cy has no Agility roll yet: it moves first of the Agility 2s.
    assert [s.game.name(i) for i in s.game.order] == ["Di", "Cy", "Bo", "Ann"]
    assert s.game.order_reason(2)[1] == "Agility 2, no Agility roll yet"
    run(s, "pass", "pass", "pass", f"dice {HIT}", "attack Ann Cy", "pass")  # Cy: no Dodge
    run(s, "dice 1 1", "pass")  # step 6; at step 7 Cy, attacked, is Aware: Agility, step 8
    assert s.game.step == 8 and s.game.units[2].chain == [1]
    assert [s.game.name(i) for i in s.game.order] == ["Di", "Cy", "Bo", "Ann"]
    assert s.game.order_reason(2)[1] == "Agility 2, top die 1"


def test_the_explainer_names_the_reason_for_each_position() -> None:
    # forms-turns-rounds-encounters.txt:51
    s = hall()
    fight(s)
    assert s.execute("order") == [
        "1. Di (Agility 1)",
        "2. Cy (Agility 2, top die 6)",
        "3. Bo (Agility 2, top die 7)",
        "4. Ann (Agility 3)",
    ]
    st = s.ruleset.state(s.game)
    assert list(st.order[:4]) == [3, 2, 1, 0] and list(st.order_reason[:4]) == [1, 0, 0, 1]


# ---------------------------------------------------------------- Forms


def test_a_form_is_data_that_can_skip_or_add_steps() -> None:
    # forms-turns-rounds-encounters.txt:62
    s = hall()
    fight(s)
    run(s, "pass", "pass", "form Ann Flurry", "pass")
    assert s.game.step == 5
    run(s, f"dice {MISS}", "attack Ann Cy")
    assert 0 in s.game.to_act()  # a second attack: step 5 added
    run(s, f"dice {MISS}", "attack Ann Di")
    assert 0 not in s.game.to_act()
    assert [a.attacker for a in s.game.attacks] == [0, 0]


def test_a_unit_that_skips_step_5_rolls_no_dodge_dice() -> None:
    # forms-turns-rounds-encounters.txt:54, 56, 58 (Slow and no Awareness skip step 5)
    s = hall()
    run(s, "fight", f"dice {MISS}", "roll Cy")  # Cy not Aware: steps 2..6 skipped
    for name in ("Di", "Bo", "Ann"):
        run(s, f"dice {HIT}", f"roll {name}")
    run(s, "pass", "form Di Slow", "pass", "pass")  # step 2; step 3: Di in Slow Form
    lines = run(s, f"dice {MISS}", "attack Ann Cy", f"dice {MISS}", "attack Bo Di")
    assert "Di is in Slow: no Dodge roll (step 5 skipped)" in lines
    assert "Cy is not Aware: no Dodge roll (step 5 skipped)" in lines
    assert s.game.dodges == {2: 0, 3: 0} and not s.game.attacks[0].hit  # 0 against 0


def test_a_form_can_change_the_movement_order() -> None:
    # forms-turns-rounds-encounters.txt:62 (a Form may change your Turn Order)
    s = hall()
    fight(s)
    run(s, "pass")
    lines = run(s, "form Cy Lurk")  # step 3: Cy moves last this round, Agility or not
    assert lines[-1] == (
        "movement order: Di (Agility 1); Bo (Agility 2, top die 7); Ann (Agility 3);"
        " Cy (Lurk: moves last)"
    )
    assert [s.game.name(i) for i in s.game.order] == ["Di", "Bo", "Ann", "Cy"]
    assert s.game.order_reason(2) == (1, "Lurk: moves last")
    run(s, "pass", "pass", "pass")  # to step 8: Cy moves last
    assert [s.game.name(i) for i in s.game.to_act()] == ["Di", "Bo", "Ann", "Cy"]
    run(s, "pass")  # the round is over: the order is Agility's again
    assert [s.game.name(i) for i in s.game.order] == ["Di", "Cy", "Bo", "Ann"]
