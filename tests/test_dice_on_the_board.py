"""The board rolls any die with no ruleset code in firmware/ or shared/ (issue #30 §1): a
ruleset made for the tests (tests/dice_ruleset.py: tug whose pull wants a d20 with
advantage, and whose heave wants 2d6 + 1d8) is played through the simulated board running
the real firmware. The board's roll key rolls the wanted dice, each die of its own faces,
shows them on its dice page, and the host gives them to the waiting action; the board's
roll key rolls the descriptor's d20 when nothing is wanted."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from dice_ruleset import ROPE, RULESET, descriptor

from firmware import pages, whole_pages
from firmware import palette as pal
from firmware.pages import DICE
from host.board.tethered_sim import TetheredSim
from host.core import registry
from host.core.session import Session
from shared import dice
from shared.descriptor_pack import pack
from shared.state import GameState

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def tug20() -> Iterator[None]:
    registry.register(RULESET)
    yield
    registry.unregister(RULESET.id)


@pytest.fixture
def table() -> Iterator[TetheredSim]:
    encounter = RULESET.parse_encounter(ROPE, "rope.toml")
    with TetheredSim(Session(encounter, 1, None, dice_from="board")) as t:
        t.settle()
        yield t


def test_the_roll_key_rolls_a_wanted_d20_with_advantage_and_the_pull_takes_it(
    table: TetheredSim,
) -> None:
    table.execute("pull Ann")
    table.settle()
    board = table.sim.app.state
    assert (board.want.kind, board.want.count) == (dice.KIND_DN, 2)
    assert list(board.want.sides[:2]) == [20, 20]
    lines = table.press("roll")
    faces = table.session.game.used[0][0]  # type: ignore[union-attr]
    assert len(faces) == 2 and all(1 <= f <= 20 for f in faces)
    assert any(line.startswith("board: Ann pulls") for line in lines)
    assert table.session.pending is None and board.want.count == 0
    # The board shows the pull's two d20 on its dice page.
    assert table.sim.app.page == DICE
    assert list(board.roll.faces[:2]) == list(faces) and list(board.roll.sides[:2]) == [20, 20]


def test_the_roll_key_rolls_two_kinds_of_die_each_within_its_own_faces(
    table: TetheredSim,
) -> None:
    table.execute("heave Ann")
    table.settle()
    table.press("roll")
    faces = table.session.game.used[0][0]  # type: ignore[union-attr]
    assert len(faces) == 3
    assert all(1 <= f <= n for f, n in zip(faces, (6, 6, 8), strict=True))
    assert list(table.sim.app.state.roll.sides[:3]) == [6, 6, 8]


def test_with_nothing_wanted_the_roll_key_rolls_the_descriptor_s_d20(table: TetheredSim) -> None:
    lines = table.press("roll")
    roll = table.sim.app.state.roll
    assert roll.kind == dice.KIND_DN and roll.count == 1 and roll.sides[0] == 20
    assert 1 <= roll.faces[0] <= 20
    assert any("fits no wanted roll" in line for line in lines)


def _dice_page(faces: tuple[int, ...], sides: tuple[int, ...], naturals: bool, now: int):
    """The dice page of an 8 x 4 board showing `faces` of plain dice, at `now`."""
    state = GameState()
    plain = pack("t", 13, dice_kind=dice.KIND_DN, sides=20)
    data = descriptor(RULESET.board_id) if naturals else plain
    state.rules.load(data, 0, len(data))
    dice.enter(state, dice.KIND_DN, faces, 0, sides)
    canvas = pages.Canvas(8, 4)
    whole_pages.render_dice(canvas, state, False, now)
    return [tuple(canvas.frame[c * 3 : c * 3 + 3]) for c in range(canvas.cells)]


def _lit(colour: int, level: int) -> tuple[int, ...]:
    return tuple(pal.RGB[colour * 3 + k] * level // 255 for k in range(3))


def test_a_die_of_more_faces_than_blinks_shows_its_number_as_tens_then_units() -> None:
    # A 17 on a d20: the tens (1 blink, white) then the units (7 blinks, amber); a 4 on a
    # d6 on one cell, as 4 blinks. At the start of a cycle every blink is lit.
    frame = _dice_page((17, 4), (20, 6), naturals=False, now=0)
    assert frame[0] == _lit(pal.WHITE, pal.MID) and frame[1] == _lit(pal.COOLDOWN, pal.MID)
    assert frame[2] == _lit(pal.WHITE, pal.MID) and frame[3] == (0, 0, 0)
    # Past the first blink, the tens' one blink is over and the units' seventh still to come.
    later = _dice_page((17, 4), (20, 6), naturals=False, now=1_250)
    assert later[0] == (0, 0, 0) and later[1] == _lit(pal.COOLDOWN, pal.MID)


def test_natural_highest_and_lowest_faces_are_marked_when_the_descriptor_says_they_count() -> None:
    for now in (0, 700, 1_900):
        frame = _dice_page((20, 1, 6), (20, 20, 6), naturals=True, now=now)
        assert frame[0] == frame[1] == _lit(pal.SUCCESS, pal.FULL)  # a natural 20, steady
        assert frame[2] == frame[3] == _lit(pal.WARN, pal.FULL)  # a natural 1
        assert frame[4] == _lit(pal.SUCCESS, pal.FULL)  # a d6's 6
    # Without the flag a 20 is only a number: 2 blinks of tens, a dim 0 of units.
    plain = _dice_page((20,), (20,), naturals=False, now=0)
    assert plain[0] == _lit(pal.WHITE, pal.MID) and plain[1] == _lit(pal.COOLDOWN, pal.DIM // 2)


def test_no_ruleset_name_is_in_the_board_s_code() -> None:
    names = ("tug20", "tug")
    for path in [*ROOT.glob("firmware/**/*.py"), *ROOT.glob("shared/**/*.py")]:
        text = path.read_text(encoding="utf-8")
        for name in names:
            assert not re.search(rf"\b{name}\b", text), f"{path} names {name}"


def test_a_board_of_few_keys_shows_the_dice_that_fit_and_no_more() -> None:
    # The MacroPad's 3 x 4 keys give the page 8 cells: four d20 take them all, a fifth is
    # not drawn (the dice page of the host's screens shows every die).
    state = GameState()
    data = pack("t", 13, dice_kind=dice.KIND_DN, sides=20)
    state.rules.load(data, 0, len(data))
    dice.enter(state, dice.KIND_DN, (11, 12, 13, 14, 15), 0, 20)
    canvas = pages.Canvas(3, 4)
    assert not canvas.columns and canvas.content == 8
    whole_pages.render_dice(canvas, state, False, 0)
    lit = [any(canvas.frame[c * 3 : c * 3 + 3]) for c in range(canvas.cells)]
    assert lit[:8] == [True] * 8 and not any(lit[8:])
