"""Cards, the tests' installed ruleset (tests/plugin), rule by rule: each test names the rule
of tests/plugin/turnlight_cards/RULES.md it checks (`RULES.md [n]`). Every card and die is
typed (`draw`, `dice`: the table's), so each test says exactly what was dealt and rolled.

The saloon (encounters/saloon.toml): Ruth and Doc (the posse's Wild Cards) against Cole (a
Wild Card) and Ike and Jed (Extras of one group, `guns`, sharing a card). The deal goes in
the file's order: Ruth, Doc, Cole, then the guns' one card.
"""

from __future__ import annotations

import pytest

from host.core import effects, registry
from host.core.interface import IllegalAction, Ruleset
from host.core.session import Session

CARDS = registry.get("cards")
SALOON = CARDS.example_path()


def game(*cards: str) -> Session:
    """The saloon with the dice from the table, round 1 dealt `cards` (Ruth, Doc, Cole,
    the guns)."""
    encounter = CARDS.parse_encounter(SALOON.read_text(encoding="utf-8"), str(SALOON))
    s = Session(encounter, 1, None, dice_from="entered")
    s.execute("deal")
    deal(s, *cards)
    return s


def deal(s: Session, *cards: str) -> None:
    for card in cards:
        assert s.pending is not None and s.pending.wanted is not None, card
        assert s.pending.wanted.deck == "action"
        s.execute(f"draw {card}")
    assert s.pending is None


def turn(s: Session) -> str:
    return s.game.fighters[s.game.turn].name


def order(s: Session) -> list[str]:
    return [s.game.fighters[i].name for i in s.game.order]


def fighter(s: Session, name: str):  # noqa: ANN201 (the plugin's Fighter)
    return s.game.fighter(name)


def refused(s: Session, line: str) -> str:
    with pytest.raises(IllegalAction) as err:
        s.execute(line)
    return str(err.value)


def attack(s: Session, who: str, target: str, *rolls: str) -> list[str]:
    """`attack WHO TARGET` given `rolls` (each typed after `dice`): what the last said."""
    said = s.execute(f"attack {who} {target}")
    for faces in rolls:
        said = s.execute(f"dice {faces}")
    assert s.pending is None, said
    return said


def cole_first() -> Session:
    """Round 1 with Cole's Ace first, then the guns, Doc, Ruth."""
    return game("2S", "3S", "AS", "4S")


def to(s: Session, name: str) -> None:
    while turn(s) != name:
        s.execute("end")


def effects_on(s: Session) -> list[tuple[str, str]]:
    return [(e.target, e.name) for e in effects.in_play(s.game)]


def end_round(s: Session) -> None:
    """`end` each turn until the next round's deal waits for its first card."""
    while s.pending is None:
        s.execute("end")


# ---------------------------------------------------------------------- the deck and the order
def test_the_action_deck_is_the_standard_54() -> None:
    # RULES.md [1]
    s = game("KS", "QS", "JS", "10S")
    assert len(s.game.deck.cards) == 54 and len(s.game.deck.left) == 50


def test_a_group_shares_one_card_and_acts_on_it_one_after_another() -> None:
    # RULES.md [3]
    s = game("2S", "3S", "4S", "KH")  # four draws for five fighters
    assert fighter(s, "Ike").card == fighter(s, "Jed").card == "KH"
    assert order(s)[:2] == ["Ike", "Jed"]
    s.execute("end")
    assert turn(s) == "Jed"


def test_turns_go_high_to_low_and_ties_go_spades_hearts_diamonds_clubs() -> None:
    # RULES.md [4]
    s = game("5C", "5S", "5H", "5D")
    assert order(s) == ["Doc", "Cole", "Ike", "Jed", "Ruth"]
    s = game("AS", "Joker", "2C", "KH")
    assert order(s) == ["Doc", "Ruth", "Ike", "Jed", "Cole"]


def test_a_joker_adds_two_and_may_act_before_its_card_comes_up() -> None:
    # RULES.md [5]
    s = game("Joker", "3S", "4S", "Joker")  # Ruth first, then the guns' Joker
    assert turn(s) == "Ruth"
    s.execute("act Ike")  # a Joker breaks into Ruth's turn
    assert turn(s) == "Ike"
    said = attack(s, "Ike", "Ruth", "4", "2 1")
    assert said[1] == "Ike attacks Ruth: fighting [4] (entered) = 6 against Parry 6"
    assert said[2] == "damage [2, 1] (entered) = 5 against Toughness 5"  # 3 and the Joker's 2


def test_a_round_with_a_joker_shuffles_the_whole_deck_as_it_ends() -> None:
    # RULES.md [6]
    s = game("Joker", "3S", "4S", "5S")
    end_round(s)
    deal(s, "Joker", "3S", "4S", "5S")  # the same cards again: the deck was whole
    assert s.game.round == 2 and len(s.game.deck.left) == 50
    assert "a Joker came up: the action deck is shuffled" in s.game.log


def test_without_a_joker_the_cards_stay_out_until_the_deck_runs_out() -> None:
    # RULES.md [6]
    s = game("2S", "3S", "4S", "5S")
    end_round(s)
    assert "2S" in refused(s, "draw 2S") and len(s.game.deck.left) == 50


# ---------------------------------------------------------------------- holding
def test_a_holder_keeps_its_action_and_is_dealt_no_card_while_it_holds() -> None:
    # RULES.md [7]
    s = game("AS", "3S", "4S", "5S")
    s.execute("hold")
    assert fighter(s, "Ruth").holding and turn(s) == "Ike"
    end_round(s)
    deal(s, "KS", "QS", "JS")  # three draws: Ruth holds
    assert fighter(s, "Ruth").card == "" and "Ruth" not in order(s)


def test_a_holder_may_not_hold_after_it_attacked() -> None:
    # RULES.md [7]
    s = game("AS", "3S", "4S", "5S")
    s.execute("attack Ruth Ike")
    s.execute("dice 1 1")
    assert "cannot hold now" in refused(s, "hold")


def test_act_starts_the_holder_s_turn_and_the_broken_turn_goes_on_after() -> None:
    # RULES.md [8]
    s = game("AS", "3S", "4S", "5S")
    s.execute("hold")  # Ruth holds; the guns' turn
    s.execute("act Ruth")
    assert turn(s) == "Ruth"
    s.execute("end")
    assert turn(s) == "Ike"  # its turn goes on
    assert "holds no action" in refused(s, "act Doc")


def test_an_interrupt_that_beats_the_other_s_agility_acts_at_once() -> None:
    # RULES.md [9]
    s = game("AS", "3S", "4S", "5S")
    s.execute("hold")
    s.execute("interrupt Ruth")
    s.execute("dice 7 1")  # Ruth's Agility d8 and Wild Die
    said = s.execute("dice 5")  # Ike's
    assert "Ruth interrupts Ike." in said
    assert turn(s) == "Ruth"
    s.execute("end")
    assert turn(s) == "Ike"


def test_an_interrupt_that_does_not_beat_it_acts_when_that_turn_ends() -> None:
    # RULES.md [9]
    s = game("AS", "3S", "4S", "5S")
    s.execute("hold")
    s.execute("interrupt Ruth")
    s.execute("dice 5 1")
    said = s.execute("dice 5")  # a tie is not enough
    assert any("too slow" in line for line in said) and turn(s) == "Ike"
    said = s.execute("end")
    assert turn(s) == "Ruth" and "Ruth acts (it held its action)." in said


# ---------------------------------------------------------------------- trait rolls
def test_trait_dice_explode_and_add_while_they_come_up_highest() -> None:
    # RULES.md [10]
    s = game("AS", "3S", "4S", "5S")
    said = attack(s, "Ruth", "Ike", "8+8+1 2", "1 1 1")
    assert "fighting [8+8+1 = 17, 2] (entered) = 17" in said[1]


def test_a_wild_card_keeps_the_better_of_its_trait_die_and_wild_die() -> None:
    # RULES.md [11]
    s = game("AS", "3S", "4S", "5S")
    said = attack(s, "Ruth", "Ike", "2 6+3", "1 1 1")
    assert "fighting [2, 6+3 = 9] (entered) = 9 against Parry 5" in said[1]


def test_every_wound_takes_one_off_trait_rolls() -> None:
    # RULES.md [12]
    s = cole_first()
    said = attack(s, "Cole", "Ruth", "6 1", "8+4 1")  # 13 against 5: two Wounds
    assert said[-1] == "Ruth takes 2 Wounds (2 in all)"
    to(s, "Ruth")
    s.execute("rally Ruth")
    said = s.execute("dice 5 1")
    assert said[-1] == "Ruth stays Shaken: spirit [5, 1] (entered) = 3 (it needs 4); `end`"


def test_an_attack_under_parry_misses_and_a_raise_adds_a_d6_of_damage() -> None:
    # RULES.md [13]
    s = game("AS", "3S", "4S", "5S")
    assert attack(s, "Ruth", "Ike", "4 1")[-1] == "a miss"
    s = game("AS", "3S", "4S", "5S")
    s.execute("attack Ruth Ike")
    s.execute("dice 7 6+3")  # 9: Parry 5 and a raise
    assert s.pending is not None and s.pending.wanted is not None
    assert s.pending.wanted.sides == (6, 6, 6)


def test_damage_at_toughness_shakes_and_shaken_again_wounds() -> None:
    # RULES.md [14]
    s = game("4S", "3S", "AS", "5S")  # Cole first, then the guns, Ruth, Doc
    s.execute("attack Cole Ruth")
    s.execute("dice 6 1")  # Parry 6: a hit
    said = s.execute("dice 3 2")  # 5 damage against Toughness 5
    assert said[-1] == "Ruth is Shaken" and fighter(s, "Ruth").wounds == 0
    s.execute("end")
    s.execute("attack Ike Ruth")
    s.execute("dice 6+1")
    said = s.execute("dice 3 2")
    assert said[-1] == "Ruth takes 1 Wound (1 in all)"


def test_each_full_four_over_toughness_is_a_wound() -> None:
    # RULES.md [14]
    s = game("4S", "3S", "AS", "5S")
    s.execute("attack Cole Ruth")
    s.execute("dice 6 1")
    said = s.execute("dice 8+5 1")  # 14 against 5: two raises
    assert said[-1] == "Ruth takes 2 Wounds (2 in all)" and fighter(s, "Ruth").shaken


def test_an_extra_is_out_with_its_first_wound() -> None:
    # RULES.md [15]
    s = game("AS", "3S", "4S", "5S")
    s.execute("attack Ruth Ike")
    s.execute("dice 6 1")
    said = s.execute("dice 6+3 1")  # 10 against 5: a Wound
    assert "Ike is out of the fight (out)" in said and not fighter(s, "Ike").in_fight


def test_a_wild_card_is_out_with_its_fourth_wound() -> None:
    # RULES.md [15]
    s = cole_first()
    said = attack(s, "Cole", "Ruth", "6 1", "8+8+1 1")  # 18 against 5: three Wounds
    assert said[-1] == "Ruth takes 3 Wounds (3 in all)" and fighter(s, "Ruth").in_fight
    end_round(s)
    deal(s, "KS", "QS", "AH", "JS")  # Cole first again
    said = attack(s, "Cole", "Ruth", "6 1", "8+2 1")  # 11 against 5: the fourth
    assert "Ruth is out of the fight (out)" in said


def test_a_shaken_fighter_cannot_attack_until_it_rallies() -> None:
    # RULES.md [16]
    s = cole_first()
    assert attack(s, "Cole", "Ruth", "6 1", "3 2")[-1] == "Ruth is Shaken"
    to(s, "Ruth")
    assert "`rally Ruth` first" in refused(s, "attack Ruth Ike")
    s.execute("rally Ruth")
    said = s.execute("dice 2 3")
    assert "stays Shaken" in said[-1] and "has tried to rally" in refused(s, "rally Ruth")
    s = cole_first()
    attack(s, "Cole", "Ruth", "6 1", "3 2")
    to(s, "Ruth")
    s.execute("rally Ruth")
    s.execute("dice 4 1")
    assert not fighter(s, "Ruth").shaken
    s.execute("attack Ruth Ike")  # it may act this turn
    assert s.pending is not None


def test_the_fight_is_over_when_one_team_is_left() -> None:
    # RULES.md [17]
    s = game("AS", "3S", "4S", "5S")
    for name in ("Cole", "Ike"):
        s.execute(f"remove {name} fled")
    said = s.execute("remove Jed fled")
    assert said[-1] == "the fight is over: Posse" and s.over


# ---------------------------------------------------------------------- coming and going
def test_a_newcomer_is_dealt_a_card_from_the_next_round() -> None:
    # RULES.md [18]
    s = game("AS", "3S", "4S", "5S")
    said = s.execute("add Deputy")
    assert said == ["Deputy joins Posse: dealt a card from the next round"]
    assert "Deputy" not in order(s)
    end_round(s)
    deal(s, "KS", "QS", "JS", "10S", "9S")  # five draws now
    assert fighter(s, "Deputy").card == "9S"


def test_a_fighter_removed_on_its_turn_passes_it_and_keeps_its_statistics() -> None:
    # RULES.md [18]
    s = game("AS", "3S", "4S", "5S")
    said = s.execute("remove Ruth fled")
    assert said == ["Ruth is out of the fight (fled)", "Ike takes its turn (5S)."]
    assert "Ruth" in s.ruleset.summary(s.game)["players"]
    assert "already left" in refused(s, "remove Ruth")


def test_the_host_s_effects_tick_on_the_card_order() -> None:
    # docs/effects.md: `effect` works in every game; here on the cards' turns.
    s = game("AS", "3S", "4S", "5S")
    s.execute("effect Doc Blessed until=end")
    assert effects_on(s) == [("Doc", "Blessed")]
    for _ in range(3):  # Ruth's, Ike's and Jed's turns end
        s.execute("end")
    assert turn(s) == "Cole" and effects_on(s) == [("Doc", "Blessed")]
    s.execute("end")  # Cole's
    s.execute("end")  # Doc's, the effect's end, and the last card's: the next deal waits
    deal(s, "KS", "QS", "JS", "10S")
    assert effects_on(s) == []


# ---------------------------------------------------------------------- held turns, to the effects
def moments(s: Session) -> list[tuple[str, object]]:
    return s.ruleset.turn_moments(s.game)


def test_a_held_turn_stops_and_goes_on_as_one_turn() -> None:
    # RULES.md [7][8]: holding stops the turn; acting later goes on with it, then ends it.
    s = game("AS", "3S", "4S", "5S")
    s.execute("hold")
    assert moments(s) == [("suspend", "Ruth"), ("start", "Ike")]
    s.execute("act Ruth")
    assert moments(s) == [("suspend", "Ike"), ("resume", "Ruth")]
    s.execute("end")
    assert moments(s) == [("end", "Ruth"), ("resume", "Ike")]


def test_an_interrupt_stops_the_turn_it_breaks_into_and_a_slow_one_waits_for_its_end() -> None:
    # RULES.md [9]
    s = game("AS", "3S", "4S", "5S")
    s.execute("hold")
    s.execute("interrupt Ruth")
    s.execute("dice 7 1")
    s.execute("dice 5")
    assert moments(s) == [("suspend", "Ike"), ("resume", "Ruth")]
    s = game("AS", "3S", "4S", "5S")
    s.execute("hold")
    s.execute("interrupt Ruth")
    s.execute("dice 5 1")
    s.execute("dice 5")
    assert moments(s) == []  # too slow: nothing stops
    assert "acts when Ike's turn ends" in refused(s, "interrupt Ruth")
    s.execute("end")
    assert moments(s) == [("end", "Ike"), ("resume", "Ruth")]


def test_a_round_begins_before_its_first_turn_and_the_fallen_are_passed() -> None:
    # RULES.md [2][17]: the deal's moments; a fighter out of the fight has its turn passed.
    s = game("AS", "3S", "4S", "5S")
    assert moments(s) == [("round", 1), ("start", "Ruth")]
    s.execute("remove Ike fled")
    end_round(s)
    deal(s, "KS", "QS", "JS", "10S")
    assert moments(s)[-4:] == [("end", "Doc"), ("round", 2), ("passed", "Ike"), ("start", "Ruth")]


@pytest.mark.skipif(
    not hasattr(Ruleset, "turn_moments"),
    reason="the effect clock's turn moments (the kit issue, item 4) are not merged here yet",
)
def test_an_until_end_effect_on_a_holder_lasts_through_its_held_turn() -> None:
    # RULES.md [7][8], docs/effects.md "Turns that stop and come back": Ruth's turn is held
    # across Ike's and goes on when she acts; "until the end of her turn" waits for that.
    s = game("AS", "3S", "4S", "5S")
    s.execute("effect Ruth Aim until=end")
    s.execute("end")  # Ruth's turn ends: the effect put on during it lasts to her next
    to(s, "Doc")
    s.execute("end")
    deal(s, "KS", "6S", "7S", "8S")  # Ruth first again
    s.execute("hold")  # her next turn stops
    assert effects_on(s) == [("Ruth", "Aim")]
    s.execute("act Ruth")  # and goes on
    assert effects_on(s) == [("Ruth", "Aim")]
    s.execute("end")  # and ends
    assert effects_on(s) == []


@pytest.mark.skipif(
    not hasattr(Ruleset, "turn_moments"),
    reason="the effect clock's turn moments (the kit issue, item 4) are not merged here yet",
)
def test_an_until_end_effect_on_the_interrupted_outlasts_the_interrupt() -> None:
    # RULES.md [9]: Ruth interrupts Ike's turn; what lasts "until the end of Ike's turn"
    # lasts until Ike's own turn ends, not as Ruth breaks in, and Ike's turn going on is
    # no new start of it.
    s = game("AS", "3S", "4S", "5S")
    s.execute("effect Jed Cover until=end of=Ike")  # Ruth's turn: Ike's next is the next
    s.execute("effect Doc Dazed until=start of=Ike")
    s.execute("hold")  # Ike's turn starts
    assert effects_on(s) == [("Jed", "Cover")]
    s.execute("interrupt Ruth")
    s.execute("dice 7 1")
    s.execute("dice 5")
    assert effects_on(s) == [("Jed", "Cover")]
    s.execute("end")  # Ruth's turn ends; Ike's goes on
    assert effects_on(s) == [("Jed", "Cover")]
    s.execute("end")  # Ike's ends
    assert effects_on(s) == []
