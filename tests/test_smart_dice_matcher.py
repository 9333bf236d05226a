"""Which place of a wanted roll a smart die fills (host/dice/matcher.py, docs/dice.md).

The rolls by the rules texts: korxsol's action dice are D3, or a D6 read as a D3
(korxsol-players-guide.txt:8), and its chance token is flipped, heads a success (:144);
stones' d100 is two D10, tens then units (speaking-stones-turn-order.txt:53); forms rolls
D10s (forms-turns-rounds-encounters.txt:23); plain dice of any kind come from the
WantedRoll contract (host/core/interface.py `sides`)."""

from host.core.interface import WantedRoll
from host.dice.matcher import Matcher
from shared import dice


def test_a_d3_is_a_d6_read_in_pairs():
    m = Matcher(WantedRoll("hit", 3, dice.KIND_ACTION_D3))
    for value in (2, 3, 6):
        m.offer(f"die{value}", "d6", value)
    assert m.complete and m.faces() == (1, 2, 3)


def test_a_chance_flip_is_a_d6_with_four_to_six_heads():
    m = Matcher(WantedRoll("chance", 2, dice.KIND_CHANCE))
    m.offer("a", "d6", 3)
    m.offer("b", "d6", 4)
    assert m.faces() == (0, 1)


def test_a_ten_faced_action_die_is_a_d10_and_its_zero_is_ten():
    m = Matcher(WantedRoll("Genius", 1, dice.KIND_D10))
    assert m.offer("a", "d10", 10) == (0, "")
    assert m.faces() == (10,)


def test_a_d100_takes_its_tens_from_a_tens_die_and_its_units_from_a_d10():
    m = Matcher(WantedRoll("crit", 2, dice.KIND_D100), {"d00": 1, "d10": 1})
    assert m.offer("units", "d10", 10) == (1, "")  # a tens die is paired: the units
    assert m.offer("tens", "d00", 90) == (0, "")
    assert m.faces() == (9, 0)
    assert m.source() == "smart:tens,units"


def test_two_d10s_make_a_d100_the_first_thrown_the_tens():
    m = Matcher(WantedRoll("crit", 2, dice.KIND_D100), {"d10": 2})
    m.offer("a", "d10", 4)
    m.offer("b", "d10", 10)
    assert m.faces() == (4, 0)


def test_plain_dice_of_mixed_kinds_fill_their_own_places():
    m = Matcher(WantedRoll("damage", 3, dice.KIND_DN, sides=(6, 6, 8)), {"d6": 2, "d8": 1})
    assert m.offer("eight", "d8", 7) == (2, "")
    assert m.offer("six", "d6", 5) == (0, "")
    assert m.offer("twenty", "d20", 5) == (-1, "the roll wants no d20")
    assert m.offer("six", "d6", 1)[0] == -1  # the same d6 again: another d6 is paired
    assert m.offer("six2", "d6", 2) == (1, "")
    assert m.complete and m.faces() == (5, 2, 7)


def test_a_d20_with_advantage_takes_one_d20_thrown_twice_when_it_is_the_only_one():
    m = Matcher(WantedRoll("attack", 2, dice.KIND_DN, sides=(20, 20)), {"d20": 1})
    m.offer("d20", "d20", 17)
    m.offer("d20", "d20", 3)
    assert m.complete and m.faces() == (17, 3) and m.source() == "smart:d20"


def test_a_die_of_no_smart_kind_is_left_to_roll_or_dice():
    m = Matcher(WantedRoll("odd", 2, dice.KIND_DN, sides=(3, 2)))
    assert m.unfillable() == ["d3"]
    assert m.kinds_wanted() == {"d6"}  # the d2 is a d6 read by halves


def test_a_full_place_says_so():
    m = Matcher(WantedRoll("hit", 1, dice.KIND_ACTION_D6), {"d6": 2})
    m.offer("a", "d6", 4)
    assert m.offer("b", "d6", 2) == (-1, "every d6 place is filled")
