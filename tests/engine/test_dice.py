"""Dice and chance (shared/dice.py).

Source: korxsol-players-guide.txt, "Components" (a D3 or a converted D6 as the action die;
the chance token, heads applies the status) and speaking-stones-turn-order.txt (a d100 made
of two D10s for critical chances).
"""

from vmcheck import ScriptedRolls, raises, three_fighters

from host.rulesets.korxsol import device as korxsol
from shared import dice, host_only
from shared.host_only import d100_value


def test_an_action_d3_succeeds_on_a_three_by_default():
    assert [dice.face_succeeds(dice.KIND_ACTION_D3, f) for f in (1, 2, 3)] == [
        False,
        False,
        True,
    ]


def test_a_d6_is_read_as_a_d3_two_faces_at_a_time():
    assert [dice.d6_as_d3(f) for f in (1, 2, 3, 4, 5, 6)] == [1, 1, 2, 2, 3, 3]
    assert [dice.face_succeeds(dice.KIND_ACTION_D6, f) for f in (4, 5, 6)] == [
        False,
        True,
        True,
    ]


def test_the_success_faces_are_an_option():
    two_or_three = 0b110
    assert dice.face_succeeds(dice.KIND_ACTION_D3, 2, two_or_three)
    state = three_fighters()
    got = dice.enter(state, dice.KIND_ACTION_D3, (1, 2, 3), 0, mask=two_or_three)
    assert got == 2


def test_a_chance_flip_succeeds_on_heads():
    state = three_fighters()
    assert dice.enter(state, dice.KIND_CHANCE, (1, 0, 1), 0) == 2


def test_a_d100_is_two_d10s_and_double_zero_reads_100():
    assert d100_value(4, 2) == 42
    assert d100_value(0, 7) == 7
    assert d100_value(0, 0) == 100
    state = three_fighters()
    host_only.roll(state, ScriptedRolls((9, 9), low=0), dice.KIND_D100, 2, 1)
    assert d100_value(state.roll.faces[0], state.roll.faces[1]) == 99


def test_plain_dn_rolls_stay_in_range():
    state = three_fighters()
    rng = dice.XorShift32(99)
    seen = set()
    for _ in range(200):
        host_only.roll(state, rng, dice.KIND_DN, 3, 0, sides=20)
        for i in range(3):
            seen.add(state.roll.faces[i])
    assert min(seen) == 1 and max(seen) == 20


def test_rolled_action_dice_cover_every_face():
    state = three_fighters()
    rng = dice.XorShift32(5)
    counts = [0, 0, 0, 0]
    for _ in range(300):
        host_only.roll(state, rng, dice.KIND_ACTION_D3, 1, 0)
        counts[state.roll.faces[0]] += 1
    assert counts[0] == 0 and min(counts[1:]) > 60


def test_a_roll_records_kind_faces_successes_and_roller():
    state = three_fighters()
    before = state.version
    got = host_only.roll(state, ScriptedRolls((3, 1, 3, 2)), dice.KIND_ACTION_D3, 4, 2)
    roll = state.roll
    assert got == 2 and roll.successes == 2
    assert (roll.kind, roll.count, roll.who) == (dice.KIND_ACTION_D3, 4, 2)
    assert bytes(roll.faces[:4]) == bytes((3, 1, 3, 2))
    assert state.version != before


def test_the_same_seed_gives_the_same_rolls():
    a, b = dice.XorShift32(1234), dice.XorShift32(1234)
    assert [a.below(6) for _ in range(20)] == [b.below(6) for _ in range(20)]
    assert dice.XorShift32(1).next_u32() == 270369


def test_the_board_seeds_its_dice_from_the_os():
    rng = dice.random_source_from_os()
    assert 0 <= rng.below(3) < 3


def test_a_hand_entered_face_out_of_range_is_rejected_and_changes_nothing():
    state = three_fighters()
    dice.enter(state, dice.KIND_ACTION_D3, (3, 3), 0)
    before = state.version
    err = raises(dice.DiceError, dice.enter, state, dice.KIND_ACTION_D3, (3, 4), 1)
    assert "die 2" in str(err)
    raises(dice.DiceError, dice.enter, state, dice.KIND_CHANCE, (2,), 1)
    raises(dice.DiceError, dice.enter, state, dice.KIND_D100, (10, 0), 1)
    raises(dice.DiceError, dice.enter, state, dice.KIND_DN, (0,), 1, sides=8)
    assert state.version == before
    assert state.roll.count == 2 and state.roll.who == 0


def test_a_hand_entered_roll_with_the_wrong_count_is_rejected():
    state = three_fighters()
    raises(dice.DiceError, dice.enter, state, dice.KIND_ACTION_D3, (), 0)
    raises(dice.DiceError, dice.enter, state, dice.KIND_ACTION_D3, (1,) * 16, 0)
    raises(dice.DiceError, dice.enter, state, dice.KIND_D100, (1, 2, 3), 0)
    raises(dice.DiceError, host_only.roll, state, dice.XorShift32(1), dice.KIND_DN, 1, 0, 1)
    assert state.roll.count == 0


def test_hand_entered_dice_must_number_what_the_roll_asks_for():
    # An Agility roll of 4 dice entered from the table with 3 faces is refused, unchanged.
    state = three_fighters()
    before = state.version
    err = raises(dice.DiceError, dice.enter, state, dice.KIND_ACTION_D3, (3, 1, 2), 0, count=4)
    assert "4 dice" in str(err) and "3 were entered" in str(err)
    assert state.version == before and state.roll.count == 0
    assert dice.enter(state, dice.KIND_ACTION_D3, (3, 1, 2, 3), 0, count=4) == 2


def test_the_state_carries_its_success_faces_to_every_roll():
    # The success faces are a ruleset option; a roll made without naming them (the board's
    # own rolls, a replayed board event) counts with the ones the state's descriptor carries.
    state = three_fighters()
    assert state.rules.success_mask == dice.DEFAULT_SUCCESS_MASK
    korxsol.load_rules(state, success_mask=0b110)
    assert dice.enter(state, dice.KIND_ACTION_D3, (1, 2, 3), 0) == 2
    assert host_only.roll(state, ScriptedRolls((2, 2)), dice.KIND_ACTION_D3, 2, 0) == 2
