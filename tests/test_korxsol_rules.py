"""One test per korxsol rule, on the desktop engine (host/korxsol).

Source for every test: korxsol-players-guide.txt (the section is named in each test).
Dice are entered face by face: with success_faces = [3], a 3 succeeds and a 1 fails.
"""

from __future__ import annotations

import pytest
from korxsol_fixtures import FAIL, STRIKE, SUCCESS, enter, fighter, hits, session, slot

from host.korxsol import knockback, odds
from host.korxsol.commands import parse
from host.korxsol.rolls import IllegalAction
from shared import cooldowns
from shared.state import F_CHARGING, F_FROZEN, F_GRAPPLED, F_KNOCKED_DOWN, F_OUT, F_PINNED

ASH = {"name": "Ash", "team": "A", "moves": ["Strike"]}
BO = {"name": "Bo", "team": "B", "moves": ["Strike"]}


def duel(ash=None, bo=None, moves=(STRIKE,), **kw):
    a = dict(ASH)
    a.update(ash or {})
    b = dict(BO)
    b.update(bo or {})
    if not any(m["name"] == "Strike" for m in moves):
        moves = (*moves, STRIKE)
    return session([a, b], moves, **kw)


def attack(s, line, hit=(), dodge=(), power=(), resist=(), armor=(), chance=()):
    for purpose, faces in (
        ("hit", hit),
        ("dodge", dodge),
        ("power", power),
        ("resist", resist),
        ("armor", armor),
        ("chance", chance),
    ):
        if faces:
            enter(s, purpose, *faces)
    return s.execute(line)


# ---------------------------------------------------------------- the hit instance
def test_hit_roll_equal_to_the_agility_roll_hits():
    # HIT INSTANCE: a hit needs successes greater than or equal to the dodge's; a tie hits.
    s = duel()
    attack(s, "attack Ash Strike Bo", hits(1, 2), hits(1, 2), hits(0, 2), hits(0, 1))
    assert slot(s, "Bo").kor == 12 - 2
    assert fighter(s, "Ash").stats.hits == 1


def test_dodge_needs_more_successes_than_the_hit_and_leaves_the_target_unharmed():
    # HIT INSTANCE, Successful DODGE: the dodge chance must be greater than the hit chance.
    s = duel()
    attack(s, "attack Ash Strike Bo", hits(0, 2), hits(1, 2))
    assert slot(s, "Bo").kor == 12
    assert fighter(s, "Bo").stats.dodges == 1


def test_a_target_that_cannot_step_out_is_hit_automatically_without_rolling():
    # HIT INSTANCE: if the target cannot legally leave the area, the attack automatically
    # hits and the dodge roll is skipped (the game master says so with cornered=).
    s = duel()
    attack(s, "attack Ash Strike Bo cornered=Bo", hits(0, 2), (), hits(0, 2), hits(0, 1))
    assert slot(s, "Bo").kor == 10
    assert not any(r.purpose == "dodge" for r in s.done[-1].rolls)


# ---------------------------------------------------------------- the damage instance
def test_each_power_success_adds_one_to_the_base_damage():
    # DAMAGE INSTANCE: every POWER_Roll success counts as a critical hit, +1 on the base damage.
    s = duel()
    attack(s, "attack Ash Strike Bo", hits(2, 2), hits(0, 2), hits(2, 2), hits(0, 1))
    assert slot(s, "Bo").kor == 12 - 4
    assert fighter(s, "Ash").stats.crits == 2


def test_each_resist_success_blocks_one_damage():
    # DAMAGE INSTANCE: every RESIST_Roll success blocks 1 point of damage.
    s = duel(bo={"resistance": 2})
    attack(s, "attack Ash Strike Bo", hits(2, 2), hits(0, 2), hits(1, 2), hits(2, 2))
    assert slot(s, "Bo").kor == 12 - 1
    assert fighter(s, "Bo").stats.blocked == 2


def test_armor_that_blocks_is_chipped_one_point_per_damage_blocked():
    # Armor (ATTRIBUTE): armor dice join the RESIST_Roll; armor that blocks is chipped by 1
    # for every point it blocked.
    s = duel(bo={"resistance": 1, "armor": 3})
    attack(s, "attack Ash Strike Bo", hits(2, 2), hits(0, 2), hits(1, 2), hits(1, 1), hits(2, 3))
    # 3 potential damage: 1 resisted, 2 blocked by armor -> armor 3 -> 1, no damage.
    assert slot(s, "Bo").kor == 12
    assert fighter(s, "Bo").armor == 1


def test_burn_adds_one_unblockable_damage_per_stack_when_hit():
    # BURN: a target with burn that is HIT takes 1 additional un-blockable damage per stack.
    s = duel()
    slot(s, "Bo").burn = 2
    attack(s, "attack Ash Strike Bo", hits(2, 2), hits(0, 2), hits(0, 2), hits(1, 1))
    assert slot(s, "Bo").kor == 12 - (2 - 1) - 2


def test_burn_flips_add_stacks_up_to_three():
    # BURN: one stack per heads; burns stack up to 3 times.
    burn = {"name": "Scorch", "type": "range", "cooldown": 1, "hit": 1, "burn": 4}
    s = duel(ash={"moves": ["Scorch"]}, moves=(burn,))
    attack(s, "attack Ash Scorch Bo", [SUCCESS], [FAIL, FAIL], chance=(1, 1, 1, 1))
    assert slot(s, "Bo").burn == 3


def test_resistance_piercing_stops_the_resist_roll():
    # RESISTANCE PIERCING: the target does not roll resistance during the move.
    pierce = dict(STRIKE, name="Pierce", resist_piercing=True)
    s = duel(ash={"moves": ["Pierce"]}, bo={"resistance": 5}, moves=(pierce,))
    attack(s, "attack Ash Pierce Bo", hits(2, 2), hits(0, 2), hits(0, 2))
    assert slot(s, "Bo").kor == 10
    assert not any(r.purpose == "resist" for r in s.done[-1].rolls)


def test_armor_piercing_stops_the_armor_roll():
    # ARMOR PIERCING: the target does not roll its armor during the move.
    pierce = dict(STRIKE, name="Pierce", armor_piercing=True)
    s = duel(ash={"moves": ["Pierce"]}, bo={"armor": 4}, moves=(pierce,))
    attack(s, "attack Ash Pierce Bo", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert slot(s, "Bo").kor == 10
    assert fighter(s, "Bo").armor == 4


def test_sunder_chips_the_targets_armor_at_once():
    # SUNDER: the target's armor drops by X right away.
    sunder = {"name": "Crack", "type": "melee", "cooldown": 1, "hit": 1, "sunder": 2}
    s = duel(ash={"moves": ["Crack"]}, bo={"armor": 3}, moves=(sunder,))
    attack(s, "attack Ash Crack Bo", [SUCCESS], hits(0, 2))
    assert fighter(s, "Bo").armor == 1


def test_exchange_trades_the_users_armor_for_damage():
    # EXCHANGE: the user may exchange one indicator for another at the move's rate.
    trade = dict(STRIKE, name="Trade", exchange=["armor", "damage", 2])
    s = duel(ash={"moves": ["Trade"], "armor": 2}, moves=(trade,))
    attack(s, "attack Ash Trade Bo exchange=1", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert fighter(s, "Ash").armor == 1
    assert slot(s, "Bo").kor == 12 - 2 - 2


def test_exchange_is_the_users_choice_on_a_buff_and_a_helping_item_too():
    # korxsol-players-guide.txt, EXCHANGE (Combat Move INDICATORS): the user may trade one
    # indicator for another at the rate shown. It is the user's choice on whatever carries
    # it, so a buff (here: KOR for armor) and an item that helps (armor for SOL) trade too.
    rally = {"name": "Rally", "type": "buff", "cooldown": 2, "exchange": ["kor", "armor", 2]}
    flask = {"name": "Flask", "kind": "tool", "exchange": ["armor", "sol", 1]}
    s = duel(ash={"moves": ["Rally"], "items": ["Flask"]}, moves=(rally,), items=(flask,))
    s.execute("attack Ash Rally exchange=2")
    ash = fighter(s, "Ash")
    assert (slot(s, "Ash").kor, ash.armor) == (12 - 2, 0 + 2 * 2)
    s.execute("item Ash Flask exchange=3")
    assert (ash.armor, ash.sol) == (4 - 3, 3 + 3)
    with pytest.raises(IllegalAction, match="cannot exchange 2 armor"):
        s.execute("item Ash Flask exchange=2")


def test_conversion_makes_each_power_success_worth_its_base_damage():
    # CONVERSION: a successful POWER_Roll is replaced by X base damage (per success).
    conv = dict(STRIKE, name="Quake", conversion=3)
    s = duel(ash={"moves": ["Quake"]}, moves=(conv,))
    attack(s, "attack Ash Quake Bo", hits(2, 2), hits(0, 2), hits(1, 2), hits(0, 1))
    assert slot(s, "Bo").kor == 12 - 2 - 3


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
    o, _ = odds.for_move(s.game, parse("odds Ash Rend Bo"))
    assert o.damage == odds.damage_distribution(2 + 2, 2, 1)
    attack(s, "attack Ash Rend Bo", hits(2, 2), hits(0, 2), hits(0, 2), hits(1, 1))
    assert slot(s, "Bo").kor == 12 - (2 + 2 - 1)
    assert "damage 4 (2 base + 0 power + 2), 1 resisted" in "\n".join(s.game.log)


# ---------------------------------------------------------------- status effects
FROST = {"name": "Chill", "type": "range", "cooldown": 1, "hit": 1, "frost": 2}


def test_frost_heads_add_stacks_that_drain_action_points_at_turn_start():
    # FROST: one stack per heads; each stack takes 1 action point at the target's turn start.
    s = duel(ash={"moves": ["Chill"]}, bo={"actions": 3}, moves=(FROST,))
    attack(s, "attack Ash Chill Bo", [SUCCESS], hits(0, 2), chance=(1, 0))
    s.execute("end")
    assert slot(s, "Bo").ap == 2


def test_frost_at_or_above_action_points_freezes_and_the_frozen_cannot_act():
    # FROST: stacks >= action points freeze the target: no Action Phase.
    s = duel(ash={"moves": ["Chill"]}, moves=(FROST,))
    attack(s, "attack Ash Chill Bo", [SUCCESS], hits(0, 2), chance=(1, 1))
    s.execute("end")
    assert slot(s, "Bo").flags & F_FROZEN
    with pytest.raises(IllegalAction, match="frozen"):
        s.execute("move Bo")
    s.execute("end")
    assert slot(s, "Bo").frost == 0


def test_fear_spends_an_action_point_per_stack_moving_away_at_turn_start():
    # FEAR: at turn start, 1 action point per stack is spent moving away; whatever fear is
    # left over is removed once that turn is done.
    fear = {"name": "Howl", "type": "debuff", "cooldown": 1, "hit": 1, "fear": 1}
    s = duel(ash={"moves": ["Howl"]}, bo={"actions": 3}, moves=(fear,))
    attack(s, "attack Ash Howl Bo", [SUCCESS], hits(0, 2), chance=(1,))
    assert slot(s, "Bo").fear == 1
    s.execute("end")
    assert slot(s, "Bo").ap == 2
    assert slot(s, "Bo").fear == 0


def test_a_grappled_creature_cannot_flee_in_fear_and_keeps_its_action_points():
    # korxsol-players-guide.txt, FEAR (each stack costs an action point spent moving away)
    # and GRAPPLE (the grappled must be released before acting normally; a grappler that
    # moves carries its target). A grappled creature cannot move away, so, like a pinned
    # one, it spends nothing; the fear left over is cleansed as its turn ends.
    grip = {"name": "Grip", "type": "melee", "cooldown": 1, "hit": 1, "grapple": 1}
    s = duel(ash={"moves": ["Grip"]}, bo={"actions": 3}, moves=(grip,))
    attack(s, "attack Ash Grip Bo", [SUCCESS], hits(0, 2), chance=(1,))
    s.execute("adjust Bo fear +2")
    s.execute("end")
    assert slot(s, "Bo").flags & F_GRAPPLED
    assert slot(s, "Bo").ap == 3
    s.execute("end")
    assert slot(s, "Bo").fear == 0


def test_knockdown_lowers_agility_until_the_turn_and_getting_up_costs_an_action_point():
    # KNOCKDOWN: AGILITY -1 until their turn; on their turn 1 action point gets them up.
    kd = dict(STRIKE, name="Trip", damage=0, knockdown=True)
    s = duel(ash={"moves": ["Trip"]}, moves=(kd,))
    attack(s, "attack Ash Trip Bo", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    bo = fighter(s, "Bo")
    assert slot(s, "Bo").flags & F_KNOCKED_DOWN
    assert s.game.attribute(bo, "agility") == 1
    s.execute("end")
    assert not slot(s, "Bo").flags & F_KNOCKED_DOWN
    assert slot(s, "Bo").ap == 1


def test_a_successful_dodge_clears_knockdown_and_pin():
    # KNOCKDOWN and PIN: dodging successfully before one's own turn comes round clears both.
    s = duel()
    slot(s, "Bo").flags |= F_KNOCKED_DOWN | F_PINNED
    attack(s, "attack Ash Strike Bo", hits(0, 2), [SUCCESS])  # agility 2 - 1 = 1 die
    assert not slot(s, "Bo").flags & (F_KNOCKED_DOWN | F_PINNED)


def test_a_pinned_creature_cannot_move_and_the_pin_clears_at_its_turn_end():
    # PIN: the pinned cannot use action points to move; it clears when its turn ends.
    pin = {"name": "Nail", "type": "range", "cooldown": 1, "hit": 1, "pin": 1}
    s = duel(ash={"moves": ["Nail"]}, moves=(pin,))
    attack(s, "attack Ash Nail Bo", [SUCCESS], hits(0, 2), chance=(1,))
    s.execute("end")
    with pytest.raises(IllegalAction, match="pinned"):
        s.execute("move Bo")
    s.execute("end")
    assert not slot(s, "Bo").flags & F_PINNED


GRIP = {"name": "Grip", "type": "melee", "cooldown": 1, "hit": 1, "grapple": 1}


def grappled():
    s = duel(ash={"moves": ["Grip"]}, bo={"moves": ["Strike"]}, moves=(GRIP, STRIKE))
    attack(s, "attack Ash Grip Bo", [SUCCESS], hits(0, 2), chance=(1,))
    return s


def test_grapple_heads_grapple_the_target():
    # GRAPPLE: the target flips X chance tokens; on heads it is grappled.
    s = grappled()
    assert slot(s, "Bo").flags & F_GRAPPLED
    assert fighter(s, "Ash").grappling == fighter(s, "Bo").index


def test_a_grappled_creature_struggles_free_on_any_heads_for_one_action_point():
    # GRAPPLE, STRUGGLE: 1 action point, flip chance tokens equal to Power; any heads frees.
    s = grappled()
    s.execute("end")
    with pytest.raises(IllegalAction, match="grappled"):
        s.execute("attack Bo Strike Ash")
    enter(s, "chance", 0, 1)
    s.execute("struggle Bo")
    assert not slot(s, "Bo").flags & F_GRAPPLED
    assert slot(s, "Bo").ap == 1


def test_the_grapplers_combat_is_a_power_roll_of_unblockable_damage():
    # GRAPPLE, Combat While Grappling: each POWER_Roll success is 1 un-blockable damage.
    s = grappled()
    s.execute("end")
    s.execute("end")
    enter(s, "power", SUCCESS, SUCCESS)
    s.execute("crush Ash")
    assert slot(s, "Bo").kor == 10


def test_a_grappler_cannot_use_items():
    # GRAPPLE: while holding someone in a grapple, a player cannot use items.
    tonic = {"name": "Tonic", "kind": "consumable", "heal": 2}
    s = session(
        [dict(ASH, moves=["Grip"], items=["Tonic"]), dict(BO)],
        (GRIP, STRIKE),
        (tonic,),
    )
    attack(s, "attack Ash Grip Bo", [SUCCESS], hits(0, 2), chance=(1,))
    with pytest.raises(IllegalAction, match="grapple"):
        s.execute("item Ash Tonic")


def test_attacking_the_grappler_releases_the_grapple():
    # Attacked While Grappling: as soon as the grappler is itself targeted by a move, it
    # lets go.
    s = session(
        [dict(ASH, moves=["Grip"]), dict(BO), dict(ASH, name="Cy", team="B", moves=["Strike"])],
        (GRIP, STRIKE),
    )
    attack(s, "attack Ash Grip Bo", [SUCCESS], hits(0, 2), chance=(1,))
    s.execute("end")
    s.execute("end")  # Bo (grappled) passes
    attack(s, "attack Cy Strike Ash", hits(0, 2), hits(1, 2))
    assert not slot(s, "Bo").flags & F_GRAPPLED


def test_a_grappled_target_dodges_with_three_less_agility_and_is_freed_by_a_dodge():
    # Attacked While Grappled: Agility -3; with no chance to dodge it is an automatic hit
    # and the creature is released after the attack; a successful dodge releases it.
    s = session(
        [
            dict(ASH, moves=["Grip"]),
            dict(BO, agility=4),
            dict(ASH, name="Cy", team="A", moves=["Strike"]),
        ],
        (GRIP, STRIKE),
    )
    attack(s, "attack Ash Grip Bo", [SUCCESS], hits(0, 4), chance=(1,))
    s.execute("end")
    s.execute("end")
    attack(s, "attack Cy Strike Bo", hits(0, 2), [SUCCESS])  # 4 - 3 = 1 die, dodges
    assert not slot(s, "Bo").flags & F_GRAPPLED


def test_a_grappled_target_with_no_agility_left_is_hit_automatically_then_released():
    s = session(
        [dict(ASH, moves=["Grip"]), dict(BO), dict(ASH, name="Cy", team="A", moves=["Strike"])],
        (GRIP, STRIKE),
    )
    attack(s, "attack Ash Grip Bo", [SUCCESS], hits(0, 2), chance=(1,))
    s.execute("end")
    s.execute("end")
    attack(s, "attack Cy Strike Bo", hits(0, 2), (), hits(0, 2), hits(0, 1))
    assert slot(s, "Bo").kor == 10
    assert not slot(s, "Bo").flags & F_GRAPPLED


def test_a_move_with_release_frees_a_grappled_user():
    # RELEASE: the move can be used while grappled and releases its user at once.
    slip = {"name": "Slip", "type": "buff", "cooldown": 1, "release": True}
    s = session([dict(ASH, moves=["Grip"]), dict(BO, moves=["Slip"])], (GRIP, slip))
    attack(s, "attack Ash Grip Bo", [SUCCESS], hits(0, 2), chance=(1,))
    s.execute("end")
    s.execute("attack Bo Slip")
    assert not slot(s, "Bo").flags & F_GRAPPLED


def test_blinded_lowers_the_hit_chance_by_two_until_the_end_of_its_turn():
    # BLINDED: the blinded creature's HIT CHANCE is -2 until the end of its turn.
    blind = {"name": "Flash", "type": "range", "cooldown": 1, "hit": 1, "blind": 1}
    s = duel(ash={"moves": ["Flash"]}, bo={"moves": ["Strike"]}, moves=(blind, STRIKE))
    attack(s, "attack Ash Flash Bo", [SUCCESS], hits(0, 2), chance=(1,))
    s.execute("end")
    assert fighter(s, "Bo").blinded
    attack(s, "attack Bo Strike Ash", hits(2, 2), hits(1, 2))  # 2 - 2 = 0 < 1: dodged
    assert slot(s, "Ash").kor == 12
    s.execute("end")
    assert not fighter(s, "Bo").blinded


def test_true_sight_raises_the_hit_chance_by_three():
    # TRUE SIGHT: the user's HIT CHANCE is +3 (while its move is on cooldown).
    sight = {"name": "Focus", "type": "buff", "cooldown": 2, "true_sight": True}
    s = duel(ash={"moves": ["Focus", "Strike"]}, moves=(sight, STRIKE))
    s.execute("attack Ash Focus")
    s.execute("end")
    s.execute("end")
    attack(s, "attack Ash Strike Bo", hits(0, 2), hits(2, 2), hits(0, 2), hits(0, 1))
    assert slot(s, "Bo").kor == 10  # 0 + 3 >= 2


def test_cleanse_removes_every_stack_of_the_named_effects():
    # CLEANSE: every stack of the named status effects is taken away.
    salts = {"name": "Salts", "kind": "tool", "cooldown": 1, "cleanse": ["burn", "fear"]}
    s = session([dict(ASH, items=["Salts"]), dict(BO)], (STRIKE,), (salts,))
    slot(s, "Ash").burn = 3
    slot(s, "Ash").fear = 2
    slot(s, "Ash").frost = 1
    s.execute("item Ash Salts")
    assert (slot(s, "Ash").burn, slot(s, "Ash").fear, slot(s, "Ash").frost) == (0, 0, 1)


def test_bless_heals_one_and_cleanses_an_ally_or_else_the_user():
    # BLESS: an ally in the area gets +1 KOR and is cleansed; with no ally, the user is.
    bless = {"name": "Grace", "type": "buff", "cooldown": 1, "bless": True}
    s = session([dict(ASH, moves=["Grace"]), dict(BO), dict(ASH, name="Cy")], (bless,))
    slot(s, "Cy").kor = 5
    slot(s, "Cy").burn = 2
    slot(s, "Ash").kor = 5
    s.execute("attack Ash Grace Cy")
    assert (slot(s, "Cy").kor, slot(s, "Cy").burn, slot(s, "Ash").kor) == (6, 0, 5)


def test_threat_marks_its_bearer_while_the_move_is_on_cooldown():
    # THREAT: opponents must prioritise the target with active threat (shown; the map is
    # the game master's).
    roar = {"name": "Roar", "type": "buff", "cooldown": 1, "threat": True}
    s = duel(ash={"moves": ["Roar"]}, moves=(roar, STRIKE))
    s.execute("attack Ash Roar")
    assert fighter(s, "Ash").has("threat")
    s.execute("end")  # Roar goes on cooldown (1)
    s.execute("end")
    s.execute("end")  # Ash's next Cooldown Phase takes it off
    assert not fighter(s, "Ash").has("threat")


CHARGE = dict(STRIKE, name="Ram", cooldown=2, charge=True)


def test_a_charge_strikes_on_the_next_turn_and_only_then_goes_on_cooldown():
    # CHARGE: indicators after *charge happen on the next turn in place of its combat; the
    # move is not on cooldown while it charges.
    s = duel(ash={"moves": ["Ram"]}, moves=(CHARGE, STRIKE))
    s.execute("attack Ash Ram Bo")
    assert slot(s, "Ash").flags & F_CHARGING
    assert cooldowns.is_ready(slot(s, "Ash"), 1)
    s.execute("end")
    s.execute("end")
    attack(s, "attack Ash Ram Bo", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert slot(s, "Bo").kor == 10
    assert not slot(s, "Ash").flags & F_CHARGING
    assert not cooldowns.is_ready(slot(s, "Ash"), 1)


def test_a_charge_breaks_when_the_charger_is_knocked_down_and_goes_on_cooldown_at_once():
    # CHARGE: knocked down (or moved, grappled, knocked back, feared, frozen) before its
    # turn, the charge breaks and the move goes on cooldown immediately.
    trip = dict(STRIKE, name="Trip", damage=0, knockdown=True)
    s = duel(ash={"moves": ["Ram"]}, bo={"moves": ["Trip"]}, moves=(CHARGE, trip))
    s.execute("attack Ash Ram Bo")
    s.execute("end")
    attack(s, "attack Bo Trip Ash", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert not slot(s, "Ash").flags & F_CHARGING
    assert cooldowns.remaining(slot(s, "Ash"), 1) == 2


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
    assert slot(s, "Bo").kor == 10


# ---------------------------------------------------------------- buffs and debuffs
def test_a_buff_lasts_while_its_move_is_on_cooldown():
    # BUFF / ATTRIBUTE UP: the change is active while the move is on cooldown and ends
    # when it comes off.
    rally = {"name": "Rally", "type": "buff", "cooldown": 1, "modifiers": {"power": 2}}
    s = duel(ash={"moves": ["Rally"]}, moves=(rally, STRIKE))
    ash = fighter(s, "Ash")
    s.execute("attack Ash Rally")
    assert s.game.attribute(ash, "power") == 4
    s.execute("end")
    s.execute("end")
    assert s.game.attribute(ash, "power") == 4  # on cooldown through Ash's next turn
    s.execute("end")
    assert s.game.attribute(ash, "power") == 2


def test_a_debuff_affects_only_enemies():
    # DEBUFF: only affects enemies in the area; changes last while it is on cooldown.
    sap = {"name": "Sap", "type": "debuff", "cooldown": 1, "hit": 1, "modifiers": {"agility": -1}}
    s = session([dict(ASH, moves=["Sap"]), dict(BO), dict(ASH, name="Cy")], (sap,))
    with pytest.raises(IllegalAction, match="enemies"):
        s.execute("attack Ash Sap Cy")
    attack(s, "attack Ash Sap Bo", [SUCCESS], hits(0, 2))
    assert s.game.attribute(fighter(s, "Bo"), "agility") == 1


# ---------------------------------------------------------------- knockback
def test_knockback_distance_follows_the_weight_class_table():
    # KNOCKBACK: the table of attacker weight against target weight.
    assert [knockback.distance(5, w) for w in (5, 4, 3, 2, 1)] == [1, 1, 2, 3, 4]
    assert [knockback.distance(4, w) for w in (5, 4, 3, 2, 1)] == [1, 1, 1, 2, 3]
    assert [knockback.distance(3, w) for w in (5, 4, 3, 2, 1)] == [0, 1, 1, 1, 2]
    assert [knockback.distance(2, w) for w in (5, 4, 3, 2, 1)] == [0, 0, 1, 1, 1]
    assert [knockback.distance(1, w) for w in (5, 4, 3, 2, 1)] == [0, 0, 0, 1, 1]


SHOVE = dict(STRIKE, name="Shove", damage=0, knockback=True)


def shove(bo=None, line="attack Ash Shove Bo", extra=None):
    fighters = [dict(ASH, moves=["Shove"]), dict(BO, **(bo or {}))] + (extra or [])
    s = session(fighters, (SHOVE,))
    enter(s, "hit", *hits(2, 2))
    enter(s, "dodge", *hits(0, 2))
    enter(s, "power", *hits(0, 2))
    enter(s, "resist", FAIL)
    return s, line


def test_sturdy_counts_one_weight_class_heavier_against_knockback():
    # Sturdy (mineral): a weight class higher when grappled or knocked back.
    s, line = shove(bo={"weight": 4, "elements": ["mineral"]})
    lines = s.execute(line)
    assert any("too heavy to be knocked back" in x for x in lines)  # 3 vs (4+1) = 0


def test_knockback_into_a_creature_that_fails_to_dodge_deals_the_incoming_weight():
    # Collision With Creature: the one collided with rolls AGILITY; with no success it
    # takes damage that cannot be blocked, as much as the incoming creature's weight class.
    s, line = shove(extra=[dict(BO, name="Cy", team="B")])
    enter(s, "agility", FAIL, FAIL)
    s.execute(line + " kb=Bo:creature:Cy")
    assert slot(s, "Cy").kor == 12 - 3


def test_knockback_into_an_obstruction_deals_two():
    # Collision With Obstruction: the creature takes 2 damage that cannot be blocked.
    s, line = shove()
    s.execute(line + " kb=Bo:wall")
    assert slot(s, "Bo").kor == 10


def test_knockback_out_of_bounds_flips_the_chance_token():
    # Knockback (Out of Bounds): heads, it hits a full obstruction; tails, it is put back.
    s, line = shove()
    enter(s, "chance", 1)
    s.execute(line + " kb=Bo:out")
    assert slot(s, "Bo").kor == 10
    s2, line2 = shove()
    enter(s2, "chance", 0)
    s2.execute(line2 + " kb=Bo:out")
    assert slot(s2, "Bo").kor == 12


def test_knockback_off_a_height_deals_the_heights_in_between():
    # Knockback (Off of Height): from height 4 to height 1 is 2 damage.
    s, line = shove()
    s.execute(line + " kb=Bo:fall:4:1")
    assert slot(s, "Bo").kor == 10


# ---------------------------------------------------------------- KOR and the game end
def test_kor_zero_collapses_the_character_and_its_turns_are_skipped():
    # KOR: at 0 a creature collapses unconscious.
    s = session([dict(ASH), dict(BO, kor=2), dict(BO, name="Cy")], (STRIKE,))
    attack(s, "attack Ash Strike Bo", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert slot(s, "Bo").flags & F_OUT
    s.execute("end")
    assert s.game.active.spec.name == "Cy"
    assert fighter(s, "Ash").stats.kos == 1


def test_healing_never_brings_kor_above_its_starting_value():
    # KOR NOTE: healing cannot bring KOR over the starting value.
    tonic = {"name": "Tonic", "kind": "consumable", "heal": 5}
    s = session([dict(ASH, items=["Tonic"]), dict(BO)], (STRIKE,), (tonic,))
    slot(s, "Ash").kor = 10
    s.execute("item Ash Tonic")
    assert slot(s, "Ash").kor == 12


def test_the_game_ends_when_a_whole_side_is_down():
    # GAME END: when all of the opposing team's KOR reach 0.
    s = duel(bo={"kor": 2})
    attack(s, "attack Ash Strike Bo", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert s.game.snapshot()["winner"] == "A"
    with pytest.raises(IllegalAction, match="over"):
        s.execute("end")


# ---------------------------------------------------------------- attributes, SOL, classes
def test_sol_adds_three_dice_to_a_roll_and_costs_one_point():
    # SOL: spend 1 SOL point before an ATTRIBUTE_Roll to add 3 action dice.
    s = duel()
    attack(s, "attack Ash Strike Bo sol=power", hits(2, 2), hits(0, 2), hits(5, 5), hits(0, 1))
    assert fighter(s, "Ash").sol == 2
    assert slot(s, "Bo").kor == 12 - 7


def test_attributes_cap_at_seven_unless_assisted_by_a_teammate():
    # NOTE: the four attributes (POWER, RESISTANCE, ARMOR, AGILITY) top out at +7, save
    # with a teammate's assist or SOL.
    rally = {"name": "Rally", "type": "buff", "cooldown": 2, "modifiers": {"power": 2}}
    s = session(
        [dict(ASH, power=7, moves=["Rally"]), dict(BO), dict(ASH, name="Cy", moves=["Rally"])],
        (rally,),
        order=["Ash", "Cy", "Bo"],
    )
    s.execute("attack Ash Rally")
    assert s.game.attribute(fighter(s, "Ash"), "power") == 7
    s.execute("end")
    s.execute("attack Cy Rally Ash")
    assert s.game.attribute(fighter(s, "Ash"), "power") == 9


def test_tactician_sword_classes_gain_one_action_point():
    # Tactician: a sword-class fighter has one more action point each turn.
    s = duel(ash={"weapon": "sword"})
    assert slot(s, "Ash").ap == 3 and slot(s, "Bo").ap_max == 2


def test_brutality_axe_classes_may_reroll_the_power_roll():
    # Brutality: an axe-class fighter may roll its POWER_Roll a second time.
    s = duel(ash={"weapon": "axe"})
    enter(s, "power", FAIL, FAIL)
    enter(s, "power", SUCCESS, SUCCESS)
    attack(s, "attack Ash Strike Bo reroll", hits(2, 2), hits(0, 2), (), hits(0, 1))
    assert slot(s, "Bo").kor == 12 - 4
    with pytest.raises(IllegalAction, match="axe"):
        duel().execute("attack Ash Strike Bo reroll")


def test_full_draw_turns_unused_action_points_into_damage_for_a_ranged_move():
    # Full Draw: before a ranged move, all unused action points become +1 damage each.
    shot = dict(STRIKE, name="Shot", type="range")
    s = duel(ash={"weapon": "bow", "moves": ["Shot"], "actions": 3}, moves=(shot,))
    attack(s, "attack Ash Shot Bo fulldraw", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert slot(s, "Bo").kor == 12 - 2 - 3
    assert slot(s, "Ash").ap == 0


def test_inner_fire_makes_fire_classes_immune_to_frost_and_burn():
    # Inner Fire: frost and burn have no effect on a fire-class fighter.
    s = duel(ash={"moves": ["Chill"]}, bo={"elements": ["fire"]}, moves=(FROST,))
    attack(s, "attack Ash Chill Bo", [SUCCESS], hits(0, 2))
    assert slot(s, "Bo").frost == 0
    assert not any(r.purpose == "chance" for r in s.done[-1].rolls)


# ---------------------------------------------------------------- the turn
def test_only_one_combat_move_per_turn():
    # ACTION PHASE, Combat: a player gets at most a single combat move in each turn.
    s = duel(ash={"moves": ["Strike", "Rally"]}, moves=(STRIKE, {"name": "Rally", "type": "buff"}))
    s.execute("attack Ash Rally")
    with pytest.raises(IllegalAction, match="already used a combat move"):
        s.execute("attack Ash Strike Bo")


def test_moving_one_space_costs_one_action_point():
    # ACTION PHASE, Movement: stepping to one adjacent space costs 1 action point.
    s = duel()
    s.execute("move Ash")
    assert slot(s, "Ash").ap == 1


def test_an_item_costs_one_action_point_and_a_consumable_is_discarded():
    # ACTION PHASE, Use Items: 1 action point; consumables are discarded after use.
    tonic = {"name": "Tonic", "kind": "consumable", "heal": 1}
    s = session([dict(ASH, items=["Tonic"]), dict(BO)], (STRIKE,), (tonic,))
    s.execute("item Ash Tonic")
    assert slot(s, "Ash").ap == 1
    assert fighter(s, "Ash").hand == []


def test_a_tool_returns_to_the_hand_and_waits_out_its_cooldown():
    # Item Types, Tool: returns to the hand after use or cooldown.
    stone = {"name": "Stone", "kind": "tool", "cooldown": 1, "modifiers": {"power": 1}}
    s = session([dict(ASH, items=["Stone"]), dict(BO)], (STRIKE,), (stone,))
    s.execute("item Ash Stone")
    assert [i.name for i in fighter(s, "Ash").hand] == ["Stone"]
    with pytest.raises(IllegalAction, match="cooldown"):
        s.execute("item Ash Stone")


def test_an_active_artifact_costs_no_action_point_and_goes_on_cooldown():
    # ARTIFACTS, Active: activated at no action point cost, then on cooldown; a passive
    # artifact is always on.
    charm = {"name": "Charm", "kind": "active", "cooldown": 2, "heal": 1}
    ward = {"name": "Ward", "kind": "passive", "passive": {"resistance": 2}}
    s = session(
        [dict(ASH, artifacts=["Charm"]), dict(BO, artifacts=["Ward"])], (STRIKE,), (), (charm, ward)
    )
    slot(s, "Ash").kor = 5
    s.execute("artifact Ash Charm")
    assert slot(s, "Ash").ap == 2 and slot(s, "Ash").kor == 6
    with pytest.raises(IllegalAction, match="cooldown"):
        s.execute("artifact Ash Charm")
    assert s.game.attribute(fighter(s, "Bo"), "resistance") == 3


def test_a_cooldown_keeps_the_move_out_of_its_owners_next_turns():
    # COOLDOWN TIMER / COOLDOWN PHASE: used moves go on cooldown in the Cooldown Phase and
    # step one off in each later Cooldown Phase of their owner.
    s = duel(moves=(dict(STRIKE, cooldown=1),))
    attack(s, "attack Ash Strike Bo", hits(0, 2), hits(2, 2))
    s.execute("end")
    s.execute("end")
    with pytest.raises(IllegalAction, match="on cooldown"):
        s.execute("attack Ash Strike Bo")
    s.execute("end")
    s.execute("end")
    attack(s, "attack Ash Strike Bo", hits(0, 2), hits(2, 2))


def test_a_knockout_condition_rewards_the_user_when_its_target_collapses():
    # CONDITION: when the condition is met (here: the target is knocked out), gain the result.
    reap = dict(STRIKE, name="Reap", condition=["knockout", "sol", 1])
    s = duel(ash={"moves": ["Reap"]}, bo={"kor": 2}, moves=(reap,))
    attack(s, "attack Ash Reap Bo", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert fighter(s, "Ash").sol == 4


def test_an_attack_with_a_debuff_rider_weakens_the_target_it_hits():
    # ATTRIBUTE UP/DOWN: a move's change to the target lasts while the move is on cooldown.
    sap = dict(STRIKE, name="Sap Strike", modifiers={"agility": -1})
    s = duel(ash={"moves": ["Sap Strike"]}, moves=(sap,))
    attack(s, 'attack Ash "Sap Strike" Bo', hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert s.game.attribute(fighter(s, "Bo"), "agility") == 1


def test_a_charge_not_unleashed_on_the_next_turn_is_lost_to_its_cooldown():
    # CHARGE: the charged indicators are performed on the player's NEXT turn; a charger
    # who ends that turn without them loses the charge (our reading) and the move cools down.
    s = duel(ash={"moves": ["Ram"]}, moves=(CHARGE, STRIKE))
    s.execute("attack Ash Ram Bo")
    s.execute("end")
    assert slot(s, "Ash").flags & F_CHARGING  # still charging after its own turn ends
    s.execute("end")
    s.execute("end")
    assert not slot(s, "Ash").flags & F_CHARGING
    assert not cooldowns.is_ready(slot(s, "Ash"), 1)


def test_the_game_master_adjusts_stacks_through_the_same_caps():
    # BURN stacks up to 3 even when the game master adds them by hand (a board key press);
    # healing by hand still stops at the starting KOR.
    s = duel()
    s.execute("adjust Bo burn +5")
    s.execute("adjust Ash kor +4")
    s.execute("adjust Bo frost +2")
    assert (slot(s, "Bo").burn, slot(s, "Ash").kor, slot(s, "Bo").frost) == (3, 12, 2)
    with pytest.raises(IllegalAction, match=r"\+N or -N"):
        s.execute("adjust Bo burn 2")


def test_the_game_masters_adjustment_logs_the_change_the_caps_let_through():
    # korxsol-players-guide.txt, SOL (3 points, spent one at a time) and BURN (up to 3
    # stacks): an adjustment goes through the same limits, and the log says what really
    # changed, not what was asked.
    s = duel()
    assert s.execute("adjust Ash sol -9")[-1] == (
        "the game master adjusts Ash's sol by -3 to 0 (-9 asked)"
    )
    assert s.execute("adjust Ash burn -1")[-1] == (
        "the game master adjusts Ash's burn: no change (still 0)"
    )
    assert s.execute("adjust Bo burn +5")[-1] == (
        "the game master adjusts Bo's burn by +3 to 3 (+5 asked)"
    )
    assert s.execute("adjust Bo kor -2")[-1] == "the game master adjusts Bo's kor by -2 to 10"
    assert s.execute("adjust Bo kor +4")[-1] == (
        "the game master adjusts Bo's kor by +2 to 12 (+4 asked)"
    )


def test_release_frees_a_pinned_user_who_may_then_move_again():
    # RELEASE (Combat Move INDICATORS) and PIN: a move with release frees its user from a
    # grapple or a pin and may be used while pinned; afterwards the user can move again.
    pin = {"name": "Nail", "type": "range", "cooldown": 1, "hit": 1, "pin": 1}
    slip = {"name": "Slip", "type": "buff", "cooldown": 1, "release": True}
    s = session([dict(ASH, moves=["Nail"]), dict(BO, moves=["Slip"])], (pin, slip))
    attack(s, "attack Ash Nail Bo", [SUCCESS], hits(0, 2), chance=(1,))
    s.execute("end")
    assert slot(s, "Bo").flags & F_PINNED
    s.execute("attack Bo Slip")
    assert not slot(s, "Bo").flags & F_PINNED
    s.execute("move Bo")
    assert slot(s, "Bo").ap == 1


def test_an_item_with_release_frees_a_pinned_user():
    # RELEASE, PIN: an item with release also frees its user from a pin (items stay usable
    # while pinned).
    pin = {"name": "Nail", "type": "range", "cooldown": 1, "hit": 1, "pin": 1}
    knife = {"name": "Knife", "kind": "tool", "cooldown": 1, "release": True}
    s = session([dict(ASH, moves=["Nail"]), dict(BO, items=["Knife"])], (pin,), (knife,))
    attack(s, "attack Ash Nail Bo", [SUCCESS], hits(0, 2), chance=(1,))
    s.execute("end")
    s.execute("item Bo Knife")
    assert not slot(s, "Bo").flags & F_PINNED


# ---------------------------------------------------------------- SOL, spent on the rolls it boosts
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
    assert slot(s, "Bo").kor == 12 - 1


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


def test_sol_on_a_grapplers_crush_adds_three_power_dice():
    # SOL and Combat While Grappling: the grappler's POWER_Roll may be boosted with SOL.
    s = grappled()
    s.execute("end")
    s.execute("end")
    enter(s, "power", *hits(2, 5))
    s.execute("crush Ash sol=power")
    assert fighter(s, "Ash").sol == 2
    assert slot(s, "Bo").kor == 10
    s.execute("undo")
    s.execute("adjust Ash sol -3")
    with pytest.raises(IllegalAction, match="SOL"):
        s.execute("crush Ash sol=power")
    with pytest.raises(IllegalAction, match="unknown option"):
        s.execute("crush Ash fall=2:1")


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
    assert slot(s, "Bo").kor == 12 - 3 and slot(s, "Cy").kor == 12


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
    assert (slot(s, "Bo").kor, slot(s, "Cy").kor) == (12 - 4, 12 - 2)
    assert fighter(s, "Ash").stats.crits == 2


# ---------------------------------------------------------------- items and artifacts that strike
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
    assert slot(s, "Bo").kor == 12 - 3 and slot(s, "Bo").burn == 1
    assert slot(s, "Ash").ap == 1 and fighter(s, "Ash").hand == []
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
    assert slot(s, "Bo").flags & F_KNOCKED_DOWN and slot(s, "Ash").ap == 2


def test_an_attack_cannot_target_its_own_user():
    # Combat step (02): the targets are creatures in the attack area, which starts from the
    # user's position; only a buff touches the user itself.
    s = duel()
    with pytest.raises(IllegalAction, match="Ash cannot target itself with Strike"):
        s.execute("attack Ash Strike Ash")


def test_options_a_verb_does_not_take_are_refused():
    # Movement: a step spends 1 action point; `fall=` belongs to a grappler carrying its
    # target, and a plain move takes no other option.
    s = duel()
    with pytest.raises(IllegalAction, match="holds no one"):
        s.execute("move Ash fall=4:1")
    with pytest.raises(IllegalAction, match="unknown option 'x'"):
        s.execute("move Ash x=1")
    with pytest.raises(IllegalAction, match="it takes none"):
        s.execute("end power=1")
    assert slot(s, "Ash").ap == 2


# ---------------------------------------------------------------- cooldown timers
def _tools(n, cooldown=1):
    return [{"name": f"Tool{i}", "kind": "tool", "cooldown": cooldown} for i in range(1, n + 1)]


def test_every_item_in_a_large_inventory_has_its_own_cooldown():
    # INVENTORY and Item Types, Tool: each item carried waits out its own cooldown; the
    # fourth and fifth items and the artifact do not share a timer.
    charm = {"name": "Charm", "kind": "active", "cooldown": 2, "heal": 1}
    s = session(
        [dict(ASH, inventory=5, items=[t["name"] for t in _tools(5)], artifacts=["Charm"]), BO],
        (STRIKE,),
        _tools(5),
        (charm,),
    )
    s.execute("item Ash Tool4")
    s.execute("item Ash Tool5")
    s.execute("artifact Ash Charm")
    cds = s.game.snapshot()["fighters"][0]["cooldowns"]
    assert cds == {"Tool4": 1, "Tool5": 1, "Charm": 2}


def test_a_charger_keeps_a_timer_free_so_a_broken_charge_can_cool_down():
    # CHARGE: a broken charge is set on cooldown at once; the board's four timers per
    # character must have room for it, so the charger cannot fill the last one.
    trip = dict(STRIKE, name="Trip", damage=0, knockdown=True)
    ram = dict(STRIKE, name="Ram", cooldown=2, charge=True)
    names = [t["name"] for t in _tools(4, cooldown=3)]
    s = session(
        [dict(ASH, moves=["Ram"], actions=4, inventory=4, items=names), dict(BO, moves=["Trip"])],
        (ram, trip),
        _tools(4, cooldown=3),
    )
    for name in names[:3]:
        s.execute(f"item Ash {name}")
    s.execute("attack Ash Ram Bo")
    with pytest.raises(IllegalAction, match="keeps a cooldown timer free for its charge"):
        s.execute("item Ash Tool4")
    s.execute("end")
    attack(s, "attack Bo Trip Ash", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert not slot(s, "Ash").flags & F_CHARGING
    assert s.game.snapshot()["fighters"][0]["cooldowns"]["Ram"] == 2


def test_a_charge_needs_a_free_timer_to_begin():
    # CHARGE and COOLDOWN TIMER: with all four of the board's timers running there is no
    # room for the charged move's cooldown, so the charge cannot begin.
    ram = dict(STRIKE, name="Ram", cooldown=2, charge=True)
    names = [t["name"] for t in _tools(4, cooldown=3)]
    s = session(
        [dict(ASH, moves=["Ram"], actions=4, inventory=4, items=names), BO],
        (ram,),
        _tools(4, cooldown=3),
    )
    for name in names:
        s.execute(f"item Ash {name}")
    with pytest.raises(IllegalAction, match="no cooldown timer free"):
        s.execute("attack Ash Ram Bo")


# ---------------------------------------------------------------- ATTRIBUTE (during)
def test_attribute_changes_last_until_the_move_goes_on_cooldown():
    # ATTRIBUTE: the named attribute shifts by X for as long as the move has not yet been
    # put on cooldown, i.e. until the user's Cooldown Phase; power and resistance alike.
    surge = dict(STRIKE, name="Surge", during={"power": 2, "resistance": 1})
    s = duel(ash={"moves": ["Surge"]}, moves=(surge,))
    attack(s, "attack Ash Surge Bo", hits(2, 2), hits(0, 2), hits(0, 4), hits(0, 1))
    assert [len(r.faces) for r in s.done[-1].rolls if r.purpose == "power"] == [4]
    ash = fighter(s, "Ash")
    assert s.game.attribute(ash, "resistance") == 2
    s.execute("end")
    assert s.game.attribute(ash, "power") == 2 and s.game.attribute(ash, "resistance") == 1


def test_attribute_armor_gained_stays_until_chipped():
    # ATTRIBUTE: armor raised this way does not fall off with the cooldown; only chipping
    # (blocking damage) takes it away.
    brace = {"name": "Brace", "type": "buff", "cooldown": 1, "during": {"armor": 2}}
    s = duel(ash={"moves": ["Brace"]}, moves=(brace, STRIKE))
    s.execute("attack Ash Brace")
    s.execute("end")
    assert fighter(s, "Ash").armor == 2
    attack(s, "attack Bo Strike Ash", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1), hits(1, 2))
    assert fighter(s, "Ash").armor == 1
    s.execute("end")
    s.execute("end")
    assert fighter(s, "Ash").armor == 1


def test_attribute_kor_changes_at_once_and_for_good():
    # ATTRIBUTE: a change to KOR happens immediately and is kept (a cost paid in KOR, or a
    # heal that still stops at the starting value).
    rage = {"name": "Rage", "type": "buff", "cooldown": 1, "during": {"kor": -3}}
    s = duel(ash={"moves": ["Rage"]}, moves=(rage, STRIKE))
    s.execute("attack Ash Rage")
    assert slot(s, "Ash").kor == 9
    s.execute("end")
    s.execute("end")
    assert slot(s, "Ash").kor == 9


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
    assert fighter(s, "Ash").armor == 1 and slot(s, "Ash").kor == 12 - 1
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


# ---------------------------------------------------------------- turn order (initiative)
def _unordered(fighters, artifacts=()):
    return session(fighters, (STRIKE,), (), artifacts, order=False)


def test_turn_order_rolls_entered_agility_dice_and_most_successes_go_first():
    # TURN ORDER: everyone rolls as many dice as its Agility and the highest count of
    # successes acts first. The dice may be rolled at the table and entered.
    s = _unordered([dict(ASH), dict(BO, agility=3)])
    enter(s, "initiative", FAIL, FAIL)
    enter(s, "initiative", SUCCESS, FAIL, FAIL)
    s.execute("initiative")
    rolls = s.done[-1].rolls
    assert [(r.who, len(r.faces), r.source) for r in rolls] == [
        (0, 2, "entered"),
        (1, 3, "entered"),
    ]
    assert [o["name"] for o in s.game.snapshot()["order"]] == ["Bo", "Ash"]
    assert s.game.roller.pending() == {}


def test_turn_order_dice_must_match_each_fighters_agility():
    # TURN ORDER: the roll is as many dice as the Agility attribute, no more and no less.
    s = _unordered([dict(ASH), dict(BO)])
    enter(s, "initiative", SUCCESS, SUCCESS, SUCCESS)
    with pytest.raises(IllegalAction, match="Ash's initiative roll takes 2"):
        s.execute("initiative")
    assert not s.game.started and s.game.roller.pending() == {"initiative": 1}


def test_turn_order_ties_on_base_agility_reroll_with_further_entered_dice():
    # TURN ORDER: equal successes go to the higher base Agility; still tied, the tied
    # players roll again (here with dice entered for the reroll too).
    s = _unordered([dict(ASH), dict(BO)])
    for faces in ((SUCCESS, FAIL), (FAIL, SUCCESS), (FAIL, FAIL), (SUCCESS, FAIL)):
        enter(s, "initiative", *faces)
    s.execute("initiative")
    order = s.game.snapshot()["order"]
    assert [(o["name"], o["reason"]) for o in order] == [("Bo", "reroll"), ("Ash", "reroll")]
    assert [r.source for r in s.done[-1].rolls] == ["entered"] * 4


def test_turn_order_rerolls_fall_back_to_engine_dice_when_none_are_entered():
    # TURN ORDER: a tie is rolled again; with no more dice entered the engine rolls them,
    # and says so.
    s = _unordered([dict(ASH), dict(BO)])
    enter(s, "initiative", SUCCESS, FAIL)
    enter(s, "initiative", FAIL, SUCCESS)
    lines = s.execute("initiative")
    rerolls = s.done[-1].rolls[2:]
    assert rerolls and all(r.source == "engine" for r in rerolls)
    assert any("no entered dice left" in line for line in lines)


def test_turn_order_takes_the_boards_dice():
    # TURN ORDER: the board's rolls wait for the next roll and serve the initiative too.
    s = _unordered([dict(ASH), dict(BO)])
    s.apply_board_event({"type": "roll", "purpose": "next", "faces": [1, 1]})
    s.apply_board_event({"type": "roll", "purpose": "next", "faces": [3, 3]})
    s.execute("initiative")
    assert [r.source for r in s.done[-1].rolls] == ["board", "board"]
    assert [o["name"] for o in s.game.snapshot()["order"]] == ["Bo", "Ash"]


def test_a_passive_artifacts_agility_counts_for_the_turn_order():
    # ARTIFACTS, Passive: always active, so a passive Agility bonus adds initiative dice.
    boots = {"name": "Boots", "kind": "passive", "passive": {"agility": 2}}
    s = _unordered([dict(ASH, artifacts=["Boots"]), dict(BO)], (boots,))
    s.execute("initiative")
    assert [len(r.faces) for r in s.done[-1].rolls if r.who == 0][0] == 4


def test_inner_fire_also_refuses_frost_and_burn_added_by_hand():
    # Inner Fire: a fire-class fighter takes no frost or burn stacks from any source, so a
    # stack added by hand (the game master's correction, the board's keys) is refused too.
    s = duel(bo={"elements": ["fire"]})
    with pytest.raises(IllegalAction, match=r"immune to frost \(Inner Fire\)"):
        s.execute("adjust Bo frost +1")
    with pytest.raises(IllegalAction, match=r"immune to burn \(Inner Fire\)"):
        s.execute("adjust Bo burn +2")
    s.execute("adjust Bo burn -1")
    assert (slot(s, "Bo").frost, slot(s, "Bo").burn) == (0, 0)


def test_a_collapsed_characters_debuff_wears_off_when_its_cooldown_would_end():
    # DEBUFF: changes last as long as the move is on cooldown. The user collapsed and its
    # turns are skipped, but its moves keep stepping off cooldown on those turns.
    sap = {"name": "Sap", "type": "debuff", "cooldown": 1, "hit": 1, "modifiers": {"agility": -1}}
    s = session([dict(ASH, moves=["Sap"]), dict(BO), dict(ASH, name="Cy")], (sap,))
    attack(s, "attack Ash Sap Bo", [SUCCESS], hits(0, 2))
    s.execute("end")  # Ash's Cooldown Phase: Sap goes on cooldown for 1 turn
    s.execute("adjust Ash kor -12")
    s.execute("end")
    assert s.game.attribute(fighter(s, "Bo"), "agility") == 1
    s.execute("end")  # Cy ends; Ash's turn is skipped and Sap steps off cooldown
    assert s.game.active.name == "Bo"
    assert s.game.attribute(fighter(s, "Bo"), "agility") == 2


# ---------------------------------------------------------------- grapple: carrying, pivot, drops
def held(bo=None):
    """Ash (weight 3) grapples Bo; Bo passes; it is Ash's turn again."""
    s = session([dict(ASH, moves=["Grip"]), dict(BO, **(bo or {}))], (GRIP, STRIKE))
    attack(s, "attack Ash Grip Bo", [SUCCESS], hits(0, (bo or {}).get("agility", 2)), chance=(1,))
    s.execute("end")
    s.execute("end")
    return s


def test_a_grappler_carries_a_target_no_heavier_for_one_action_point_a_space():
    # GRAPPLE, Move Action while Grappling: if the held creature weighs no more than the
    # grappler, one action point moves a space still holding it.
    s = held()
    s.execute("move Ash")
    assert slot(s, "Ash").ap == 1 and slot(s, "Bo").flags & F_GRAPPLED


def test_a_grappler_pivots_its_target_at_no_cost():
    # GRAPPLE, Pivot: a held creature no heavier than the grappler is turned to another
    # open space around it for free.
    s = held()
    s.execute("pivot Ash")
    assert slot(s, "Ash").ap == 2 and slot(s, "Bo").flags & F_GRAPPLED


def test_a_heavier_target_cannot_be_carried_or_pivoted():
    # GRAPPLE, Move and Pivot need the held creature's weight at most the grappler's;
    # Sturdy counts a mineral class one weight heavier when grappled.
    s = held(bo={"elements": ["mineral"]})
    with pytest.raises(IllegalAction, match="too heavy"):
        s.execute("move Ash")
    with pytest.raises(IllegalAction, match="too heavy"):
        s.execute("pivot Ash")


def test_a_held_target_carried_down_a_height_is_released_and_takes_the_heights_between():
    # GRAPPLE, Note: moved or pivoted onto a lower tile, the target is released at once and
    # takes un-blockable damage for the height between (3 down to 1: one).
    s = held()
    s.execute("pivot Ash fall=3:1")
    assert not slot(s, "Bo").flags & F_GRAPPLED and fighter(s, "Ash").grappling == 255
    assert slot(s, "Bo").kor == 12 - 1
    s2 = held()
    s2.execute("move Ash fall=4:1")
    assert slot(s2, "Bo").kor == 12 - 2 and slot(s2, "Ash").ap == 1


def test_knockback_into_water_deals_no_fall_damage():
    # W.1 (Water): a drop that lands in a water tile costs no KOR.
    s, line = shove()
    lines = s.execute(line + " kb=Bo:water")
    assert slot(s, "Bo").kor == 12
    assert any("falls into water" in x for x in lines)


# ---------------------------------------------------------------- STATUS EFFECT UP/DOWN
def test_status_effect_up_adds_flips_while_the_buff_is_on_cooldown():
    # STATUS EFFECT UP/DOWN: the flips for a status change by X until the buff or debuff
    # comes off cooldown; a buff raising burn flips makes a burn move flip once more.
    kindle = {"name": "Kindle", "type": "buff", "cooldown": 2, "modifiers": {"burn_flips": 1}}
    scorch = {"name": "Scorch", "type": "range", "cooldown": 1, "hit": 1, "burn": 1}
    s = duel(ash={"moves": ["Kindle", "Scorch"]}, moves=(kindle, scorch, STRIKE))
    s.execute("attack Ash Kindle")
    s.execute("end")
    s.execute("end")
    attack(s, "attack Ash Scorch Bo", [SUCCESS], hits(0, 2), chance=(1, 1))
    assert [len(r.faces) for r in s.done[-1].rolls if r.purpose == "chance"] == [2]
    assert slot(s, "Bo").burn == 2


def test_status_effect_down_removes_flips_from_the_debuffed():
    # STATUS EFFECT UP/DOWN: a debuff lowering frost flips makes the target's frost move
    # flip once less while the debuff is on cooldown.
    damp = {
        "name": "Damp",
        "type": "debuff",
        "cooldown": 2,
        "hit": 1,
        "modifiers": {"frost_flips": -1},
    }
    s = duel(ash={"moves": ["Damp"]}, bo={"moves": ["Chill"]}, moves=(damp, FROST))
    attack(s, "attack Ash Damp Bo", [SUCCESS], hits(0, 2))
    s.execute("end")
    attack(s, "attack Bo Chill Ash", [SUCCESS], hits(0, 2), chance=(1,))
    assert [len(r.faces) for r in s.done[-1].rolls if r.purpose == "chance"] == [1]


# ---------------------------------------------------------------- charge: every way to break it
GRAB = dict(GRIP, name="Grab")
HOWL = {"name": "Howl", "type": "debuff", "cooldown": 1, "hit": 1, "fear": 1}
BREAKERS = {
    "grappled": (GRAB, "attack Bo Grab Ash", ([SUCCESS], hits(0, 2), (), (), (), (1,))),
    "knocked back": (
        SHOVE,
        "attack Bo Shove Ash",
        (hits(2, 2), hits(0, 2), hits(0, 2), [FAIL], (), ()),
    ),
    "feared": (HOWL, "attack Bo Howl Ash", ([SUCCESS], hits(0, 2), (), (), (), (1,))),
    "frozen": (FROST, "attack Bo Chill Ash", ([SUCCESS], hits(0, 2), (), (), (), (1, 1))),
}


@pytest.mark.parametrize("why", list(BREAKERS))
def test_a_charge_breaks_when_the_charger_is_grappled_knocked_back_feared_or_frozen(why):
    # CHARGE: grappled, knocked back, feared or frozen before its next turn, the charger
    # loses the charge and the move goes on cooldown at once.
    move, line, faces = BREAKERS[why]
    s = duel(ash={"moves": ["Ram"]}, bo={"moves": [move["name"]]}, moves=(CHARGE, move))
    s.execute("attack Ash Ram Bo")
    s.execute("end")
    hit, dodge, power, resist, armor, chance = faces
    attack(s, line, hit, dodge, power, resist, armor, chance)
    if why == "frozen":
        s.execute("end")  # frozen at the start of Ash's turn
    assert not slot(s, "Ash").flags & F_CHARGING
    assert cooldowns.remaining(slot(s, "Ash"), 1) == 2
    assert any(f"charge is broken ({why}" in x for x in s.game.log)


def test_a_charge_breaks_when_the_charger_moves():
    # CHARGE: a charger that moves its token loses the charge; the move cools down at once.
    s = duel(ash={"moves": ["Ram"]}, moves=(CHARGE, STRIKE))
    s.execute("attack Ash Ram Bo")
    s.execute("move Ash")
    assert not slot(s, "Ash").flags & F_CHARGING
    assert cooldowns.remaining(slot(s, "Ash"), 1) == 2


def test_a_grappled_creature_activates_an_artifact_only_if_it_releases():
    # ARTIFACTS act like permanent items, and a grappled player may only act with something
    # that has release (GRAPPLE, On Your Turn While Grappled).
    charm = {"name": "Charm", "kind": "active", "cooldown": 2, "heal": 1}
    s = session([dict(ASH, moves=["Grip"]), dict(BO, artifacts=["Charm"])], (GRIP,), (), (charm,))
    attack(s, "attack Ash Grip Bo", [SUCCESS], hits(0, 2), chance=(1,))
    s.execute("end")
    with pytest.raises(IllegalAction, match="only an artifact with release"):
        s.execute("artifact Bo Charm")
