"""Session figures for `turnlight bench` (issue #17): what a game master waits for in a
long game. `command_us`: one typed korxsol command as `play` runs it (parsing, the rules,
the journal's commit to a real SQLite file), the median over turns of a whole fight.
`refused_ms_100k` and `undo_ms_100k`: a refused command, and an undo of one action (its
redo not counted), in a game 100,000 actions long (in memory, no journal: the replay from
the nearest checkpoint is what is measured). Medians.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from host.bench_engine import _attack_line
from host.journal import Journal
from host.korxsol import encounter
from host.ruleset import IllegalAction
from host.session import Session

COMMANDS = 300
LONG_GAME = 100_000
SAMPLES = 30


@contextmanager
def games_on_a_journal(ruleset_id: str) -> Iterator[Callable[[], Session]]:
    """A ruleset's bundled encounter played game after game (seeds 1, 2, ...) with its
    actions committed to a real SQLite journal in a temporary folder, as `play` commits
    them: `current()` is the game in play, the next one once the last is over. The games'
    `engine_turn_us_<id>` figures time their turns on it."""
    from host import registry

    ruleset = registry.get(ruleset_id)
    path = ruleset.example_path()
    enc = ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path))
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "bench.sqlite")
        games = [Session(enc, 1, journal)]

        def current() -> Session:
            if games[0].over:
                games[0] = Session(enc, games[0].seed + 1, journal)
            return games[0]

        try:
            yield current
        finally:
            journal.close()


def command_us() -> dict[str, float]:
    enc = encounter.load(encounter.example_path())
    samples: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "bench.sqlite")
        seed = 1
        session = None
        while len(samples) < COMMANDS:
            if session is None or session.over:
                session = Session(enc, seed, journal)
                seed += 1
                session.execute("initiative")
            line = _attack_line(session.game) or "end"
            t0 = time.perf_counter_ns()
            try:
                session.execute(line)
            except IllegalAction:
                session.execute("end")
                continue
            samples.append((time.perf_counter_ns() - t0) / 1000)
        journal.close()
    return {"command_us": round(statistics.median(samples), 1)}


def long_game() -> dict[str, float]:
    session = Session(encounter.load(encounter.example_path()), 3)
    session.execute("initiative")
    while len(session.done) < LONG_GAME:
        session.execute("end")
    refused: list[float] = []
    undo: list[float] = []
    for _ in range(SAMPLES):
        t0 = time.perf_counter_ns()
        try:
            session.execute("attack Nobody Strike Orrin")
        except IllegalAction:
            pass
        refused.append((time.perf_counter_ns() - t0) / 1e6)
        t0 = time.perf_counter_ns()
        session.undo(1)
        undo.append((time.perf_counter_ns() - t0) / 1e6)
        session.redo(1)
    return {
        "refused_ms_100k": round(statistics.median(refused), 2),
        "undo_ms_100k": round(statistics.median(undo), 2),
    }


MEASUREMENTS = (command_us, long_game)
TARGETS: dict[str, tuple[str, float]] = {
    "refused_ms_100k": ("<=", 10),
    "undo_ms_100k": ("<=", 50),
}
