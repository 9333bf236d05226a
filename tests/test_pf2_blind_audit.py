"""The blind audit of the pf2 ruleset (issue #42): one test a rule of pf2-combat.txt
[1]-[27], written from the rules text and the docs alone (docs/rulesets/pf2.md,
docs/commands.md's pf2 section), played only through `turnlight run --json` with every
d20 and damage die entered (`dice from entered`, then `dice N`), so each outcome is exact.
docs/audits/pf2-blind-audit.md lists what the audit found."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

TURNLIGHT = [str(Path(sys.executable).with_name("turnlight"))]

ARIA = """
[[creature]]
name = "Aria"
label = "ARI"
team = "Party"
kind = "character"
level = 2
hp = 20
ac = 18
perception = 5
fort = 7
ref = 5
will = 4
  [[creature.strike]]
  name = "Longsword"
  bonus = 7
  damage = "1d8+4"
  type = "slashing"
  [[creature.strike]]
  name = "Dagger"
  bonus = 7
  damage = "1d4+2"
  type = "piercing"
  agile = true
"""

OGRE = """
[[creature]]
name = "Ogre"
label = "OGR"
team = "Foes"
kind = "monster"
level = 3
hp = 30
ac = 16
perception = 3
fort = 4
ref = 2
will = 1
resist = { fire = 5 }
weak = { cold = 3 }
immune = ["poison"]
  [[creature.strike]]
  name = "Club"
  bonus = 8
  damage = "1d6+2"
  type = "bludgeoning"
"""

BRAM = """
[[creature]]
name = "Bram"
label = "BRM"
team = "Party"
kind = "character"
level = 1
hp = 12
ac = 15
perception = 1
fort = 5
ref = 3
will = 6
  [[creature.strike]]
  name = "Mace"
  bonus = 5
  damage = "1d6+1"
  type = "bludgeoning"
"""

# Aria rolls 15 (20), the Ogre 10 (13): Aria acts first, then the Ogre.
START = ["dice from entered", "initiative", "dice 15", "dice 10"]


def run(
    tmp_path: Path,
    lines: list[str],
    creatures: str = ARIA + OGRE,
    options: str = "",
    keep_going: bool = False,
    whole: str = "",
) -> dict[str, Any]:
    enc = tmp_path / "audit.toml"
    enc.write_text(
        whole
        or 'ruleset = "pf2"\nname = "Audit"\nteams = ["Party", "Foes"]\n'
        + (f"[options]\n{options}\n" if options else "")
        + creatures
    )
    script = tmp_path / "audit.txt"
    script.write_text("\n".join(lines) + "\n")
    args = [*TURNLIGHT, "run", "--ruleset", "pf2", "--encounter", str(enc)]
    args += ["--script", str(script), "--json", "--seed", "1", "--keep-going"]
    out = subprocess.run(args, capture_output=True, text=True, timeout=60, check=False)
    state: dict[str, Any] = json.loads(out.stdout)
    if not keep_going:
        assert state["errors"] == [], state["errors"]
    return state


def who(state: dict[str, Any], name: str) -> dict[str, Any]:
    for c in state["creatures"]:
        if c["name"] == name:
            return c
    raise AssertionError(f"no creature {name}: {[c['name'] for c in state['creatures']]}")


def order(state: dict[str, Any]) -> list[str]:
    return [n for entry in state["order"] for n in entry["who"]]


def conds(state: dict[str, Any], name: str) -> list[str]:
    return list(who(state, name)["conditions"])


# Knocking out Aria, the party's only creature, would end the fight [27]: the GM ends it.
GM_ENDS = 'end = "gm"'


# [1] -------------------------------------------------------------------------------------


def test_rule_1_initiative_is_a_d20_plus_perception_and_a_group_rolls_once(tmp_path):
    """pf2-combat.txt [1]: d20 + Perception; identical creatures rolled once take one entry."""
    goblins = OGRE.replace('name = "Ogre"', 'name = "Gob"').replace(
        'label = "OGR"', 'label = "GB"\ncount = 2'
    )
    s = run(tmp_path, START, creatures=ARIA + goblins)
    assert s["order"][0] == {"total": 20, "who": ["Aria"]}
    assert s["order"][1]["total"] == 13
    assert s["order"][1]["who"] == ["Gob 1", "Gob 2"]


def test_rule_1_initiative_may_be_another_check_the_gm_names(tmp_path):
    """pf2-combat.txt [1]: Stealth for a creature sneaking up, instead of Perception."""
    s = run(tmp_path, ["dice from entered", "initiative check=Ogre:12", "dice 15", "dice 10"])
    assert s["order"][0] == {"total": 22, "who": ["Ogre"]}
    assert s["order"][1] == {"total": 20, "who": ["Aria"]}


# [2] -------------------------------------------------------------------------------------


def test_rule_2_an_adversary_wins_a_tie_and_the_order_holds_next_round(tmp_path):
    """pf2-combat.txt [2]: a tie between an adversary and a character: the adversary first;
    the order is the same from round to round."""
    s = run(tmp_path, ["dice from entered", "initiative", "dice 8", "dice 10", "next", "next"])
    assert order(s) == ["Ogre", "Aria"]
    assert s["round"] == 2
    assert s["turn"] == ["Ogre"]


# [3] -------------------------------------------------------------------------------------


def test_rule_3_three_actions_and_one_reaction_unused_actions_are_lost(tmp_path):
    """pf2-combat.txt [3]: 3 actions a turn, lost at its end; one reaction a round."""
    s = run(tmp_path, [*START, "act Aria Stride", "next", "react Aria Shield", "next"])
    assert who(s, "Aria")["actions"] == [3, 3]
    assert who(s, "Aria")["reaction"] is True
    refused = run(
        tmp_path,
        [*START, "next", "react Aria Shield", "react Aria Shield"],
        keep_going=True,
    )
    assert len(refused["errors"]) == 1
    assert who(refused, "Aria")["reaction"] is False


def test_rule_3_a_two_action_activity_costs_two(tmp_path):
    """pf2-combat.txt [3]: some activities cost 2 or 3 actions."""
    s = run(tmp_path, [*START, "act Aria Sudden Charge cost=2"])
    assert who(s, "Aria")["actions"] == [1, 3]


# [4] -------------------------------------------------------------------------------------


def test_rule_4_start_of_turn_ends_until_start_effects_and_counts_slowed(tmp_path):
    """pf2-combat.txt [4]: (a) "until the start of your next turn" ends; (c) actions back
    minus slowed."""
    s = run(
        tmp_path,
        [
            *START,
            "effect Ogre Marked until=start of=Aria",
            "next",
            "condition Aria slowed 1",
            "next",
        ],
    )
    assert who(s, "Aria")["actions"] == [2, 2]
    assert not any("Marked" in line and "ends" not in line for line in s["log"][-3:])
    assert any("Marked" in line for line in s["log"] if "end" in line), s["log"]


def test_rule_4_quickened_gives_a_fourth_action(tmp_path):
    """pf2-combat.txt [4](c): plus quickened's one extra action."""
    s = run(tmp_path, [*START, "next", "condition Aria quickened", "next"])
    assert who(s, "Aria")["actions"] == [4, 4]


# [5] -------------------------------------------------------------------------------------


def test_rule_5_end_of_turn_persistent_damage_then_frightened_falls(tmp_path):
    """pf2-combat.txt [5]: persistent damage then its flat check; frightened falls by 1."""
    s = run(
        tmp_path,
        [
            *START,
            "condition Aria frightened 2",
            "persistent Aria fire 1d6",
            "next",
            "dice 4",
            "dice 3",
        ],
    )
    aria = who(s, "Aria")
    assert aria["hp"] == 16
    assert "frightened 1" in aria["conditions"]
    assert "persistent fire 1d6" in aria["conditions"]  # flat check 3 < 15: it stays


# [6] -------------------------------------------------------------------------------------


def test_rule_6_the_second_attack_takes_minus_5(tmp_path):
    """pf2-combat.txt [6]: the second attack -5: 13+7-5 = 15 misses AC 16."""
    s = run(
        tmp_path, [*START, "strike Aria Ogre", "dice 9", "dice 5", "strike Aria Ogre", "dice 13"]
    )
    assert who(s, "Ogre")["hp"] == 30 - 9
    assert who(s, "Aria")["stats"]["misses"] == 1


def test_rule_6_the_third_attack_takes_minus_10_and_agile_minus_8(tmp_path):
    """pf2-combat.txt [6]: agile: -4 then -8. Third Dagger 17+7-8 = 16 hits AC 16."""
    s = run(
        tmp_path,
        [
            *START,
            "strike Aria Ogre Dagger",
            "dice 2",
            "strike Aria Ogre Dagger",
            "dice 2",
            "strike Aria Ogre Dagger",
            "dice 17",
            "dice 3",
        ],
    )
    assert who(s, "Ogre")["hp"] == 30 - 5


def test_rule_6_a_grapple_counts_toward_the_penalty(tmp_path):
    """pf2-combat.txt [6]: a Grapple has the attack trait: the next Strike is the second."""
    s = run(tmp_path, [*START, "act Aria Grapple attack", "strike Aria Ogre", "dice 13"])
    assert who(s, "Ogre")["hp"] == 30


def test_rule_6_the_penalty_starts_again_each_turn_and_not_on_a_reaction(tmp_path):
    """pf2-combat.txt [6]: a reaction's attack on another's turn takes no penalty."""
    s = run(
        tmp_path,
        [
            *START,
            "strike Aria Ogre",
            "dice 2",
            "strike Aria Ogre",
            "dice 2",
            "next",
            "strike Aria Ogre reaction",
            "dice 9",
            "dice 5",
        ],
    )
    assert who(s, "Ogre")["hp"] == 30 - 9
    assert who(s, "Aria")["reaction"] is False


# [7] -------------------------------------------------------------------------------------


def test_rule_7_dc_plus_10_is_a_critical_success(tmp_path):
    """pf2-combat.txt [7]: 13+7 = 20 at DC 10 is a critical success: no damage from a basic save."""
    s = run(tmp_path, [*START, "save Aria fort dc=10 basic=8", "dice 13"])
    assert who(s, "Aria")["hp"] == 20


def test_rule_7_a_natural_20_is_one_degree_better(tmp_path):
    """pf2-combat.txt [7]: 20+7 = 27 against DC 30 fails, a natural 20 makes it a success."""
    s = run(tmp_path, [*START, "save Aria fort dc=30 basic=8", "dice 20"])
    assert who(s, "Aria")["hp"] == 20 - 4


def test_rule_7_a_natural_1_is_one_degree_worse(tmp_path):
    """pf2-combat.txt [7]: 1+7 = 8 against DC 5 succeeds, a natural 1 makes it a failure."""
    s = run(tmp_path, [*START, "save Aria fort dc=5 basic=8", "dice 1"])
    assert who(s, "Aria")["hp"] == 20 - 8


def test_rule_7_dc_minus_10_is_a_critical_failure(tmp_path):
    """pf2-combat.txt [7]: 3+7 = 10 against DC 20 is a critical failure: double damage."""
    s = run(tmp_path, [*START, "save Aria fort dc=20 basic=8", "dice 3"])
    assert who(s, "Aria")["hp"] == 20 - 16


# [8] -------------------------------------------------------------------------------------


def test_rule_8_a_critical_hit_deals_double_damage(tmp_path):
    """pf2-combat.txt [8]: 19+7 = 26 >= AC 16 + 10: (5+4) x 2 = 18."""
    s = run(tmp_path, [*START, "strike Aria Ogre", "dice 19", "dice 5"])
    assert who(s, "Ogre")["hp"] == 30 - 18


def test_rule_8_option_dice_twice_rolls_the_dice_again(tmp_path):
    """pf2-combat.txt [8]: the table's choice: the dice rolled twice, the modifier doubled."""
    s = run(
        tmp_path,
        [*START, "strike Aria Ogre", "dice 19", "dice 5 2"],
        options='critical = "dice_twice"',
    )
    assert who(s, "Ogre")["hp"] == 30 - (5 + 2 + 8)


def test_rule_8_a_miss_deals_nothing(tmp_path):
    """pf2-combat.txt [8]: 8+7 = 15 < AC 16: no damage."""
    s = run(tmp_path, [*START, "strike Aria Ogre", "dice 8"])
    assert who(s, "Ogre")["hp"] == 30


# [9] -------------------------------------------------------------------------------------


def test_rule_9_a_basic_save_success_takes_half_rounded_down(tmp_path):
    """pf2-combat.txt [9]: success: half of 9 is 4."""
    s = run(tmp_path, [*START, "save Ogre ref dc=15 basic=9", "dice 13"])
    assert who(s, "Ogre")["hp"] == 30 - 4


def test_rule_9_basic_save_damage_goes_through_weakness(tmp_path):
    """pf2-combat.txt [9][11]: a failed Reflex save against 6 cold: 6 + weakness 3."""
    s = run(tmp_path, [*START, "save Ogre ref dc=15 basic=6 type=cold", "dice 5"])
    assert who(s, "Ogre")["hp"] == 30 - 9


# [10] ------------------------------------------------------------------------------------


def test_rule_10_only_the_worst_status_penalty_applies(tmp_path):
    """pf2-combat.txt [10]: frightened 1 and sickened 2 are both status: -2, not -3.
    11+7-2 = 16 hits AC 16."""
    s = run(
        tmp_path,
        [
            *START,
            "condition Aria frightened 1",
            "condition Aria sickened 2",
            "strike Aria Ogre",
            "dice 11",
            "dice 5",
        ],
    )
    assert who(s, "Ogre")["hp"] == 30 - 9


def test_rule_10_circumstance_bonuses_do_not_stack_but_a_circumstance_penalty_applies(tmp_path):
    """pf2-combat.txt [10]: the best circumstance bonus and the worst circumstance penalty.
    Aria prone (-2 circumstance to attacks) with a +1 circumstance bonus: 9+7+1-2 = 15 misses."""
    s = run(
        tmp_path,
        [*START, "condition Aria prone", "strike Aria Ogre circumstance=1", "dice 9"],
    )
    assert who(s, "Ogre")["hp"] == 30


def test_rule_10_a_flat_check_takes_no_modifier(tmp_path):
    """pf2-combat.txt [10]: frightened does not touch a flat check: 11 at DC 11 succeeds."""
    s = run(tmp_path, [*START, "condition Aria frightened 3", "flat Aria dc=11", "dice 11"])
    assert any("success" in line and "failure" not in line for line in s["log"][-2:]), s["log"]


# [11] ------------------------------------------------------------------------------------


def test_rule_11_resistance_weakness_and_immunity(tmp_path):
    """pf2-combat.txt [11]: fire 10 - resist 5, cold 10 + weak 3, poison none."""
    s = run(
        tmp_path,
        [
            *START,
            "damage Ogre 10 type=fire",
            "damage Ogre 10 type=cold",
            "damage Ogre 10 type=poison",
        ],
    )
    assert who(s, "Ogre")["hp"] == 30 - 5 - 13


def test_rule_11_penalties_never_take_a_hit_below_1(tmp_path):
    """pf2-combat.txt [11]: Dagger 1+2 with enfeebled 3 still deals 1. 15+7-3 = 19 hits."""
    s = run(
        tmp_path,
        [*START, "condition Aria enfeebled 3", "strike Aria Ogre Dagger", "dice 15", "dice 1"],
    )
    assert who(s, "Ogre")["hp"] == 29


# [12] ------------------------------------------------------------------------------------


def test_rule_12_temporary_hit_points_first_the_higher_stays_healing_never(tmp_path):
    """pf2-combat.txt [12]."""
    s = run(tmp_path, [*START, "temp Aria 5", "temp Aria 3", "damage Aria 7", "heal Aria 10"])
    aria = who(s, "Aria")
    assert aria["temp"] == 0
    assert aria["hp"] == 20
    s = run(tmp_path, [*START, "temp Aria 5", "temp Aria 3", "damage Aria 2"])
    assert who(s, "Aria")["temp"] == 3
    assert who(s, "Aria")["hp"] == 20


# [13] ------------------------------------------------------------------------------------


def test_rule_13_a_character_at_0_is_dying_1_plus_wounded_and_a_monster_dies(tmp_path):
    """pf2-combat.txt [13]: knocked out: unconscious, dying 1; hit points never below 0."""
    s = run(tmp_path, [*START, "damage Aria 25", "damage Ogre 40"], options=GM_ENDS)
    aria = who(s, "Aria")
    assert aria["hp"] == 0
    assert aria["dying"] == 1
    assert "unconscious" in aria["conditions"]
    assert who(s, "Ogre")["state"] == "dead"
    assert who(s, "Ogre")["hp"] == 0


def test_rule_13_a_critical_hit_knocks_out_at_dying_2(tmp_path):
    """pf2-combat.txt [13]: dying 2 from a critical hit. Club 20+8 = 28 >= 18+10."""
    s = run(
        tmp_path,
        [*START, "damage Aria 15", "next", "strike Ogre Aria", "dice 20", "dice 6"],
        options=GM_ENDS,
    )
    assert who(s, "Aria")["dying"] == 2


def test_rule_13_wounded_is_added_to_dying(tmp_path):
    """pf2-combat.txt [13]: wounded 1 knocked out again: dying 2."""
    s = run(tmp_path, [*START, "damage Aria 25", "heal Aria 5", "damage Aria 10"], options=GM_ENDS)
    assert who(s, "Aria")["wounded"] == 1
    assert who(s, "Aria")["dying"] == 2


def test_rule_13_option_knocked_out_named_creature_falls_dying(tmp_path):
    """pf2-combat.txt [13]: a named creature the GM chooses is knocked out, not killed."""
    named = OGRE.replace('kind = "monster"', 'kind = "monster"\nnamed = true')
    s = run(tmp_path, [*START, "damage Ogre 40"], creatures=ARIA + named)
    assert who(s, "Ogre")["dying"] == 1
    assert who(s, "Ogre")["state"] != "dead"


# [14] ------------------------------------------------------------------------------------


def test_rule_14_recovery_check_failure_raises_dying(tmp_path):
    """pf2-combat.txt [14]: dying 1, DC 11: a 10 fails: dying 2."""
    s = run(tmp_path, [*START, "damage Aria 25", "next", "next", "dice 10"], options=GM_ENDS)
    assert who(s, "Aria")["dying"] == 2


def test_rule_14_recovery_check_critical_success_lowers_by_2(tmp_path):
    """pf2-combat.txt [14]: dying 2 (a critical), DC 12: a natural 20 (crit) lowers by 2: 0."""
    s = run(tmp_path, [*START, "damage Aria 25 crit", "next", "next", "dice 20"], options=GM_ENDS)
    aria = who(s, "Aria")
    assert aria["dying"] == 0
    assert aria["wounded"] == 1


def test_rule_14_recovery_check_critical_failure_raises_by_2(tmp_path):
    """pf2-combat.txt [14]: dying 1, DC 11: a 1 is a critical failure: dying 3."""
    s = run(tmp_path, [*START, "damage Aria 25", "next", "next", "dice 1"], options=GM_ENDS)
    assert who(s, "Aria")["dying"] == 3


# [15] ------------------------------------------------------------------------------------


def test_rule_15_damage_while_dying_raises_dying_and_4_kills(tmp_path):
    """pf2-combat.txt [15]: dying 2 (crit) + crit damage 2 = 4: dead."""
    s = run(
        tmp_path, [*START, "damage Aria 25", "damage Aria 3", "damage Aria 3 crit"], options=GM_ENDS
    )
    assert who(s, "Aria")["state"] == "dead"
    s = run(tmp_path, [*START, "damage Aria 25", "damage Aria 3"], options=GM_ENDS)
    assert who(s, "Aria")["dying"] == 2


# [16] ------------------------------------------------------------------------------------


def test_rule_16_healed_while_dying_wakes_with_wounded_1(tmp_path):
    """pf2-combat.txt [16]."""
    s = run(tmp_path, [*START, "damage Aria 25", "heal Aria 6"], options=GM_ENDS)
    aria = who(s, "Aria")
    assert aria["dying"] == 0
    assert aria["wounded"] == 1
    assert aria["hp"] == 6
    assert "unconscious" not in aria["conditions"]


def test_rule_16_dying_down_to_0_stays_unconscious_at_0_hp(tmp_path):
    """pf2-combat.txt [16]: a recovery check to dying 0 at 0 HP: still unconscious; the GM
    may wake it."""
    s = run(tmp_path, [*START, "damage Aria 25", "next", "next", "dice 15"], options=GM_ENDS)
    aria = who(s, "Aria")
    assert aria["dying"] == 0
    assert aria["wounded"] == 1
    assert "unconscious" in aria["conditions"]
    s = run(
        tmp_path,
        [*START, "damage Aria 25", "next", "next", "dice 15", "recover Aria unconscious"],
        options=GM_ENDS,
    )
    assert "unconscious" not in who(s, "Aria")["conditions"]


def test_rule_16_the_gm_clears_wounded(tmp_path):
    """pf2-combat.txt [16]: the tracker lets the GM clear wounded."""
    s = run(
        tmp_path, [*START, "damage Aria 25", "heal Aria 6", "recover Aria wounded"], options=GM_ENDS
    )
    assert who(s, "Aria")["wounded"] == 0


# [17] ------------------------------------------------------------------------------------


def test_rule_17_doomed_1_dies_at_dying_3(tmp_path):
    """pf2-combat.txt [15][17]: doomed 1: death at dying 3."""
    s = run(
        tmp_path,
        [*START, "condition Aria doomed 1", "damage Aria 25 crit", "damage Aria 1"],
        options=GM_ENDS,
    )
    assert who(s, "Aria")["state"] == "dead"


# [18] ------------------------------------------------------------------------------------


def test_rule_18_unconscious_minus_4_ac_and_off_guard(tmp_path):
    """pf2-combat.txt [18]: AC 18 - 4 status - 2 circumstance = 12: Club 4+8 = 12 hits."""
    s = run(
        tmp_path,
        [*START, "damage Aria 19", "next", "damage Aria 1", "strike Ogre Aria", "dice 4", "dice 1"],
        options=GM_ENDS,
    )
    # the first hit knocks nothing more: Aria at 0 takes damage, dying 1 -> 2
    assert who(s, "Aria")["dying"] == 2


def test_rule_18_an_unconscious_creature_takes_no_reaction(tmp_path):
    """pf2-combat.txt [18]: no actions or reactions."""
    s = run(
        tmp_path,
        [*START, "next", "damage Aria 25", "react Aria Shield"],
        keep_going=True,
        options=GM_ENDS,
    )
    assert len(s["errors"]) == 1
    assert "unconscious" in s["errors"][0]


# [19] ------------------------------------------------------------------------------------


def test_rule_19_clumsy_lowers_ac(tmp_path):
    """pf2-combat.txt [19]: clumsy 2: AC 18 - 2 = 16: Club 8+8 = 16 hits."""
    s = run(
        tmp_path,
        [*START, "next", "condition Aria clumsy 2", "strike Ogre Aria", "dice 8", "dice 1"],
    )
    assert who(s, "Aria")["hp"] == 20 - 3


def test_rule_19_drained_lowers_the_hp_maximum_by_level(tmp_path):
    """pf2-combat.txt [19]: drained 1 on a level 2 creature: 2 fewer maximum HP."""
    s = run(tmp_path, [*START, "condition Aria drained 1", "damage Aria 5", "heal Aria 10"])
    assert who(s, "Aria")["hp"] == 18


def test_rule_19_stunned_takes_actions_and_ends(tmp_path):
    """pf2-combat.txt [19]: stunned 1: loses 1 action, then it ends."""
    s = run(tmp_path, [*START, "next", "condition Aria stunned 1", "next"])
    assert who(s, "Aria")["actions"][0] == 2
    assert not any(c.startswith("stunned") for c in conds(s, "Aria"))


def test_rule_19_stunned_overrides_slowed(tmp_path):
    """pf2-combat.txt [19]: stunned 2 with slowed 1: the stunned loss, not both: 1 action."""
    s = run(
        tmp_path, [*START, "next", "condition Aria stunned 2", "condition Aria slowed 1", "next"]
    )
    assert who(s, "Aria")["actions"][0] == 1


def test_rule_19_sickened_retch_lowers_it_on_a_success(tmp_path):
    """pf2-combat.txt [19]: retching: a Fortitude save; 13+7-2 = 18 at DC 15: sickened 2 -> 1."""
    s = run(tmp_path, [*START, "condition Aria sickened 2", "retch Aria dc=15", "dice 13"])
    assert "sickened 1" in conds(s, "Aria")
    assert who(s, "Aria")["actions"][0] == 2


def test_rule_19_stupefied_casting_makes_a_flat_check(tmp_path):
    """pf2-combat.txt [19]: stupefied 2: casting needs a DC 7 flat check: a 6 fails."""
    s = run(
        tmp_path, [*START, "condition Aria stupefied 2", "act Aria Heal spell cost=2", "dice 6"]
    )
    assert any("fail" in line for line in s["log"][-2:]), s["log"]


def test_rule_19_prone_and_stand(tmp_path):
    """pf2-combat.txt [19]: prone: -2 circumstance to attacks; Stand costs an action.
    10+7-2 = 15 misses AC 16."""
    s = run(tmp_path, [*START, "condition Aria prone", "strike Aria Ogre", "dice 10", "stand Aria"])
    assert who(s, "Ogre")["hp"] == 30
    assert "prone" not in conds(s, "Aria")
    assert who(s, "Aria")["actions"][0] == 1


def test_rule_19_restrained_cannot_strike(tmp_path):
    """pf2-combat.txt [19]: restrained: no attack actions but to Escape."""
    s = run(tmp_path, [*START, "condition Aria restrained", "strike Aria Ogre"], keep_going=True)
    assert len(s["errors"]) == 1


def test_rule_19_a_concealed_target_needs_a_dc_5_flat_check(tmp_path):
    """pf2-combat.txt [10][19]: a 4 on the flat check loses the Strike."""
    s = run(tmp_path, [*START, "condition Ogre concealed", "strike Aria Ogre", "dice 4"])
    assert who(s, "Ogre")["hp"] == 30
    assert who(s, "Aria")["actions"][0] == 2


# [20] ------------------------------------------------------------------------------------


def test_rule_20_a_higher_value_replaces_a_lower_never_the_other_way(tmp_path):
    """pf2-combat.txt [20]."""
    s = run(tmp_path, [*START, "condition Aria frightened 2", "condition Aria frightened 1"])
    assert "frightened 2" in conds(s, "Aria")
    s = run(tmp_path, [*START, "condition Aria frightened 1", "condition Aria frightened 3"])
    assert "frightened 3" in conds(s, "Aria")
    assert "frightened 1" not in conds(s, "Aria")


# [21] ------------------------------------------------------------------------------------


def test_rule_21_a_readied_strike_keeps_its_penalty_and_takes_the_reaction(tmp_path):
    """pf2-combat.txt [21]: Ready costs 2; the readied Strike uses the penalty it had then
    (-5 after one Strike): 13+7-5 = 15 misses AC 16."""
    s = run(
        tmp_path,
        [
            *START,
            "strike Aria Ogre",
            "dice 2",
            "ready Aria Ogre approaches",
            "next",
            "strike Aria Ogre readied",
            "dice 13",
        ],
    )
    assert who(s, "Ogre")["hp"] == 30
    assert who(s, "Aria")["reaction"] is False


def test_rule_21_ready_costs_two_actions(tmp_path):
    """pf2-combat.txt [21]."""
    s = run(tmp_path, [*START, "ready Aria Ogre approaches"])
    assert who(s, "Aria")["actions"][0] == 1


# [22] ------------------------------------------------------------------------------------


def test_rule_22_delay_and_return_moves_the_creature_for_good(tmp_path):
    """pf2-combat.txt [22]: Bram returns after Aria's turn and keeps that place."""
    s = run(
        tmp_path,
        [
            "dice from entered",
            "initiative",
            "dice 15",
            "dice 10",
            "dice 20",
            "delay Bram",
            "return Bram",
        ],
        creatures=ARIA + OGRE + BRAM,
    )
    # Bram 21 goes first; it delays; Aria's turn ends, Bram returns right after Aria.
    assert s["turn"] == ["Bram"]
    assert order(s) == ["Aria", "Bram", "Ogre"]


def test_rule_22_a_delayed_creature_cannot_react(tmp_path):
    """pf2-combat.txt [22]."""
    s = run(
        tmp_path,
        [
            "dice from entered",
            "initiative",
            "dice 15",
            "dice 10",
            "dice 20",
            "delay Bram",
            "react Bram Shield",
        ],
        creatures=ARIA + OGRE + BRAM,
        keep_going=True,
    )
    assert len(s["errors"]) == 1


def test_rule_22_persistent_damage_is_taken_when_it_delays(tmp_path):
    """pf2-combat.txt [22]: the harm of its turn's end happens when it Delays."""
    s = run(
        tmp_path,
        [
            "dice from entered",
            "initiative",
            "dice 15",
            "dice 10",
            "dice 20",
            "persistent Bram fire 1d6",
            "delay Bram",
            "dice 4",
            "dice 3",
        ],
        creatures=ARIA + OGRE + BRAM,
    )
    assert who(s, "Bram")["hp"] == 8


def test_rule_22_a_whole_round_delayed_loses_the_turn_and_keeps_its_place(tmp_path):
    """pf2-combat.txt [22]: never returning: next round it acts at its original place."""
    s = run(
        tmp_path,
        [
            "dice from entered",
            "initiative",
            "dice 15",
            "dice 10",
            "dice 20",
            "delay Bram",
            "next",
            "next",
        ],
        creatures=ARIA + OGRE + BRAM,
    )
    assert s["round"] == 2
    assert s["turn"] == ["Bram"]
    assert order(s) == ["Bram", "Aria", "Ogre"]
    assert s["delaying"] == []


# [23] ------------------------------------------------------------------------------------


def test_rule_23_a_duration_counts_on_the_makers_turn(tmp_path):
    """pf2-combat.txt [23]: made on Aria's turn, 1 round: it lasts through the Ogre's turn
    and ends as Aria's next turn begins."""
    s = run(tmp_path, [*START, "effect Ogre Bless rounds=1", "next"])
    assert not any("Bless" in line and "ends" in line for line in s["log"]), s["log"]
    s = run(tmp_path, [*START, "effect Ogre Bless rounds=1", "next", "next"])
    assert any("Bless" in line and "ends" in line for line in s["log"]), s["log"]


def test_rule_23_an_effect_of_a_maker_who_left_ends_when_its_turn_would_come(tmp_path):
    """pf2-combat.txt [23]."""
    s = run(
        tmp_path,
        [
            "dice from entered",
            "initiative",
            "dice 15",
            "dice 10",
            "dice 20",
            "effect Ogre Marked until=start of=Bram",
            "remove Bram",
            "next",
            "next",
            "next",
        ],
        creatures=ARIA + OGRE + BRAM,
    )
    assert any("Marked" in line and "end" in line for line in s["log"]), s["log"]


# [24] ------------------------------------------------------------------------------------


def test_rule_24_sustain_costs_an_action_and_an_unsustained_effect_ends(tmp_path):
    """pf2-combat.txt [24]: Sustained on Aria's turn, it outlasts that turn's end."""
    lines = [*START, "effect Ogre Glow until=end of=Aria", "next", "next"]
    s = run(tmp_path, [*lines, "sustain Aria Ogre Glow"])
    assert who(s, "Aria")["actions"] == [2, 3]
    s = run(tmp_path, [*lines, "sustain Aria Ogre Glow", "next"])
    assert not any("Glow" in line and "turn ends" in line for line in s["log"]), s["log"]
    s = run(tmp_path, [*lines, "next"])
    assert any("Glow" in line and "turn ends" in line for line in s["log"]), s["log"]


# [25] ------------------------------------------------------------------------------------


def test_rule_25_the_flat_check_ends_persistent_damage(tmp_path):
    """pf2-combat.txt [25]: DC 15: a 15 ends it."""
    s = run(tmp_path, [*START, "persistent Aria fire 1d6", "next", "dice 2", "dice 15"])
    assert who(s, "Aria")["hp"] == 18
    assert not any("persistent" in c for c in conds(s, "Aria"))


def test_rule_25_assistance_lowers_the_dc_to_10(tmp_path):
    """pf2-combat.txt [25]: assisted: a 10 ends it."""
    s = run(
        tmp_path,
        [
            *START,
            "persistent Aria fire 1d6",
            "persistent Aria fire assist",
            "next",
            "dice 2",
            "dice 10",
        ],
    )
    assert not any("persistent" in c for c in conds(s, "Aria"))


def test_rule_25_the_higher_persistent_damage_of_a_type_applies(tmp_path):
    """pf2-combat.txt [25]."""
    s = run(tmp_path, [*START, "persistent Aria fire 2d6", "persistent Aria fire 1d6"])
    assert "persistent fire 2d6" in conds(s, "Aria")
    assert "persistent fire 1d6" not in conds(s, "Aria")


# [26] ------------------------------------------------------------------------------------


def test_rule_26_a_hero_point_rerolls_and_the_new_result_stands(tmp_path):
    """pf2-combat.txt [26]: a miss (3), rerolled: 12+7 = 19 hits."""
    s = run(tmp_path, [*START, "strike Aria Ogre hero", "dice 3", "dice 12", "dice 5"])
    assert who(s, "Ogre")["hp"] == 30 - 9
    assert who(s, "Aria")["hero_points"] == 0


def test_rule_26_hero_points_save_a_dying_character_without_wounded(tmp_path):
    """pf2-combat.txt [26]: at the start of its turn while dying: all its points, dying gone,
    0 HP, no wounded from it."""
    s = run(
        tmp_path, [*START, "damage Aria 25", "next", "next", "dice 5", "hero Aria"], options=GM_ENDS
    )
    aria = who(s, "Aria")
    assert aria["dying"] == 0
    assert aria["wounded"] == 0
    assert aria["hp"] == 0
    assert aria["hero_points"] == 0


# [27] ------------------------------------------------------------------------------------


def test_rule_27_the_fight_ends_when_one_side_has_nobody_conscious(tmp_path):
    """pf2-combat.txt [27]: with end = "auto" (the default)."""
    s = run(tmp_path, [*START, "damage Ogre 40"])
    assert s["winner"] == "Party"


def test_rule_27_option_end_gm_waits_for_finish(tmp_path):
    """pf2-combat.txt [27]: end = "gm": only `finish` ends it."""
    s = run(tmp_path, [*START, "damage Ogre 40"], options='end = "gm"')
    assert s["winner"] is None
    s = run(tmp_path, [*START, "damage Ogre 40", "finish Party"], options='end = "gm"')
    assert s["winner"] == "Party"


# Findings: what the audit saw the game do otherwise than the text and the docs say -------


def _index(log: list[str], *words: str) -> int:
    for i, line in enumerate(log):
        if all(w in line for w in words):
            return i
    raise AssertionError(f"no line with {words}: {log}")


def test_finding_1_the_templates_creature_can_be_named_and_hero_is_refused_at_reading(tmp_path):
    """pf2-combat.txt [26] names Hero Points, and the `encounter new` template's first
    creature was called "Hero": `strike Hero Kobold` was refused "unknown creature
    'Kobold'" and `condition Hero slowed 1` "unknown option 'hero'" (the word is the `hero`
    option wherever it stands). Now the template's creature is named in commands, and a
    file naming a creature after an option word is refused as it is read, saying why."""
    template = subprocess.run(
        [*TURNLIGHT, "encounter", "new", "--ruleset", "pf2"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    first = template.split('name = "', 2)[2].split('"', 1)[0]
    s = run(
        tmp_path,
        [
            "dice from entered",
            "initiative",
            "dice 15",
            "dice 2",
            f"condition {first} slowed 1",
            f"strike {first} 'Kobold 1'",
            "dice 9",
            "dice 5",
        ],
        whole=template,
    )
    assert "slowed 1" in conds(s, first)
    assert who(s, "Kobold 1")["hp"] < 8
    hero = ARIA.replace('name = "Aria"', 'name = "Hero"').replace('"ARI"', '"HER"')
    enc = tmp_path / "hero.toml"
    enc.write_text('ruleset = "pf2"\n' + hero + OGRE)
    out = subprocess.run(
        [*TURNLIGHT, "encounter", "check", str(enc)], capture_output=True, text=True, check=False
    )
    assert out.returncode != 0
    assert "'Hero' is a word the commands read as an option" in out.stderr
    assert "give it another name" in out.stderr


def test_finding_2_json_hp_max_shows_drained(tmp_path):
    """pf2-combat.txt [19]: drained 1 lowers the maximum by the level (2): the log says 18,
    `run --json`'s hp_max said 20."""
    s = run(tmp_path, [*START, "condition Aria drained 1"])
    assert who(s, "Aria")["hp_max"] == 18


def test_finding_3_durations_count_down_before_the_recovery_check(tmp_path):
    """pf2-combat.txt [4]: (a) durations count down, then (b) the recovery check, then (c)
    the actions; the game ended the effect after the recovery check and the actions."""
    s = run(
        tmp_path,
        [*START, "effect Aria Bless rounds=1", "damage Aria 25", "next", "next", "dice 15"],
        options=GM_ENDS,
    )
    assert _index(s["log"], "Bless", "ends") < _index(s["log"], "recovery check")


def test_finding_4_until_end_effects_end_before_persistent_damage(tmp_path):
    """pf2-combat.txt [5]: (a) "until the end of your turn" effects end, then (b) persistent
    damage; the game took the damage first."""
    s = run(
        tmp_path,
        [
            *START,
            "next",
            "effect Aria Glow until=end of=Aria",
            "persistent Aria fire 1d6",
            "next",
            "next",
            "dice 3",
            "dice 2",
        ],
    )
    assert _index(s["log"], "Glow", "ends") < _index(s["log"], "persistent fire damage")


def test_finding_5_a_creature_knocked_out_on_its_turn_has_no_actions_left(tmp_path):
    """pf2-combat.txt [18]: an unconscious creature takes no actions or reactions; knocked
    out during its own turn, `run --json` still gave it 3 actions and its reaction."""
    s = run(tmp_path, [*START, "damage Aria 25"], options=GM_ENDS)
    aria = who(s, "Aria")
    assert aria["actions"][0] == 0
    assert aria["reaction"] is False


def test_finding_6_an_effect_made_off_its_makers_turn_counts_on_the_makers_turn(tmp_path):
    """pf2-combat.txt [23]: made by Aria with a reaction on the Ogre's turn, 1 round ends as
    Aria's next turn begins; 2 rounds as the one after. `rounds=` counted from the turn it
    was put on, and `of=` was refused with `rounds=`: now `rounds=N of=MAKER` counts on
    the maker's turns."""
    put_on = [*START, "next", "effect Ogre Bless rounds=1 of=Aria"]
    s = run(tmp_path, put_on)
    assert not any("Bless" in line and "ends" in line for line in s["log"]), s["log"]
    s = run(tmp_path, [*put_on, "next"])
    assert any("Bless" in line and "ends" in line for line in s["log"]), s["log"]
    put_on = [*START, "next", "effect Ogre Bless rounds=2 of=Aria"]
    s = run(tmp_path, [*put_on, "next", "next"])  # round 2: Aria's turn, the Ogre's
    assert not any("Bless" in line and "ends" in line for line in s["log"]), s["log"]
    s = run(tmp_path, [*put_on, "next", "next", "next"])  # round 3: Aria's turn
    assert any("Bless" in line and "ends" in line for line in s["log"]), s["log"]


def test_finding_7_sustaining_a_missing_effect_names_how_to_make_one(tmp_path):
    """pf2-combat.txt [24]: `sustain` of an effect not there is refused; the line said only
    "Ogre has no effect 'Glow' (it has: none)", not how a sustained effect is put on."""
    s = run(tmp_path, [*START, "sustain Aria Ogre Glow"], keep_going=True)
    assert len(s["errors"]) == 1
    assert "`effect OGR Glow until=end of=ARI`" in s["errors"][0]


def test_finding_8_assisting_absent_persistent_damage_names_how_to_give_it(tmp_path):
    """pf2-combat.txt [25]: docs/commands.md wrote `persistent NAME TYPE DICE|end [assist]`,
    so `persistent Aria fire 1d6 assist` was tried; it was refused with "Aria takes no
    persistent fire damage (it takes: none)", naming no command that works."""
    s = run(tmp_path, [*START, "persistent Aria fire assist"], keep_going=True)
    assert len(s["errors"]) == 1
    assert "`persistent ARI fire 1d6` gives it" in s["errors"][0]
    s = run(tmp_path, [*START, "persistent Aria fire 1d6 assist", "next", "dice 2", "dice 10"])
    assert not any("persistent" in c for c in conds(s, "Aria"))
