"""A host that is killed and restarted (`turnlight play --resume`) applies each board event
exactly once: the tether keeps the link's resume point (the board's nonce and the next
board seq) in the SQLite journal, in the same commit as each board event, and a resumed
session starts its link from there.

The cable is the in-memory one of the link tests, so the kill can fall exactly between
the journal's commit and the board hearing the ack."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from linkcheck import End, Wire

from host.board.tether import Tether
from host.core.journal import Journal
from host.core.session import Session, resume
from host.rulesets.korxsol import encounter_schema
from shared import events as ev
from shared.host_only import make_event
from shared.link.board import ACCEPTED, BoardSession
from shared.link.digest import state_digest
from shared.state import GameState

NEXT = make_event(ev.NEXT_TURN)


class Bench:
    """A board on one end of an in-memory cable; hosts come and go on the other."""

    def __init__(self) -> None:
        self.now = 1000
        self.up = Wire()  # board -> host
        self.down = Wire()  # host -> board
        self.board = BoardSession(End(self.down, self.up), GameState(), nonce=11, now_ms=1000)
        self.tether: Tether | None = None

    def plug_host(self, tether: Tether) -> None:
        """A new host process opens the port: it hears only what is sent from now on."""
        self.up.data = bytearray()
        self.up.pos = 0
        self.down.plugged = True
        self.tether = tether
        tether.link.session.attach(End(self.up, self.down), self.now)

    def run(self, ms: int) -> None:
        assert self.tether is not None
        for _ in range(ms // 5):
            self.board.poll(self.now)
            self.tether.link.session.poll(self.now)
            self.now += 5

    def settle(self, ms: int = 5000) -> bool:
        assert self.tether is not None
        host = self.tether.link.session
        for _ in range(ms // 5):
            self.run(5)
            if (
                self.board.linked
                and self.board.journal.count == 0
                and host.quiet()
                and not host._dirty
                and state_digest(self.board.state) == state_digest(host.state)
            ):
                return True
        return False


def actions(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT kind, payload FROM events ORDER BY seq").fetchall()
    return [kind + " " + payload for kind, payload in rows]


def test_a_host_killed_between_commit_and_ack_does_not_apply_the_event_twice(
    tmp_path: Path,
) -> None:
    db = tmp_path / "journal.sqlite"
    bench = Bench()
    session = Session(encounter_schema.load(encounter_schema.example_path()), 5, Journal(db))
    bench.plug_host(Tether(session, "unused://"))
    assert bench.settle()

    assert bench.board.submit_record(bench.now, NEXT) == ACCEPTED  # starts the fight
    bench.down.plugged = False  # the host's ack (and all else) never reaches the board
    for _ in range(100):
        bench.run(5)
        if session.done:
            break
    assert [e.text for e in session.done] == ["initiative"]  # applied and committed
    assert bench.board.journal.count == 1  # but never acknowledged
    # The host process dies here. A new one resumes the game from the journal.
    again = resume(Journal(db))
    assert [e.text for e in again.done] == ["initiative"]
    bench.plug_host(Tether(again, "unused://"))
    assert bench.settle()
    # The board resent its journalled press; the new host knew it had it.
    assert [e.text for e in again.done] == ["initiative"]
    assert sum(a.startswith("action ") for a in actions(db)) == 1
    assert bench.board.journal.count == 0

    # The link goes on from there: the next press ends the first fighter's turn.
    bench.board.submit_record(bench.now, NEXT)
    assert bench.settle()
    assert [e.text for e in again.done] == ["initiative", "end"]


def test_a_refused_press_moves_the_resume_point_too(tmp_path: Path) -> None:
    # The link counts a refused event as handled (the board hears E_REJECTED), so a new
    # host must not offer it to the rules again: by then they might take it.
    db = tmp_path / "journal.sqlite"
    bench = Bench()
    session = Session(encounter_schema.load(encounter_schema.example_path()), 5, Journal(db))
    bench.plug_host(Tether(session, "unused://"))
    assert bench.settle()
    assert bench.board.submit_record(bench.now, make_event(ev.RESET)) == ACCEPTED
    bench.down.plugged = False
    for _ in range(100):
        bench.run(5)
        if bench.tether is not None and bench.tether.link.session.events_rejected:
            break
    assert session.journal is not None
    point = session.journal.link_point(session.session_id)
    assert point == (11, bench.board.tx_next)
    again = resume(Journal(db))
    tether = Tether(again, "unused://")
    bench.plug_host(tether)
    assert bench.settle()
    assert tether.link.session.events_rejected == 0  # not offered again
    assert again.done == []


def test_a_new_session_on_the_same_journal_starts_without_a_resume_point(
    tmp_path: Path,
) -> None:
    db = tmp_path / "journal.sqlite"
    bench = Bench()
    first = Session(encounter_schema.load(encounter_schema.example_path()), 5, Journal(db))
    bench.plug_host(Tether(first, "unused://"))
    assert bench.settle()
    bench.board.submit_record(bench.now, NEXT)
    assert bench.settle()
    fresh = Session(encounter_schema.load(encounter_schema.example_path()), 6, Journal(db))
    tether = Tether(fresh, "unused://")
    assert tether.link.session.resume_point() is None
