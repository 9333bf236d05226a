"""Smart dice end to end through a real Bluetooth LE stack in process: Google's Bumble runs
a controller per device on one LocalLink; virtual dice (host/lab/virtual_dice.py: a
Pixels die of either protocol generation, a GoDice) advertise and serve GATT, and the
Bumble transport (host/dice/bumble_transport.py) scans, links and listens, driving the
real DiceTable, matcher, SmartDiceSource, Session and SQLite journal.

The rolls, by the rules texts: stones' crit is a d100 of two D10, tens then units
(speaking-stones-turn-order.txt:53); advance's Hit check is 2D6
(advance-late-combat-round.txt:32); korxsol's actions roll their action dice
(korxsol-players-guide.txt:8)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from advance_fixtures import session as advance_session
from advance_fixtures import start_round
from stones_fixtures import session as stones_session
from waiting import WAIT, until

from host.core.journal import Journal
from host.core.session import Session
from host.dice.model import GODICE, PIXELS
from host.dice.runner import SmartDiceRunner
from host.dice.settings import PairedDie
from host.dice.source import SmartDiceSource

bumble_link = pytest.importorskip("bumble.link")

from host.commands.dice import scan_dice  # noqa: E402
from host.dice.bumble_transport import BumbleTransport  # noqa: E402
from host.lab.virtual_dice import VirtualGoDice, VirtualPixel  # noqa: E402

PX = "C0:00:00:00:00:01"
OLD = "C0:00:00:00:00:02"
GO = "C0:00:00:00:00:03"


def _smart_events(s: Session) -> list[tuple[str, dict]]:
    assert s.journal is not None and s.game_id is not None
    return [
        (kind, payload)
        for _, kind, payload, _ in s.journal.events(s.game_id)
        if kind in ("want-dice", "roll-shown") and str(payload["source"]).startswith("smart:")
    ]


class VirtualTable:
    """Virtual dice and the transport on one LocalLink, made on the runner's loop."""

    def __init__(self, dice: dict) -> None:
        self.spec = dice
        self.dice: dict = {}

    async def make(self) -> BumbleTransport:
        link = bumble_link.LocalLink()
        for address, (make, args) in self.spec.items():
            die = make(link, address, *args)
            await die.start_advertising()
            self.dice[address] = die
        return BumbleTransport(link)


def _wait(predicate, seconds: float = WAIT) -> None:
    until(predicate, "the dice's table (a Bumble link on threads) to get there", seconds)


def _runner(session: Session, spec: dict, paired: list[PairedDie]):
    said: list[str] = []
    table = VirtualTable(spec)
    source = SmartDiceSource(lambda: session, said.extend)
    runner = SmartDiceRunner(table.make, paired, source, backoff_s=(0.05, 0.1)).start()
    _wait(
        lambda: (
            runner.table is not None
            and all(s.link is not None for s in runner.table.links.values())
        )
    )
    return runner, table, said


def test_a_scan_finds_both_pixels_generations_and_a_godice_with_kind_battery_and_colour():
    spec = {
        PX: (VirtualPixel, (0x1234ABCD, "d20")),
        OLD: (VirtualPixel, (0x00C0FFEE, "d6", True)),
        GO: (VirtualGoDice, ("GoDice_E5DA53_K_v04", "d6", 3)),
    }

    async def main():
        table = VirtualTable(spec)
        transport = await table.make()
        return await scan_dice(transport, 0.3)

    found = {d.die_id: d for d in asyncio.run(main())}
    assert set(found) == {"1234ABCD", "00C0FFEE", "GoDice_E5DA53_K_v04"}
    assert (found["1234ABCD"].make, found["1234ABCD"].kind, found["1234ABCD"].battery) == (
        PIXELS,
        "d20",
        80,
    )
    assert found["00C0FFEE"].kind == "d6"  # the older advert's LED count
    go = found["GoDice_E5DA53_K_v04"]
    assert (go.make, go.battery, go.colour) == (GODICE, 70, "blue")


def test_a_d100_crit_is_filled_by_a_pixels_tens_die_and_a_godice_d10_thrown_mid_game(
    tmp_path: Path,
) -> None:
    s = stones_session(journal=Journal(tmp_path / "j.sqlite"))
    s.dice_from = "smart"
    spec = {PX: (VirtualPixel, (0x100, "d00")), GO: (VirtualGoDice, ("GoDice_1_K", "d10"))}
    paired = [
        PairedDie("00000100", PIXELS, "d00", "tens", PX),
        PairedDie("GoDice_1_K", GODICE, "d10", "units", GO, "d10"),
    ]
    runner, table, said = _runner(s, spec, paired)
    try:
        s.execute("attack Kae Orr")  # mid-game: the crit roll now waits
        _wait(lambda: len(runner.blinked) == 1)
        assert sorted(runner.blinked[0]) == ["00000100", "GoDice_1_K"]
        runner.call(table.dice[GO].throw(4))
        runner.call(table.dice[PX].throw(70))
        _wait(lambda: s.pending is None)
    finally:
        runner.stop()
    assert _smart_events(s) == [
        ("want-dice", {"purpose": "crit", "faces": [7, 4], "source": "smart:00000100,GoDice_1_K"})
    ]
    assert any(data[0] == 29 for data in table.dice[PX].received)  # the Pixels blink
    assert any(data[0] == 0x10 for data in table.dice[GO].received)  # the GoDice pulse


def test_an_older_pixels_and_a_godice_thrown_together_fill_two_d6_places(tmp_path: Path) -> None:
    s = advance_session(journal=Journal(tmp_path / "j.sqlite"))
    start_round(s)
    s.dice_from = "smart"
    spec = {OLD: (VirtualPixel, (0xA, "d6", True)), GO: (VirtualGoDice, ("GoDice_2_K", "d6"))}
    paired = [
        PairedDie("0000000A", PIXELS, "d6", "old", OLD),
        PairedDie("GoDice_2_K", GODICE, "d6", "go", GO, "d6"),
    ]
    runner, table, said = _runner(s, spec, paired)
    try:
        s.execute("attack Ayla Cleave Snag")
        # Thrown only once the runner wants them (it blinked them): a throw before it knows
        # of the roll is a roll nothing wanted (under load it came first, and the test waited
        # out its minute for an event that could not come).
        _wait(lambda: len(runner.blinked) == 1)
        assert sorted(runner.blinked[0]) == ["0000000A", "GoDice_2_K"]

        async def both() -> None:
            await asyncio.gather(table.dice[OLD].throw(5), table.dice[GO].throw(2))

        runner.call(both())
        _wait(lambda: bool(_smart_events(s)))
    finally:
        runner.stop()
    ((kind, payload),) = _smart_events(s)
    assert sorted(payload["faces"]) == [2, 5]


def test_a_die_that_drops_while_the_roll_waits_relinks_and_fills_it(tmp_path: Path) -> None:
    s = stones_session(journal=Journal(tmp_path / "j.sqlite"))
    s.dice_from = "smart"
    spec = {PX: (VirtualPixel, (0x7, "d10"))}
    runner, table, said = _runner(s, spec, [PairedDie("00000007", PIXELS, "d10", "d", PX)])
    try:
        s.execute("attack Kae Orr")
        _wait(lambda: len(runner.blinked) == 1)  # the die blinked: the roll is wanted
        runner.call(table.dice[PX].drop())
        _wait(lambda: any("dropped" in line for line in said))
        assert s.pending is not None  # still wanted
        _wait(lambda: said.count("smart die d10 d linked") == 2)
        runner.call(table.dice[PX].throw(3))
        runner.call(table.dice[PX].throw(9))
        _wait(lambda: s.pending is None)
    finally:
        runner.stop()
    assert _smart_events(s)[0][1]["faces"] == [3, 9]
    assert [x for x in said if "dropped" in x][0].endswith("still waits")


def test_a_wanted_roll_in_play_is_filled_by_a_virtual_die_thrown_mid_game(tmp_path: Path) -> None:
    from rich.console import Console

    from host.dice.play_hook import SmartDiceForPlay
    from host.screens.play_ui import PlayUI

    s = stones_session(journal=Journal(tmp_path / "j.sqlite"))
    ui = PlayUI(s, Console(file=open(tmp_path / "view.txt", "w"), width=100))
    table = VirtualTable({PX: (VirtualPixel, (0x9, "d10"))})
    hook = SmartDiceForPlay(ui, table.make, [PairedDie("00000009", PIXELS, "d10", "red", PX)])
    hook.start()
    try:
        ui.run_line("dice from smart")
        _wait(lambda: hook.runner is not None and hook.runner.table is not None)
        runner = hook.runner
        assert runner is not None and runner.table is not None
        _wait(lambda: all(x.link is not None for x in runner.table.links.values()))
        ui.run_line("attack Kae Orr")
        runner.call(table.dice[PX].throw(2))
        runner.call(table.dice[PX].throw(6))
        _wait(lambda: ui.session.pending is None)
    finally:
        hook.stop()
    assert any("place 1 (tens): 2 from smart:00000009" in m for m in ui.messages)
    assert _smart_events(s)[0][1] == {
        "purpose": "crit",
        "faces": [2, 6],
        "source": "smart:00000009",
    }
