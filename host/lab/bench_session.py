"""Session figures for `turnlight bench` (issue #17): what a game master waits for in a
long game. `command_us`: one typed korxsol command as `play` runs it (parsing, the rules,
the journal's commit to a real SQLite file), the median over turns of a whole fight.
`refused_ms_100k` and `undo_ms_100k`: a refused command, and an undo of one action (its
redo not counted), in a game 100,000 actions long (in memory, no journal: the replay from
the nearest checkpoint is what is measured). Medians.

`resume_ms_10k` and `resume_ms_100k`: `host.core.session.resume` of a korxsol game 10,000 and
100,000 actions long from its journal file (the journal opened, the latest stored checkpoint
loaded and checked, the events after it read, their chain checked and their actions
replayed), the median of RESUME_RUNS in this process. `resume_cmd_ms_100k` and
`resume_cmd_mib_100k`: the whole command `turnlight play --resume --db FILE --no-board` of
the 100,000-action game in a new process, `quit` on its stdin: its wall time (the median of
CMD_RUNS) and its peak resident memory (the largest). `checkpoint_write_ms_100k`: writing
one checkpoint of that game, the pause `play` makes every 1,024 actions.
`undo_far_ms_100k`: an undo of 3,000 actions right after that resume, past what its
checkpoint holds in full. The journals are built once per run (docs/benchmarks.md).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from host.core import journal_checkpoints
from host.core.interface import Encounter, IllegalAction
from host.core.journal import Journal
from host.core.session import Session, resume
from host.lab.bench_engine import _attack_line
from host.rulesets.korxsol import encounter_schema

COMMANDS = 300
LONG_GAME = 100_000
SAMPLES = 30
RESUME_RUNS = 5
CMD_RUNS = 3
BATCH = 2_000  # events committed together while a long journal is built


@contextmanager
def games_on_a_journal(
    ruleset_id: str, encounter: Encounter | None = None
) -> Iterator[Callable[[], Session]]:
    """A ruleset's bundled encounter (or `encounter`) played game after game (seeds 1,
    2, ...) with its actions committed to a real SQLite journal in a temporary folder, as
    `play` commits them: `current()` is the game in play, the next one once the last is
    over. The games' `engine_turn_us_<id>` figures time their turns on it."""
    from host.core import registry

    ruleset = registry.get(ruleset_id)
    path = ruleset.example_path()
    enc = encounter or ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path))
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


def demo_turn_us(
    ruleset_id: str, turns: int, per_line: bool = False, encounter: Encounter | None = None
) -> float:
    """The median time, in microseconds, of one turn the ruleset's demo AI plans, played
    through the session on a real journal (games_on_a_journal, of `encounter` if given):
    the plan is made before the clock starts. `per_line`: each line of a plan is timed on
    its own (a game whose turns all happen at once, where one unit's line is the unit of
    play)."""
    samples: list[float] = []
    with games_on_a_journal(ruleset_id, encounter) as current:
        while len(samples) < turns:
            session = current()
            plan = session.ruleset.plan_turn(session.game)
            t0 = time.perf_counter_ns()
            for line in plan:
                session.execute(line)
                if per_line:
                    samples.append((time.perf_counter_ns() - t0) / 1000)
                    t0 = time.perf_counter_ns()
                if session.over or len(samples) >= turns:
                    break
            if not per_line:
                samples.append((time.perf_counter_ns() - t0) / 1000)
    return round(statistics.median(samples), 1)


def timed_turns_us(
    ruleset_id: str, turns: int, before: Callable[[Any], bool], turn: Callable[[Any], None]
) -> float:
    """The median time, in microseconds, of `turn(session)` (one turn as a ruleset's bench
    plays it) through the session on a real journal (games_on_a_journal); `before(session)`
    plays what is not timed and says whether a turn may be timed now."""
    samples: list[float] = []
    with games_on_a_journal(ruleset_id) as current:
        while len(samples) < turns:
            session = current()
            if not before(session):
                continue
            t0 = time.perf_counter_ns()
            turn(session)
            samples.append((time.perf_counter_ns() - t0) / 1000)
    return round(statistics.median(samples), 1)


def command_us() -> dict[str, float]:
    enc = encounter_schema.load(encounter_schema.example_path())
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
    session = Session(encounter_schema.load(encounter_schema.example_path()), 3)
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


def long_journal(path: Path, actions: int) -> Path:
    """A journal holding one korxsol game `actions` actions long (the bundled encounter,
    seed 3: `initiative`, then `end` turn after turn), its checkpoints written as `play`
    writes them. The events are committed BATCH at a time (one commit each is the same
    file, only slower to build)."""
    journal = Journal(path)
    try:
        session = Session(encounter_schema.load(encounter_schema.example_path()), 3, journal)
        session.execute("initiative")
        while len(session.done) < actions:
            with journal.transaction():
                for _ in range(min(BATCH, actions - len(session.done))):
                    session.execute("end")
    finally:
        journal.close()
    return path


def _resume_ms(path: Path) -> float:
    times = []
    for _ in range(RESUME_RUNS):
        t0 = time.perf_counter_ns()
        journal = Journal(path)
        session = resume(journal)
        times.append((time.perf_counter_ns() - t0) / 1e6)
        assert len(session.done) > 0
        journal.close()
    return round(statistics.median(times), 1)


# `turnlight` as its entry point runs it, and the process's own peak resident memory written
# at exit: Linux's VmHWM, of this program alone (a child's ru_maxrss also counts the
# parent's pages it was forked with, until its exec), else ru_maxrss.
_PEAK_SCRIPT = """
import atexit, os, resource, sys

def peak():
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        with open("/proc/self/status") as status:
            kib = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
    except (OSError, StopIteration):
        pass
    with open(os.environ["TURNLIGHT_BENCH_PEAK"], "w") as out:
        out.write(str(kib))

atexit.register(peak)
from host import cli
sys.exit(cli.main(sys.argv[1:]))
"""


def play_resume_command(path: Path) -> tuple[float, float]:
    """(wall ms, peak RSS MiB) of `turnlight play --resume --db PATH --no-board` with `quit`
    on its stdin, in a new process."""
    argv = ["play", "--resume", "--db", str(path), "--no-board"]
    peak = path.with_suffix(".peak")
    env = dict(os.environ, TURNLIGHT_BENCH_PEAK=str(peak))
    t0 = time.perf_counter_ns()
    done = subprocess.run(
        [sys.executable, "-c", _PEAK_SCRIPT, *argv],
        input=b"quit\n",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        check=False,
    )
    wall = (time.perf_counter_ns() - t0) / 1e6
    if done.returncode != 0:
        raise RuntimeError(f"turnlight {' '.join(argv)} ended with {done.returncode}")
    return wall, int(peak.read_text()) / 1024


def resume_figures() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        figures = {"resume_ms_10k": _resume_ms(long_journal(Path(tmp) / "10k.sqlite", 10_000))}
        path = long_journal(Path(tmp) / "100k.sqlite", LONG_GAME)
        figures["resume_ms_100k"] = _resume_ms(path)
        runs = [play_resume_command(path) for _ in range(CMD_RUNS)]
        figures["resume_cmd_ms_100k"] = round(statistics.median(r[0] for r in runs), 1)
        figures["resume_cmd_mib_100k"] = round(max(r[1] for r in runs), 1)
        figures["checkpoint_write_ms_100k"] = _checkpoint_write_ms(path)
        figures["undo_far_ms_100k"] = _undo_far_ms(path, Path(tmp) / "undo.sqlite")
    return figures


UNDO_FAR = 3_000  # actions: past the 2,048 a resumed checkpoint holds in full


def _undo_far_ms(path: Path, copy: Path) -> float:
    """An undo of UNDO_FAR actions right after a resume of that game: the actions before
    the checkpoint read from the journal, chain and all, and the game rebuilt from the
    nearest stored checkpoint (one every stored_checkpoints.FAR actions is kept for this).
    Each run on a fresh copy of the journal (an undo is journalled). Median of 3."""
    times = []
    for _ in range(3):
        shutil.copyfile(path, copy)
        journal = Journal(copy)
        try:
            session = resume(journal)
            t0 = time.perf_counter_ns()
            session.undo(UNDO_FAR)
            times.append((time.perf_counter_ns() - t0) / 1e6)
        finally:
            journal.close()
    return round(statistics.median(times), 1)


def _checkpoint_write_ms(path: Path) -> float:
    """The pause `play` makes every 1,024 actions in that game: one checkpoint written (the
    game encoded, compressed and committed with its digest). Median of 3."""
    journal = Journal(path)
    try:
        session = resume(journal)
        assert session.game_id is not None
        seq = journal._rows("SELECT MAX(seq) FROM events WHERE game = ?", (session.game_id,))
        times = []
        for _ in range(3):
            t0 = time.perf_counter_ns()
            journal_checkpoints.write(session, int(seq[0][0]))
            times.append((time.perf_counter_ns() - t0) / 1e6)
    finally:
        journal.close()
    return round(statistics.median(times), 1)


MEASUREMENTS = (command_us, long_game, resume_figures)
TARGETS: dict[str, tuple[str, float]] = {
    "refused_ms_100k": ("<=", 10),
    "undo_ms_100k": ("<=", 50),
    "resume_ms_100k": ("<=", 1000),
    "resume_cmd_ms_100k": ("<=", 2000),
    "resume_cmd_mib_100k": ("<=", 100),
}


def initiative_turns_us(ruleset_id: str, turns: int) -> float:
    """`timed_turns_us` of a game that starts with `initiative` (d20's, pf2's): that is
    played, not timed; a turn is each line the demo AI plans for the entry whose turn it
    is (`Ruleset.plan_turn`), to its `next` or the fight's end."""

    def started(session: Any) -> bool:
        if session.game.started:
            return True
        session.execute("initiative")
        return False

    def turn(session: Any) -> None:
        while True:
            plan = session.ruleset.plan_turn(session.game)
            if not plan:
                return
            session.execute(plan[0])
            if plan[0] == "next" or session.over:
                return

    return timed_turns_us(ruleset_id, turns, started, turn)
