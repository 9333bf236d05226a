"""Combat: a combat move, an item or an active artifact that strikes: the hit and damage
instances, exchange and conditions, weapon bonuses, SOL on the rolls it boosts, several
targets (host/rulesets/korxsol/combat.py).

One test per korxsol rule, on the desktop engine. Source for every test:
korxsol-players-guide.txt (the section is named in each test). Dice are entered face by
face: with success_faces = [3], a 3 succeeds and a 1 fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from korxsol_fixtures import (
    ASH,
    BO,
    FAIL,
    STRIKE,
    SUCCESS,
    attack,
    duel,
    enter,
    fighter,
    hits,
    session,
    slot,
    tools,
)

from host.rulesets.korxsol import combat, encounter_schema, exact_odds
from host.rulesets.korxsol.device import BURN, F_KNOCKED_DOWN
from host.rulesets.korxsol.engine import Game
from host.rulesets.korxsol.game_core import GameCore
from host.rulesets.korxsol.language import Command, parse
from host.rulesets.korxsol.rolls import IllegalAction
from shared.limits import MAX_DICE


# ---------------------------------------------------------------- the hit instance
def test_hit_roll_equal_to_the_agility_roll_hits():
    # HIT INSTANCE: a hit needs successes greater than or equal to the dodge's; a tie hits.
    s = duel()
    attack(s, "attack Ash Strike Bo", hits(1, 2), hits(1, 2), hits(0, 2), hits(0, 1))
    assert slot(s, "Bo").health == 12 - 2
    assert fighter(s, "Ash").stats.hits == 1


def test_dodge_needs_more_successes_than_the_hit_and_leaves_the_target_unharmed():
    # HIT INSTANCE, Successful DODGE: the dodge chance must be greater than the hit chance.
    s = duel()
    attack(s, "attack Ash Strike Bo", hits(0, 2), hits(1, 2))
    assert slot(s, "Bo").health == 12
    assert fighter(s, "Bo").stats.dodges == 1


def test_a_target_that_cannot_step_out_is_hit_automatically_without_rolling():
    # HIT INSTANCE: if the target cannot legally leave the area, the attack automatically
    # hits and the dodge roll is skipped (the game master says so with cornered=).
    s = duel()
    attack(s, "attack Ash Strike Bo cornered=Bo", hits(0, 2), (), hits(0, 2), hits(0, 1))
    assert slot(s, "Bo").health == 10
    assert not any(r.purpose == "dodge" for r in s.done[-1].rolls)


# ---------------------------------------------------------------- the damage instance
def test_each_power_success_adds_one_to_the_base_damage():
    # DAMAGE INSTANCE: every POWER_Roll success counts as a critical hit, +1 on the base damage.
    s = duel()
    attack(s, "attack Ash Strike Bo", hits(2, 2), hits(0, 2), hits(2, 2), hits(0, 1))
    assert slot(s, "Bo").health == 12 - 4
    assert fighter(s, "Ash").stats.crits == 2


def test_each_resist_success_blocks_one_damage():
    # DAMAGE INSTANCE: every RESIST_Roll success blocks 1 point of damage.
    s = duel(bo={"resistance": 2})
    attack(s, "attack Ash Strike Bo", hits(2, 2), hits(0, 2), hits(1, 2), hits(2, 2))
    assert slot(s, "Bo").health == 12 - 1
    assert fighter(s, "Bo").stats.blocked == 2


def test_armor_that_blocks_is_chipped_one_point_per_damage_blocked():
    # Armor (ATTRIBUTE): armor dice join the RESIST_Roll; armor that blocks is chipped by 1
    # for every point it blocked.
    s = duel(bo={"resistance": 1, "armor": 3})
    attack(s, "attack Ash Strike Bo", hits(2, 2), hits(0, 2), hits(1, 2), hits(1, 1), hits(2, 3))
    # 3 potential damage: 1 resisted, 2 blocked by armor -> armor 3 -> 1, no damage.
    assert slot(s, "Bo").health == 12
    assert fighter(s, "Bo").armor == 1


def test_burn_adds_one_unblockable_damage_per_stack_when_hit():
    # BURN: a target with burn that is HIT takes 1 additional un-blockable damage per stack.
    s = duel()
    slot(s, "Bo").counters[BURN] = 2
    attack(s, "attack Ash Strike Bo", hits(2, 2), hits(0, 2), hits(0, 2), hits(1, 1))
    assert slot(s, "Bo").health == 12 - (2 - 1) - 2


def test_resistance_piercing_stops_the_resist_roll():
    # RESISTANCE PIERCING: the target does not roll resistance during the move.
    pierce = dict(STRIKE, name="Pierce", resist_piercing=True)
    s = duel(ash={"moves": ["Pierce"]}, bo={"resistance": 5}, moves=(pierce,))
    attack(s, "attack Ash Pierce Bo", hits(2, 2), hits(0, 2), hits(0, 2))
    assert slot(s, "Bo").health == 10
    assert not any(r.purpose == "resist" for r in s.done[-1].rolls)


def test_armor_piercing_stops_the_armor_roll():
    # ARMOR PIERCING: the target does not roll its armor during the move.
    pierce = dict(STRIKE, name="Pierce", armor_piercing=True)
    s = duel(ash={"moves": ["Pierce"]}, bo={"armor": 4}, moves=(pierce,))
    attack(s, "attack Ash Pierce Bo", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert slot(s, "Bo").health == 10
    assert fighter(s, "Bo").armor == 4


def test_sunder_chips_the_targets_armor_at_once():
    # SUNDER: the target's armor drops by X right away.
    sunder = {"name": "Crack", "type": "melee", "cooldown": 1, "hit": 1, "sunder": 2}
    s = duel(ash={"moves": ["Crack"]}, bo={"armor": 3}, moves=(sunder,))
    attack(s, "attack Ash Crack Bo", [SUCCESS], hits(0, 2))
    assert fighter(s, "Bo").armor == 1


def test_conversion_makes_each_power_success_worth_its_base_damage():
    # CONVERSION: a successful POWER_Roll is replaced by X base damage (per success).
    conv = dict(STRIKE, name="Quake", conversion=3)
    s = duel(ash={"moves": ["Quake"]}, moves=(conv,))
    attack(s, "attack Ash Quake Bo", hits(2, 2), hits(0, 2), hits(1, 2), hits(0, 1))
    assert slot(s, "Bo").health == 12 - 2 - 3


# ---------------------------------------------------------------- exchange and conditions
def test_exchange_trades_the_users_armor_for_damage():
    # EXCHANGE: the user may exchange one indicator for another at the move's rate.
    trade = dict(STRIKE, name="Trade", exchange=["armor", "damage", 2])
    s = duel(ash={"moves": ["Trade"], "armor": 2}, moves=(trade,))
    attack(s, "attack Ash Trade Bo exchange=1", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert fighter(s, "Ash").armor == 1
    assert slot(s, "Bo").health == 12 - 2 - 2


def test_exchange_is_the_users_choice_on_a_buff_and_a_helping_item_too():
    # korxsol-players-guide.txt, EXCHANGE (Combat Move INDICATORS): the user may trade one
    # indicator for another at the rate shown. It is the user's choice on whatever carries
    # it, so a buff (here: KOR for armor) and an item that helps (armor for SOL) trade too.
    rally = {"name": "Rally", "type": "buff", "cooldown": 2, "exchange": ["kor", "armor", 2]}
    flask = {"name": "Flask", "kind": "tool", "exchange": ["armor", "sol", 1]}
    s = duel(ash={"moves": ["Rally"], "items": ["Flask"]}, moves=(rally,), items=(flask,))
    s.execute("attack Ash Rally exchange=2")
    ash = fighter(s, "Ash")
    assert (slot(s, "Ash").health, ash.armor) == (12 - 2, 0 + 2 * 2)
    s.execute("item Ash Flask exchange=3")
    assert (ash.armor, ash.sol) == (4 - 3, 3 + 3)
    with pytest.raises(IllegalAction, match="cannot exchange 2 armor"):
        s.execute("item Ash Flask exchange=2")


def test_condition_gives_its_result_when_met():
    # CONDITION: when the condition is met, the user gains the result (here: on a hit,
    # gain 1 armor).
    cond = dict(STRIKE, name="Guard Strike", condition=["hit", "armor", 1])
    s = duel(ash={"moves": ["Guard Strike"]}, moves=(cond,))
    attack(s, 'attack Ash "Guard Strike" Bo', hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert fighter(s, "Ash").armor == 1


def test_a_hit_condition_worth_damage_adds_it_to_that_hits_damage_instance():
    # korxsol-players-guide.txt, CONDITION: once the user meets the condition it gains the
    # result; here a hit gains 2 damage. It joins the DAMAGE INSTANCE of that hit, so the
    # RESIST_Roll blocks it like the rest (the guide names un-blockable damage where it
    # means it: burn, collisions, falls, a grappler's crush).
    cond = dict(STRIKE, name="Rend", condition=["hit", "damage", 2])
    s = duel(ash={"moves": ["Rend"]}, moves=(cond,))
    o, _ = exact_odds.for_move(s.game, parse("odds Ash Rend Bo"))
    assert o.damage == exact_odds.damage_distribution(2 + 2, 2, 1)
    attack(s, "attack Ash Rend Bo", hits(2, 2), hits(0, 2), hits(0, 2), hits(1, 1))
    assert slot(s, "Bo").health == 12 - (2 + 2 - 1)
    assert "damage 4 (2 base + 0 power + 2), 1 resisted" in "\n".join(s.game.log)


def test_a_knockout_condition_rewards_the_user_when_its_target_collapses():
    # CONDITION: when the condition is met (here: the target is knocked out), gain the result.
    reap = dict(STRIKE, name="Reap", condition=["knockout", "sol", 1])
    s = duel(ash={"moves": ["Reap"]}, bo={"kor": 2}, moves=(reap,))
    attack(s, "attack Ash Reap Bo", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert fighter(s, "Ash").sol == 4


def test_condition_a_successful_resist_roll_gains_the_user_armor():
    # CONDITION: the guide's own example -- when the user makes a successful RESIST_Roll,
    # it gains armor. The user rolls resistance when attacked, so the condition watches
    # the user's rolls while the move is on cooldown.
    guard = {"name": "Guard", "type": "buff", "cooldown": 1}
    guard["condition"] = ["resist_success", "armor", 1]
    s = duel(ash={"moves": ["Guard"]}, moves=(guard, STRIKE))
    s.execute("attack Ash Guard")
    s.execute("end")
    attack(s, "attack Bo Strike Ash", hits(2, 2), hits(0, 2), hits(0, 2), [SUCCESS])
    assert fighter(s, "Ash").armor == 1 and slot(s, "Ash").health == 12 - 1
    for _ in range(4):  # Ash's next Cooldown Phase takes Guard off; Bo's Strike cools down
        s.execute("end")
    attack(s, "attack Bo Strike Ash", hits(2, 2), hits(0, 2), hits(0, 2), [SUCCESS], [FAIL])
    assert fighter(s, "Ash").armor == 1


def test_condition_a_failed_resist_roll_gains_nothing():
    # CONDITION: with no success on the RESIST_Roll the condition is not met.
    guard = {"name": "Guard", "type": "buff", "cooldown": 2}
    guard["condition"] = ["resist_success", "sol", 1]
    s = duel(ash={"moves": ["Guard"]}, moves=(guard, STRIKE))
    s.execute("attack Ash Guard")
    s.execute("end")
    attack(s, "attack Bo Strike Ash", hits(2, 2), hits(0, 2), hits(0, 2), [FAIL])
    assert fighter(s, "Ash").sol == 3


# ---------------------------------------------------------------- weapon bonuses and double hit
def test_brutality_axe_classes_may_reroll_the_power_roll():
    # Brutality: an axe-class fighter may roll its POWER_Roll a second time.
    s = duel(ash={"weapon": "axe"})
    enter(s, "power", FAIL, FAIL)
    enter(s, "power", SUCCESS, SUCCESS)
    attack(s, "attack Ash Strike Bo reroll", hits(2, 2), hits(0, 2), (), hits(0, 1))
    assert slot(s, "Bo").health == 12 - 4
    with pytest.raises(IllegalAction, match="axe"):
        duel().execute("attack Ash Strike Bo reroll")


def test_full_draw_turns_unused_action_points_into_damage_for_a_ranged_move():
    # Full Draw: before a ranged move, all unused action points become +1 damage each.
    shot = dict(STRIKE, name="Shot", type="range")
    s = duel(ash={"weapon": "bow", "moves": ["Shot"], "actions": 3}, moves=(shot,))
    attack(s, "attack Ash Shot Bo fulldraw", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert slot(s, "Bo").health == 12 - 2 - 3
    assert slot(s, "Ash").actions == 0


def test_double_hit_repeats_the_attack_on_a_target_still_there():
    # DOUBLE HIT: the indicators after it repeat once if a target remains in the area.
    twice = dict(STRIKE, name="Twin", double_hit=True, damage=1)
    s = duel(ash={"moves": ["Twin"]}, moves=(twice,))
    for _ in range(2):
        enter(s, "hit", *hits(2, 2))
        enter(s, "dodge", *hits(0, 2))
        enter(s, "power", *hits(0, 2))
        enter(s, "resist", FAIL)
    s.execute("attack Ash Twin Bo")
    assert slot(s, "Bo").health == 10


def test_an_attack_with_a_debuff_rider_weakens_the_target_it_hits():
    # ATTRIBUTE UP/DOWN: a move's change to the target lasts while the move is on cooldown.
    sap = dict(STRIKE, name="Sap Strike", modifiers={"agility": -1})
    s = duel(ash={"moves": ["Sap Strike"]}, moves=(sap,))
    attack(s, 'attack Ash "Sap Strike" Bo', hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert s.game.attribute(fighter(s, "Bo"), "agility") == 1


# ---------------------------------------------------------------- SOL, spent on the rolls it boosts
def test_sol_adds_three_dice_to_a_roll_and_costs_one_point():
    # SOL: spend 1 SOL point before an ATTRIBUTE_Roll to add 3 action dice.
    s = duel()
    attack(s, "attack Ash Strike Bo sol=power", hits(2, 2), hits(0, 2), hits(5, 5), hits(0, 1))
    assert fighter(s, "Ash").sol == 2
    assert slot(s, "Bo").health == 12 - 7


def test_sol_on_the_defence_adds_three_dice_to_the_dodge_and_the_resist_roll():
    # SOL: one point, spent before an AGILITY_Roll or a RESISTANCE_Roll, gives that roll
    # three more action dice; each point is one roll's worth.
    s = duel()
    attack(
        s,
        "attack Ash Strike Bo dodge_sol=Bo resist_sol=Bo",
        hits(2, 2),
        hits(1, 5),
        hits(0, 2),
        hits(1, 4),
    )
    rolls = {r.purpose: len(r.faces) for r in s.done[-1].rolls}
    assert rolls["dodge"] == 2 + 3 and rolls["resist"] == 1 + 3
    assert fighter(s, "Bo").sol == 1
    assert slot(s, "Bo").health == 12 - 1


def test_sol_is_spent_only_when_the_roll_it_boosts_is_made():
    # SOL: the point is spent before the roll it adds dice to; a roll that never happens
    # (the attack was dodged, so no POWER_Roll and no RESIST_Roll) costs nothing.
    s = duel()
    attack(s, "attack Ash Strike Bo sol=power resist_sol=Bo", hits(0, 2), hits(1, 2))
    assert fighter(s, "Ash").sol == 3 and fighter(s, "Bo").sol == 3


def test_sol_declared_beyond_the_points_a_fighter_holds_is_refused():
    # SOL: a fighter starts with 3 points and each use costs one; nobody can spend points
    # it does not hold, so one point cannot pay for both a dodge and a resist.
    s = duel()
    s.execute("adjust Bo sol -2")
    before = s.game.snapshot()
    with pytest.raises(IllegalAction, match="Bo declares 2 SOL point"):
        s.execute("attack Ash Strike Bo dodge_sol=Bo resist_sol=Bo")
    assert s.game.snapshot() == before
    with pytest.raises(IllegalAction, match="not a target"):
        s.execute("attack Ash Strike Bo dodge_sol=Ash")


def test_sol_exchanged_and_spent_on_power_must_both_be_held():
    # SOL and EXCHANGE: SOL given away in an exchange and SOL spent on the POWER_Roll come
    # from the same three points.
    trade = dict(STRIKE, name="Trade", exchange=["sol", "damage", 1])
    s = duel(ash={"moves": ["Trade"]}, moves=(trade,))
    s.execute("adjust Ash sol -2")
    with pytest.raises(IllegalAction, match="Ash declares 2 SOL point"):
        s.execute("attack Ash Trade Bo exchange=1 sol=power")
    assert fighter(s, "Ash").sol == 1


# ---------------------------------------------------------------- several targets
def test_a_move_with_several_targets_makes_one_hit_roll_and_one_power_roll():
    # HIT INSTANCE and DAMAGE INSTANCE: the user makes one HIT_Roll and one POWER_Roll;
    # each target answers with its own AGILITY_Roll and its own RESIST_Roll.
    burst = dict(STRIKE, name="Burst", targets=2)
    s = session(
        [dict(ASH, moves=["Burst"]), dict(BO), dict(BO, name="Cy")],
        (burst,),
    )
    enter(s, "hit", *hits(1, 2))
    enter(s, "dodge", *hits(0, 2))  # Bo
    enter(s, "dodge", *hits(2, 2))  # Cy dodges
    enter(s, "power", *hits(1, 2))
    enter(s, "resist", FAIL)  # Bo
    s.execute("attack Ash Burst Bo Cy")
    assert [r.purpose for r in s.done[-1].rolls] == ["hit", "dodge", "dodge", "power", "resist"]
    assert slot(s, "Bo").health == 12 - 3 and slot(s, "Cy").health == 12


def test_one_power_roll_is_blocked_separately_by_each_target():
    # DAMAGE INSTANCE: the same potential damage meets each target's own RESIST_Roll.
    burst = dict(STRIKE, name="Burst", targets=2)
    s = session(
        [dict(ASH, moves=["Burst"]), dict(BO), dict(BO, name="Cy", resistance=2)],
        (burst,),
    )
    enter(s, "hit", *hits(2, 2))
    enter(s, "dodge", *hits(0, 2))
    enter(s, "dodge", *hits(0, 2))
    enter(s, "power", *hits(2, 2))
    enter(s, "resist", FAIL)  # Bo: 1 die
    enter(s, "resist", SUCCESS, SUCCESS)  # Cy: 2 dice
    s.execute("attack Ash Burst Bo Cy")
    assert (slot(s, "Bo").health, slot(s, "Cy").health) == (12 - 4, 12 - 2)
    assert fighter(s, "Ash").stats.crits == 2


def test_an_attack_cannot_target_its_own_user():
    # Combat step (02): the targets are creatures in the attack area, which starts from the
    # user's position; only a buff touches the user itself.
    s = duel()
    with pytest.raises(IllegalAction, match="Ash cannot target itself with Strike"):
        s.execute("attack Ash Strike Ash")


# ---------------------------------------------------------------- items and artifacts
def test_an_item_costs_one_action_point_and_a_consumable_is_discarded():
    # ACTION PHASE, Use Items: 1 action point; consumables are discarded after use.
    tonic = {"name": "Tonic", "kind": "consumable", "heal": 1}
    s = session([dict(ASH, items=["Tonic"]), dict(BO)], (STRIKE,), (tonic,))
    s.execute("item Ash Tonic")
    assert slot(s, "Ash").actions == 1
    assert fighter(s, "Ash").hand == []


def test_a_tool_returns_to_the_hand_and_waits_out_its_cooldown():
    # Item Types, Tool: returns to the hand after use or cooldown.
    stone = {"name": "Stone", "kind": "tool", "cooldown": 1, "modifiers": {"power": 1}}
    s = session([dict(ASH, items=["Stone"]), dict(BO)], (STRIKE,), (stone,))
    s.execute("item Ash Stone")
    assert [i.name for i in fighter(s, "Ash").hand] == ["Stone"]
    with pytest.raises(IllegalAction, match="cooldown"):
        s.execute("item Ash Stone")


def test_a_tool_with_a_cooldown_is_used_once_a_turn_and_shows_its_cooldown_at_once():
    # korxsol-players-guide.txt:86 (a tool returns to the hand after its cooldown), :297
    # (what was used goes on cooldown in the Cooldown Phase) and :93 (an artifact on
    # cooldown cannot be activated): the timer shows from the use, counting from the
    # Cooldown Phase, so it is not used twice in a turn; a tool with no cooldown returns
    # at once.
    stone = {"name": "Stone", "kind": "tool", "cooldown": 1, "modifiers": {"power": 1}}
    rag = {"name": "Rag", "kind": "tool", "heal": 1}
    charm = {"name": "Charm", "kind": "active", "cooldown": 1, "heal": 1}
    ash = dict(ASH, items=["Stone", "Rag"], artifacts=["Charm"], actions=4)
    s = session([ash, dict(BO)], (STRIKE,), (stone, rag), (charm,))
    s.execute("item Ash Stone")
    s.execute("artifact Ash Charm")
    assert s.game.snapshot()["fighters"][0]["cooldowns"] == {"Stone": 1, "Charm": 1}
    with pytest.raises(IllegalAction) as err:
        s.execute("item Ash Stone")
    assert str(err.value) == (
        "Stone was used this turn: a tool comes back to the hand only after its cooldown"
        " (1 turn from this turn's Cooldown Phase)"
    )
    with pytest.raises(IllegalAction, match="Charm was activated this turn: it cannot be"):
        s.execute("artifact Ash Charm")
    s.execute("item Ash Rag")
    s.execute("item Ash Rag")  # no cooldown: back in the hand at once
    s.execute("end")
    s.execute("end")
    with pytest.raises(IllegalAction, match=r"^Stone is on cooldown \(1 turn left\)$"):
        s.execute("item Ash Stone")
    s.execute("end")
    s.execute("end")
    s.execute("item Ash Stone")


def test_an_active_artifact_costs_no_action_point_and_goes_on_cooldown():
    # ARTIFACTS, Active: activated at no action point cost, then on cooldown; a passive
    # artifact is always on.
    charm = {"name": "Charm", "kind": "active", "cooldown": 2, "heal": 1}
    ward = {"name": "Ward", "kind": "passive", "passive": {"resistance": 2}}
    s = session(
        [dict(ASH, artifacts=["Charm"]), dict(BO, artifacts=["Ward"])], (STRIKE,), (), (charm, ward)
    )
    slot(s, "Ash").health = 5
    s.execute("artifact Ash Charm")
    assert slot(s, "Ash").actions == 2 and slot(s, "Ash").health == 6
    with pytest.raises(IllegalAction, match="cooldown"):
        s.execute("artifact Ash Charm")
    assert s.game.attribute(fighter(s, "Bo"), "resistance") == 3


def test_every_item_in_a_large_inventory_has_its_own_cooldown():
    # INVENTORY and Item Types, Tool: each item carried waits out its own cooldown; the
    # fourth and fifth items and the artifact do not share a timer.
    charm = {"name": "Charm", "kind": "active", "cooldown": 2, "heal": 1}
    s = session(
        [dict(ASH, inventory=5, items=[t["name"] for t in tools(5)], artifacts=["Charm"]), BO],
        (STRIKE,),
        tools(5),
        (charm,),
    )
    s.execute("item Ash Tool4")
    s.execute("item Ash Tool5")
    s.execute("artifact Ash Charm")
    cds = s.game.snapshot()["fighters"][0]["cooldowns"]
    assert cds == {"Tool4": 1, "Tool5": 1, "Charm": 2}


BOMB = {"name": "Bomb", "kind": "consumable", "hit": 2, "damage": 2, "burn": 1}


def test_an_item_that_strikes_goes_through_the_hit_and_damage_instances():
    # ITEMS: an item used on an adjacent target applies its indicators as a move would:
    # hit instance, damage instance, status flips.
    s = session([dict(ASH, items=["Bomb"]), dict(BO)], (STRIKE,), (BOMB,))
    enter(s, "hit", *hits(1, 2))
    enter(s, "dodge", *hits(0, 2))
    enter(s, "power", *hits(1, 2))
    enter(s, "resist", FAIL)
    enter(s, "chance", 1)
    s.execute("item Ash Bomb Bo")
    assert [r.purpose for r in s.done[-1].rolls] == ["hit", "dodge", "power", "resist", "chance"]
    assert slot(s, "Bo").health == 12 - 3 and slot(s, "Bo").counters[BURN] == 1
    assert slot(s, "Ash").actions == 1 and fighter(s, "Ash").hand == []
    assert fighter(s, "Ash").stats.damage_dealt == 3


def test_an_item_that_strikes_needs_a_target_other_than_its_user():
    # ITEMS: used on oneself or on an adjacent target; a striking item is aimed at a target.
    s = session([dict(ASH, items=["Bomb"]), dict(BO)], (STRIKE,), (BOMB,))
    with pytest.raises(IllegalAction, match="needs a target"):
        s.execute("item Ash Bomb")
    with pytest.raises(IllegalAction, match="cannot target itself"):
        s.execute("item Ash Bomb Ash")


def test_an_active_artifact_that_strikes_knocks_its_target_down():
    # ARTIFACTS, Active: the effect is applied when activated (no action point), here a
    # knockdown on a hit.
    totem = {"name": "Totem", "kind": "active", "cooldown": 2, "hit": 1, "knockdown": True}
    s = session([dict(ASH, artifacts=["Totem"]), dict(BO)], (STRIKE,), (), (totem,))
    enter(s, "hit", SUCCESS)
    enter(s, "dodge", *hits(0, 2))
    s.execute("artifact Ash Totem Bo")
    assert slot(s, "Bo").flags & F_KNOCKED_DOWN and slot(s, "Ash").actions == 2


# ---------------------------------------------------------------- one attack plan, two users
SCRIPT = Path(__file__).parent / "scripts" / "ember_ridge_fight.txt"


def _first_strike(rolled: list[tuple[str, int, int]]) -> dict[tuple[str, int], int]:
    """(purpose, fighter) -> dice of the first HIT, AGILITY, POWER, RESIST and ARMOR roll of
    each the engine made (none skipped for having no dice), up to a double hit's second
    HIT_Roll (a Brutality reroll takes the same dice)."""
    dice: dict[tuple[str, int], int] = {}
    for purpose, who, n in rolled:
        if purpose == "hit" and ("hit", who) in dice:
            break
        if purpose in ("hit", "dodge", "power", "resist", "armor"):
            dice.setdefault((purpose, who), n)
    return dice


def _planned_and_rolled(game, line: str, made: list, rolled: list) -> int:
    """Play `line`; if it strikes, check that the odds' plan made just before is the plan
    the engine resolved it by, and that the engine rolled the dice the plan counts.
    Returns the rolls checked."""
    cmd = parse(line)
    assert cmd is not None
    thing = None
    if cmd.verb in ("attack", "item", "artifact") and len(cmd.args) > 2:
        kinds = ("move",) if cmd.verb == "attack" else (cmd.verb,)
        try:
            thing = exact_odds.plan(game, Command("odds", cmd.args, dict(cmd.opts)), None, kinds)
        except IllegalAction as err:
            assert "does not strike" in str(err)
    made.clear()
    rolled.clear()
    game.apply(cmd)
    if thing is None:
        return 0
    assert made and made[-1] == thing
    dice = _first_strike(rolled)
    for (purpose, who), n in dice.items():
        if purpose in ("hit", "power"):
            assert (who, n) == (thing.user, getattr(thing, purpose + "_dice")), line
        else:
            d = thing.defence(game.fighters[who])
            assert n == getattr(d, purpose + "_dice"), (line, purpose, who)
    return len(dice)


def _watch(monkeypatch) -> tuple[list, list]:
    """Keep every plan the engine makes and every roll it asks for (with its dice, none
    left out for having no dice)."""
    made: list = []
    rolled: list[tuple[str, int, int]] = []
    plan, roll = combat.plan_attack, GameCore._action_roll

    def planning(*args, **kw):
        made.append(plan(*args, **kw))
        return made[-1]

    def rolling(self, purpose, f, n):
        rolled.append((purpose, f.index, n))
        return roll(self, purpose, f, n)

    monkeypatch.setattr(combat, "plan_attack", planning)
    monkeypatch.setattr(GameCore, "_action_roll", rolling)
    return made, rolled


def test_the_engine_and_the_odds_agree_on_the_plan_of_every_example_attack(monkeypatch):
    # korxsol-players-guide.txt:131 (HIT INSTANCE) and :137 (DAMAGE INSTANCE): the dice of
    # the HIT_Roll, each target's AGILITY_Roll, the POWER_Roll and each RESIST_Roll and
    # ARMOR_Roll, with SOL (:53), Brutality (:61), Full Draw and SUNDER (:170). One plan
    # (combat.plan_attack) serves both: every attack of the example encounter, the fight
    # of tests/scripts/ember_ridge_fight.txt (seed 7) and each striking move of each
    # fighter on each enemy at the start with the options its class may take, is planned
    # by the odds, resolved by the engine by that same plan, and rolled as it counts.
    made, rolled = _watch(monkeypatch)
    enc = encounter_schema.load(encounter_schema.example_path())
    game = Game(enc, 7)
    checked = 0
    for line in SCRIPT.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            checked += _planned_and_rolled(game, line, made, rolled)
    assert game.winner is not None and checked > 100

    for f in enc.solighters:
        enemies = [e.label for e in enc.solighters if e.team != f.team]
        order = "order " + " ".join([f.label] + [o.label for o in enc.solighters if o is not f])
        for move in f.moves:
            if not (move.is_attack or move.type == "debuff") or move.effects.charge:
                continue
            for named in ([enemies[0]], [enemies[1]], enemies[: move.effects.targets]):
                t = named[0]
                options = ["", "sol=power", f"dodge_sol={t} resist_sol={t}", f"cornered={t}"]
                options.append("fulldraw" if f.weapon == "bow" and move.type == "range" else "")
                options.append("reroll=2" if f.weapon == "axe" else "")
                for option in options:
                    game = Game(enc, 11)
                    game.apply(parse(order))
                    line = f'attack {f.label} "{move.name}" {" ".join(named)} {option}'
                    checked += _planned_and_rolled(game, line, made, rolled)
    assert checked > 300


def test_brutalitys_reroll_is_bounded_by_max_dice():
    # korxsol-players-guide.txt:61 (Brutality): the axe may roll its POWER_Roll again;
    # reroll=N rolls again below N successes, and no roll has more than MAX_DICE dice, so
    # N runs to MAX_DICE, for the engine and the odds alike (the odds said 15 on their own).
    s = duel(ash={"weapon": "axe"})
    top = exact_odds.plan(s.game, parse(f"odds Ash Strike Bo reroll={MAX_DICE}"))
    assert top.reroll_below == MAX_DICE
    for line in (
        f"odds Ash Strike Bo reroll={MAX_DICE + 1}",
        f"attack Ash Strike Bo reroll={MAX_DICE + 1}",
    ):
        verb = line.split()[0]  # the grammar refuses it, for the odds and the engine alike
        with pytest.raises(
            IllegalAction, match=rf"^{verb}: reroll= must be 1\.\.{MAX_DICE}, not {MAX_DICE + 1}$"
        ):
            s.execute(line)
    attack(s, f"attack Ash Strike Bo reroll={MAX_DICE}", hits(2, 2), hits(0, 2), (), hits(0, 1))
    assert [r.purpose for r in s.done[-1].rolls].count("power") == 2


def test_the_odds_chip_sunder_from_the_armor_as_the_engine_does():
    # korxsol-players-guide.txt:170 (SUNDER chips the target's Armor at once) and :150
    # (ATTRIBUTE UP/DOWN): sunder chips the armor the target has, not a buff on it, so a
    # target with no armor of its own keeps an ally's +2 armor buff against a sunder of 2.
    ward = {"name": "Ward", "type": "buff", "cooldown": 2, "modifiers": {"armor": 2}}
    crack = {"name": "Crack", "type": "melee", "cooldown": 1, "hit": 1, "damage": 1}
    crack["sunder"] = 2
    s = session(
        [dict(ASH, moves=["Crack"]), dict(BO, moves=["Ward"]), dict(BO, name="Cy")],
        (ward, crack),
        order=["Bo", "Ash", "Cy"],
    )
    s.execute("attack Bo Ward Cy")
    s.execute("end")
    planned = exact_odds.plan(s.game, parse("odds Ash Crack Cy")).defence(fighter(s, "Cy"))
    assert planned.armor_dice == 2
    attack(s, "attack Ash Crack Cy", [SUCCESS], hits(0, 2), hits(0, 2), [FAIL], hits(0, 2))
    assert [len(r.faces) for r in s.done[-1].rolls if r.purpose == "armor"] == [2]


def test_the_plan_counts_the_moves_own_attribute_and_a_grappler_letting_go(monkeypatch):
    # korxsol-players-guide.txt:148 (ATTRIBUTE: the user's power changes as the move is
    # used) and :218-:220 (Attacked While Grappling: a targeted grappler lets go at once;
    # the held creature alone dodges with -3). The plan is made before either happens and
    # counts both, as the engine then rolls them.
    surge = dict(STRIKE, name="Surge", targets=2, during={"power": 2})
    grip = {"name": "Grip", "type": "melee", "cooldown": 1, "hit": 1, "grapple": 1}
    made, rolled = _watch(monkeypatch)
    for line in ("attack Ash Surge Cy", "attack Ash Surge Bo Cy"):
        s = session(
            [dict(BO, moves=["Grip"]), dict(ASH, moves=["Surge"]), dict(ASH, name="Cy", agility=4)],
            (surge, grip),
        )
        attack(s, "attack Bo Grip Cy", [SUCCESS], hits(0, 4), chance=(1,))
        s.execute("end")
        assert _planned_and_rolled(s.game, line, made, rolled) >= 2
        cy = made[-1].defence(fighter(s, "Cy"))
        assert (made[-1].power_dice, cy.dodge_dice) == (2 + 2, 4 - 3 if "Bo" not in line else 4)


def test_the_odds_take_two_from_a_blinded_attackers_hit_and_nothing_from_a_blinded_target():
    # korxsol-players-guide.txt:226 BLINDED: the blinded creature's own HIT CHANCE is -2
    # (blinded outright by `blind = true`); its AGILITY_Roll to dodge is untouched. The odds
    # say so, and count it as the engine rolls it.
    flash = {"name": "Flash", "type": "range", "cooldown": 1, "hit": 1, "blind": True}
    powder = {"name": "Powder", "kind": "tool", "blind": True}
    s = duel(
        ash={"moves": ["Flash"]},
        bo={"moves": ["Strike"], "items": ["Powder"], "actions": 3},
        moves=(flash, STRIKE),
        items=(powder,),
    )
    attack(s, "attack Ash Flash Bo", [SUCCESS], hits(0, 2))
    s.execute("end")
    assert fighter(s, "Bo").blinded
    lines = exact_odds.describe(s.game, parse("odds Bo Strike Ash"))
    assert "2 hit dice (-2 blinded to the hit successes) vs 2 agility" in lines[0]
    o, _ = exact_odds.for_move(s.game, parse("odds Bo Strike Ash"))
    assert o.hit == exact_odds.hit_chance(2, 2, hit_bonus=-2)
    attack(s, "attack Bo Strike Ash", hits(2, 2), hits(1, 2))  # 2 - 2 < 1: dodged
    assert slot(s, "Ash").health == 12
    s.execute("end")
    s.execute("end")
    s.execute("item Bo Powder Ash")  # now Ash is blinded, Bo is not
    assert fighter(s, "Ash").blinded and not fighter(s, "Bo").blinded
    o, _ = exact_odds.for_move(s.game, parse("odds Bo Strike Ash"))
    assert o.hit == exact_odds.hit_chance(2, 2)
    assert "blinded" not in exact_odds.describe(s.game, parse("odds Bo Strike Ash"))[0]
