"""The journal stays a campaign's only truth (docs/campaign.md): its party's state is what
its fights' journals say, so an undo, a resume and an export agree with it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from host.core.campaign import Book
from host.core.journal import Journal
from host.core.session import Session, resume

PARTY = 'ruleset = "d20"\n[[creature]]\nname = "Aria"\nhp = 20\n'
GOBLINS = (
    'ruleset = "d20"\nname = "Goblins"\n[[creature]]\nname = "Goblin"\nteam = "Monsters"\nhp = 7\n'
)


def begun(tmp_path: Path) -> tuple[Book, Session]:
    (tmp_path / "goblins.toml").write_text(GOBLINS)
    book = Book(Journal(tmp_path / "j.sqlite"))
    book.new("Moor", "d20", "party.toml", PARTY)
    _, enc = book.start_fight("Moor", tmp_path / "goblins.toml")
    with book.journal.transaction():
        session = Session(enc, 1, book.journal)
        book.append("Moor", "fight", {"game": session.game_id, "encounter": "goblins.toml"})
    return book, session


def test_an_undo_before_the_end_is_what_the_campaign_sees(tmp_path: Path) -> None:
    book, session = begun(tmp_path)
    for line in ("initiative", "damage Aria 6", "damage Aria 2", "finish"):
        session.execute(line)
    assert book.state("Moor").party["Aria"]["hp_now"] == 12
    session.undo(2)  # the finish and the second damage
    state = book.state("Moor")
    assert state.under_way() is not None and state.party["Aria"]["hp_now"] == 14
    session.execute("finish")
    assert book.state("Moor").under_way() is None


def test_a_resume_and_an_export_agree_with_the_campaign(tmp_path: Path) -> None:
    book, session = begun(tmp_path)
    for line in ("initiative", "damage Aria 5", "temp Aria 3", "finish"):
        session.execute(line)
    game = session.game_id
    book.journal.close()
    resumed = resume(Journal(tmp_path / "j.sqlite", write=False), game).game
    carried = Book(Journal(tmp_path / "j.sqlite", write=False)).state("Moor").party["Aria"]
    aria = resumed.fighters[0]
    assert (carried["hp_now"], carried["temp"]) == (aria.hp, aria.temp) == (15, 3)
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "export", str(game), "--db", str(tmp_path / "j.sqlite")],
        capture_output=True,
        text=True,
        check=False,
    )
    final = {c["name"]: c for c in json.loads(done.stdout)["final"]["creatures"]}
    assert (final["Aria"]["hp"], final["Aria"]["temp"]) == (carried["hp_now"], carried["temp"])
