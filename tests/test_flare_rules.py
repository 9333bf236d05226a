"""Flare's rules, one test per rule of flare-summoning-turn.txt (the line each cites), played
through the generic session with the test duel of tests/flare_fixtures.py: a 5x5 grid, the
deck dealt in its file's order, Ann first (two actions on her first turn unless a test
says otherwise). Squares: a column letter and a row number, a1 the top left."""

from __future__ import annotations

import pytest
from flare_fixtures import cell, duel, teams

from host.core.interface import IllegalAction
from host.rulesets.flare.cards import COMMON, HEROIC, LEGENDARY


def refused(session, line: str, said: str) -> None:
    with pytest.raises(IllegalAction) as err:
        session.execute(line)
    assert said in str(err.value) and "\n" not in str(err.value)


def test_a_turn_has_two_actions_and_the_starting_players_first_turn_has_one() -> None:
    """flare-summoning-turn.txt:3"""
    s = duel(first_turn_actions=1)
    assert s.game.actions_left == 1
    s.execute("place a1")
    refused(s, "place b1", "Ann has no actions left: end the turn")
    s.execute("end")
    assert s.game.player == "Bo" and s.game.actions_left == 2
    s.execute("place e5")
    s.execute("place e4")
    s.execute("end")
    assert s.game.player == "Ann" and s.game.actions_left == 2


def test_placing_a_common_token_on_an_empty_square_is_one_action() -> None:
    """flare-summoning-turn.txt:6"""
    s = duel()
    assert s.execute("place c3") == ["Ann places a common on c3"]
    assert cell(s, "c3") == "1c" and s.game.supply[0] == 7 and s.game.actions_left == 1
    refused(s, "place c3", "c3 is not empty")
    refused(s, "place f9", "'f9' is not a square of the grid (a1..e5)")


def test_with_no_tokens_left_a_common_or_heroic_on_the_grid_is_placed_again_as_a_common() -> None:
    """flare-summoning-turn.txt:9"""
    s = duel(("1h . . . 1l", ". . . . .", ". . . . .", ". . . . .", ". . . . ."), tokens=1)
    assert s.game.supply[0] == 0
    refused(s, "place c3", "Ann has no tokens left: say from=SQUARE")
    refused(s, "place c3 from=e1", "e1 holds no common or heroic token of Ann's")
    assert s.execute("place c3 from=a1") == [
        "Ann picks up the token on a1",
        "Ann places a common on c3",
    ]
    assert cell(s, "a1") == "." and cell(s, "c3") == "1c"  # the heroic comes back common


def test_summoning_a_creature_by_matching_its_pattern_is_one_action() -> None:
    """flare-summoning-turn.txt:12"""
    s = duel(("1c . . . .",))
    s.execute("summon plain at=b1")
    assert cell(s, "b1") == "1c" and s.game.actions_left == 1
    assert "plain" not in s.game.hands[0].creatures and "plain" in s.game.discards[0]
    refused(s, "summon plain at=c1", "Ann holds no 'plain'")
    refused(s, "summon stepper at=e5 do=-", "stepper's pattern does not match around e5")


def test_discard_and_draw_is_one_action_once_a_turn_returning_others_to_the_bottom() -> None:
    """flare-summoning-turn.txt:15"""
    s = duel(creature_hand=3)
    assert s.game.hands[0].creatures == ["stepper", "charger", "leaper"]
    assert s.game.piles[0] == ["plain"]  # Bo drew lifter, sinker and bent
    lines = s.execute("discard stepper return=charger")
    assert lines == [
        "Ann discards stepper",
        "Ann returns charger to the bottom",
        "Ann draws plain, charger",
    ]
    assert s.game.discards[0] == ["stepper"] and s.game.actions_left == 1
    assert s.game.hands[0].creatures == ["leaper", "plain", "charger"]
    refused(s, "discard leaper", "Ann has discarded and drawn once this turn")


@pytest.mark.parametrize(
    "commons, way",
    [
        (("a1", "b1"), "as printed"),
        (("c1", "c2"), "turned a quarter"),
        (("b1", "c1"), "mirrored"),
        (("a3", "b3"), "flipped"),
    ],
)
def test_a_pattern_matches_turned_mirrored_or_flipped(commons: tuple[str, str], way: str) -> None:
    """flare-summoning-turn.txt:18 (bent: two commons above and above-left of the mark)"""
    rows = [[".", ".", ".", ".", "."] for _ in range(3)]
    for sq in commons:
        rows[int(sq[1]) - 1]["abcde".index(sq[0])] = "1c"
    s = duel(tuple(" ".join(r) for r in rows))
    assert s.execute("summon bent at=b2")[0] == "Ann summons bent on b2", way
    assert cell(s, "b2") == "1h"


def test_a_pattern_that_lies_no_way_on_the_grid_does_not_summon() -> None:
    """flare-summoning-turn.txt:18"""
    s = duel(("1c . . . .", ". . . . .", ". . 1c . ."))
    refused(s, "summon bent at=b2", "bent's pattern does not match around b2")


def test_the_summoned_token_of_the_cards_rank_goes_on_the_marked_square() -> None:
    """flare-summoning-turn.txt:21"""
    s = duel(("1h . . . .",))
    s.execute("summon wyrm at=b1")
    assert cell(s, "b1") == "1l" and s.game.legends[0] == 1
    s.execute("summon leaper at=c1 do=-,-")
    assert cell(s, "c1") == "1h"


def test_summoning_onto_an_equal_or_lower_rank_destroys_it() -> None:
    """flare-summoning-turn.txt:24"""
    s = duel(("1c 2c 2c . .", "1c . . . ."))
    lines = s.execute("summon plain at=b1")  # a common onto a common
    assert lines[1] == "Bo's common on b1 is destroyed" and cell(s, "b1") == "1c"
    s.execute("summon sinker at=c1 do=-,-,-")  # a heroic onto a common
    assert cell(s, "c1") == "1h" and s.game.beside == [COMMON, COMMON]


def test_a_higher_rank_on_the_marked_square_refuses_the_summon() -> None:
    """flare-summoning-turn.txt:27"""
    s = duel(("1c 2h . . .",))
    before = s.ruleset.snapshot(s.game)
    refused(s, "summon plain at=b1", "b1 holds a heroic, higher than plain's common")
    assert s.ruleset.snapshot(s.game) == before and s.game.actions_left == 2


def test_short_of_tokens_a_summon_uses_one_already_on_the_grid() -> None:
    """flare-summoning-turn.txt:30"""
    s = duel(("1c 1c . . .",), tokens=2)
    refused(s, "summon plain at=c1 from=b1", "from= must name one of Ann's common/heroic tokens")
    lines = s.execute("summon plain at=c1")  # the pattern holds b1: a1 is outside it
    assert "Ann takes the token on a1 for it" in lines
    assert [cell(s, sq) for sq in ("a1", "b1", "c1")] == [".", "1c", "1c"]
    # From the summoning location: her own common there is destroyed and used again.
    s.execute("summon sinker at=c1 do=-,-,-")
    assert [cell(s, sq) for sq in ("b1", "c1")] == ["1c", "1h"] and s.game.supply[0] == 0


def test_the_cards_effects_resolve_after_its_token_is_placed_then_it_is_discarded() -> None:
    """flare-summoning-turn.txt:33"""
    s = duel(("1c . . . .",))
    refused(s, "summon lifter at=b1", "lifter needs 1 target(s) in order (upgrade), given 0")
    lines = s.execute("summon lifter at=b1 do=b1")  # its own new token, upgraded
    assert lines[:2] == ["Ann summons lifter on b1", "upgrade: b1 becomes heroic"]
    assert cell(s, "b1") == "1h" and s.game.discards[0] == ["lifter"]


def test_a_flare_is_called_before_any_action_without_spending_one() -> None:
    """flare-summoning-turn.txt:36"""
    s = duel(("2h . . . .",))
    s.execute("flare flash")
    assert s.game.actions_left == 3  # its top half adds one; the call itself cost none
    refused(s, "flare", "Ann has called a Flare this turn")
    later = duel(("2h . . . .",))
    later.execute("place e5")
    refused(later, "flare flash", "a Flare is called before any action of the turn")


def test_a_flare_needs_the_opponent_ahead_by_its_amount() -> None:
    """flare-summoning-turn.txt:39 (flash: top 1 upgraded, bottom 2 tokens)"""
    even = duel(("2h . . . 1h",))
    refused(even, "flare flash", "flash's criteria are not met: upgraded 1 to 1")
    s = duel(("2h . . . .",))  # one upgraded ahead, one token ahead: top only
    refused(s, "flare flash bottom=a1", "flash's bottom criterion is not met")
    assert s.execute("flare flash")[0] == "Ann calls the Flare flash (top); Bo scores 1"


def test_a_flare_meeting_both_criteria_resolves_top_then_bottom() -> None:
    """flare-summoning-turn.txt:42"""
    s = duel(("2h 2c . . .",))
    lines = s.execute("flare flash bottom=b1")
    assert lines == [
        "Ann calls the Flare flash (top and bottom); Bo scores 1",
        "Ann gains an extra action",
        "Bo's common on b1 is destroyed",
    ]


def test_actions_come_in_any_order_with_several_placements_and_summons() -> None:
    """flare-summoning-turn.txt:45"""
    s = duel(("1c . . . .",))
    s.execute("summon plain at=b1")
    s.execute("summon stepper at=c1 do=-")
    s.execute("end")
    s.execute("place e5")
    s.execute("place e4")
    s.execute("end")
    s.execute("place a5")
    s.execute("summon charger at=a4 do=-")
    assert [cell(s, sq) for sq in ("b1", "c1", "a5", "a4")] == ["1c"] * 4


def test_a_turn_with_actions_left_cannot_end() -> None:
    """flare-summoning-turn.txt:48"""
    s = duel()
    refused(s, "end", "Ann has 2 actions left: every action must be used")
    s.execute("place a1")
    refused(s, "end", "Ann has 1 action left")
    s.execute("place b1")
    assert s.execute("end")[0] == "Ann ends the turn"


def test_a_turn_with_no_possible_action_ends_with_its_actions_left() -> None:
    """flare-summoning-turn.txt:48 (the text is silent on a full grid: flare.md)"""
    full = ("2c 2c 2c", "2c 2c 2c", "2c 2c 2c")
    s = duel(full, columns=3, rows=3, tokens=9)
    refused(s, "end", "every action must be used")  # she may still discard and draw
    s.execute("discard plain")
    lines = s.execute("end")
    assert "Ann can do nothing more: 1 action(s) lapse" in lines


def test_an_effect_can_grant_an_extra_action() -> None:
    """flare-summoning-turn.txt:51"""
    s = duel(("1c . . . .",))
    s.execute("summon lifter at=b1 do=-")
    assert s.game.actions_left == 2  # one spent, one gained


EXTRA_DRAW_DECK = """
[[creature]]
id = "lift"
rank = "common"
pattern = ["o*"]
effects = ["extra_draw"]
copies = 9
"""


def test_an_effect_can_draw_an_extra_card_at_the_turns_end() -> None:
    """flare-summoning-turn.txt:54"""
    s = duel(("1c . . . .",), deck_text=EXTRA_DRAW_DECK, creature_hand=3)
    s.execute("summon lift at=b1")
    s.execute("place e5")
    assert len(s.game.hands[0].creatures) == 2
    assert "Ann draws 2 card(s)" in s.execute("end")
    assert len(s.game.hands[0].creatures) == 4  # one over the hand of 3


def test_movement_goes_to_an_adjacent_square_and_destroys_what_is_there() -> None:
    """flare-summoning-turn.txt:57"""
    start = ("1c . . . .", "1h 2c . . .")
    s = duel(start)
    refused(s, "summon stepper at=b1 do=a2-c2", "c2 is not next to a2")
    refused(s, "summon stepper at=b1 do=a2-b3", "b3 is not next to a2")  # no diagonals
    lines = s.execute("summon stepper at=b1 do=a2-b2")
    assert lines[-2:] == ["move: a2 to b2", "Bo's common on b2 is destroyed"]
    assert cell(s, "a2") == "." and cell(s, "b2") == "1h"


def test_basic_movement_enters_only_empty_or_lower_rank_squares() -> None:
    """flare-summoning-turn.txt:60"""
    s = duel(("1c . . . .", "1h 2h . . ."))
    refused(
        s,
        "summon stepper at=b1 do=a2-b2",
        "move: b2 holds a heroic; a heroic may enter only an empty square or a lower rank",
    )
    s.execute("summon stepper at=b1 do=a2-a3")
    assert cell(s, "a3") == "1h"


def test_combat_movement_enters_empty_or_equal_or_lower_rank_squares() -> None:
    """flare-summoning-turn.txt:63"""
    s = duel(("1c . . . .", "1h 2h . . .", "2l . . . ."))
    refused(s, "summon charger at=b1 do=a2-a3", "an equal or lower rank")
    s.execute("summon charger at=b1 do=a2-b2")
    assert cell(s, "b2") == "1h" and s.game.beside == [HEROIC]


def test_a_jump_need_not_be_adjacent() -> None:
    """flare-summoning-turn.txt:66"""
    s = duel(("1c . . . .", ". . . . .", ". . . . .", ". . . . 2c"))
    lines = s.execute("summon leaper at=b1 do=a1-e5,b1-e4")
    assert lines[-3:] == [
        "jump: a1 to e5",
        "combat_jump: b1 to e4",
        "Bo's common on e4 is destroyed",
    ]
    assert cell(s, "e5") == "1c" and cell(s, "e4") == "1h"


def test_upgrading_turns_a_common_heroic_and_a_heroic_legendary() -> None:
    """flare-summoning-turn.txt:69"""
    s = duel(("1c 1h 1l . .",))
    s.execute("summon lifter at=d1 do=b1")
    # The heroic token goes back to her supply (8 - 2 on the grid - 1 summoned + 1).
    assert cell(s, "b1") == "1l" and s.game.legends[0] == 0 and s.game.supply[0] == 6
    s2 = duel(("1c 1h 1l . .",))
    s2.execute("summon lifter at=d1 do=a1")
    assert cell(s2, "a1") == "1h"
    s3 = duel(("1c 1h 1l . .",))
    refused(s3, "summon lifter at=d1 do=c1", "upgrade: c1 is already legendary")


def test_downgrading_turns_a_heroic_common_and_a_legendary_heroic() -> None:
    """flare-summoning-turn.txt:72"""
    s = duel(("1c 2h 2l . .", "1c . . . ."))
    s.execute("summon sinker at=b2 do=b1,-,-")
    assert cell(s, "b1") == "2c"
    s2 = duel(("1c 2h 2l . .", "1c . . . ."))
    s2.execute("summon sinker at=b2 do=c1,-,-")
    assert cell(s2, "c1") == "2h" and s2.game.legends[1] == 2 and s2.game.supply[1] == 6


def test_destroying_removes_the_target_from_the_grid() -> None:
    """flare-summoning-turn.txt:75"""
    s = duel(("1c 2h 2l . .", "1c . . . ."))
    refused(s, "summon sinker at=b2 do=-,c1,-", "c1 holds a legendary; this one reaches heroic")
    s.execute("summon sinker at=b2 do=-,b1,-")
    assert cell(s, "b1") == "." and s.game.beside == [HEROIC]


def test_converting_replaces_an_enemy_token_with_your_own_of_the_same_rank() -> None:
    """flare-summoning-turn.txt:78"""
    s = duel(("1c 2h 2l . .", "1c . . . ."))
    s.execute("summon sinker at=b2 do=-,-,c1")
    assert cell(s, "c1") == "1l" and s.game.legends == [1, 2]


def test_enemy_tokens_destroyed_in_your_turn_are_kept_beside_the_board() -> None:
    """flare-summoning-turn.txt:84"""
    s = duel(("1c 2c . . .",))
    s.execute("summon plain at=b1")
    assert s.game.beside == [COMMON] and s.game.supply[1] == 7  # not back with Bo yet
    s.execute("place e5")
    s.execute("end")
    assert s.game.beside == [] and s.game.supply[1] == 8


def test_destroyed_tokens_score_two_per_legendary_one_per_heroic_one_per_pair_of_commons() -> None:
    """flare-summoning-turn.txt:87"""
    s = duel(("1c 2c 2h . .", "1c 2c . . .", "2l . . . ."))
    s.execute("flare flash bottom=a3")  # Bo's legendary; Bo scores 1 for the call
    s.execute("summon sinker at=b1 do=-,c1,-")  # Bo's common under it, then his heroic
    s.execute("summon charger at=c1 do=a2-b2")  # Bo's common
    s.execute("place e5")  # the Flare's extra action
    assert sorted(s.game.beside) == [COMMON, COMMON, HEROIC, LEGENDARY]
    lines = s.execute("end")
    assert "Ann scores 4 for the destroyed (1 legendary, 1 heroic, 2 common)" in lines
    assert s.game.scores == [4, 1]


def test_an_odd_destroyed_common_waits_for_its_pair() -> None:
    """flare-summoning-turn.txt:87 (the text is silent on an odd common: flare.md)"""
    s = duel(("1c 2c . 2c .",))
    s.execute("summon plain at=b1")
    s.execute("place e5")
    assert "one waiting for its pair" in s.execute("end")[1]
    assert s.game.scores[0] == 0 and s.game.odd_common[0] == 1
    s.execute("place a5")
    s.execute("place b5")
    s.execute("end")
    s.execute("summon charger at=c1 do=-")  # next to her b1
    s.execute("summon stepper at=d1 do=-")
    s.execute("end")
    assert s.game.scores[0] == 1 and s.game.odd_common[0] == 0


def test_summoning_a_legendary_scores_one_in_a_duel() -> None:
    """flare-summoning-turn.txt:90"""
    s = duel(("1h . . . .",))
    assert "Ann scores 1 for a legendary summoned" in s.execute("summon wyrm at=b1")
    assert s.game.scores == [1, 0]


def test_calling_a_flare_gives_the_opponent_one_point() -> None:
    """flare-summoning-turn.txt:93"""
    s = duel(("2h . . . .",))
    s.execute("flare")
    assert s.game.scores == [0, 1]


def test_a_turn_ends_by_drawing_up_to_three_creatures_two_legendaries_and_one_flare() -> None:
    """flare-summoning-turn.txt:102 (the standard deck, dealt in its order)"""
    s = duel(
        ("1c . . . . .",),
        deck="standard",
        creature_hand=3,
        legendary_hand=2,
        flare_hand=1,
        columns=6,
        rows=6,
    )
    hand = s.game.hands[0]
    assert (len(hand.creatures), len(hand.legendaries), len(hand.flares)) == (3, 2, 1)
    s.execute("summon sprite at=b1 do=-")
    s.execute("place c3")
    assert "Ann draws 1 card(s)" in s.execute("end")
    assert hand.creatures == ["sprite", "sprite", "sage"]
    assert (len(hand.legendaries), len(hand.flares)) == (2, 1)


def test_the_game_ends_when_a_player_reaches_the_target_as_a_turn_ends() -> None:
    """The text names no end (flare.md: target points, checked as each turn ends)."""
    s = duel(("1h . . . .",), target=1)
    s.execute("summon wyrm at=b1")
    assert not s.over
    s.execute("place e5")
    assert s.execute("end")[-1] == "Ann wins" and s.over
    refused(s, "place a5", "the game is over: Ann won")


def test_after_the_last_round_the_higher_score_wins_and_equal_scores_draw() -> None:
    """The text names no end (flare.md: `rounds`, then the higher score)."""
    s = duel(rounds=1)
    for line in ("place a1", "place a2", "end", "place e1", "place e2"):
        s.execute(line)
    assert s.execute("end")[-1] == "a draw" and s.ruleset.winner(s.game) == "nobody"


BATTLE = ("Ann", "Bo", "Cy")


def test_in_battle_the_flare_caller_chooses_the_opponent_to_compare_against() -> None:
    """flare-summoning-turn.txt:96 (and no Duel point for the call: line 93 is the Duel's)"""
    s = duel((". 2h . 3c 3c",), players=BATTLE, mode="battle")
    # Against Cy (two tokens more, none upgraded) only the bottom half is met.
    refused(s, "flare flash vs=Cy", "flash's bottom needs 1 target(s) in order (destroy)")
    lines = s.execute("flare flash vs=Cy bottom=b1")
    assert lines[0] == "Ann calls the Flare flash (bottom) against Cy"
    assert s.game.scores == [0, 0, 0]
    other = duel((". 2h . 3c 3c",), players=BATTLE, mode="battle")
    assert other.execute("flare flash vs=Bo")[0] == "Ann calls the Flare flash (top) against Bo"
    refused(other, "flare flash vs=Ann", "Ann has called a Flare this turn")
    third = duel((". 2h . 3c 3c",), players=BATTLE, mode="battle")
    refused(third, "flare flash vs=Ann", "Ann compares against an opponent, not themself")


def test_improvised_summoning_uses_an_enemy_token_once_per_colour_a_game() -> None:
    """flare-summoning-turn.txt:99"""
    s = duel(("2c . 3c . .", ". . . . ."), players=BATTLE, mode="battle", first_turn_actions=3)
    refused(s, "summon plain at=b1", "plain's pattern does not match around b1")
    lines = s.execute("summon plain at=b1 borrow=a1")
    assert lines[0] == "Ann borrows Bo's token on a1 (improvised)"
    assert cell(s, "a1") == "2c" and cell(s, "b1") == "1c"  # Bo's token stays his
    refused(s, "summon stepper at=a2 do=- borrow=a1", "Ann has already borrowed a token of Bo's")
    s.execute("summon stepper at=d1 do=- borrow=c1")  # Cy's colour is still unused
    duel_game = duel(("2c . . . .",))
    refused(
        duel_game, "summon plain at=b1 borrow=a1", "improvised summoning (borrow=) is for Battle"
    )


def test_a_legendary_summoned_in_battle_scores_no_duel_point() -> None:
    """flare-summoning-turn.txt:90 (the point is the Duel's)"""
    s = duel(("1h . . . .",), players=BATTLE, mode="battle")
    s.execute("summon wyrm at=b1")
    assert s.game.scores == [0, 0, 0]


def test_in_battle_destroyed_tokens_go_back_to_their_owners() -> None:
    """flare-summoning-turn.txt:84"""
    s = duel(("1c 2c . . .", "1c 3c . . ."), players=BATTLE, mode="battle")
    s.execute("summon plain at=b1")
    s.execute("summon sinker at=b2 do=-,-,-")
    assert s.game.supply[1:] == [7, 7]
    s.execute("end")
    assert s.game.supply[1:] == [8, 8] and s.game.scores[0] == 1


def test_control_passes_to_the_teammate_by_handing_over_legendary_cards() -> None:
    """flare-summoning-turn.txt:105"""
    s = teams()
    refused(s, "pass", "control passes by handing over legendary cards: name one or more")
    refused(s, "pass stepper", "'stepper' is a creature card, not a legendary card")
    s.execute("place a1")  # before or during her actions
    assert s.execute("pass wyrm") == [
        "Ann hands wyrm to Cy",
        "Cy takes control: 1 action(s) left, commons only",
    ]
    assert s.game.hands[2].legendaries == ["wyrm"] and s.game.hands[0].legendaries == []
    duel_game = duel()
    refused(duel_game, "pass wyrm", "control passes to a teammate: only in team play")


def test_the_teammate_uses_the_actions_left_only_to_place_commons() -> None:
    """flare-summoning-turn.txt:111"""
    s = teams(("1c . . . .", "2h . . . ."))
    s.execute("pass wyrm")
    for line in ("summon plain at=b1", "discard plain", "flare"):
        refused(s, line, "Cy holds control: the teammate only places commons")
    s.execute("place e5")
    s.execute("place e4")
    assert [cell(s, sq) for sq in ("e5", "e4")] == ["3c", "3c"]  # Cy's own tokens
    assert s.game.supply[2] == 6 and s.game.actions_left == 0


def test_a_teammates_finishing_of_an_effect_needs_nothing_left_over() -> None:
    """flare-summoning-turn.txt:108: a summon's effects resolve within its command, so
    control passes between actions and no effect is ever left half done for the teammate
    (docs/rulesets/flare.md)."""
    s = teams(("1c . . . .",))
    s.execute("summon lifter at=b1 do=b1")  # every effect resolved, the extra action gained
    assert s.game.actions_left == 2
    s.execute("pass wyrm")
    assert s.game.controller == 2 and s.game.actions_left == 2


def test_control_returns_to_the_player_for_scoring_and_drawing() -> None:
    """flare-summoning-turn.txt:114"""
    s = teams(("1c 2c . . .",))
    s.execute("summon plain at=b1")  # Bo's common beside the board
    s.execute("pass wyrm")
    refused(s, "end", "Ann has 1 action left")
    s.execute("place e5")
    lines = s.execute("end")
    assert lines[:2] == ["Ann ends the turn", "control comes back to Ann for scoring and drawing"]
    assert s.game.odd_common == [1, 0, 0, 0]  # Ann's destroyed common, not Cy's
    assert len(s.game.hands[0].creatures) == 7 and s.game.player == "Bo"
    assert s.game.controller == 1


def test_teammates_tokens_are_not_enemies() -> None:
    """flare-summoning-turn.txt:84 (only enemy tokens are kept and scored; flare.md)"""
    s = teams(("1c 3c 2c 3c .",))
    refused(s, "summon sinker at=b1 do=-,d1,-", "destroy: d1 holds no enemy token")
    s.execute("summon sinker at=b1 do=-,c1,-")  # onto Cy's common: back to Cy
    assert s.game.supply[2] == 7 and s.game.beside == [COMMON]
    assert s.game.team_scores() == [0, 0]


TASKS = """
[[task]]
id = "two"
need = "tokens"
amount = 2

[[task]]
id = "three"
need = "tokens"
amount = 3
points = 2

[[task]]
id = "far"
need = "line"
amount = 5
points = 5

[[task]]
id = "later"
need = "destroyed"
amount = 1
"""


def test_at_the_turns_end_exactly_one_completed_task_is_claimed_and_replaced() -> None:
    """flare-summoning-turn.txt:81 (the advanced game; the task cards are data: flare.md)"""
    from flare_fixtures import DECK

    s = duel(("1c 1c . . .",), deck_text=DECK + TASKS, advanced=True)
    assert s.game.tasks_shown == ["two", "three", "far"]
    s.execute("place c1")
    s.execute("place e5")
    refused(s, "end claim=far", "Ann has not completed the task 'far'")
    refused(s, "end claim=later", "no task 'later' is face up (face up: two, three, far)")
    lines = s.execute("end claim=three")
    assert "Ann claims the task three and scores 2" in lines
    assert s.game.scores[0] == 2 and s.game.tasks_shown == ["two", "later", "far"]
    s.execute("place a5")
    s.execute("place b5")
    assert "Bo claims the task two and scores 1" in s.execute("end")  # the first completed
    assert s.game.tasks_shown == ["later", "far"]  # the pile is empty
    plain = duel()
    plain.execute("place a1")
    plain.execute("place b1")
    refused(plain, "end claim=two", "tasks are claimed in the advanced game")
