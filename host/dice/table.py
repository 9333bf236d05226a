"""The paired dice at the table, kept connected: each die's link is opened, its messages
decoded (host/dice/pixels.py, godice.py) and its rolls passed on (`on_roll`); a link that
drops or will not open is tried again after a growing pause (`BACKOFF_S`, reset once a
link opens), the die scanned for by its id when its last address does not answer.

What counts as a roll: a die's "rolled" (Pixels) or "stable" (GoDice) after it was seen
rolling on this link. The state a die reports when it connects, or a repeat of the same
rest without a roll in between, is not a new roll. Everything the game master should
know (a die linked, dropped, its battery low, a rest that was not counted, a message
that cannot be) goes to `say`, one line each; a low battery is said once per die, and
messages that cannot be (a face past the die's last, host/dice/pixels.py) are counted
and said the first time and at each tenfold count."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from host.core.names import printable
from host.dice import godice, pixels
from host.dice.model import (
    BATTERY,
    COLOUR,
    GODICE,
    IDENTITY,
    IGNORED,
    PIXELS,
    REFUSED,
    ROLLED,
    ROLLING,
    STATE,
)
from host.dice.settings import PairedDie
from host.dice.transport import Link, Transport, TransportError

BACKOFF_S = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0)
LOW_BATTERY = 15  # percent
SCAN_S = 3.0
BLINK_ARGB = 0xFF00C0FF  # the wanted dice blink cyan
PULSE_RGB = (0, 192, 255)
REFUSED_SAID_AT = frozenset(10**n for n in range(1, 10))


@dataclass
class DieLink:
    """One paired die's connection state."""

    die: PairedDie
    link: Link | None = None
    address: str = ""
    armed: bool = False  # seen rolling on this link: its next rest is a roll
    battery: int = -1
    low_said: bool = False
    dropped: asyncio.Event = field(default_factory=asyncio.Event)
    write_uuid: str = ""
    refused: int = 0  # messages that could not be (a face the die has not), on every link

    @property
    def name(self) -> str:
        return f"{self.die.kind} {self.die.name or self.die.die_id}"


class DiceTable:
    def __init__(
        self,
        transport: Transport,
        dice: list[PairedDie],
        on_roll: Callable[[PairedDie, int], object],
        say: Callable[[str], None],
        waiting: Callable[[], str] = lambda: "",
        accept_unstable: bool = False,
        backoff_s: tuple[float, ...] = BACKOFF_S,
    ) -> None:
        self.transport = transport
        self.links = {d.die_id: DieLink(d, address=d.address) for d in dice}
        self.on_roll = on_roll
        self._say = say
        self.waiting = waiting  # the roll that waits, in words ("" for none)
        self.accept_unstable = accept_unstable
        self.backoff_s = backoff_s
        self._tasks: list[asyncio.Task] = []
        self.connected = asyncio.Event()  # set each time a die links (tests wait on it)

    def start(self) -> None:
        for state in self.links.values():
            self._tasks.append(asyncio.ensure_future(self._keep_linked(state)))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        for state in self.links.values():
            if state.link is not None:
                try:
                    await state.link.disconnect()
                except Exception:
                    pass
                state.link = None

    def say(self, line: str) -> None:
        """Say a line; a view that fails to take it never ends a die's reconnect loop."""
        try:
            self._say(line)
        except Exception:
            logging.getLogger(__name__).exception(
                "a smart-dice line was not said: %s", printable(line, lines=False)
            )

    def kinds_at_table(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for state in self.links.values():
            counts[state.die.kind] = counts.get(state.die.kind, 0) + 1
        return counts

    # -- keeping each die linked -------------------------------------------------------------
    async def _keep_linked(self, state: DieLink) -> None:
        tries = 0
        while True:
            try:
                await self._link(state)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # a stack's own error on a half-open link: try again
                state.link = None
                if tries == 0:
                    self.say(f"smart die {state.name}: not linked ({err}); trying again")
            else:
                tries = 0
                await state.dropped.wait()
                state.link = None
                try:
                    waits = self.waiting()
                except Exception:
                    waits = ""
                still = f"; {waits} still waits" if waits else ""
                self.say(f"smart die {state.name} dropped: reconnecting{still}")
            pause = self.backoff_s[min(tries, len(self.backoff_s) - 1)]
            tries += 1
            await asyncio.sleep(pause)

    async def _link(self, state: DieLink) -> None:
        state.dropped = asyncio.Event()
        state.armed = False
        address = state.address or await self._find(state)
        try:
            link = await self.transport.connect(address, state.dropped.set)
        except TransportError:
            found = await self._find(state)
            if found == address:
                raise
            link = await self.transport.connect(found, state.dropped.set)
        state.link = link
        die = state.die
        if die.make == PIXELS:
            current = pixels.SERVICE in link.services
            notify = pixels.NOTIFY if current else pixels.OLD_NOTIFY
            state.write_uuid = pixels.WRITE if current else pixels.OLD_WRITE
            await link.subscribe(notify, lambda data: self._heard(state, data))
            await link.write(state.write_uuid, pixels.who_are_you())
            await link.write(state.write_uuid, pixels.request_battery())
        else:
            state.write_uuid = godice.WRITE
            await link.subscribe(godice.NOTIFY, lambda data: self._heard(state, data))
            await link.write(state.write_uuid, godice.request_battery())
        self.say(f"smart die {state.name} linked")
        self.connected.set()

    async def _find(self, state: DieLink) -> str:
        """The die's address now, by a scan for its id."""
        for advert in await self.transport.scan(SCAN_S):
            info = pixels.parse_advert(
                advert.address,
                advert.name,
                advert.services,
                advert.manufacturer,
                advert.service_data,
            ) or godice.parse_advert(advert.address, advert.name, advert.services)
            if info is not None and info.die_id == state.die.die_id:
                state.address = advert.address
                return advert.address
        raise TransportError(f"{state.die.die_id} is not in range")

    # -- what a die says ---------------------------------------------------------------------
    def _heard(self, state: DieLink, data: bytes) -> None:
        die = state.die
        if die.make == PIXELS:
            event = pixels.parse(data, die.kind)
        else:
            event = godice.parse(data, die.shell, self.accept_unstable)
        if event.what == ROLLING or (event.what == STATE and event.note == "handling"):
            state.armed = True
        elif event.what == ROLLED:
            if not state.armed:
                return  # its state at connection, or a repeat: not a new roll
            state.armed = False
            self.on_roll(die, event.value)
        elif event.what == IGNORED:
            # Still armed: the die may yet come to a stable rest from the same throw.
            self.say(f"smart die {state.name}: {event.note}, not counted as a roll")
        elif event.what == REFUSED:
            self._refused(state, event.note)
        elif event.what == BATTERY:
            self._battery(state, event.value)
        elif event.what == IDENTITY and event.info is not None:
            self._battery(state, event.info.battery)
        elif event.what == COLOUR:
            pass

    def _refused(self, state: DieLink, note: str) -> None:
        """A message the die could not have sent: counted; said the first time and at
        every tenfold count after it, so a die that sends nothing else cannot flood the
        log. A roll it spoils ends the throw: the die is thrown again."""
        state.armed = False
        state.refused += 1
        count = state.refused
        if count == 1 or count in REFUSED_SAID_AT:
            so_far = f" ({count} so far)" if count > 1 else ""
            self.say(f"smart die {state.name}: a message that cannot be ({note}), not used{so_far}")

    def refused(self) -> dict[str, int]:
        """The messages each die sent that could not be, by die id."""
        return {die_id: state.refused for die_id, state in self.links.items()}

    def _battery(self, state: DieLink, percent: int) -> None:
        state.battery = percent
        if 0 <= percent <= LOW_BATTERY and not state.low_said:
            state.low_said = True
            self.say(f"smart die {state.name}: battery low ({percent}%)")

    # -- blinking the wanted dice ------------------------------------------------------------
    async def blink(self, kinds: set[str]) -> list[str]:
        """Blink (Pixels) or pulse (GoDice) the linked dice of `kinds`; their ids."""
        blinked = []
        for state in self.links.values():
            if state.link is None or state.die.kind not in kinds:
                continue
            if state.die.make == PIXELS:
                message = pixels.blink(3, 1500, BLINK_ARGB, fade=128)
            elif state.die.make == GODICE:
                message = godice.pulse(3, 25, 25, PULSE_RGB)
            else:
                continue
            try:
                await state.link.write(state.write_uuid, message)
                blinked.append(state.die.die_id)
            except Exception:  # a die that drops as it is blinked: its drop is said anyway
                pass
        return blinked
