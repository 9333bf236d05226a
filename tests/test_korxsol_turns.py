"""The turn: initiative and the turn order, action points, one combat move, cooldowns, the
game master's adjustments and the game's end (host/rulesets/korxsol/turn_flow.py).

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
    STRIKE,
    SUCCESS,
    attack,
    duel,
    enter,
    fighter,
    hits,
    session,
    slot,
)

from host.rulesets.korxsol.device import BURN, FROST
from host.rulesets.korxsol.rolls import IllegalAction


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


def test_sol_may_be_spent_before_the_initiative_agility_roll():
    # korxsol-players-guide.txt:53 (SOL: before any ATTRIBUTE_Roll, 1 point adds 3 action
    # dice to an AGILITY_Roll) and :283 (TURN ORDER is an AGILITY_Roll; a tie goes to the
    # higher base AGILITY, then the tied roll again). `initiative sol=Ash`: Ash rolls 2 + 3
    # dice and pays its point; the tie-break still reads base Agility, and a reroll is a
    # new roll without SOL.
    s = _unordered([dict(ASH), dict(BO, agility=3)])
    enter(s, "initiative", *hits(1, 5))  # Ash, with SOL
    enter(s, "initiative", *hits(1, 3))  # Bo
    lines = s.execute("initiative sol=Ash")
    assert [len(r.faces) for r in s.done[-1].rolls] == [5, 3]
    assert "Ash spends 1 SOL: 3 more initiative dice" in lines
    assert (fighter(s, "Ash").sol, fighter(s, "Bo").sol) == (2, 3)
    order = [(o["name"], o["reason"]) for o in s.game.snapshot()["order"]]
    assert order == [("Bo", "base agility"), ("Ash", "base agility")]

    s = _unordered([dict(ASH), dict(BO)])
    for faces in (hits(1, 5), hits(1, 2), hits(0, 2), hits(1, 2)):  # a tie, then a reroll
        enter(s, "initiative", *faces)
    s.execute("initiative sol=Ash")
    assert [len(r.faces) for r in s.done[-1].rolls] == [5, 2, 2, 2]

    s = _unordered([dict(ASH), dict(BO)])
    s.execute("adjust Ash sol -3")
    with pytest.raises(IllegalAction, match="Ash declares 1 SOL point in this command but holds 0"):
        s.execute("initiative sol=Ash")
    with pytest.raises(IllegalAction, match="unknown character 'Nobody'"):
        s.execute("initiative sol=Bo,Nobody")
    assert not s.game.started and fighter(s, "Bo").sol == 3


def test_a_passive_artifacts_agility_counts_for_the_turn_order():
    # ARTIFACTS, Passive: always active, so a passive Agility bonus adds initiative dice.
    boots = {"name": "Boots", "kind": "passive", "passive": {"agility": 2}}
    s = _unordered([dict(ASH, artifacts=["Boots"]), dict(BO)], (boots,))
    s.execute("initiative")
    assert [len(r.faces) for r in s.done[-1].rolls if r.who == 0][0] == 4


# ---------------------------------------------------------------- the turn
def test_tactician_sword_classes_gain_one_action_point():
    # Tactician: a sword-class fighter has one more action point each turn.
    s = duel(ash={"weapon": "sword"})
    assert slot(s, "Ash").actions == 3 and slot(s, "Bo").actions_max == 2


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
    assert slot(s, "Ash").actions == 1


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
    assert slot(s, "Ash").actions == 2


def test_the_game_ends_when_a_whole_side_is_down():
    # GAME END: when all of the opposing team's KOR reach 0.
    s = duel(bo={"kor": 2})
    attack(s, "attack Ash Strike Bo", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    assert s.game.snapshot()["winner"] == "A"
    with pytest.raises(IllegalAction, match="over"):
        s.execute("end")


# ---------------------------------------------------------------- the game master's adjustments
def test_the_game_master_adjusts_stacks_through_the_same_caps():
    # BURN stacks up to 3 even when the game master adds them by hand (a board key press);
    # healing by hand still stops at the starting KOR.
    s = duel()
    s.execute("adjust Bo burn +5")
    s.execute("adjust Ash kor +4")
    s.execute("adjust Bo frost +2")
    assert (slot(s, "Bo").counters[BURN], slot(s, "Ash").health, slot(s, "Bo").counters[FROST]) == (
        3,
        12,
        2,
    )
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


def test_inner_fire_also_refuses_frost_and_burn_added_by_hand():
    # Inner Fire: a fire-class fighter takes no frost or burn stacks from any source, so a
    # stack added by hand (the game master's correction, the board's keys) is refused too.
    s = duel(bo={"elements": ["fire"]})
    with pytest.raises(IllegalAction, match=r"immune to frost \(Inner Fire\)"):
        s.execute("adjust Bo frost +1")
    with pytest.raises(IllegalAction, match=r"immune to burn \(Inner Fire\)"):
        s.execute("adjust Bo burn +2")
    s.execute("adjust Bo burn -1")
    assert (slot(s, "Bo").counters[FROST], slot(s, "Bo").counters[BURN]) == (0, 0)


# ---------------------------------------------------------------- the two phases of a turn
def test_ending_the_action_phase_leaves_only_the_cooldown_phase():
    # korxsol-players-guide.txt:285-297: a turn is its Action Phase, then its Cooldown
    # Phase. `phase` (the board's next-phase key) ends the Action Phase: no action is taken
    # after it, and `end` runs the Cooldown Phase as ever.
    s = duel()
    assert s.game.state.phase == 0
    s.execute("phase")
    assert s.game.state.phase == 1 and s.game.active.spec.name == "Ash"
    with pytest.raises(IllegalAction, match="Action Phase is over"):
        s.execute("attack Ash Strike Bo")
    s.execute("end")
    assert s.game.active.spec.name == "Bo" and s.game.state.phase == 0


def test_next_phase_in_the_cooldown_phase_ends_the_turn():
    # korxsol-players-guide.txt:297: the Cooldown Phase is the turn's last.
    s = duel()
    s.execute("phase")
    s.execute("phase")
    assert s.game.active.spec.name == "Bo"
