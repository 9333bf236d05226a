"""`turnlight bench` figures for hostile input (issue #27, docs/reliability.md "Hostile files
and input"): what a forged checkpoint and a long line at the prompt cost before they are
refused.

`forged_checkpoint_ms` and `forged_checkpoint_mib`: the slowest resume, and the highest
Python memory peak (tracemalloc) during one, of a 30-action korxsol game whose every
stored checkpoint is forged with a matching digest: a body inflating to 200 MB, a body of
2,000,000 values, a history claiming 10**9 actions, a set of 40,000 ints that hash alike.
Each is refused and the game replayed.

`prompt_line_ms_4mb`: a line of 4,000,000 characters sent through a pipe to `play`'s line
prompt (`host/screens/play_ui.py`), until it is refused and the next line ran.
`prompt_line_mib`: Python's memory peak (tracemalloc) for a line of 400,000 the same way.
"""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
import tempfile
import threading
import time
import tracemalloc
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

from host.core import journal_checkpoints
from host.core.journal import Journal
from host.core.session import Session, resume
from host.lab import forged
from host.rulesets.korxsol import encounter_schema

Figures = dict[str, float]


@contextlib.contextmanager
def _small_checkpoints() -> Iterator[None]:
    """Checkpoints every few actions, so a short game has them."""
    saved = {n: getattr(journal_checkpoints, n) for n in ("EVERY", "RECENT", "TAIL", "KEEP")}
    for name, value in zip(saved, (4, 5, 3, 2), strict=True):
        setattr(journal_checkpoints, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(journal_checkpoints, name, value)


def _bomb(_body: bytes) -> bytes:
    pack = zlib.compressobj(9)
    parts = [pack.compress(b"[0" + b" " * 2**20)]
    parts += [pack.compress(b" " * 2**20) for _ in range(200)]
    return b"".join(parts) + pack.compress(b"]") + pack.flush()


def _values(_body: bytes) -> bytes:
    return zlib.compress(("[" + "[]," * 2_000_000 + "[]]").encode(), 1)


def _colliding(body: bytes) -> bytes:
    data = json.loads(zlib.decompress(body))
    data[2]["roller"] = ["S", [k * (2**61 - 1) for k in range(40_000)]]
    return zlib.compress(json.dumps(data).encode(), 1)


Forgery = tuple[Callable[[bytes], bytes] | None, dict]
FORGERIES: dict[str, Forgery] = {
    "bomb": (_bomb, {}),
    "values": (_values, {}),
    "claimed": (None, {"done": 10**9}),
    "colliding": (_colliding, {}),
}


def _forge(path: Path, body: Callable[[bytes], bytes] | None, history: dict) -> None:
    con = sqlite3.connect(path)
    rows = con.execute("SELECT game, seq, header, history, body FROM checkpoints").fetchall()
    for game, seq, header, old_history, old_body in rows:
        fields, story = json.loads(header), json.loads(old_history)
        if "done" in history:
            fields["actions"] = story["done"] = history["done"]
        header = json.dumps(fields, sort_keys=True, separators=(",", ":"))
        new_history = json.dumps(story, sort_keys=True, separators=(",", ":"))
        new_body = old_body if body is None else body(old_body)
        forged.store(con, game, seq, header, new_history, new_body)
    con.commit()
    con.close()


def forged_checkpoints() -> Figures:
    slowest, highest = 0.0, 0.0
    with tempfile.TemporaryDirectory() as tmp, _small_checkpoints():
        for name, (body, history) in FORGERIES.items():
            path = Path(tmp) / f"{name}.sqlite"
            played = Session(
                encounter_schema.load(encounter_schema.example_path()), 3, Journal(path)
            )
            played.execute("initiative")
            while len(played.done) < 30:
                played.execute("end")
            assert played.journal is not None
            played.journal.close()
            _forge(path, body, history)
            tracemalloc.start()
            started = time.perf_counter()
            back = resume(Journal(path), played.game_id)
            took = time.perf_counter() - started
            peak = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
            assert back.notices and back.journal is not None, f"{name} was not refused"
            back.journal.close()
            slowest, highest = max(slowest, took * 1000), max(highest, peak)
    return {"forged_checkpoint_ms": round(slowest, 1), "forged_checkpoint_mib": round(highest, 1)}


def _prompt_run(length: int, traced: bool) -> tuple[float, float]:
    """(ms, peak MiB or 0) of a line of `length` characters at the line prompt, through a
    pipe, until it is refused and the next line ran."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from rich.console import Console

    from host.screens.play_ui import PlayUI, make_prompt

    out = io.StringIO()
    session = Session(encounter_schema.load(encounter_schema.example_path()), 2)
    ui = PlayUI(session, Console(file=out, width=100, color_system=None), "no board")
    text = "odds Kaelen " + "x" * length + "\rinitiative\rquit\r"
    peak = 0.0
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        prompt = make_prompt(ui, input=pipe, output=DummyOutput())
        sender = threading.Thread(target=pipe.send_text, args=(text,), daemon=True)
        if traced:
            tracemalloc.start()
        started = time.perf_counter()
        sender.start()
        ui.loop(prompt)
        took = time.perf_counter() - started
        if traced:
            peak = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
        sender.join(10)
    assert "longer than" in out.getvalue() and [e.text for e in session.done] == ["initiative"]
    return took * 1000, peak


def prompt_long_line() -> Figures:
    # The memory is measured on a tenth of the line: tracemalloc slows every allocation
    # tenfold, and what the prompt holds does not grow with the line.
    took, _ = _prompt_run(4_000_000, traced=False)
    _, peak = _prompt_run(400_000, traced=True)
    return {"prompt_line_ms_4mb": round(took, 1), "prompt_line_mib": round(peak, 1)}


MEASUREMENTS = (forged_checkpoints, prompt_long_line)
TARGETS: dict[str, tuple[str, float]] = {
    "forged_checkpoint_ms": ("<=", 1000),
    "forged_checkpoint_mib": ("<=", 100),
    "prompt_line_ms_4mb": ("<=", 5000),
    "prompt_line_mib": ("<=", 100),
}
