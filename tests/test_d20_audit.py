"""d20 rules the audit of #30 §2 found played otherwise than d20-srd-combat.txt says, one
test each, named after the rule and citing its number; and refusals that blamed the wrong
thing. The dice of every roll are given (d20_fixtures.py)."""

from __future__ import annotations

from d20_fixtures import ANA, BO, DRAKE, ORC, Table, d20, dmg

CAT = """
[[creature]]
name = "Cat"
team = "Foes"
hp = 4
ac = 12
dex = 3
"""


def _order(t: Table) -> list[str]:
    return [t.game.fighters[e.members[0]].name for e in t.game.order]


def test_option_ties_roll_a_creature_that_lost_the_roll_off_never_goes_before_the_winners():
    # d20-srd-combat.txt [3]: "the tied creatures each roll a d20 and the highest goes first".
    # Three at 15; Ana and Bo roll 15, the orc 3: the orc goes last, and only Ana and Bo
    # roll again (the orc rolled again with them, and could go first).
    t = Table(ANA, BO, ORC, options='ties = "roll"')
    lines = t.play(
        "initiative",
        d20(12, "initiative"),
        d20(14, "initiative"),
        d20(14, "initiative"),
        d20(15, "tie"),
        d20(15, "tie"),
        d20(3, "tie"),
        d20(6, "tie"),  # Ana and Bo again: Bo's 9 is higher
        d20(9, "tie"),
    )
    assert _order(t) == ["Bo", "Ana", "Orc"], lines


def test_option_ties_roll_ranks_every_tied_creature_by_its_own_roll():
    # d20-srd-combat.txt [3]: four at 15 roll 4, 18, 11, 18: the two 18s roll again (Bo 7,
    # Cat 2), then the 11, then the 4.
    t = Table(ANA, BO, ORC, CAT, options='ties = "roll"')
    lines = t.play(
        "initiative",
        d20(12, "initiative"),
        d20(14, "initiative"),
        d20(14, "initiative"),
        d20(12, "initiative"),
        d20(4, "tie"),
        d20(18, "tie"),
        d20(11, "tie"),
        d20(18, "tie"),
        d20(7, "tie"),
        d20(2, "tie"),
    )
    assert _order(t) == ["Bo", "Cat", "Orc", "Ana"], lines


def test_an_unconscious_creature_is_prone_so_an_attack_from_afar_has_neither_advantage_nor_dis():
    # d20-srd-combat.txt [24][25] and [9]: an unconscious creature drops prone; the attack
    # from afar has advantage (unconscious) and disadvantage (prone, from afar): one d20.
    for how in ("condition Orc unconscious", "damage Orc 15"):
        options = 'monsters_at_zero = "knocked_out"\nend = "gm"'
        t = Table(ANA, ORC, options=options)
        t.start(15, 1)
        t.play(how)
        assert "prone" in t.conditions("Orc")
        lines = t.play("attack Ana Orc Bow", d20(5))  # one die, not two
        assert lines[-1] == "Ana attacks Orc with Bow: d20 5 +5 = 10 vs AC 13: miss", lines
        t.play("next")
        t.play("next")
        lines = t.play("attack Ana Orc", ("attack", (4, 9)), dmg(1, 2))  # within 5 feet: adv
        assert "advantage: 9" in "\n".join(lines), lines


def test_refusal_lair_of_a_creature_without_one_says_it_has_no_lair():
    # d20-srd-combat.txt [28]: only a creature in its lair has lair actions; the refusal
    # said "Ana's lair acts on initiative count 20, not now", as if Ana had one.
    t = Table(ANA, ORC)
    t.start(15, 1)
    assert t.refused("lair Ana Orc") == "Ana has no lair"


def test_temporary_hit_points_are_refused_to_the_dead():
    # d20-srd-combat.txt [11][13]: a dead creature has no hit points to protect; `temp`
    # gave it some.
    t = Table(ANA, BO, ORC, options='end = "gm"')
    t.start(15, 2, 1)
    t.play("damage Orc 30")
    assert t.refused("temp Orc 5") == "Orc is dead"


def test_a_condition_put_on_by_the_host_s_effect_verb_that_incapacitates_ends_concentration():
    # d20-srd-combat.txt [22][24]: the host's `effect` verb puts paralyzed on the caster;
    # its concentration had gone on (the verb never reaches d20's rules as it is put on).
    from host.core.session import Session

    s = Session(Table(ANA, BO, ORC, options='end = "gm"').encounter, 1)
    s.execute("initiative")
    s.execute("concentrate Bo Bless")
    said = s.execute("effect Bo paralyzed rounds=2")  # at once (Ruleset.effects_changed)
    assert s.game.fighter("Bo").concentration == ""
    assert any("Bo's concentration on Bless ends" in x for x in said), said


def test_unconscious_put_on_by_the_host_s_effect_verb_drops_the_creature_prone():
    # d20-srd-combat.txt [24]: "an unconscious creature also drops prone"; through the host's
    # `effect` verb it did not, and stays prone when it wakes.
    from host.core.session import Session
    from host.rulesets.d20 import conditions

    s = Session(Table(ANA, BO, ORC, options='end = "gm"').encounter, 1)
    s.execute("initiative")
    said = s.execute("effect Bo unconscious rounds=1")  # at once (Ruleset.effects_changed)
    bo = s.game.fighter("Bo").index
    assert any(x.startswith("Bo is prone") for x in said), said
    assert not any(x.startswith("Bo is prone") for x in s.execute("save Ana con 1"))  # once
    s.execute("effect end Bo unconscious")
    s.execute("save Ana con 1")
    assert conditions.on(s.game, bo) == ["prone"]
    s.execute("condition Ana unconscious rounds=3")
    s.execute("recover Ana prone")  # the rules' own unconscious: prone once, as it began
    assert conditions.on(s.game, s.game.fighter("Ana").index) == ["unconscious"]


def test_a_ranged_attack_from_within_5_feet_of_a_prone_or_paralyzed_target_is_within5():
    # d20-srd-combat.txt [25]: what counts is the distance, "within 5 feet", not the weapon;
    # a bow was always from afar (disadvantage on the prone, no critical on the paralyzed).
    t = Table(ANA, ORC, options='end = "gm"')
    t.start(15, 1)
    t.play("condition Orc prone")
    lines = t.play("attack Ana Orc Bow within5", ("attack", (4, 9)), dmg(1))
    assert "within 5 feet: advantage" in lines[0] and "advantage: 9" in lines[1], lines
    t.play("recover Orc prone")
    t.play("condition Orc paralyzed")
    t.play("next")
    t.play("next")
    lines = t.play("attack Ana Orc Bow within5", ("attack", (4, 9)), dmg(1, 2))
    assert any("critical hit" in x for x in lines), lines
    assert "far or within5, not both" in t.refused("attack Ana Orc Bow within5 far")


def test_refusal_of_an_attack_on_the_lair_s_count_names_the_lair_s_turn():
    # d20-srd-combat.txt [28]: count 20 is the lair's; the refusal said "it is 's turn".
    t = Table(ANA, ORC, DRAKE)
    t.start(10, 8, 2)  # the lair's count 20 comes first
    assert t.turn() == ["lair"]
    said = t.refused("attack Ana Orc")
    assert said.startswith("it is the lair's turn: Ana attacks with as="), said


def test_refusal_after_a_legendary_action_ended_the_turn_says_so():
    # d20-srd-combat.txt [27]: a legendary action comes at the end of a turn, so the turn
    # is over; the refusal said "it is nobody's (...) turn, not Ana's".
    t = Table(ANA, ORC, DRAKE)
    t.start(10, 8, 2)
    t.play("next")
    t.play("legendary Drake")  # at the end of Ana's turn
    assert t.refused("act Ana") == "Ana's turn is over: a legendary action ended it [27]"


def test_a_misspelt_condition_is_refused_with_the_condition_it_is_close_to():
    # d20-srd-combat.txt [23]: "paralysed" went on as an effect of the table's own, with
    # none of paralyzed's rules (no incapacitation [24], no advantage against it [25]).
    t = Table(ANA, ORC)
    t.start(15, 1)
    for typed, meant in (("paralysed", "paralyzed"), ("unconcious", "unconscious")):
        said = t.refused(f"condition Orc {typed}")
        assert said.startswith(f"{typed!r} is not a condition: did you mean {meant!r}?"), said
    assert t.play("condition Orc blessed") == ["Orc is blessed"]  # the table's own effect


def test_rounds_begun_on_the_lair_s_count_end_at_count_20_that_many_rounds_later():
    # d20-srd-combat.txt [26] "for 1 minute ... ending at the same point in the order" and
    # [28]: begun on the lair's count 20 (after Ana, also at 20), one round ends at count 20
    # of the next round, after Ana's turn; it ended as Ana's turn started.
    t = Table(ANA, ORC, DRAKE, options='end = "gm"')
    t.start(17, 8, 2)  # Ana 20, the lair, the orc 9, the drake 2
    t.play("next")
    assert t.turn() == ["lair"]
    t.play("condition Orc shaken rounds=1")
    for _ in range(3):  # the orc, the drake, round 2: Ana
        t.play("next")
        assert "shaken" in t.conditions("Orc"), t.turn()
    assert t.turn() == ["Ana"] and t.game.round == 2
    lines = t.play("next")  # count 20 of round 2
    assert t.turn() == ["lair"] and "shaken" not in t.conditions("Orc"), lines


def test_rounds_begun_on_the_lair_s_count_end_there_with_the_lair_s_owner_gone():
    # d20-srd-combat.txt [26]: the point in the order passes though no lair acts on it.
    t = Table(ANA, ORC, DRAKE, options='end = "gm"')
    t.start(17, 8, 2)
    t.play("next")
    t.play("condition Orc shaken rounds=1")
    t.play("flee Drake")
    t.play("next")  # the orc
    t.play("next")  # round 2: Ana (the drake gone)
    assert t.turn() == ["Ana"] and "shaken" in t.conditions("Orc")
    t.play("next")  # past count 20 to the orc
    assert t.turn() == ["Orc"] and "shaken" not in t.conditions("Orc")


def test_refusal_of_concentration_without_a_spell_ready_without_a_trigger_and_an_empty_type():
    # d20-srd-combat.txt [20] (a spell to concentrate on), [7] (a readied action has a
    # trigger), [12] (a damage type): each went through, with nothing in its place.
    t = Table(ANA, ORC)
    t.start(15, 1)
    assert (
        t.refused("concentrate Ana")
        == "concentrate: a spell is missing (usage: concentrate NAME SPELL ...)"
    )
    assert t.refused("ready Ana") == "ready: a trigger is missing (usage: ready NAME TRIGGER ...)"
    assert (
        t.refused("damage Orc 5 type=") == "damage: type= needs a damage type (fire, slashing, ...)"
    )


def test_a_creature_healed_from_0_hp_wakes_still_prone_and_stands_up_with_half_its_speed():
    # d20-srd-combat.txt [24] (unconscious, it dropped prone) and [19][25]: healing wakes
    # it, and nothing stands it up; it stood up for free as it was healed.
    t = Table(ANA, BO, ORC, options='end = "gm"')
    t.start(2, 20, 1)  # Bo, Ana, the orc
    t.play("damage Bo 12")
    t.play("heal Bo 3")
    assert t.conditions("Bo") == ["prone"]
    t.play("next")  # Ana
    t.play("next")  # the orc: within 5 feet of a prone Bo, advantage
    lines = t.play("attack Orc Bo", ("attack", (2, 3)))
    assert "advantage: 3" in "\n".join(lines), lines
    t.play("next")  # round 2, Bo
    assert t.play("stand Bo")[-1] == "Bo stands up (15 feet; 15 left)"


def test_a_natural_20_on_a_death_save_wakes_the_character_prone():
    # d20-srd-combat.txt [16][24]
    t = Table(ANA, BO, ORC, options='end = "gm"')
    t.start(20, 2, 1)  # Ana, Bo, the orc
    t.play("damage Bo 12")
    t.play("next", ("death", (20,)))
    assert t.who("Bo").hp == 1 and t.conditions("Bo") == ["prone"]


def test_refusal_of_a_move_while_grappled_names_the_speed_of_0_first():
    # d20-srd-combat.txt [4][23]: moving more than is left while grappled was refused for
    # the feet left; the speed of 0 is what stops it.
    t = Table(ANA, ORC)
    t.start(15, 1)
    t.play("condition Ana grappled")
    assert t.refused("move Ana 40") == "Ana cannot move: its speed is 0"


def test_refusal_of_healing_dice_that_are_no_die_names_the_dice():
    # d20-srd-combat.txt [11]: `heal Ana 2d7` said only "not '2d7'"
    t = Table(ANA, ORC)
    t.start(15, 1)
    said = t.refused("heal Ana 2d7")
    assert "d4" in said and "d20" in said and "'2d7'" in said, said
