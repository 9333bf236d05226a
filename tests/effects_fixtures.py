"""Helpers for the effect tests (tests/test_effects_*.py): a session of a ruleset's bundled
encounter, turns moved on by the game's own commands, and what the tests read of a game
through the public seams (the board's projection, `Ruleset.fighters`), never through the
effect clock under test."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from host.core import effects, registry
from host.core.interface import IllegalAction
from host.core.journal import Journal
from host.core.session import Session
from shared.state import F_OUT

# A ruleset for each turn unit of the descriptor (shared/descriptor_pack.py): korxsol one
# slot (UNIT_SLOT), stones a player's characters together (UNIT_KEY), tests/tiny_units.py's
# tiny_teams a team together (UNIT_TEAM; registered by the tests that play it: `units`),
# forms steps (UNIT_STEP: every fighter's turn is the round).
BY_UNIT = {"slot": "korxsol", "group": "stones", "team": "tiny_teams", "steps": "forms"}
UNITS = list(BY_UNIT)

# Actions that change no fighter's health: the tests move turns on without putting
# anyone out of the fight unless they mean to.
_QUIET = ("end", "pass", "discard", "move", "done", "phase", "next", "initiative")


@contextlib.contextmanager
def units() -> Iterator[None]:
    """The tests' own ruleset of team turns registered while they play it."""
    from tiny_units import TINY_TEAMS

    registry.register(TINY_TEAMS)
    try:
        yield
    finally:
        registry.unregister(TINY_TEAMS.id)


def session_of(ruleset_id: str, journal: Journal | None = None, seed: int = 1) -> Session:
    ruleset = registry.get(ruleset_id)
    path = ruleset.example_path()
    encounter = ruleset.parse_encounter(path.read_text(), str(path))
    session = Session(encounter, seed, journal)
    if ruleset.start_command:
        session.execute(ruleset.start_command)
    return session


def point(session: Session) -> tuple[int, int]:
    """(round, position in the order of the running turn), as the board is shown it."""
    state = session.ruleset.state(session.game)
    return (state.round, state.turn)


def current(session: Session) -> list[str]:
    """Who is taking the turn now (Ruleset.fighters' `current`)."""
    return [f.name for f in session.ruleset.fighters(session.game) if f.current]


def out(session: Session) -> set[str]:
    state = session.ruleset.state(session.game)
    names = session.ruleset.fighter_names(session.game)
    return {names[i] for i in range(state.count) if state.slots[i].flags & F_OUT}


def position_of(session: Session, name: str) -> int:
    state = session.ruleset.state(session.game)
    slot = session.ruleset.fighter_names(session.game).index(name)
    return next(p for p in range(state.count) if state.order[p] == slot)


def next_turn(session: Session, fight: bool = False) -> list[str]:
    """Play the running turn to its end with the demo AI's plans (only their quiet actions
    unless `fight`; a plan the rules refuse part of is made again from where it stopped),
    and the next-turn key if they leave the turn running: the lines said."""
    said: list[str] = []
    start = point(session)
    for _ in range(20):
        if point(session) != start or session.over:
            break
        took = False
        for line in session.ruleset.plan_turn(session.game):
            if not fight and line.split()[0] not in _QUIET:
                continue
            try:
                said += session.execute(line)
            except IllegalAction:
                break
            took = True
            if point(session) != start:
                break
        if not took:
            said += session.execute(session.ruleset.next_turn_commands[-1])
    assert point(session) != start or session.over, f"the turn did not move on from {start}"
    return said


def effect_names(session: Session, target: str) -> list[str]:
    """The names of the effects on `target`, from the fighters' `effects` as the host
    fills them (host/core/effects.py `fighters`)."""
    fighter = next(f for f in effects.fighters(session.ruleset, session.game) if f.name == target)
    return [text.split(" ")[0] for text in fighter.effects]


def shown_on(session: Session, target: str) -> list[str]:
    fighter = next(f for f in effects.fighters(session.ruleset, session.game) if f.name == target)
    return list(fighter.effects)


def not_in_turn(session: Session) -> str:
    """A fighter in play who is not taking the turn now."""
    busy = set(current(session)) | out(session)
    return next(n for n in session.ruleset.fighter_names(session.game) if n not in busy)


def refused(session: Session, line: str) -> str:
    """The one line `line` is refused with; the session's history and effects unchanged."""
    before = (len(session.done), _book(session))
    try:
        session.execute(line)
    except IllegalAction as err:
        message = str(err)
    else:
        raise AssertionError(f"{line!r} was taken")
    assert "\n" not in message
    assert (len(session.done), _book(session)) == before
    return message


def _book(session: Session) -> Any:
    book = effects.book_of(session.ruleset, session.game)
    return repr((book.effects, book.ended, book.actions))
