"""The smart dice running beside a session: their own thread and asyncio loop, the paired
dice kept linked (host/dice/table.py), their rolls given to the session
(host/dice/source.py), and the dice a new wanted roll takes blinked. `play --dice smart`
and `dice from smart` start one; the tests and the bench start one on Bumble."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from typing import Any

from host.dice.settings import PairedDie
from host.dice.source import SmartDiceSource
from host.dice.table import DiceTable
from host.dice.transport import Transport

WATCH_S = 0.1  # how often the wanted roll is looked at (to blink the dice it takes)


class SmartDiceRunner:
    def __init__(
        self,
        make_transport: Callable[[], Awaitable[Transport]],
        dice: list[PairedDie],
        source: SmartDiceSource,
        accept_unstable: bool = False,
        backoff_s: tuple[float, ...] | None = None,
    ) -> None:
        self.make_transport = make_transport
        self.dice = dice
        self.source = source
        self.accept_unstable = accept_unstable
        self.backoff_s = backoff_s
        self.loop = asyncio.new_event_loop()
        self.table: DiceTable | None = None
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="smart-dice", daemon=True)
        self.blinked: list[list[str]] = []  # the dice blinked for each wanted roll

    def start(self, timeout: float = 10.0) -> SmartDiceRunner:
        self._thread.start()
        if not self._ready.wait(timeout):
            raise RuntimeError("the smart dice did not start")
        return self

    def call(self, coro: Awaitable[Any], timeout: float = 10.0) -> Any:
        """Run `coro` on the dice's loop (a virtual die's throw, a blink) and wait for it."""
        future: Future = asyncio.run_coroutine_threadsafe(coro, self.loop)  # type: ignore[arg-type]
        return future.result(timeout)

    def stop(self) -> None:
        if self._stop is not None and self._thread.is_alive():
            self.loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._main())
        finally:
            # The stack's own tasks (Bumble re-arms its advertising) end with the loop.
            left = [t for t in asyncio.all_tasks(self.loop) if not t.done()]
            for task in left:
                task.cancel()
            self.loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
            self.loop.close()

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        transport = await self.make_transport()
        kw = {"backoff_s": self.backoff_s} if self.backoff_s else {}
        self.table = DiceTable(
            transport,
            self.dice,
            self.source.rolled,
            lambda line: self.source.tell([line]),
            self.source.waiting_words,
            self.accept_unstable,
            **kw,
        )
        self.source.dice_of_kind = self.table.kinds_at_table
        self.table.start()
        self._ready.set()
        blinked_for = None
        while not self._stop.is_set():
            # Read without the session's lock (as the view reads it): only this thread
            # changes the matcher, and a roll that changes the session runs here too.
            matcher = self.source.current()
            if matcher is not None and matcher is not blinked_for:
                blinked_for = matcher
                self.blinked.append(await self.table.blink(matcher.kinds_wanted()))
            try:
                await asyncio.wait_for(self._stop.wait(), WATCH_S)
            except asyncio.TimeoutError:
                pass
        await self.table.stop()
