"""The first-hour issue, item 9: d20 said "Mark on Lira ends: Lira's turn ends" after the
next turn's line ("round 1, 18: Ember's turn"), as if it ended in that turn. What the
effect book ends with a turn is said before the line where the ruleset's new turn begins
(`Ruleset.turn_begins`), and what begins with the new turn after it
(host/core/effects.py `after_action`); a ruleset that says nothing keeps the book's lines
after its own."""

from __future__ import annotations

import re

from host.core import registry
from host.core.session import Session

TURN = re.compile(r"round \d+, -?\d+: .*'s turn")


def _d20() -> Session:
    r = registry.get("d20")
    session = Session(r.parse_encounter(r.example_path().read_text(), "x.toml"), 3)
    session.execute("initiative")
    return session


def _acting(session: Session) -> str:
    """The label of the creature whose turn it is (a lair's count 20 is passed)."""
    while not session.game.entry().members:
        session.execute("end")
    game = session.game
    return game.fighters[game.entry().members[0]].label


def test_an_effect_that_ends_with_the_turn_is_said_before_the_next_turn_begins() -> None:
    s = _d20()
    who = _acting(s)
    s.execute(f"effect {who} Mark until=end")  # (the end of its next turn)
    lines: list[str] = []
    for _ in range(2 * len(s.game.order) + 1):
        lines = s.execute("end")
        if any("Mark" in line for line in lines):
            break
    ends = next(i for i, line in enumerate(lines) if "Mark" in line and "ends" in line)
    begins = next(i for i, line in enumerate(lines) if TURN.match(line))
    assert ends < begins, lines


def test_an_effect_that_ends_as_a_turn_begins_is_said_after_that_turn_s_line() -> None:
    s = _d20()
    first = _acting(s)
    s.execute("end")
    second = _acting(s)
    s.execute(f"effect {first} Ward until=start of={second}")
    lines: list[str] = []
    for _ in range(len(s.game.order) + 1):  # round the order back to the second's turn
        lines = s.execute("end")
        if any("Ward" in line for line in lines):
            break
    ends = next(i for i, line in enumerate(lines) if "Ward" in line)
    begins = next(i for i, line in enumerate(lines) if TURN.match(line))
    assert begins < ends, lines


def test_a_ruleset_that_names_no_turn_line_keeps_the_book_s_lines_after_its_own() -> None:
    r = registry.get("korxsol")
    assert r.turn_begins(["round 1: Kaelen's turn"]) is None
