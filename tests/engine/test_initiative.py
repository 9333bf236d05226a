"""Initiative (shared/initiative.py).

Source: korxsol-players-guide.txt, "2. TURN ORDER": everyone rolls their Agility in dice;
most successes first; a tie goes to the higher base Agility; players still tied roll again.
Dice here are scripted D3 faces: a 3 is a success, 1 and 2 are not (the default).
"""

from vmcheck import ScriptedRolls, korxsol_table

from shared import dice, initiative
from shared.state import F_OUT


def test_the_most_successes_go_first():
    state = korxsol_table(("A", 0, 2, 2, 9), ("B", 1, 2, 2, 9), ("C", 0, 2, 2, 9))
    rolls = ScriptedRolls((1, 3, 3, 3, 1, 1))  # A: 1 success, B: 2, C: 0
    result = initiative.roll_initiative(state, rolls)
    assert bytes(state.order[:3]) == bytes((1, 0, 2))
    assert [r[1] for r in result] == [2, 1, 0]
    assert bytes(state.order_reason[:3]) == bytes((initiative.R_SUCCESSES,) * 3)


def test_a_tie_on_successes_goes_to_the_higher_base_agility():
    state = korxsol_table(("A", 0, 2, 2, 9), ("B", 1, 3, 2, 9))
    rolls = ScriptedRolls((3, 1, 3, 1, 1))  # A: 1 success, B: 1 success
    initiative.roll_initiative(state, rolls)
    assert bytes(state.order[:2]) == bytes((1, 0))
    assert bytes(state.order_reason[:2]) == bytes((initiative.R_ORDER_KEY,) * 2)


def test_slots_still_tied_roll_again_until_the_tie_breaks():
    state = korxsol_table(("A", 0, 1, 2, 9), ("B", 1, 1, 2, 9))
    # First roll: both succeed. Reroll 1: both fail (still tied). Reroll 2: B succeeds.
    rolls = ScriptedRolls((3, 3, 1, 1, 2, 3))
    result = initiative.roll_initiative(state, rolls)
    assert bytes(state.order[:2]) == bytes((1, 0))
    assert bytes(state.order_reason[:2]) == bytes((initiative.R_REROLL,) * 2)
    assert [r[2] for r in result] == [2, 2]
    assert rolls.used == len(rolls.faces)


def test_each_position_records_the_rule_that_placed_it():
    state = korxsol_table(
        ("A", 0, 1, 2, 9), ("B", 1, 2, 2, 9), ("C", 0, 1, 2, 9), ("D", 1, 1, 2, 9)
    )
    # A: 1 success; B: 1 success (higher Agility); C: 0; D: 0 -> C and D reroll, D wins.
    rolls = ScriptedRolls((3, 3, 1, 1, 1, 1, 3))
    initiative.roll_initiative(state, rolls)
    assert bytes(state.order[:4]) == bytes((1, 0, 3, 2))
    reasons = bytes(state.order_reason[:4])
    assert reasons == bytes(
        (
            initiative.R_ORDER_KEY,
            initiative.R_ORDER_KEY,
            initiative.R_REROLL,
            initiative.R_REROLL,
        )
    )


def test_out_of_play_slots_do_not_roll_and_go_last():
    state = korxsol_table(("A", 0, 1, 2, 9), ("B", 1, 1, 2, 9), ("C", 0, 1, 2, 9))
    state.slots[0].flags |= F_OUT
    rolls = ScriptedRolls((1, 3))  # only B and C roll
    initiative.roll_initiative(state, rolls)
    assert bytes(state.order[:3]) == bytes((2, 1, 0))
    assert state.order_reason[2] == initiative.R_OUT


def test_slots_with_no_agility_dice_still_settle_their_tie():
    state = korxsol_table(("A", 0, 0, 2, 9), ("B", 1, 0, 2, 9))
    rolls = ScriptedRolls((1, 3))  # rerolls use at least one die
    initiative.roll_initiative(state, rolls)
    assert bytes(state.order[:2]) == bytes((1, 0))


def test_an_endless_tie_falls_back_to_slot_order_instead_of_hanging():
    state = korxsol_table(("A", 0, 0, 2, 9), ("B", 1, 0, 2, 9))
    rolls = ScriptedRolls((1,) * (2 * initiative.MAX_REROLL_ROUNDS))
    initiative.roll_initiative(state, rolls)
    assert bytes(state.order[:2]) == bytes((0, 1))


def test_the_same_seed_gives_the_same_order():
    def order_for(seed):
        state = korxsol_table(*[(c, 0, 3, 2, 9) for c in ("A", "B", "C", "D", "E", "F")])
        initiative.roll_initiative(state, dice.XorShift32(seed))
        return bytes(state.order[:6])

    assert order_for(7) == order_for(7)
    assert len(set(order_for(seed) for seed in range(1, 30))) > 1
