"""The smart-dice figure for `turnlight bench` (issue #31). `smart_roll_ms_p50`: from a
virtual Pixels die's "rolled" notification (host/lab/virtual_dice.py, sent through
Google's Bumble: a GATT server on its own controller, a LocalLink, the central's
controller, host and GATT client, all in process) to the action it resolves applied in
the session and committed to a real SQLite journal (host/dice: table, matcher, source),
the median of ROLLS. Each roll is a stones crit (a d100 of two D10) filled by one d10
thrown twice: the time of the second throw is measured. Bumble is a test dependency:
without it the figure is not measured. `dice_file_ms`, `dice_file_mib`: what reading a
hostile paired-dice file costs before it is refused (issue #37, item 4)."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

ROLLS = 20

Figures = dict[str, float | int]


def smart_roll() -> Figures:
    try:
        from bumble.link import LocalLink
    except ImportError:
        return {}
    from host.core import encounter_files, registry
    from host.core.journal import Journal
    from host.core.session import Session
    from host.dice.bumble_transport import BumbleTransport
    from host.dice.model import PIXELS
    from host.dice.runner import SmartDiceRunner
    from host.dice.settings import PairedDie
    from host.dice.source import SmartDiceSource
    from host.lab.virtual_dice import VirtualPixel

    address = "C0:00:00:00:00:01"
    ruleset = registry.get("stones")
    path = ruleset.example_path()
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        session = Session(encounter_files.load(path, "stones"), 1, Journal(Path(tmp) / "b.sqlite"))
        session.dice_from = "smart"
        resolved_at: list[float] = []
        dice: dict[str, VirtualPixel] = {}

        async def make() -> BumbleTransport:
            link = LocalLink()
            dice["d10"] = VirtualPixel(link, address, 0x10, "d10")
            await dice["d10"].start_advertising()
            return BumbleTransport(link)

        def said(lines: list[str]) -> None:
            if session.pending is None and lines and "place 2 of 2" in lines[0]:
                resolved_at.append(time.perf_counter())

        source = SmartDiceSource(lambda: session, said)
        paired = [PairedDie("00000010", PIXELS, "d10", "bench", address)]
        runner = SmartDiceRunner(make, paired, source).start()
        try:
            _wait(
                lambda: (
                    runner.table is not None
                    and all(s.link is not None for s in runner.table.links.values())
                )
            )
            for _ in range(ROLLS):
                line = _crit_line(session)
                if line is None:
                    break
                session.execute(line)
                if session.pending is None:
                    continue
                runner.call(dice["d10"].throw(5))
                before = len(resolved_at)
                runner.call(dice["d10"].throw(7))
                _wait(lambda before=before: len(resolved_at) > before)
                times.append((resolved_at[-1] - dice["d10"].thrown_at) * 1000)
        finally:
            runner.stop()
    if not times:
        return {}
    return {"smart_roll_ms_p50": round(statistics.median(times), 2)}


def _crit_line(session) -> str | None:
    """An attack the stones engine plans that asks for its crit roll, or None."""
    for line in session.ruleset.plan_turn(session.game):
        if line.startswith("attack"):
            return line
    return None


def _wait(predicate, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > end:
            raise RuntimeError("the virtual die never resolved the roll")
        time.sleep(0.0005)


def dice_file() -> Figures:
    """`dice_file_ms` and `dice_file_mib`: the slowest read, and the highest Python memory
    peak (tracemalloc) during one, of a paired-dice file (host/dice/settings.py) that is
    200 MB (sparse), 64 KB of brackets nested 32,000 deep, or 64 KB of valid dice (the
    most a file may hold). Before the bound the 200 MB file took 31 s and 1.5 GB."""
    import tracemalloc

    from host.dice import settings

    slowest, peak = 0.0, 0.0
    with tempfile.TemporaryDirectory(prefix="turnlight-bench-dice-") as tmp:
        huge, deep, full = (Path(tmp) / name for name in ("huge", "deep", "full"))
        with huge.open("wb") as fh:
            fh.truncate(200 * 1024 * 1024)
        half = settings.MAX_BYTES // 2
        deep.write_text("[" * half + "]" * half)
        # A die takes 150 bytes as the file is written (indented): as many as fit.
        count = (settings.MAX_BYTES - 100) // 150
        dice = [
            settings.PairedDie(f"{n:08X}", "pixels", "d20", "Pixel", "AA") for n in range(count)
        ]
        settings.save(dice, full, accept_unstable=False)
        if settings.read(full).dice != dice:
            raise RuntimeError("the fullest paired-dice file did not read back")
        for path in (huge, deep, full):
            for traced in (False, True):
                if traced:
                    tracemalloc.start()
                began = time.perf_counter()
                try:
                    settings.read(path)
                except settings.SettingsError:
                    pass
                took = (time.perf_counter() - began) * 1000
                if traced:
                    peak = max(peak, tracemalloc.get_traced_memory()[1] / 2**20)
                    tracemalloc.stop()
                else:
                    slowest = max(slowest, took)
    return {"dice_file_ms": round(slowest, 1), "dice_file_mib": round(peak, 2)}


MEASUREMENTS = (smart_roll, dice_file)
TARGETS: dict[str, tuple[str, float]] = {"dice_file_ms": ("<=", 100), "dice_file_mib": ("<=", 5)}
