"""What lands on a fighter: status effects and their flips, buffs and debuffs, ATTRIBUTE
changes, the +7 cap, cleanse, bless, healing and collapse (host/rulesets/korxsol/effects.py).

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
    fighter,
    hits,
    session,
    slot,
    toml,
)

from host.core.interface import EncounterError
from host.rulesets.korxsol import device, encounter_schema
from host.rulesets.korxsol.device import BURN, F_FROZEN, F_KNOCKED_DOWN, F_PINNED, FEAR
from host.rulesets.korxsol.rolls import IllegalAction
from shared.state import F_OUT


# ---------------------------------------------------------------- status effects
def test_burn_flips_add_stacks_up_to_three():
    # BURN: one stack per heads; burns stack up to 3 times.
    burn = {"name": "Scorch", "type": "range", "cooldown": 1, "hit": 1, "burn": 4}
    s = duel(ash={"moves": ["Scorch"]}, moves=(burn,))
    attack(s, "attack Ash Scorch Bo", [SUCCESS], [FAIL, FAIL], chance=(1, 1, 1, 1))
    assert slot(s, "Bo").counters[BURN] == 3


def test_frost_heads_add_stacks_that_drain_action_points_at_turn_start():
    # FROST: one stack per heads; each stack takes 1 action point at the target's turn start.
    s = duel(ash={"moves": ["Chill"]}, bo={"actions": 3}, moves=(FROST,))
    attack(s, "attack Ash Chill Bo", [SUCCESS], hits(0, 2), chance=(1, 0))
    s.execute("end")
    assert slot(s, "Bo").actions == 2


def test_frost_at_or_above_action_points_freezes_and_the_frozen_cannot_act():
    # FROST: stacks >= action points freeze the target: no Action Phase.
    s = duel(ash={"moves": ["Chill"]}, moves=(FROST,))
    attack(s, "attack Ash Chill Bo", [SUCCESS], hits(0, 2), chance=(1, 1))
    s.execute("end")
    assert slot(s, "Bo").flags & F_FROZEN
    with pytest.raises(IllegalAction, match="frozen"):
        s.execute("move Bo")
    s.execute("end")
    assert slot(s, "Bo").counters[device.FROST] == 0


def test_fear_spends_an_action_point_per_stack_moving_away_at_turn_start():
    # FEAR: at turn start, 1 action point per stack is spent moving away; whatever fear is
    # left over is removed once that turn is done.
    fear = {"name": "Howl", "type": "debuff", "cooldown": 1, "hit": 1, "fear": 1}
    s = duel(ash={"moves": ["Howl"]}, bo={"actions": 3}, moves=(fear,))
    attack(s, "attack Ash Howl Bo", [SUCCESS], hits(0, 2), chance=(1,))
    assert slot(s, "Bo").counters[FEAR] == 1
    s.execute("end")
    assert slot(s, "Bo").actions == 2
    assert slot(s, "Bo").counters[FEAR] == 0


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
    assert slot(s, "Bo").actions == 1


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


def test_blinded_lowers_the_hit_chance_by_two_until_the_end_of_its_turn():
    # BLINDED: the blinded creature's HIT CHANCE is -2 until the end of its turn.
    blind = {"name": "Flash", "type": "range", "cooldown": 1, "hit": 1, "blind": 1}
    s = duel(ash={"moves": ["Flash"]}, bo={"moves": ["Strike"]}, moves=(blind, STRIKE))
    attack(s, "attack Ash Flash Bo", [SUCCESS], hits(0, 2), chance=(1,))
    s.execute("end")
    assert fighter(s, "Bo").blinded
    attack(s, "attack Bo Strike Ash", hits(2, 2), hits(1, 2))  # 2 - 2 = 0 < 1: dodged
    assert slot(s, "Ash").health == 12
    s.execute("end")
    assert not fighter(s, "Bo").blinded


def test_blinded_outright_needs_no_chance_flip():
    # korxsol-players-guide.txt:226 BLINDED: the target gains Blinded, no chance token
    # named, so `blind = true` always blinds; `blind = N` keeps N chance flips.
    flash = {"name": "Flash", "type": "range", "cooldown": 1, "hit": 1, "blind": True}
    powder = {"name": "Powder", "kind": "consumable", "blind": True}
    s = duel(ash={"moves": ["Flash"], "items": ["Powder"]}, moves=(flash,), items=(powder,))
    attack(s, "attack Ash Flash Bo", [SUCCESS], hits(0, 2))
    assert fighter(s, "Bo").blinded
    assert not any(r.purpose == "chance" for r in s.done[-1].rolls)
    fighter(s, "Bo").blinded = False
    s.execute("item Ash Powder Bo")  # an item with only `blind = true` strikes, no hit roll
    assert fighter(s, "Bo").blinded
    assert not s.done[-1].rolls


@pytest.mark.parametrize("value", ['"yes"', "10", "-1"])
def test_blind_in_an_encounter_is_true_or_a_number_of_flips(value):
    # korxsol-players-guide.txt:226 BLINDED (outright) and :144 CHANCE (flips): any other
    # value is refused with the file and line.
    text = toml([ASH, BO], moves=[STRIKE]).replace(
        "damage = 2\n", "damage = 2\nblind = " + value + "\n"
    )
    with pytest.raises(EncounterError, match=r"test.toml:\d+: .*blind must be true or chance"):
        encounter_schema.parse(text, "test.toml")


def test_true_sight_raises_the_hit_chance_by_three():
    # TRUE SIGHT: the user's HIT CHANCE is +3 (while its move is on cooldown).
    sight = {"name": "Focus", "type": "buff", "cooldown": 2, "true_sight": True}
    s = duel(ash={"moves": ["Focus", "Strike"]}, moves=(sight, STRIKE))
    s.execute("attack Ash Focus")
    s.execute("end")
    s.execute("end")
    attack(s, "attack Ash Strike Bo", hits(0, 2), hits(2, 2), hits(0, 2), hits(0, 1))
    assert slot(s, "Bo").health == 10  # 0 + 3 >= 2


def test_inner_fire_makes_fire_classes_immune_to_frost_and_burn():
    # Inner Fire: frost and burn have no effect on a fire-class fighter.
    s = duel(ash={"moves": ["Chill"]}, bo={"elements": ["fire"]}, moves=(FROST,))
    attack(s, "attack Ash Chill Bo", [SUCCESS], hits(0, 2))
    assert slot(s, "Bo").counters[device.FROST] == 0
    assert not any(r.purpose == "chance" for r in s.done[-1].rolls)


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
    assert slot(s, "Bo").counters[BURN] == 2


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


# ---------------------------------------------------------------- buffs, debuffs and the +7 cap
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


def test_a_teammates_assist_lets_armor_go_past_seven():
    # korxsol-players-guide.txt:54 (the four attributes are capped at 7, but a teammate's
    # help or a SOL point may take them higher) with :48-:49 (items and combat moves give
    # armor back; each point of damage it stops chips one away). A teammate's armor
    # gain goes past 7 and stays until chipped; the fighter's own gain stops at 7 and never
    # takes back what the assist gave; a debuff or the game master's correction lowers it.
    plate = {"name": "Plate", "kind": "tool", "cooldown": 1, "armor_gain": 3}
    brace = {"name": "Brace", "type": "buff", "cooldown": 1, "armor_gain": 1}
    s = session(
        [dict(ASH, armor=6, moves=["Brace"]), dict(ASH, name="Cy", items=["Plate"]), dict(BO)],
        (brace, STRIKE),
        (plate,),
        order=["Cy", "Ash", "Bo"],
    )
    lines = s.execute("item Cy Plate Ash")
    assert fighter(s, "Ash").armor == 9 and "Ash gains armor: 9 (assisted past +7)" in lines
    s.execute("end")
    s.execute("attack Ash Brace")  # its own gain: up to 7 only, so 9 stays 9
    assert fighter(s, "Ash").armor == 9
    assert s.game.attribute(fighter(s, "Ash"), "armor") == 9
    s.execute("adjust Ash armor -1")  # a correction down keeps the rest of the assist
    assert fighter(s, "Ash").armor == 8
    s.execute("end")
    attack(s, "attack Bo Strike Ash", hits(2, 2), hits(0, 2), hits(2, 2), [FAIL], hits(2, 8))
    assert [len(r.faces) for r in s.done[-1].rolls if r.purpose == "armor"] == [8]
    assert fighter(s, "Ash").armor == 8 - 2 and slot(s, "Ash").health == 12 - 2


def test_threat_marks_its_bearer_while_the_move_is_on_cooldown():
    # THREAT: opponents must prioritise the target with active threat, for as long as a
    # buff lasts (what it binds is tested below).
    roar = {"name": "Roar", "type": "buff", "cooldown": 1, "threat": True}
    s = duel(ash={"moves": ["Roar"]}, moves=(roar, STRIKE))
    s.execute("attack Ash Roar")
    assert fighter(s, "Ash").has("threat")
    s.execute("end")  # Roar goes on cooldown (1)
    s.execute("end")
    s.execute("end")  # Ash's next Cooldown Phase takes it off
    assert not fighter(s, "Ash").has("threat")


ROAR = {"name": "Roar", "type": "buff", "cooldown": 1, "threat": True}


def _threatened(cooldown=1):
    """Ash (team A) has roared: Bo (team B) is under its threat; Cy is Ash's ally."""
    s = session(
        [dict(ASH, moves=["Roar"]), dict(BO, actions=3), dict(ASH, name="Cy")],
        (dict(ROAR, cooldown=cooldown), STRIKE),
    )
    s.execute("attack Ash Roar")
    s.execute("end")
    return s


def test_threat_binds_an_opponents_attack_to_its_bearer():
    # korxsol-players-guide.txt:172 THREAT: an opponent must attack the creature with the
    # active threat before another; refused in one line, changing nothing.
    s = _threatened()
    before = s.game.snapshot()
    with pytest.raises(IllegalAction) as err:
        s.execute("attack Bo Strike Cy")
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith("Bo is under threat (Ash's Roar): Strike must target Ash")
    assert s.game.snapshot() == before
    attack(s, "attack Bo Strike Ash", hits(0, 2), hits(1, 2))
    assert fighter(s, "Bo").combat_used


def test_threat_leaves_moving_helping_and_not_attacking_free():
    # korxsol-players-guide.txt:172 THREAT binds only what the opponent attacks: it may
    # move, use what helps (a buff, an item that heals) and end its turn without attacking.
    tonic = {"name": "Tonic", "kind": "tool", "heal": 1}
    ward = {"name": "Ward", "type": "buff", "cooldown": 1, "modifiers": {"armor": 1}}
    s = session(
        [dict(ASH, moves=["Roar"]), dict(BO, moves=["Ward"], items=["Tonic"], actions=3)],
        (ROAR, ward),
        (tonic,),
    )
    s.execute("attack Ash Roar")
    s.execute("end")
    s.execute("move Bo")
    s.execute("item Bo Tonic")
    s.execute("attack Bo Ward")
    s.execute("end")
    assert s.game.active.name == "Ash"


def test_threat_binds_items_artifacts_and_a_crush_that_strike():
    # korxsol-players-guide.txt:172 THREAT and :88 ARTIFACTS (they act like items): an
    # item or artifact that strikes attacks, and so does a grappler's crush (:213).
    bomb = {"name": "Bomb", "kind": "tool", "hit": 1, "damage": 1}
    rod = {"name": "Rod", "kind": "active", "cooldown": 1, "damage": 1}
    s = session(
        [
            dict(ASH, moves=["Roar"]),
            dict(BO, items=["Bomb"], artifacts=["Rod"], actions=3),
            dict(ASH, name="Cy"),
        ],
        (ROAR,),
        (bomb,),
        (rod,),
    )
    s.execute("attack Ash Roar")
    s.execute("end")
    for line in ("item Bo Bomb Cy", "artifact Bo Rod Cy"):
        with pytest.raises(IllegalAction, match="Bo is under threat"):
            s.execute(line)
    fighter(s, "Bo").grappling = fighter(s, "Cy").index
    fighter(s, "Cy").grappled_by = fighter(s, "Bo").index
    with pytest.raises(IllegalAction, match="crush must target Ash"):
        s.execute("crush Bo")


def test_threat_ends_when_its_move_comes_off_cooldown_or_its_bearer_collapses():
    # korxsol-players-guide.txt:172 THREAT holds while it is active: a buff's change ends
    # as its move comes off cooldown (:98), and a collapsed bearer (:41) threatens no one.
    s = _threatened()  # Ash's Cooldown Phase put Roar on cooldown (1)
    with pytest.raises(IllegalAction, match="Bo is under threat"):
        s.execute("attack Bo Strike Cy")
    s.execute("end")
    s.execute("end")
    assert fighter(s, "Ash").has("threat")
    s.execute("end")  # Ash's next Cooldown Phase: Roar off cooldown, the threat is gone
    attack(s, "attack Bo Strike Cy", hits(0, 2), hits(1, 2))
    s2 = _threatened(cooldown=4)
    slot(s2, "Ash").health = 1
    attack(s2, "attack Bo Strike Ash", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert not s2.game.alive(fighter(s2, "Ash"))
    for _ in range(4):  # Bo's Strike waits out its cooldown; Roar's is still running
        s2.execute("end")
    assert fighter(s2, "Ash").has("threat")
    attack(s2, "attack Bo Strike Cy", hits(0, 2), hits(1, 2))


def test_the_game_master_says_when_a_threat_does_not_bind():
    # korxsol-players-guide.txt:172 THREAT binds an opponent standing next to an ally,
    # which only the map shows: threat=apart (not next to one) or threat=unreachable (the
    # bearer is out of reach) lets the attack through, and the log says why.
    s = _threatened()
    lines = attack(s, "attack Bo Strike Cy threat=apart", hits(0, 2), hits(1, 2))
    assert any("attacks past the threat of Ash" in line for line in lines)
    s.execute("end")
    with pytest.raises(
        IllegalAction, match="attack: threat= takes apart or unreachable, not 'near'"
    ):
        s.execute("attack Cy Strike Bo threat=near")
    with pytest.raises(IllegalAction, match="no opponent's threat binds Cy"):
        s.execute("attack Cy Strike Bo threat=apart")


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
    assert slot(s, "Ash").health == 9
    s.execute("end")
    s.execute("end")
    assert slot(s, "Ash").health == 9


# ------------------------------------------------------------ cleanse, bless, healing, collapse
def test_cleanse_removes_every_stack_of_the_named_effects():
    # CLEANSE: every stack of the named status effects is taken away.
    salts = {"name": "Salts", "kind": "tool", "cooldown": 1, "cleanse": ["burn", "fear"]}
    s = session([dict(ASH, items=["Salts"]), dict(BO)], (STRIKE,), (salts,))
    slot(s, "Ash").counters[BURN] = 3
    slot(s, "Ash").counters[FEAR] = 2
    slot(s, "Ash").counters[device.FROST] = 1
    s.execute("item Ash Salts")
    assert (
        slot(s, "Ash").counters[BURN],
        slot(s, "Ash").counters[FEAR],
        slot(s, "Ash").counters[device.FROST],
    ) == (0, 0, 1)


def test_bless_heals_one_and_cleanses_an_ally_or_else_the_user():
    # BLESS: an ally in the area gets +1 KOR and is cleansed; with no ally, the user is.
    bless = {"name": "Grace", "type": "buff", "cooldown": 1, "bless": True}
    s = session([dict(ASH, moves=["Grace"]), dict(BO), dict(ASH, name="Cy")], (bless,))
    slot(s, "Cy").health = 5
    slot(s, "Cy").counters[BURN] = 2
    slot(s, "Ash").health = 5
    s.execute("attack Ash Grace Cy")
    assert (slot(s, "Cy").health, slot(s, "Cy").counters[BURN], slot(s, "Ash").health) == (6, 0, 5)


def test_healing_wakes_a_collapsed_ally_back_into_the_turn_order():
    # korxsol-players-guide.txt:41 KOR: at 0 a creature collapses unconscious, and KOR can
    # be restored by items and combat moves; nothing keeps the unconscious from it. Healed,
    # it is back in play in its place; only healing from its own side reaches it.
    tonic = {"name": "Tonic", "kind": "tool", "heal": 2}
    salts = {"name": "Salts", "kind": "tool", "cleanse": ["all"]}
    s = session(
        [dict(ASH, items=["Tonic", "Salts"]), dict(BO), dict(ASH, name="Cy")],
        (STRIKE,),
        (tonic, salts),
    )
    s.execute("adjust Cy kor -12")
    assert not s.game.alive(fighter(s, "Cy"))
    with pytest.raises(IllegalAction, match="Cy has collapsed: only healing from its own side"):
        s.execute("item Ash Salts Cy")
    lines = s.execute("item Ash Tonic Cy")
    assert "Cy wakes and is back in the fight" in lines
    assert s.game.alive(fighter(s, "Cy")) and slot(s, "Cy").health == 2
    s.execute("end")
    s.execute("adjust Ash kor -12")
    with pytest.raises(IllegalAction, match="Ash has collapsed: only healing"):
        s.execute("attack Bo Strike Ash")  # an attack never names the collapsed
    s.execute("end")
    assert s.game.active.name == "Cy"


def test_healing_never_brings_kor_above_its_starting_value():
    # KOR NOTE: healing cannot bring KOR over the starting value.
    tonic = {"name": "Tonic", "kind": "consumable", "heal": 5}
    s = session([dict(ASH, items=["Tonic"]), dict(BO)], (STRIKE,), (tonic,))
    slot(s, "Ash").health = 10
    s.execute("item Ash Tonic")
    assert slot(s, "Ash").health == 12


def test_kor_zero_collapses_the_character_and_its_turns_are_skipped():
    # KOR: at 0 a creature collapses unconscious.
    s = session([dict(ASH), dict(BO, kor=2), dict(BO, name="Cy")], (STRIKE,))
    attack(s, "attack Ash Strike Bo", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert slot(s, "Bo").flags & F_OUT
    s.execute("end")
    assert s.game.active.spec.name == "Cy"
    assert fighter(s, "Ash").stats.kos == 1
