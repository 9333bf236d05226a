"""Two generic signals on the simulated board (a real pty, the real firmware; issue 30):
fighters who take turns with no slot on the board blink its problem cell slowly in amber,
apart from a problem's red (docs/board.md); and a roll awaited from smart dice makes the
roll key's glow between its count's blinks flicker (`play --dice smart`), until two smart
dice on the fake Bluetooth stack (tests/dice_fakes.py) give the roll."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from adafruit_ticks import ticks_ms
from dice_fakes import linked, pixel, pixels_roll
from dice_ruleset import ROPE, RULESET
from newcomer_games import session
from small_board import small_board

from firmware import palette as pal
from host.board.tethered_sim import TetheredSim
from host.core import registry
from host.core.session import Session
from host.dice.fake_transport import FakeTransport
from host.dice.source import SmartDiceSource
from host.dice.table import DiceTable

# Points in the board's cycles (firmware/palette.py): the slow blink is on in the first
# second of two; the fast pulse on for the first 150 ms of each 250; two blinks of a count
# are over by 400 ms of the 2,400 ms cycle.
SLOW_ON, SLOW_OFF = 200, 1_200
PAUSE_PULSE_ON, PAUSE_PULSE_OFF = 1_000, 1_200


def _cell(table: TetheredSim, cell: int, now_ms: int) -> tuple[int, ...]:
    """The colour of `cell` in the frame the board renders `now_ms` into a cycle of its
    patterns a while from now (past any strobe of a moment ago)."""
    app = table.sim.app
    with table.sim.lock:
        app.brightness = 8  # the top level and no budget: the frame as drawn
        app.budget_ma = 1 << 24
        app.render((ticks_ms() // 24_000 + 1) * 24_000 + now_ms)
        return tuple(app.canvas.frame[cell * 3 : cell * 3 + 3])


def _lit(colour: int, level: int) -> tuple[int, ...]:
    return tuple(pal.RGB[colour * 3 + k] * level // 255 for k in range(3))


def test_fighters_past_the_boards_slots_blink_its_problem_cell_slowly_in_amber(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A fight holds as many fighters as the board's MAX_SLOTS (24) today: on a host given
    # a board of 8 (tests/small_board.py), two characters join past its slots.
    slots = small_board(monkeypatch)
    s = session("stones")
    player = s.game.player_name
    with TetheredSim(s) as table:
        board = table.sim.app.state
        problem_cell = table.sim.app.canvas.cells - 2
        assert board.off_board == 0 and _cell(table, problem_cell, SLOW_ON) == (0, 0, 0)
        while len(s.ruleset.fighter_names(s.game)) < slots + 2:
            table.execute(f"add Wisp as Q{len(s.ruleset.fighter_names(s.game))} player={player}")
        past = s.ruleset.off_board(s.game)
        table.settle()
        assert board.count == slots and board.off_board == len(past) == 2
        assert _cell(table, problem_cell, SLOW_ON) == _lit(pal.COOLDOWN, pal.MID)  # amber
        # Its dark half is not an error's: no problem, so the cell is dark.
        assert table.sim.app.problems == 0
        assert _cell(table, problem_cell, SLOW_OFF) == (0, 0, 0)
        # A hidden fighter is the game master's alone: not counted on the players' board.
        s.secrets.hidden.add(past[0].name)
        table._tether().guard(lambda: [])
        table.settle()
        assert board.off_board == 1


@pytest.fixture
def tug20() -> Iterator[None]:
    registry.register(RULESET)
    yield
    registry.unregister(RULESET.id)


@pytest.mark.usefixtures("tug20")
@pytest.mark.parametrize("dice_from", ["smart", "board"])
def test_a_roll_awaited_from_smart_dice_flickers_the_roll_keys_glow(dice_from: str) -> None:
    encounter = RULESET.parse_encounter(ROPE, "rope.toml")
    with TetheredSim(Session(encounter, 1, None, dice_from=dice_from)) as table:
        board = table.sim.app.state
        table.execute("pull Ann")  # wants a d20 with advantage: two dice
        table.settle()
        assert board.want.count == 2
        assert board.want.smart == (1 if dice_from == "smart" else 0)
        key = table.sim.key_for("roll")
        glow = _lit(pal.SKY_BLUE, pal.DIM)
        assert _cell(table, key, 0) == _lit(pal.SKY_BLUE, pal.FULL)  # the count's first blink
        assert _cell(table, key, PAUSE_PULSE_ON) == glow
        flicker = _cell(table, key, PAUSE_PULSE_OFF)
        assert flicker == ((0, 0, 0) if dice_from == "smart" else glow)


@pytest.mark.usefixtures("tug20")
def test_the_smart_dice_signal_ends_when_the_smart_dice_give_the_roll() -> None:
    encounter = RULESET.parse_encounter(ROPE, "rope.toml")
    with TetheredSim(Session(encounter, 1, None, dice_from="smart")) as table:
        board = table.sim.app.state
        table.execute("pull Ann")
        table.settle()
        assert board.want.smart == 1
        dice = [pixel("AA:01", 1, "d20"), pixel("AA:02", 2, "d20")]
        transport = FakeTransport([fake for fake, _ in dice])
        said: list[str] = []
        source = SmartDiceSource(lambda: table.session, said.extend, table._tether().guard)
        smart = DiceTable(
            transport,
            [paired for _, paired in dice],
            source.rolled,
            lambda line: source.tell([line]),
            source.waiting_words,
            backoff_s=(0.01, 0.02),
        )

        async def throw() -> None:
            smart.start()
            await linked(smart, 2)
            pixels_roll(transport, "AA:01", "d20", 17)
            pixels_roll(transport, "AA:02", "d20", 4)
            await smart.stop()

        asyncio.run(throw())
        table.settle()
        assert table.session.pending is None, said
        assert (board.want.count, board.want.smart) == (0, 0)
