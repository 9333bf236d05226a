"""A board press the host's rules refuse is shown on the board: its key strobes (where the
keys are the LEDs) and so does the problem cell (#15, "a refused board press is silent")."""

from __future__ import annotations

import pytest
from adafruit_ticks import ticks_diff, ticks_ms
from waiting import until

import firmware.app
from host.board.tethered_sim import TetheredSim
from host.core.interface import IllegalAction
from host.core.session import Session
from host.rulesets.korxsol import encounter_schema


def flashing(app) -> bool:
    """The problem cell strobes now (the App's flash has not run out)."""
    return ticks_diff(app.flash_until, ticks_ms()) > 0


@pytest.fixture(autouse=True)
def strobes_that_outlast_a_busy_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The key strobes 0.8 s and the problem cell 2 s: a test thread that a busy machine
    lets look only later would miss them. Here they last until the test has looked."""
    monkeypatch.setattr(firmware.app, "_REFUSED_MS", 600_000)
    monkeypatch.setattr(firmware.app, "_FLASH_MS", 600_000)


@pytest.mark.parametrize("board", ["trellis_m4", "macropad"])
def test_a_press_the_host_refuses_strobes_its_key_and_the_problem_cell(board: str) -> None:
    session = Session(encounter_schema.load(encounter_schema.example_path()), 3)
    with TetheredSim(session, board) as table:
        sim, app = table.sim, table.sim.app
        table.press("next_turn")  # initiative: the fight starts
        # Korxsol's fourth counter (terrain) is the laptop's: the host refuses its key.
        for _ in range(3):  # frost -> burn -> fear -> terrain, on the board alone
            before = app.counter
            sim.press(sim.key_for("counter_next"))
            until(lambda before=before: app.counter != before, "counter next stepped")
        rejected = table.tether.link.session.events_rejected
        with pytest.raises(IllegalAction):
            table.press("counter_up")
        assert table.tether.link.session.events_rejected == rejected + 1
        key = sim.key_for("counter_up")
        until(lambda: app.refused_key == key, "the refused key strobes")
        assert flashing(app) and app.refusals >= 1


def test_a_board_whose_buttons_are_not_leds_strobes_only_the_problem_cell() -> None:
    from firmware.app import _C_END_COMBAT, MENU

    session = Session(encounter_schema.load(encounter_schema.example_path()), 3)
    with TetheredSim(session, "pico_matrix") as table:
        sim, app = table.sim, table.sim.app
        table.press("next_turn")
        # End combat is the game master's while tethered: the host refuses it. On the
        # Pico it is in the menu: step to it, then hold `do`.
        for _ in range(2 * len(MENU)):
            if app.menu_shown and MENU[app.menu_cursor] == _C_END_COMBAT:
                break
            before = (app.menu_cursor, app.menu_shown)
            sim.press(sim.key_for("menu_next"))
            moved = lambda before=before: (app.menu_cursor, app.menu_shown) != before  # noqa: E731
            until(moved, "the menu stepped")
        assert MENU[app.menu_cursor] == _C_END_COMBAT
        rejected = app.session.rejected
        sim.press(sim.key_for("menu_do"), 1700)  # past the hold-to-confirm time
        until(lambda: app.session.rejected > rejected, "the host refused end combat")
        until(lambda: flashing(app), "the problem cell strobes")
        assert app.refused_key == -1  # its buttons are not LEDs: no cell to strobe
