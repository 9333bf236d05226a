"""d20 on the board and at the table: the projection the board is sent (the initiative order
by entry, a group's turn together, the lair's count on its owner, HP as the bar, conditions,
death saves and legendary actions as counters, the marks), and the rolls an action waits
for, each die named by its faces (host/core/interface.py WantedRoll.sides)."""

from __future__ import annotations

import pytest
from d20_fixtures import ANA, BO, DRAKE, ORC, WOLVES, Table, d20

from host.core import effects
from host.core.interface import IllegalAction, RollWanted
from host.core.session import Session
from host.rulesets.d20 import device
from host.rulesets.d20.ruleset import RULESET
from shared.state import F_ACTIVE, F_OUT, mark_bit


def slot(t: Table, name: str):
    return t.game.state.slots[t.who(name).index]


def test_the_board_shows_the_order_by_entry_and_a_group_s_turn_on_all_of_it():
    t = Table(ANA, WOLVES, ORC)
    t.start(1, 12, 5)  # the wolves 14, the orc 6, Ana 4
    st = t.game.state
    labels = [st.slots[st.order[p]].label for p in range(st.count)]
    assert labels == ["WF1", "WF2", "ORC", "ANA"]
    assert [bool(slot(t, n).flags & F_ACTIVE) for n in ("WF1", "WF2", "ORC")] == [
        True,
        True,
        False,
    ]
    wolves = {slot(t, "WF1").order_key, slot(t, "WF2").order_key}
    assert len(wolves) == 1 and slot(t, "ORC").order_key not in wolves


def test_the_lair_s_count_lights_its_owner_and_the_dead_are_out_of_play():
    t = Table(ANA, DRAKE)
    t.start(17, 2)  # Ana 20, the lair, the drake 2
    t.play("next")
    assert t.turn() == ["lair"] and slot(t, "DRK").flags & F_ACTIVE
    t.play("damage Ana 41")
    assert slot(t, "ANA").flags & F_OUT


def test_hp_death_saves_conditions_and_legendary_actions_are_the_slot_s_bar_and_counters():
    t = Table(ANA, BO, DRAKE.replace("lair = ", "# lair = "))
    t.start(15, 5, 1)
    t.play("damage Bo 12")
    t.play("next", d20(4, "death"))
    bo = slot(t, "BO")
    assert bo.health == 0 and bo.counters[device.FAILURES] == 1
    assert bo.counters[device.CONDITIONS] == 2  # unconscious and prone
    assert bo.flags & mark_bit(device.PRONE) and bo.flags & mark_bit(device.INCAPACITATED)
    t.play("legendary Drake")
    assert slot(t, "DRK").counters[device.LEGENDARY] == 2
    t.play("next")
    t.play("concentrate Drake fog")
    assert slot(t, "DRK").flags & mark_bit(device.CONCENTRATING)
    assert slot(t, "DRK").health == 40


def test_an_attack_waits_for_one_d20_or_two_with_advantage_then_its_damage_dice():
    s = Session(Table(ANA, ORC).encounter, 1)
    s.execute("initiative")  # the engine's dice: Ana's turn or the orc's
    s.dice_from = "entered"  # the next action's dice come from the table
    attacker = s.game.fighters[s.game.entry().members[0]]
    target = "ORC" if attacker.label == "ANA" else "ANA"
    s.execute(f"attack {attacker.label} {target} adv")
    wanted = s.pending.wanted
    assert (wanted.purpose, wanted.count, wanted.sides) == ("attack", 2, (20, 20))
    assert wanted.who == attacker.index
    s.execute("cancel")
    s.execute(f"attack {attacker.label} {target} adv dis")
    assert s.pending.wanted.sides == (20,)


def test_a_critical_hit_wants_the_damage_dice_twice_each_named_by_its_faces():
    wide = ORC.replace('damage = "1d12+3"', 'damage = "2d6+1d8+3"')
    t = Table(ANA, wide)
    t.start(1, 15)  # the orc first
    with pytest.raises(RollWanted) as raised:  # the damage roll, not given
        t.play("attack Orc Ana", d20(20))
    wanted = raised.value.wanted
    assert wanted.purpose == "damage" and wanted.sides == (6, 6, 6, 6, 8, 8)
    assert RULESET.asks_for_rolls


def test_the_web_pages_show_each_creature_s_conditions_concentration_and_death_saves():
    t = Table(ANA, BO, ORC)
    t.start(15, 5, 1)
    t.play("damage Bo 12")
    t.play("concentrate Ana bless")
    t.play("condition Orc frightened rounds=2")
    shown = {f.name: f for f in effects.fighters(RULESET, t.game)}  # as the pages get them
    assert [f.name for f in RULESET.fighters(t.game)] == ["Ana", "Bo", "Orc"]
    assert shown["Ana"].current and shown["Ana"].statuses == ["concentrating on bless"]
    assert shown["Bo"].statuses == ["unconscious", "prone", "death saves 0/0"]
    assert shown["Orc"].health == 15
    # A condition for some rounds is the host's effect book's: once, with its duration
    # (issue #37 item 9)
    assert shown["Orc"].statuses == [] and shown["Orc"].effects == ["frightened 2 rounds"]


def test_the_lair_s_count_is_no_creature_s_turn_for_the_effects_that_wait_for_one():
    # d20-srd-combat.txt [26][28]: "until the start of the drake's next turn" outlasts its
    # lair's count 20; "until the end of Ana's next turn" ends with Ana's turn, not the lair's
    t = Table(ANA, ORC, DRAKE)
    t.start(17, 15, 2)  # Ana 20, the lair, the orc 16, the drake 2
    t.play("condition Orc marked until=start by=Drake")
    t.play("condition Orc dazed until=end of=Drake")
    t.play("next")
    assert t.turn() == ["lair"] and {"marked", "dazed"} <= set(t.conditions("Orc"))
    t.play("next")
    assert t.turn() == ["Orc"] and {"marked", "dazed"} <= set(t.conditions("Orc"))
    t.play("next")
    assert t.turn() == ["Drake"] and "marked" not in t.conditions("Orc")
    assert "dazed" in t.conditions("Orc")
    t.play("next")  # round 2: Ana
    t.play("next")  # the lair's count: the drake's turn ended before it
    assert "dazed" not in t.conditions("Orc")


def test_the_host_s_effect_verb_under_a_condition_s_name_is_that_condition_to_the_rules():
    # d20-srd-combat.txt [24][25] through host/core/effects.py's own verb

    s = Session(Table(ANA, ORC).encounter, 1)
    s.execute("initiative")
    s.execute("effect Orc paralyzed rounds=1")
    from host.rulesets.d20 import conditions

    assert conditions.incapacitated(s.game, s.game.fighter("Orc").index)


def test_the_roll_key_with_the_engines_dice_says_how_to_roll_on_the_board(tmp_path) -> None:
    """d20's roll key rolls plain dice (a d20: ROLL_DICE). With the engine's dice, the
    default, a press is refused in one line that says how to take the dice from the board,
    never as an event the host does not know."""
    from host.board.tethered_sim import TetheredSim

    path = RULESET.example_path()
    session = Session(RULESET.parse_encounter(path.read_text(), str(path)), 3)
    assert session.dice_from == "engine"
    with TetheredSim(session) as table, pytest.raises(IllegalAction) as err:
        table.press("roll")
    assert "`dice from board`" in str(err.value)
    assert "unknown board event" not in str(err.value)
