"""The campaign's figure for `turnlight bench`: what reading a campaign's state costs
(host/core/campaign.py folds it from its events, replaying each fight's game from the
journal), in milliseconds for a d20 campaign of 10 fights (docs/benchmarks.md)."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from host.core.campaign import Book
from host.core.journal import Journal
from host.core.session import Session

FIGHTS = 10
SAMPLES = 5
PARTY = """ruleset = "d20"
[[creature]]
name = "Aria"
hp = 40
[[creature]]
name = "Bram"
hp = 30
[[creature]]
name = "Cora"
hp = 24
"""
FOES = 'ruleset = "d20"\nname = "Foes"\n[[creature]]\nname = "Ogre"\nteam = "Monsters"\nhp = 59\n'
# One fight: 20 actions that leave their marks, then the end.
LINES = ["initiative"] + [f"damage {w} 1" for w in ("Aria", "Bram", "Cora") * 6] + ["finish"]


def campaign_fold() -> dict[str, float]:
    """A d20 campaign of FIGHTS fights of 20 actions, a long rest after each: the median of
    SAMPLES readings of its state (`campaign show` reads it so)."""
    with tempfile.TemporaryDirectory() as tmp:
        foes = Path(tmp) / "foes.toml"
        foes.write_text(FOES)
        book = Book(Journal(Path(tmp) / "j.sqlite"))
        book.new("Bench", "d20", "party.toml", PARTY)
        for _ in range(FIGHTS):
            _, encounter = book.start_fight("Bench", foes)
            with book.journal.transaction():
                session = Session(encounter, 1, book.journal)
                book.append("Bench", "fight", {"game": session.game_id, "encounter": "foes"})
            for line in LINES:
                session.execute(line)
            book.rest("Bench", "long", {})
        samples = []
        for _ in range(SAMPLES):
            t0 = time.perf_counter()
            state = book.state("Bench")
            samples.append((time.perf_counter() - t0) * 1000)
        assert len(state.fights) == FIGHTS
        book.journal.close()
    return {"campaign_fold_ms_10": round(statistics.median(samples), 1)}


MEASUREMENTS = (campaign_fold,)
