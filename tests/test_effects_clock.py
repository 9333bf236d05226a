"""The moments effects tick at, from two views of a game's turn (host/core/effect_clock.py):
turn end, the turns the order passed over, round start, turn start; for one slot, a group
and steps alike. Views written by hand: the rules behind them are issue #29's (item 3,
"they tick at the moments the turn machine already has") and shared/turns.py's."""

from __future__ import annotations

from host.core.effect_clock import TurnView, moments

ORDER = ("Ann", "Bo", "Cy", "Di")


def turn(rnd: int, pos: int, size: int = 1, out: tuple[str, ...] = ()) -> TurnView:
    unit = ORDER[pos : pos + size] if rnd else ()
    return TurnView(rnd, pos, unit, ORDER, out, pos + size)


def test_nothing_ticks_while_the_turn_stays() -> None:
    assert moments(turn(1, 1), turn(1, 1)) == []


def test_the_next_turn_ends_one_and_starts_the_next() -> None:
    assert moments(turn(1, 0), turn(1, 1)) == [
        ("end", "Ann", True),
        ("turn", 1, 1),
        ("start", "Bo", 1),
    ]


def test_a_fighter_out_of_play_between_two_turns_is_passed_over() -> None:
    got = moments(turn(1, 0, out=("Bo",)), turn(1, 2, out=("Bo",)))
    assert ("passed", "Bo", 1) in got
    assert got.index(("end", "Ann", True)) < got.index(("passed", "Bo", 1))
    assert got.index(("passed", "Bo", 1)) < got.index(("turn", 1, 2))


def test_a_new_round_ends_the_last_turn_then_begins_the_round_then_its_first_turn() -> None:
    assert moments(turn(1, 3), turn(2, 0)) == [
        ("end", "Di", True),
        ("round", 2),
        ("turn", 2, 0),
        ("start", "Ann", 2),
    ]


def test_the_first_round_starts_no_turn_that_ended() -> None:
    assert moments(turn(0, 0), turn(1, 0)) == [("round", 1), ("turn", 1, 0), ("start", "Ann", 1)]


def test_a_group_turn_ends_and_starts_every_fighter_of_it() -> None:
    got = moments(turn(1, 0, size=2), turn(1, 2, size=2))
    assert got == [
        ("end", "Ann", True),
        ("end", "Bo", True),
        ("turn", 1, 2),
        ("start", "Cy", 1),
        ("start", "Di", 1),
    ]


def test_a_fighter_out_of_play_in_a_group_that_begins_is_passed_over_not_started() -> None:
    got = moments(turn(1, 0, size=2), turn(1, 2, size=2, out=("Di",)))
    assert ("passed", "Di", 1) in got and ("start", "Di", 1) not in got
    assert ("end", "Ann", True) in got


def test_in_steps_the_round_is_every_fighters_turn() -> None:
    got = moments(turn(1, 0, size=4), turn(2, 0, size=4))
    assert [m for m in got if m[0] == "end"] == [("end", n, True) for n in ORDER]
    assert [m for m in got if m[0] == "start"] == [("start", n, 2) for n in ORDER]
    assert got.index(("round", 2)) < got.index(("start", "Ann", 2))


def test_turns_a_ruleset_ran_inside_one_action_tick_in_order() -> None:
    """Ruleset.passed_turns: the turns an action began and finished on its way."""
    got = moments(turn(1, 0), turn(1, 3), passed=[(1, 1), (1, 2)])
    assert got == [
        ("end", "Ann", True),
        ("turn", 1, 1),
        ("start", "Bo", 1),
        ("end", "Bo", True),
        ("turn", 1, 2),
        ("start", "Cy", 1),
        ("end", "Cy", True),
        ("turn", 1, 3),
        ("start", "Di", 1),
    ]


def test_whole_rounds_run_inside_one_action_pass_every_fighter_once_a_round() -> None:
    got = moments(turn(1, 3), turn(4, 0))
    rounds = [m[1] for m in got if m[0] == "round"]
    assert rounds == [2, 3, 4]
    for rnd in (2, 3):
        assert sorted(m[1] for m in got if m[0] == "passed" and m[2] == rnd) == sorted(ORDER)
