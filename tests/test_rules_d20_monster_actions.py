"""d20's monsters' own actions as the rules text has them: save-based actions (the target's
save against a DC [10], the damage halved or none on a success [12]), a multiattack taken
as one action [4], a recharge rolled as the creature's turn starts [4], immunity beside
resistance and vulnerability [12], damage of several types as one source [21], legendary
actions with their costs [27], Legendary Resistance on a failed save [10] and condition
immunities [23]. The dice of every roll are given (d20_fixtures.py); the stat lines are
typed here, as a game master would (the bestiary's are tests/test_d20_bestiary.py).
Rules: d20-srd-combat.txt."""

from __future__ import annotations

from d20_fixtures import ANA, BO, Table, d20, dmg, save

BREATHER = """
[[creature]]
name = "Wyrm"
label = "WYR"
team = "Foes"
hp = 60
ac = 17
saves = { dex = 2, wis = 1 }
immune = ["fire"]
condition_immune = ["frightened"]
legendary = 3
legendary_resistance = 2
multiattack = ["Bite", "Claw", "Claw"]
  [[creature.attack]]
  name = "Bite"
  bonus = 6
  damage = "1d10+4"
  type = "piercing"
  extra = [["1d6", "fire"]]
  [[creature.attack]]
  name = "Claw"
  bonus = 6
  damage = "1d6+4"
  type = "slashing"
  [[creature.action]]
  name = "Fire Breath"
  save = "dex"
  dc = 13
  half = true
  damage = "4d6"
  type = "fire"
  recharge = 5
  [[creature.action]]
  name = "Crushing Gaze"
  save = "con"
  dc = 12
  damage = "2d8"
  type = "psychic"
  [[creature.legendary_action]]
  name = "Detect"
  [[creature.legendary_action]]
  name = "Tail Attack"
  attack = "Claw"
  [[creature.legendary_action]]
  name = "Wing Attack"
  cost = 2
  save = "dex"
  dc = 14
  damage = "1d6+4"
  type = "bludgeoning"
"""
GHOUL = """
[[creature]]
name = "Ghoul"
label = "GHL"
team = "Foes"
hp = 30
ac = 12
resist = ["nonmagical slashing"]
vulnerable = ["radiant"]
  [[creature.attack]]
  name = "Claws"
  bonus = 4
  damage = "2d4+2"
  type = "slashing"
"""


def wyrm_first() -> Table:
    t = Table(ANA, BO, BREATHER)
    t.start(5, 4, 20)  # the Wyrm 20, Ana 8, Bo 5
    assert t.turn() == ["Wyrm"]
    return t


def test_a_save_based_action_deals_its_damage_on_a_failure_and_half_rounded_down_on_a_success():
    # d20-srd-combat.txt [10][12]: each target saves against the DC; the damage is rolled once
    t = wyrm_first()
    lines = t.play("use WYR Fire Breath Ana,Bo", dmg(2, 2, 2, 1), save(5), save(13))
    assert "damage 7 (4d6 fire)" in lines
    assert "Ana's DEX save: d20 5 +0 = 5 vs DC 13: fails" in lines
    assert t.who("Ana").hp == 13
    assert "Bo takes half" in lines and t.who("Bo").hp == 12 - 3
    assert not t.who("Wyrm").action  # it was its action [4]


def test_a_save_based_action_without_half_deals_nothing_on_a_success():
    # d20-srd-combat.txt [10]: a success against an action that does not halve takes none
    t = wyrm_first()
    lines = t.play("use WYR Crushing Gaze Ana", dmg(3, 3), save(15))
    assert "Ana takes none of it" in lines and t.who("Ana").hp == 20


def test_an_action_with_a_recharge_waits_for_a_d6_at_the_start_of_its_turn():
    # d20-srd-combat.txt [4] (the turn's start), the SRD stat block's "Recharge 5-6"
    t = wyrm_first()
    t.play("use WYR Fire Breath Bo", dmg(1, 1, 1, 1), save(20))
    t.play("next")
    assert "recharges on a d6 of 5+" in t.refused("use WYR Fire Breath Ana")
    t.play("next")
    lines = t.play("next", ("recharge", (4,)))  # round 2: the Wyrm's turn starts
    assert "Wyrm's Fire Breath does not recharge: d6 4 (needs 5+)" in lines
    assert "recharges" in t.refused("use WYR Fire Breath Ana")
    t.play("next")
    t.play("next")
    lines = t.play("next", ("recharge", (5,)))
    assert "Wyrm's Fire Breath recharges: d6 5 (needs 5+)" in lines
    t.play("use WYR Fire Breath Ana", dmg(1, 1, 1, 1), save(1))
    assert t.who("Ana").hp == 20 - 4 and t.who("Bo").hp == 12 - 2


def test_a_multiattack_makes_its_attacks_in_order_with_one_action():
    # d20-srd-combat.txt [4]: one action; [8] each attack rolls against the AC
    t = wyrm_first()
    lines = t.play("multiattack WYR Ana", d20(12), dmg(3), dmg(2), d20(1), d20(10), dmg(1))
    assert lines[0] == "Wyrm's multiattack: bite, claw, claw"
    assert "Wyrm attacks Ana with Bite: d20 12 +6 = 18 vs AC 15: hit" in lines
    assert "Wyrm attacks Ana with Claw: d20 1 +6 = 7: a natural 1 misses" in lines
    assert t.who("Ana").hp == 20 - (3 + 4 + 2) - (1 + 4)
    assert "has used its action" in t.refused("attack WYR Bo")


def test_damage_of_two_types_is_one_source_each_type_resisted_or_not_on_its_own():
    # d20-srd-combat.txt [12] per type; [21] one source: one concentration save
    t = wyrm_first()
    t.play("concentrate Ana Bless")
    lines = t.play("attack WYR Ana Bite", d20(15), dmg(5), dmg(6), save(15))
    assert "damage 6 (1d6 fire)" in lines and t.who("Ana").hp == 20 - 9 - 6
    assert len([line for line in lines if line.startswith("concentration:")]) == 1
    lines = t.play("damage WYR 9 type=fire")
    assert "Wyrm is immune to fire: no damage" in lines and t.who("Wyrm").hp == 60


def test_immunity_resistance_from_nonmagical_weapons_and_vulnerability():
    # d20-srd-combat.txt [12]: resistance halves, vulnerability doubles; immunity takes all
    t = Table(ANA, GHOUL)
    t.start(10, 5)
    t.play("damage GHL 9 type=slashing")
    assert t.who("Ghoul").hp == 30 - 4
    t.play("damage GHL 9 type=slashing magic")  # a magic weapon: not resisted
    assert t.who("Ghoul").hp == 30 - 4 - 9
    t.play("damage GHL 4 type=radiant")
    assert t.who("Ghoul").hp == 30 - 4 - 9 - 8


def test_a_legendary_action_costs_what_its_stat_line_says():
    # d20-srd-combat.txt [27]: one at the end of another creature's turn, from those left
    t = wyrm_first()
    t.play("next")  # Ana's turn
    assert t.turn() == ["Ana"]
    lines = t.play("use WYR Wing Attack Ana as=legendary", dmg(2), save(3))
    assert t.who("Wyrm").legendary_left == 1 and t.who("Ana").hp == 20 - 6
    assert "end of this turn" in t.refused("legendary WYR Detect")
    assert any("1 left" in line for line in lines)
    t.play("next")  # Bo's turn
    assert "has 1 legendary actions left, not 2" in t.refused("use WYR Wing Attack Bo as=legendary")
    assert "`attack WYR TARGET Claw as=legendary`" in t.refused("legendary WYR Tail Attack")
    t.play("legendary WYR Detect")
    assert t.who("Wyrm").legendary_left == 0


def test_legendary_resistance_turns_a_failed_save_into_a_success_while_it_lasts():
    # d20-srd-combat.txt [10]: the save fails; the SRD's Legendary Resistance makes it succeed
    t = wyrm_first()
    lines = t.play("save WYR dex 15", save(3))
    assert lines[0].endswith("fails; Legendary Resistance makes it a success (1 left)")
    assert t.play("save WYR dex 15 nolr", save(3))[0].endswith("fails")
    t.play("save WYR dex 15", save(3))
    assert t.who("Wyrm").legendary_resistance == 0
    assert t.play("save WYR dex 15", save(3))[0].endswith("fails")


def test_a_creature_immune_to_a_condition_is_refused_it():
    # d20-srd-combat.txt [23]: the conditions; a stat line's condition immunities keep them off
    t = wyrm_first()
    said = t.refused("condition WYR frightened")
    assert "Wyrm is immune to frightened" in said
    t.play("condition WYR prone")
    assert t.conditions("Wyrm") == ["prone"]
