"""A roll's degree of success on the board (issue 42, item 2; pf2-combat.txt [7]): the host
sets it on the last roll it judged (`GameState.roll.degree`: 1 critical failure, 2 failure,
3 success, 4 critical success), the codec carries it (tests/engine/test_codec.py), and the
dice page shows each degree on the cell after the dice in its own colour and its own blink
pattern, so that neither alone tells them apart (docs/board.md). The board's own rolls have
none. pf2's projection sets it for the check its last action judged, and the simulated
board running the real firmware shows it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pf2_fixtures import ORC, VAL, Table, d20, dmg, encounter_text

from firmware import pages, whole_pages
from firmware import palette as pal
from host.board.tethered_sim import TetheredSim
from host.core.session import Session
from host.rulesets.pf2.ruleset import RULESET
from shared import dice
from shared.descriptor_pack import pack
from shared.state import GameState

CRIT_FAIL, FAIL, SUCCESS, CRIT_SUCCESS = 1, 2, 3, 4
STEP_MS = 10  # the frames sampled, over the one-second cycle the patterns share


def _cell(degree: int, now: int, faces: tuple[int, ...] = (12,)) -> tuple[int, ...]:
    """The cell after a roll of d20s (two cells each) on an 8 x 4 board's dice page."""
    state = GameState()
    data = pack("t", 13, dice_kind=dice.KIND_DN, sides=20)
    state.rules.load(data, 0, len(data))
    dice.enter(state, dice.KIND_DN, faces, 0, 20)
    state.roll.degree = degree
    canvas = pages.Canvas(8, 4)
    whole_pages.render_dice(canvas, state, False, now)
    at = 2 * len(faces) * 3
    return tuple(canvas.frame[at : at + 3])


def _lit(colour: int) -> tuple[int, ...]:
    return tuple(pal.RGB[colour * 3 + k] for k in range(3))


def _over_a_cycle(degree: int) -> list[tuple[int, ...]]:
    return [_cell(degree, now) for now in range(0, 2_000, STEP_MS)]


def test_each_degree_has_its_own_colour_on_the_cell_after_the_dice() -> None:
    # pf2-combat.txt [7]: four degrees; colours from the palette's colour-blind-safe set
    colours = {CRIT_FAIL: pal.WARN, FAIL: pal.VERMILLION, SUCCESS: pal.BLUISH_GREEN}
    colours[CRIT_SUCCESS] = pal.SUCCESS
    for degree, colour in colours.items():
        frames = _over_a_cycle(degree)
        assert set(frames) == {(0, 0, 0), _lit(colour)} or set(frames) == {_lit(colour)}
    assert len({_lit(c) for c in colours.values()}) == 4


def test_each_degree_has_its_own_blink_pattern_not_only_its_colour() -> None:
    # The lit and dark frames of each degree over a cycle, colour left out: four patterns.
    patterns = {d: tuple(any(f) for f in _over_a_cycle(d)) for d in range(1, 5)}
    assert len(set(patterns.values())) == 4
    assert all(patterns[SUCCESS])  # steady
    lit = {d: sum(p) for d, p in patterns.items()}
    # A slow blink is lit about half the time; two quick pulses a quarter or less; a fast
    # flicker changes far more often than either.
    assert 0.4 < lit[FAIL] / len(patterns[FAIL]) < 0.6
    assert lit[CRIT_SUCCESS] / len(patterns[CRIT_SUCCESS]) <= 0.25

    def changes(p: tuple[bool, ...]) -> int:  # (round the cycle)
        return sum(a != b for a, b in zip(p, p[1:] + p[:1], strict=True))

    assert changes(patterns[CRIT_FAIL]) > 4 * changes(patterns[FAIL])
    assert changes(patterns[CRIT_SUCCESS]) == 8  # two pulses a second, two seconds
    assert changes(patterns[FAIL]) == 4  # on, off, on, off over two seconds


def test_no_degree_leaves_the_cell_after_the_dice_dark_and_the_dice_as_they_were() -> None:
    assert all(f == (0, 0, 0) for f in _over_a_cycle(0))
    # The dice's own cells are the same with a degree as without.
    for now in (0, 250, 1_300):
        for degree in range(5):
            state = GameState()
            data = pack("t", 13, dice_kind=dice.KIND_DN, sides=20)
            state.rules.load(data, 0, len(data))
            dice.enter(state, dice.KIND_DN, (17,), 0, 20)
            state.roll.degree = degree
            canvas = pages.Canvas(8, 4)
            whole_pages.render_dice(canvas, state, False, now)
            cells = bytes(canvas.frame[:6])
            if degree == 0:
                plain = cells
            assert cells == plain


def test_a_page_filled_by_its_dice_shows_no_degree_past_its_cells() -> None:
    # The MacroPad's 8 cells, four d20 of two cells each: no cell is left for the degree.
    state = GameState()
    data = pack("t", 13, dice_kind=dice.KIND_DN, sides=20)
    state.rules.load(data, 0, len(data))
    dice.enter(state, dice.KIND_DN, (11, 12, 13, 14), 0, 20)
    state.roll.degree = SUCCESS
    canvas = pages.Canvas(3, 4)
    whole_pages.render_dice(canvas, state, False, 0)
    assert not any(canvas.frame[8 * 3 :])


def test_pf2_shows_the_judged_d20_and_its_degree_not_the_damage_after_it() -> None:
    # pf2-combat.txt [7][8]: Valka +7 against the orc's AC 16
    t = Table(VAL, ORC.replace("hp = 20", "hp = 90"))
    t.start(15, 1)
    roll = t.game.state.roll
    for face, rolls, degree in (
        (19, (dmg(3),), CRIT_SUCCESS),  # 26: DC + 10
        (10, (dmg(3),), SUCCESS),  # 17
        (5, (), FAIL),  # 12
        (1, (), CRIT_FAIL),  # 8, and a natural 1
    ):
        t.play("strike Valka Orc", d20(face), *rolls)
        assert roll.degree == degree, face
        assert (roll.kind, roll.count, roll.faces[0], roll.sides[0]) == (dice.KIND_DN, 1, face, 20)
        t.play("next")  # the orc's turn, then Valka's again (no check judged)
        assert roll.degree == 0
        t.play("next")
    # An action that judges nothing shows the game's last roll with no degree.
    t.play("strike Valka Orc", d20(12), dmg(6))
    t.play("act Valka Stride")
    assert roll.degree == 0 and (roll.faces[0], roll.sides[0]) == (6, 8)


@pytest.fixture
def board() -> Iterator[TetheredSim]:
    encounter = RULESET.parse_encounter(encounter_text(VAL, ORC), "test.toml")
    with TetheredSim(Session(encounter, 3, None, dice_from="board")) as sim:
        yield sim


def _rolled_on_the_board(board: TetheredSim, line: str) -> None:
    """`line` typed on the laptop, each roll it waits for rolled with the board's roll key."""
    board.execute(line)
    board.settle()
    while board.session.pending is not None:
        board.press("roll")


def test_a_strike_rolled_on_the_board_comes_back_with_its_degree_and_a_lone_roll_has_none(
    board: TetheredSim,
) -> None:
    # pf2-combat.txt [7]: the host judges the check; the board's own rolls have no degree
    _rolled_on_the_board(board, "initiative")
    game = board.session.game
    actor = game.fighters[game.entry().members[0]]
    target = next(f for f in game.fighters if f is not actor)
    _rolled_on_the_board(board, f"strike {actor.label} {target.label}")
    game = board.session.game  # (the session's game after the roll it waited for)
    shown = board.sim.app.state.roll
    judged = [r for r in game.dice.records if r[0] == "attack"][-1]
    assert game.dice.degree >= 0 and shown.degree == game.dice.degree + 1
    assert (shown.faces[0], shown.sides[0], shown.count) == (judged[1][0], 20, 1)
    board.press("roll")  # nothing wanted: the board's own roll, shown with no degree
    assert board.sim.app.state.roll.degree == 0 and board.sim.app.state.roll.unused == 1
