"""Scripted smart dice for the tests (host/dice/fake_transport.py): a Pixels die and a
GoDice as their adverts and services say, and a table of them run on an event loop."""

from __future__ import annotations

import asyncio

from host.dice import godice, pixels
from host.dice.fake_transport import FakeDie, FakeTransport
from host.dice.model import GODICE, PIXELS
from host.dice.settings import PairedDie
from host.dice.table import DiceTable
from host.dice.transport import Advert

PIXEL_TYPES = {"d4": 1, "d6": 2, "d8": 3, "d10": 4, "d00": 5, "d12": 6, "d20": 7}


def pixel(address: str, pixel_id: int, kind: str, old: bool = False) -> tuple[FakeDie, PairedDie]:
    leds = 10 if kind == "d00" else int(kind[1:])
    manu, info = pixels.advert_current(pixel_id, PIXEL_TYPES[kind], leds, 5, 0, 90)
    advert = Advert(
        address,
        f"Pixel {kind}",
        [pixels.OLD_SERVICE if old else pixels.SERVICE],
        {pixels.COMPANY_ID: manu},
        {pixels.INFO_SERVICE: info},
    )
    services = {pixels.OLD_SERVICE if old else pixels.SERVICE}
    # At connection the die says its state: on face 20, rolled earlier. Not a new roll.
    hello = [pixels.roll_state(1, pixels.face_index(kind, 1 if kind != "d00" else 0))]
    paired = PairedDie(f"{pixel_id:08X}", PIXELS, kind, f"Pixel {kind}", address)
    return FakeDie(advert, services, hello), paired


def godie(address: str, name: str, shell: str) -> tuple[FakeDie, PairedDie]:
    advert = Advert(address, name, [godice.SERVICE])
    kind = godice.SHELLS[shell]
    return FakeDie(advert, {godice.SERVICE}), PairedDie(name, GODICE, kind, name, address, shell)


def pixels_roll(transport: FakeTransport, address: str, kind: str, value: int) -> None:
    """A throw: handling, rolling, then rolled on the face showing `value`."""
    transport.notify(address, pixels.roll_state(2, 0))
    transport.notify(address, pixels.roll_state(3, 0))
    transport.notify(address, pixels.roll_state(1, pixels.face_index(kind, value)))


def godice_roll(transport: FakeTransport, address: str, shell: str, value: int) -> None:
    transport.notify(address, b"R")
    transport.notify(address, godice.stable(godice.vector_of(shell, value)))


async def linked(table: DiceTable, count: int) -> None:
    """Until `count` dice are linked."""
    for _ in range(400):
        if sum(1 for s in table.links.values() if s.link is not None) >= count:
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the dice never linked")
