"""A Pixels die's message carries its face as one byte, an index from 0; a byte past the
die's last face (a d6's 6..255) and a battery past 100% are messages that cannot be
(issue #37, item 6). The codec refuses them (host/dice/pixels.py, godice.py: `REFUSED`),
so no such face reaches the matcher: before, a d6 showing 200 filled a coin's heads and
a d10 showing 255 a d100's units 5. The table counts them and says them in one line."""

from __future__ import annotations

import asyncio

import pytest
from dice_fakes import linked, pixel, pixels_roll

from host.dice import godice, pixels
from host.dice.fake_transport import FakeTransport
from host.dice.model import BATTERY, IDENTITY, KINDS, REFUSED, ROLLED, sides_of
from host.dice.table import DiceTable

FACES = {
    "d4": {1, 2, 3, 4},
    "d6": set(range(1, 7)),
    "d8": set(range(1, 9)),
    "d10": set(range(1, 11)),
    "d00": set(range(0, 100, 10)),
    "d12": set(range(1, 13)),
    "d20": set(range(1, 21)),
}


@pytest.mark.parametrize("kind", KINDS)
def test_a_pixels_face_past_the_dies_last_is_refused_in_the_codec(kind) -> None:
    shown = set()
    for index in range(256):
        event = pixels.parse(pixels.roll_state(1, index), kind)
        if index < sides_of(kind):
            assert event.what == ROLLED
            shown.add(event.value)
        else:
            assert event.what == REFUSED
            assert event.note == (
                f"rolled face index {index}, and a {kind} has faces 0..{sides_of(kind) - 1}"
            )
    assert shown == FACES[kind]  # every face, and nothing else


def test_a_battery_past_100_percent_is_refused_in_the_codec() -> None:
    assert pixels.parse(pixels.battery_level(100), "d6").what == BATTERY
    for percent in (101, 127, 255):
        event = pixels.parse(pixels.battery_level(percent), "d6")
        assert (event.what, event.note) == (REFUSED, f"battery {percent}%, past 0..100")
        assert godice.parse(godice.battery(percent), "d6").what == REFUSED
    assert godice.parse(godice.battery(64), "d6").what == BATTERY


def test_an_identity_with_a_face_or_battery_that_cannot_be_is_refused() -> None:
    assert pixels.parse(pixels.i_am_a_die(7, 2, 6, 1, 5, 80), "").what == IDENTITY
    event = pixels.parse(pixels.i_am_a_die(7, 2, 6, 1, 6, 80), "")
    assert (event.what, event.note) == (
        REFUSED,
        "identity with face index 6, and a d6 has faces 0..5",
    )
    assert pixels.parse(pixels.i_am_a_die(7, 2, 6, 1, 0, 127), "").what == REFUSED


def test_an_advert_with_a_face_or_battery_that_cannot_be_reads_them_as_unknown() -> None:
    manu, info = pixels.advert_current(0x1234ABCD, 2, 6, 1, 199, 127)
    die = pixels.parse_advert(
        "AA", "Pixel", [pixels.SERVICE], {pixels.COMPANY_ID: manu}, {pixels.INFO_SERVICE: info}
    )
    assert die is not None and (die.kind, die.face, die.battery) == ("d6", 0, -1)


@pytest.mark.parametrize("kind, index", [("d6", 199), ("d10", 255)])
def test_a_refused_face_never_reaches_the_matcher(kind, index) -> None:
    """A d6 showing 200 (index 199) and a d10 showing 255: neither is given on; the next
    throw, a real face, is."""
    fake, paired = pixel("AA:01", 0x10, kind)
    transport = FakeTransport([fake])
    rolled: list[int] = []
    said: list[str] = []
    table = DiceTable(transport, [paired], lambda die, v: rolled.append(v), said.append)

    async def main() -> None:
        table.start()
        await linked(table, 1)
        transport.notify("AA:01", pixels.roll_state(3, 0))
        transport.notify("AA:01", pixels.roll_state(1, index))
        transport.notify("AA:01", pixels.roll_state(1, 2))  # a repeat is no new roll
        pixels_roll(transport, "AA:01", kind, 3)
        await table.stop()

    asyncio.run(main())
    assert rolled == [3]
    sides = sides_of(kind)
    assert said[1:] == [
        f"smart die {kind} Pixel {kind}: a message that cannot be (rolled face index {index},"
        f" and a {kind} has faces 0..{sides - 1}), not used"
    ]
    assert table.refused() == {paired.die_id: 1}


def test_messages_that_cannot_be_are_counted_and_said_at_each_tenfold_count() -> None:
    fake, paired = pixel("AA:01", 0x10, "d6")
    transport = FakeTransport([fake])
    said: list[str] = []
    table = DiceTable(transport, [paired], lambda die, v: None, said.append)

    async def main() -> None:
        table.start()
        await linked(table, 1)
        for _ in range(120):
            transport.notify("AA:01", pixels.battery_level(200))
        await table.stop()

    asyncio.run(main())
    assert table.refused() == {paired.die_id: 120}
    refusals = [line for line in said if "cannot be" in line]
    assert [line.rsplit("not used", 1)[1] for line in refusals] == [
        "",
        " (10 so far)",
        " (100 so far)",
    ]
