"""Grapple, release, carrying and drops, knockback, and charge with every way to break it
(host/rulesets/korxsol/grapple_and_charge.py).

One test per korxsol rule, on the desktop engine. Source for every test:
korxsol-players-guide.txt (the section is named in each test). Dice are entered face by
face: with success_faces = [3], a 3 succeeds and a 1 fails.
"""

from __future__ import annotations

import pytest
from korxsol_fixtures import (
    ASH,
    BO,
    FAIL,
    FROST,
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

from host.rulesets.korxsol import knockback
from host.rulesets.korxsol.device import F_CHARGING, F_GRAPPLED, F_PINNED, FEAR
from host.rulesets.korxsol.rolls import IllegalAction
from shared import cooldowns

# ---------------------------------------------------------------- grapple
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
    assert slot(s, "Bo").actions == 1


def test_the_grapplers_combat_is_a_power_roll_of_unblockable_damage():
    # GRAPPLE, Combat While Grappling: each POWER_Roll success is 1 un-blockable damage.
    s = grappled()
    s.execute("end")
    s.execute("end")
    enter(s, "power", SUCCESS, SUCCESS)
    s.execute("crush Ash")
    assert slot(s, "Bo").health == 10


def test_sol_on_a_grapplers_crush_adds_three_power_dice():
    # SOL and Combat While Grappling: the grappler's POWER_Roll may be boosted with SOL.
    s = grappled()
    s.execute("end")
    s.execute("end")
    enter(s, "power", *hits(2, 5))
    s.execute("crush Ash sol=power")
    assert fighter(s, "Ash").sol == 2
    assert slot(s, "Bo").health == 10
    s.execute("undo")
    s.execute("adjust Ash sol -3")
    with pytest.raises(IllegalAction, match="SOL"):
        s.execute("crush Ash sol=power")
    with pytest.raises(IllegalAction, match="unknown option"):
        s.execute("crush Ash fall=2:1")


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
    assert slot(s, "Bo").health == 10
    assert not slot(s, "Bo").flags & F_GRAPPLED


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
    assert slot(s, "Bo").actions == 3
    s.execute("end")
    assert slot(s, "Bo").counters[FEAR] == 0


def test_a_grappled_creature_activates_an_artifact_only_if_it_releases():
    # ARTIFACTS act like permanent items, and a grappled player may only act with something
    # that has release (GRAPPLE, On Your Turn While Grappled).
    charm = {"name": "Charm", "kind": "active", "cooldown": 2, "heal": 1}
    s = session([dict(ASH, moves=["Grip"]), dict(BO, artifacts=["Charm"])], (GRIP,), (), (charm,))
    attack(s, "attack Ash Grip Bo", [SUCCESS], hits(0, 2), chance=(1,))
    s.execute("end")
    with pytest.raises(IllegalAction, match="only an artifact with release"):
        s.execute("artifact Bo Charm")


# ---------------------------------------------------------------- release
def test_a_move_with_release_frees_a_grappled_user():
    # RELEASE: the move can be used while grappled and releases its user at once.
    slip = {"name": "Slip", "type": "buff", "cooldown": 1, "release": True}
    s = session([dict(ASH, moves=["Grip"]), dict(BO, moves=["Slip"])], (GRIP, slip))
    attack(s, "attack Ash Grip Bo", [SUCCESS], hits(0, 2), chance=(1,))
    s.execute("end")
    s.execute("attack Bo Slip")
    assert not slot(s, "Bo").flags & F_GRAPPLED


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
    assert slot(s, "Bo").actions == 1


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
    assert slot(s, "Ash").actions == 1 and slot(s, "Bo").flags & F_GRAPPLED


def test_a_grappler_pivots_its_target_at_no_cost():
    # GRAPPLE, Pivot: a held creature no heavier than the grappler is turned to another
    # open space around it for free.
    s = held()
    s.execute("pivot Ash")
    assert slot(s, "Ash").actions == 2 and slot(s, "Bo").flags & F_GRAPPLED


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
    assert slot(s, "Bo").health == 12 - 1
    s2 = held()
    s2.execute("move Ash fall=4:1")
    assert slot(s2, "Bo").health == 12 - 2 and slot(s2, "Ash").actions == 1


def test_a_held_target_dropped_onto_water_takes_no_fall_damage():
    # korxsol-players-guide.txt:254 (Water): a fall that lands in water does no damage.
    # Carried or pivoted down onto water, the target is released, unhurt, and stands in the
    # water (:253: its next turn starts there).
    s = held()
    lines = s.execute("pivot Ash fall=3:1:water")
    assert not slot(s, "Bo").flags & F_GRAPPLED and fighter(s, "Ash").grappling == 255
    assert slot(s, "Bo").health == 12 and fighter(s, "Bo").terrain == "water"
    assert any("falls into water: no damage" in line for line in lines)
    s2 = held()
    s2.execute("move Ash fall=4:1:water")
    assert slot(s2, "Bo").health == 12 and slot(s2, "Ash").actions == 1
    with pytest.raises(IllegalAction, match="fall='4:1:lava'"):
        held().execute("move Ash fall=4:1:lava")


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
    assert slot(s, "Cy").health == 12 - 3


def test_sol_may_be_spent_before_the_agility_roll_against_a_body_knocked_into_it():
    # korxsol-players-guide.txt:53 (SOL: before any ATTRIBUTE_Roll, 1 point adds 3 action
    # dice to an AGILITY_Roll) and :196 (Collision With Creature: the one in the way makes
    # an AGILITY_Roll, any success dodging the body). `collide_sol=Cy`: Cy rolls 2 + 3
    # dice; the point is spent only if that roll is made.
    cy = dict(BO, name="Cy", team="B")
    s, line = shove(extra=[cy])
    enter(s, "agility", *hits(1, 5))
    lines = s.execute(line + " kb=Bo:creature:Cy collide_sol=Cy")
    assert [len(r.faces) for r in s.done[-1].rolls if r.purpose == "agility"] == [5]
    assert "Cy spends 1 SOL: 3 more agility dice" in lines
    assert "Cy dodges the flying Bo" in lines
    assert (fighter(s, "Cy").sol, slot(s, "Cy").health) == (2, 12)

    s = session([dict(ASH, moves=["Shove"]), dict(BO), cy], (SHOVE,))
    attack(s, "attack Ash Shove Bo kb=Bo:creature:Cy collide_sol=Cy", hits(0, 2), hits(1, 2))
    assert fighter(s, "Cy").sol == 3  # Bo dodged: no knockback, no roll, no SOL spent

    s, line = shove(extra=[cy])
    with pytest.raises(IllegalAction, match="collide_sol: Cy is in no knockback's path"):
        s.execute(line + " kb=Bo:wall collide_sol=Cy")
    s.execute("adjust Cy sol -3")
    with pytest.raises(IllegalAction, match="Cy declares 1 SOL point in this command but holds 0"):
        s.execute(line + " kb=Bo:creature:Cy collide_sol=Cy")


def test_knockback_into_an_obstruction_deals_two():
    # Collision With Obstruction: the creature takes 2 damage that cannot be blocked.
    s, line = shove()
    s.execute(line + " kb=Bo:wall")
    assert slot(s, "Bo").health == 10


def test_knockback_out_of_bounds_flips_the_chance_token():
    # Knockback (Out of Bounds): heads, it hits a full obstruction; tails, it is put back.
    s, line = shove()
    enter(s, "chance", 1)
    s.execute(line + " kb=Bo:out")
    assert slot(s, "Bo").health == 10
    s2, line2 = shove()
    enter(s2, "chance", 0)
    s2.execute(line2 + " kb=Bo:out")
    assert slot(s2, "Bo").health == 12


def test_knockback_off_a_height_deals_the_heights_in_between():
    # Knockback (Off of Height): from height 4 to height 1 is 2 damage.
    s, line = shove()
    s.execute(line + " kb=Bo:fall:4:1")
    assert slot(s, "Bo").health == 10


def test_knockback_into_water_deals_no_fall_damage():
    # W.1 (Water): a drop that lands in a water tile costs no KOR.
    s, line = shove()
    lines = s.execute(line + " kb=Bo:water")
    assert slot(s, "Bo").health == 12
    assert any("falls into water" in x for x in lines)


# ---------------------------------------------------------------- charge
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
    assert slot(s, "Bo").health == 10
    assert not slot(s, "Ash").flags & F_CHARGING
    assert not cooldowns.is_ready(slot(s, "Ash"), 1)


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


def test_a_charge_breaks_when_the_charger_moves():
    # CHARGE: a charger that moves its token loses the charge; the move cools down at once.
    s = duel(ash={"moves": ["Ram"]}, moves=(CHARGE, STRIKE))
    s.execute("attack Ash Ram Bo")
    s.execute("move Ash")
    assert not slot(s, "Ash").flags & F_CHARGING
    assert cooldowns.remaining(slot(s, "Ash"), 1) == 2


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


def test_a_charger_keeps_a_timer_free_so_a_broken_charge_can_cool_down():
    # CHARGE: a broken charge is set on cooldown at once; the board's four timers per
    # character must have room for it, so the charger cannot fill the last one.
    trip = dict(STRIKE, name="Trip", damage=0, knockdown=True)
    ram = dict(STRIKE, name="Ram", cooldown=2, charge=True)
    names = [t["name"] for t in tools(4, cooldown=3)]
    s = session(
        [dict(ASH, moves=["Ram"], actions=4, inventory=4, items=names), dict(BO, moves=["Trip"])],
        (ram, trip),
        tools(4, cooldown=3),
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
    names = [t["name"] for t in tools(4, cooldown=3)]
    s = session(
        [dict(ASH, moves=["Ram"], actions=4, inventory=4, items=names), BO],
        (ram,),
        tools(4, cooldown=3),
    )
    for name in names:
        s.execute(f"item Ash {name}")
    with pytest.raises(IllegalAction, match="no cooldown timer free"):
        s.execute("attack Ash Ram Bo")
