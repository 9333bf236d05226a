"""The stones ruleset, one test per rule of speaking-stones-turn-order.txt (cited by line),
played through the generic session with the d100s entered as two D10 (`dice d100 T U`)."""

from __future__ import annotations

import pytest
from stones_fixtures import MIXED, TWO_PLAYERS, encounter_text, play, session

from host.core import encounter_files
from host.core.interface import IllegalAction
from host.core.session import Session
from host.rulesets.stones.ruleset import RULESET

FOUR_PLAYERS = """
[[player]]
name = "Ann"
team = "Dawn"

[[player]]
name = "Dan"
team = "Dawn"

[[player]]
name = "Bo"
team = "Dusk"

[[player]]
name = "Cy"
team = "Dusk"
"""
TWO_MORE = """
[[character]]
name = "Rook"
player = "Dan"
class = "guardian"
hp = 20
atk = 5

[[character]]
name = "Sable"
player = "Cy"
class = "rogue"
hp = 20
atk = 6
"""


def snap(s: Session) -> dict:
    return RULESET.snapshot(s.game)


def player(s: Session, name: str) -> dict:
    return next(p for p in snap(s)["players"] if p["name"] == name)


def char(s: Session, name: str) -> dict:
    return next(c for c in snap(s)["characters"] if c["name"] == name)


def refused(s: Session, line: str, said: str) -> None:
    before = snap(s), len(s.done)
    with pytest.raises(IllegalAction) as err:
        s.execute(line)
    assert said in str(err.value) and "\n" not in str(err.value)
    assert (snap(s), len(s.done)) == before


def turns_taken(s: Session, count: int) -> list[str]:
    """Whose turn it is, then after each of `count` ends of turn."""
    seen = [snap(s)["turn"]]
    for _ in range(count):
        s.execute("end")
        seen.append(snap(s)["turn"])
    return seen


# -- Draw Speaking Stone Cards ----------------------------------------------------------


def test_a_player_draws_one_card_plus_two_per_character_and_that_is_the_hand_size() -> None:
    """speaking-stones-turn-order.txt:15"""
    s = session()
    ann = player(s, "Ann")  # Kaelen and Mira: 1 + 2 x 2
    assert len(ann["hand"]) == 5 and ann["hand_size"] == 5
    lines = s.execute("end")
    assert "Bo's turn (Dusk): draws 3, hand fire2 fire2 fire2" in lines
    assert player(s, "Bo")["hand_size"] == 3


def test_the_hand_size_does_not_change_when_a_character_is_incapacitated() -> None:
    """speaking-stones-turn-order.txt:15"""
    s = session(mir_hp=1)
    play(s, "end", "dice d100 9 9")
    assert "Mira is incapacitated" in s.execute("attack Orr Mir")
    assert player(s, "Ann")["hand_size"] == 5
    lines = s.execute("end")
    assert any(line.startswith("Ann's turn (Dawn): draws 5") for line in lines)
    assert player(s, "Ann")["hand_size"] == 5


def test_the_default_deck_is_seven_elements_of_four_values_and_one_infinite_each() -> None:
    """speaking-stones-turn-order.txt:17"""
    enc = encounter_files.parse(encounter_text(deck=""), "default_deck.toml")
    assert len(enc.deck) == 7 * 4 + 7
    assert {c.rstrip("1234*") for c in enc.deck} == {
        "fire",
        "water",
        "earth",
        "air",
        "light",
        "shadow",
        "spirit",
    }
    assert enc.deck.count("fire4") == 1 and enc.deck.count("fire*") == 1


def test_the_decks_make_up_is_data_in_the_encounter_file() -> None:
    """speaking-stones-turn-order.txt:17 (the make-up is data, its default documented)"""
    enc = encounter_files.parse(encounter_text(deck=MIXED), "mixed.toml")
    assert len(enc.deck) == 2 * 4 * 3 + 2
    assert enc.deck.count("water3") == 3 and enc.deck.count("water*") == 1


def test_an_infinite_card_pays_any_cost_but_for_one_ability_only() -> None:
    """speaking-stones-turn-order.txt:17"""
    infinite = 'elements = ["fire"]\nvalues = []\ninfinite = 20'
    s = session(deck=infinite)
    play(s, "dice d100 9 9", "dice d100 9 9")
    lines = s.execute('ability Kae "Flame Slash" Orr')
    assert "paid with fire* (an infinite card pays this one ability)" in lines[1]
    # The card went with that ability: the next one takes another infinite card.
    lines = s.execute('ability Mir "Mending Light" Kae')
    assert player(s, "Ann")["hand"] == ["fire*"] * 3 and snap(s)["discard"] == ["fire*", "fire*"]


# -- Activate a Character -----------------------------------------------------------------


def test_a_character_takes_fuse_move_and_attack_in_any_order_each_once() -> None:
    """speaking-stones-turn-order.txt:21"""
    s = session()
    play(s, "dice d100 9 9", "attack Kae Orr", "move Kae 2", 'fuse Kae "Ember Ward"')
    assert snap(s)["done"] == ["act", "move", "fuse"]
    refused(s, "fuse Kae Hearth", "Kaelen has fused an ability this activation")
    refused(s, "attack Kae Orr", "one Standard Attack or one Ability")


def test_activating_another_character_ends_the_first_ones_activation() -> None:
    """speaking-stones-turn-order.txt:21"""
    s = session()
    play(s, "move Kae 1")
    assert s.execute("move Mir 1")[:2] == ["Kaelen's activation ends", "Mira is activated"]
    refused(s, "attack Kae Orr", "Kaelen's activation is over this turn")


def test_a_character_done_for_the_turn_is_not_activated_again() -> None:
    """speaking-stones-turn-order.txt:21 (`done`: the activation ends, or is passed, before
    another character's)"""
    s = session()
    play(s, "move Kae 1")
    assert s.execute("done Kae") == ["Kaelen's activation ends"]
    refused(s, "attack Kae Orr", "Kaelen's activation is over this turn")
    refused(s, "done Kae", "Kaelen's activation is over this turn already")
    assert snap(s)["active"] is None and not snap(s)["end_step"]


def test_once_every_character_is_done_the_turn_is_in_its_end_step() -> None:
    """speaking-stones-turn-order.txt:57 (once the player's characters are through: break,
    then :60 discard, then the turn ends)"""
    s = session()
    play(s, "done Mir")  # passed without being activated
    refused(s, "move Mir 1", "Mira's activation is over this turn")
    lines = s.execute("done Kae")
    assert lines[-1] == "Ann's activations are over: the turn is ending"
    assert snap(s)["end_step"] and snap(s)["turn"] == "Ann"
    refused(s, "move Kae 1", "Ann has begun ending the turn")
    play(s, "end")
    assert snap(s)["turn"] == "Bo"


def test_only_the_player_whose_turn_it_is_activates_their_characters() -> None:
    """speaking-stones-turn-order.txt:21"""
    s = session()
    refused(s, "move Orr 1", "Orrin is Bo's, and it is Ann's turn")


# -- [Fuse] an Ability ----------------------------------------------------------------------


def test_a_fused_defensive_ability_is_passive_while_fused() -> None:
    """speaking-stones-turn-order.txt:25"""
    physical = '[classes]\nmage = "physical"'
    plain = session(options=physical)
    play(plain, "end", "dice d100 9 9")
    assert "7 physical - 2 armor = 5 damage" in plain.execute("attack Orr Kae")[1]
    s = session(options=physical)
    assert "passive while fused" in s.execute('fuse Kae "Ember Ward"')[1]
    play(s, "end", "dice d100 9 9")
    assert "7 physical - 4 armor = 3 damage" in s.execute("attack Orr Kae")[1]
    play(s, "end")  # the fuse still holds on Ann's next turn
    assert char(s, "Kaelen")["fused"] == {"Ember Ward": ["fire2"]}


def test_a_fuse_is_paid_with_stones_of_its_element_up_to_or_over_its_cost() -> None:
    """speaking-stones-turn-order.txt:25"""
    deck = 'elements = ["fire", "water"]\nvalues = [1]\ncopies = 20\ninfinite = 0'
    seed = next(
        n
        for n in range(1, 200)
        if sorted(player(session(n, deck=deck), "Ann")["hand"]).count("fire1") >= 2
        and "water1" in player(session(n, deck=deck), "Ann")["hand"]
    )
    s = session(seed, deck=deck)
    refused(s, 'fuse Kae "Ember Ward" pay=water1', "Ember Ward takes fire stones, not water1")
    refused(s, 'fuse Kae "Ember Ward" pay=fire1', "fire1 is 1 star; Ember Ward costs 2")
    refused(s, 'ability Kae "Ember Ward" Orr', "is a [Fuse] ability")
    lines = s.execute('fuse Kae "Ember Ward" pay=fire1,fire1')
    assert "paid with fire1 fire1;" in lines[1]


def test_stones_paid_over_the_cost_are_lost() -> None:
    """speaking-stones-turn-order.txt:27"""
    s = session()  # every card is fire2: a cost of 3 takes two, 1 star is lost
    play(s, "dice d100 9 9", "dice d100 9 9")
    assert "paid with fire2 fire2, 1 star lost" in s.execute('ability Kae "Flame Slash" Orr')[1]
    assert len(player(s, "Ann")["hand"]) == 3 and snap(s)["discard"] == ["fire2", "fire2"]
    # Mira's Mending Light (2) is paid afresh: nothing is left over from the last.
    assert "paid with fire2," in s.execute('ability Mir "Mending Light" Kae')[2]
    assert len(player(s, "Ann")["hand"]) == 2


def test_fused_stones_count_towards_the_hand_size() -> None:
    """speaking-stones-turn-order.txt:27, :60"""
    s = session()
    play(s, 'fuse Kae "Ember Ward"')
    assert player(s, "Ann")["held"] == 5  # 4 in hand, 1 fused
    play(s, "end", "end")  # Ann holds 5 of 5; Bo 3 of 3
    refused(s, "end", "Ann holds 10 cards (9 in hand, 1 fused) over a hand size of 5")
    play(s, "discard fire2 fire2 fire2 fire2")
    refused(s, "end", "discard 1 first")
    play(s, "discard fire2", "end")
    assert snap(s)["turn"] == "Bo"


# -- Move -------------------------------------------------------------------------------------


def test_a_character_moves_up_to_its_movement() -> None:
    """speaking-stones-turn-order.txt:31"""
    s = session()
    refused(s, "move Kae 5", "Kaelen moves at most 4 spaces, not 5")
    assert s.execute("move Kae 4")[-1] == "Kaelen moves 4 spaces (of 4); its move is over"


def test_a_move_once_ended_cannot_be_taken_up_again() -> None:
    """speaking-stones-turn-order.txt:33"""
    s = session()
    play(s, "move Kae 2")
    refused(s, "move Kae 1", "Kaelen's move has ended (2 of 4 spaces)")


# -- [Standard Attack] or Ability -------------------------------------------------------------


def test_a_standard_attack_needs_the_target_within_range() -> None:
    """speaking-stones-turn-order.txt:38, :44 (the players count the spaces and say them)"""
    s = session()
    refused(s, "attack Kae Orr range=2", "Kaelen reaches 1 space, the target is 2 away")
    refused(s, "attack Kae Mir", "Mira is on Dawn, Kaelen's own team")
    play(s, "dice d100 9 9", "attack Kae Orr range=1")
    assert char(s, "Orrin")["hp"] == 13


def test_a_standard_attack_is_atk_against_the_armor_of_its_class_damage_type() -> None:
    """speaking-stones-turn-order.txt:44"""
    s = session()
    play(s, "dice d100 9 9")  # Kaelen, a warrior: Physical, against Orrin's armor 1
    assert "6 physical - 1 armor = 5 damage" in s.execute("attack Kae Orr")[1]
    play(s, "end", "dice d100 9 9")  # Orrin, a mage: Spirit, against Kaelen's spirit armor 1
    assert "7 spirit - 1 armor = 6 damage" in s.execute("attack Orr Kae")[1]
    assert char(s, "Kaelen")["hp"] == 14


def test_a_crit_d100_at_or_under_crt_doubles_atk() -> None:
    """speaking-stones-turn-order.txt:44 (CRT 20: 1-20 is a critical attack)"""
    s = session()
    play(s, "dice d100 2 0")  # two D10, tens and units: 20
    line = s.execute("attack Kae Orr")[1]
    assert "critical (d100 20 <= CRT 20), ATK 12; 12 physical - 1 armor = 11 damage" in line
    play(s, "dice d100 1 1")  # Mira's CRT is 10: 11 is no crit
    # (Mira, a cleric, strikes Spirit: Orrin's spirit armor is 3.)
    assert "d100 11; 4 spirit - 3 armor = 1 damage" in s.execute("attack Mir Orr")[2]
    assert char(s, "Orrin")["hp"] == 18 - 11 - 1


def test_a_d100_of_zero_and_zero_reads_one_hundred() -> None:
    """speaking-stones-turn-order.txt:53 (both D10: 0 and 0 is 100, never a 1-20 crit)"""
    s = session()
    play(s, "dice d100 0 0")
    assert "d100 100;" in s.execute("attack Kae Orr")[1]


def test_a_standard_attack_and_an_ability_in_one_activation_are_refused() -> None:
    """speaking-stones-turn-order.txt:44"""
    s = session()
    play(s, "dice d100 9 9", "attack Kae Orr")
    refused(s, 'ability Kae "Flame Slash" Orr', "Kaelen has made a Standard Attack")
    t = session()
    play(t, "dice d100 9 9", "dice d100 9 9", 'ability Kae "Flame Slash" Orr')
    refused(t, "attack Kae Orr", "Kaelen has made Flame Slash this activation")


# -- Character Abilities ----------------------------------------------------------------------


def test_an_ability_is_paid_with_its_element_and_its_stones_go_face_up_to_the_discard() -> None:
    """speaking-stones-turn-order.txt:49"""
    s = session()
    play(s, "dice d100 9 9", "dice d100 9 9")
    lines = s.execute('ability Kae "Flame Slash" Orr')
    assert lines[1].endswith("to the discard pile") and snap(s)["discard"] == ["fire2", "fire2"]
    assert RULESET.snapshot(s.game)["discard"] == ["fire2", "fire2"]  # face up: all see them


def test_ability_keywords_resolve_in_the_order_written_each_chance_a_new_d100() -> None:
    """speaking-stones-turn-order.txt:51, :53 ([Standard Attack], [On 1-50] adds [Burn])"""
    s = session()
    play(s, "dice d100 5 0", "dice d100 5 0")
    lines = s.execute('ability Kae "Flame Slash" Orr')
    assert "d100 50;" in lines[2] and "[On 1-50]: d100 50, yes" in lines[4]
    assert lines[5].strip() == "Orrin gets [Burn]"
    assert s.done[-1].rolls == [[5, 0, "entered"], [5, 0, "entered"]]
    assert RULESET.roll_lines(s.game) == [
        "Kaelen's crit: d100 5 0 -> 50 (entered)",
        "Flame Slash [On 1-50]: d100 5 0 -> 50 (entered)",
    ]
    t = session()
    play(t, "dice d100 5 0", "dice d100 5 1")
    lines = t.execute('ability Kae "Flame Slash" Orr')
    assert "[On 1-50]: d100 51, no" in lines[4] and char(t, "Orrin")["statuses"] == {}


# -- Break [Fuse] Abilities, discards, end of turn --------------------------------------------


def test_fused_abilities_may_be_broken_at_the_turns_end_and_their_stones_discarded() -> None:
    """speaking-stones-turn-order.txt:57"""
    s = session()
    play(s, 'fuse Kae "Ember Ward"', "end", "end")
    lines = s.execute('break Kae "Ember Ward"')
    assert lines[-1] == "Kaelen's Ember Ward is broken: fire2 discarded"
    assert char(s, "Kaelen")["fused"] == {} and snap(s)["discard"] == ["fire2"]
    refused(s, "move Mir 1", "Ann has begun ending the turn")


def test_a_hand_over_the_limit_cannot_end_the_turn() -> None:
    """speaking-stones-turn-order.txt:60"""
    s = session()
    play(s, "end", "end")  # Ann's second turn: 5 kept, 5 drawn
    refused(s, "end", "Ann holds 10 cards (10 in hand, 0 fused) over a hand size of 5")


def test_the_player_discards_down_to_the_hand_size_to_end_the_turn() -> None:
    """speaking-stones-turn-order.txt:60"""
    s = session()
    play(s, "end", "end")
    refused(s, "discard fire3", "Ann holds no fire3")
    lines = s.execute("discard fire2 fire2 fire2 fire2 fire2")
    assert lines[-1] == "Ann discards fire2 fire2 fire2 fire2 fire2: 5 held of a hand size of 5"
    assert s.execute("end")[0] == "Ann ends the turn"


def test_a_fused_hand_ability_allows_a_greater_hand_size() -> None:
    """speaking-stones-turn-order.txt:60 (some abilities allow a greater hand size)"""
    s = session()
    play(s, "fuse Kae Hearth")
    assert player(s, "Ann")["hand_size"] == 7
    play(s, "end", "end")  # 4 kept + 5 drawn + 1 fused = 10, of 7
    refused(s, "end", "over a hand size of 7: discard 3 first")


# -- End of Turn / Alternating Turns, Ending the Game -----------------------------------------


def test_turns_alternate_between_the_teams_until_every_player_has_had_one() -> None:
    """speaking-stones-turn-order.txt:64"""
    s = session(players=FOUR_PLAYERS, more=TWO_MORE)
    assert turns_taken(s, 3) == ["Ann", "Bo", "Dan", "Cy"]  # not the file's Ann, Dan, Bo, Cy
    assert snap(s)["round"] == 1


def test_the_first_player_begins_the_next_round() -> None:
    """speaking-stones-turn-order.txt:64"""
    s = session(players=FOUR_PLAYERS, more=TWO_MORE)
    play(s, "end", "end", "end")
    lines = s.execute("end")
    assert "round 2 begins" in lines and snap(s)["turn"] == "Ann" and snap(s)["round"] == 2


def test_the_teams_keep_alternating_when_a_player_is_eliminated() -> None:
    """speaking-stones-turn-order.txt:66"""
    s = session(players=FOUR_PLAYERS, more=TWO_MORE, orr_hp=1)
    play(s, "dice d100 9 9")
    assert "Bo is eliminated: the hand goes to the discard pile" in s.execute("attack Kae Orr")
    # Bo's turn is gone; Dusk still answers Dawn: Ann, Cy, Dan (not Ann, Dan, Cy).
    play(s, "discard fire2")
    assert turns_taken(s, 3) == ["Ann", "Cy", "Dan", "Ann"]


def test_the_game_ends_when_one_side_is_fully_incapacitated() -> None:
    """speaking-stones-turn-order.txt:70"""
    s = session(orr_hp=5)
    play(s, "dice d100 9 9")
    lines = s.execute("attack Kae Orr")
    assert lines[-1] == "every character of Dusk is incapacitated: Dawn wins"
    assert RULESET.winner(s.game) == "Dawn" and s.over
    refused(s, "end", "the game is over: Dawn won")


# -- Where the text is silent (docs/rulesets/stones.md) ----------------------------------------


def test_an_empty_deck_takes_the_shuffled_discard_pile_by_default() -> None:
    """speaking-stones-turn-order.txt:17 is silent on an empty deck: deck_out = reshuffle"""
    small = 'elements = ["fire"]\nvalues = [2]\ncopies = 8\ninfinite = 0'
    s = session(deck=small)
    play(s, "discard fire2 fire2 fire2", "end")  # Ann 5, Bo 3: the deck is out
    lines = s.execute("end")
    assert "the deck is out: the discard pile (3 cards) is shuffled into a new deck" in lines
    assert len(player(s, "Ann")["hand"]) == 5


def test_an_empty_deck_with_deck_out_stop_draws_no_more() -> None:
    """speaking-stones-turn-order.txt:17 is silent on an empty deck: deck_out = stop"""
    small = 'elements = ["fire"]\nvalues = [2]\ncopies = 8\ninfinite = 0'
    s = session(deck=small, options='deck_out = "stop"')
    play(s, "discard fire2 fire2 fire2", "end")
    lines = s.execute("end")
    assert "the deck is out: Ann draws no more" in lines
    assert len(player(s, "Ann")["hand"]) == 2


def test_a_burn_deals_its_damage_as_its_bearers_player_ends_the_turn() -> None:
    """speaking-stones-turn-order.txt:53 adds [Burn]; Chapter 7 is not in the text: Burn is
    data (2 damage at its bearer's player's turn end, for 2 of them)"""
    s = session()
    play(s, "dice d100 9 9", "dice d100 0 1", 'ability Kae "Flame Slash" Orr', "end")
    assert char(s, "Orrin")["statuses"] == {"Burn": 2}
    lines = s.execute("end")
    assert "[Burn] deals Orrin 2 damage" in lines and char(s, "Orrin")["hp"] == 18 - 5 - 2
    assert char(s, "Orrin")["statuses"] == {"Burn": 1}


def test_a_stunned_character_cannot_be_activated() -> None:
    """speaking-stones-turn-order.txt:53 (a status keyword; Stun is data, one turn)"""
    s = session()
    play(s, "end", "dice d100 1 0", 'ability Orr "Ember Lance" Kae')  # [Damage 7] rolls none
    assert char(s, "Kaelen")["statuses"] == {"Stun": 1}
    play(s, "end")
    refused(s, "move Kae 1", "Kaelen is stunned (Stun) and cannot be activated")
    play(s, "discard fire2 fire2 fire2 fire2 fire2", "end")  # the stun's one turn is over
    assert char(s, "Kaelen")["statuses"] == {}
    play(s, "discard fire2", "end", "move Kae 1")


def test_an_incapacitated_characters_fused_stones_are_discarded() -> None:
    """speaking-stones-turn-order.txt:27 (a fuse removed: its stones are discarded)"""
    s = session(kae_hp=6)
    play(s, 'fuse Kae "Ember Ward"', "end", "dice d100 9 9")
    lines = s.execute("attack Orr Kae")
    assert "Kaelen's fused Ember Ward breaks: fire2 discarded" in lines
    assert player(s, "Ann")["held"] == 4


def test_two_players_alone_alternate_too() -> None:
    """speaking-stones-turn-order.txt:64"""
    s = session(players=TWO_PLAYERS)
    assert turns_taken(s, 2) == ["Ann", "Bo", "Ann"] and snap(s)["round"] == 2
