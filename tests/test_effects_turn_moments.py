"""Every duration kind timed by the turn moments a ruleset reports (`Ruleset.turn_moments`,
host/core/effect_clock.py `reported`; issue 41, item 4), through a held action, an
interrupt and a Delay (pf2-combat.txt [22]) of tests/tiny_holds.py: a turn that stops and
comes back is one turn, not two. The same game reporting nothing (the turn pointer alone)
ends them early: the last test shows the report is what times them."""

from __future__ import annotations

import pytest
from tiny_holds import TINY_AWAY, TINY_HOLDS, TINY_POINTER

from host.core import effects, registry
from host.core.effect_clock import TurnView, reported
from host.core.interface import Ruleset
from host.core.session import Session

# Each scenario: the commands before the effect is put on (during Bo's turn, round 1), then
# the steps played after it.
SCENARIOS = {
    # Bo holds; Di's turn is interrupted by Bo's held action; round 2 plays plainly.
    "hold": (
        ["end"],
        ["hold", "end", "interrupt Bo", "end", "end", "end", "end", "end"],
    ),
    # Ann holds; Bo's turn is interrupted by Ann; Bo's turn goes on and ends.
    "interrupt": (
        ["hold"],
        ["interrupt Ann", "end", "end", "end", "end", "end", "end"],
    ),
    # Bo delays; Cy ends its turn and Bo returns after it (then plays after Cy in round 2).
    "delay": (
        ["end"],
        ["delay", "return Bo", "end", "end", "end", "end", "end"],
    ),
}
EFFECTS = {
    "end": "effect Bo Dodge until=end",
    "start": "effect Cy Mark until=start of=Bo",
    "save": "effect Bo Hex save=end",
    "rounds": "effect Bo Bless rounds=1",
    "rounds of": "effect Cy Ward rounds=1 of=Bo",
    "": "effect Bo Rage",
}
# The step (index into the scenario's steps) whose lines end the effect (a save: ask), by
# (kind, scenario); None: it lasts past them all.
EXPECTED = {
    # until=end put on in Bo's own turn: the end of its following turn (round 2's).
    ("end", "hold"): 6,
    ("end", "interrupt"): 6,
    ("end", "delay"): 6,
    # until=start of Bo: its next start, round 2's (a resume is no start).
    ("start", "hold"): 5,
    ("start", "interrupt"): 5,
    ("start", "delay"): 5,
    # save=end: asked as Bo's turn really ends (not as it is held or interrupted).
    ("save", "hold"): 3,
    ("save", "interrupt"): 2,
    ("save", "delay"): 2,
    # rounds=1 from (1, 1): as the turn at position 1 of round 2 begins.
    ("rounds", "hold"): 5,
    ("rounds", "interrupt"): 5,
    ("rounds", "delay"): 4,
    # rounds=1 counted on Bo's turns (pf2-combat.txt [23]): as its next turn starts, like
    # until=start (a resume is no start).
    ("rounds of", "hold"): 5,
    ("rounds of", "interrupt"): 5,
    ("rounds of", "delay"): 5,
    ("", "hold"): None,
    ("", "interrupt"): None,
    ("", "delay"): None,
}
# The turn pointer alone: what it got wrong, the step it ended (asked) at instead.
POINTER = {
    ("end", "hold"): 3,
    ("end", "interrupt"): 2,
    ("start", "hold"): 2,
    ("start", "interrupt"): 1,
    ("start", "delay"): 1,
    ("save", "hold"): 0,
    ("save", "interrupt"): 0,
}


@pytest.fixture(autouse=True)
def holds_registered():
    for ruleset in (TINY_HOLDS, TINY_POINTER, TINY_AWAY):
        registry.register(ruleset)
    try:
        yield
    finally:
        for ruleset in (TINY_HOLDS, TINY_POINTER, TINY_AWAY):
            registry.unregister(ruleset.id)


def _session(ruleset: Ruleset) -> Session:
    path = ruleset.example_path()
    return Session(ruleset.parse_encounter(path.read_text(), str(path)), 1)


def _ends_at(ruleset: Ruleset, kind: str, scenario: str) -> tuple[int | None, Session]:
    """The step whose lines end (a save: ask) the effect, checked to do so once."""
    before, steps = SCENARIOS[scenario]
    s = _session(ruleset)
    for line in before:
        s.execute(line)
    s.execute(EFFECTS[kind])
    name = EFFECTS[kind].split()[2]
    said_at = []
    for i, line in enumerate(steps):
        said = s.execute(line)
        word = "does it end?" if kind == "save" else " ends: "
        if any(t.startswith(f"{name} on ") and word in t for t in said):
            said_at.append(i)
    assert len(said_at) <= 1, f"{name} ended (asked) at steps {said_at}"
    return (said_at[0] if said_at else None), s


@pytest.mark.parametrize("scenario", list(SCENARIOS))
@pytest.mark.parametrize("kind", list(EFFECTS))
def test_a_duration_is_timed_by_the_reported_turn_moments(kind: str, scenario: str) -> None:
    """issue 41 item 4 (docs/effects.md, "Turns that stop"): a held, interrupted or delayed
    turn is one turn: it neither ends nor starts again as it stops and goes on."""
    at, s = _ends_at(TINY_HOLDS, kind, scenario)
    assert at == EXPECTED[(kind, scenario)]
    if kind == "":
        assert [e.name for e in effects.in_play(s.game)] == ["Rage"]


@pytest.mark.parametrize("kind", list(EFFECTS))
def test_a_delay_shown_out_of_play_on_the_board_times_the_same(kind: str) -> None:
    """docs/effects.md, "Turns that stop": one who left the order is not out of the fight;
    a board that greys it while it waits changes no duration."""
    at, _ = _ends_at(TINY_AWAY, kind, "delay")
    assert at == EXPECTED[(kind, "delay")]


def test_an_effect_waiting_on_one_delaying_is_taken_and_ends_at_its_turn() -> None:
    """docs/effects.md, "Turns that stop": until=end of a fighter out of the order (delaying)
    is put on, not refused as on one who left the fight; its stopped turn is still its own,
    so "its next turn" is the one after it (docs/effects.md, "Durations")."""
    s = _session(TINY_AWAY)
    for line in ("end", "delay"):  # Bo's turn, then Bo delays (out of play on the board)
        s.execute(line)
    s.execute("effect Cy Guard until=end of=Bo")
    ended = []
    for line in ("return Bo", "end", "end", "end", "end", "end"):  # to round 2's Bo's end
        ended.append(any(t.startswith("Guard on Cy ends: Bo's turn ends") for t in s.execute(line)))
    assert ended == [False, False, False, False, False, True]


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_undo_and_redo_through_held_turns_rebuild_the_same_book(scenario: str) -> None:
    """docs/effects.md, "Exactly once": the reported moments replay with their actions."""
    s = _session(TINY_HOLDS)
    before, steps = SCENARIOS[scenario]
    for line in before:
        s.execute(line)
    for line in EFFECTS.values():
        s.execute(line)
    for line in steps:
        s.execute(line)
    book = effects.book_of(TINY_HOLDS, s.game)
    then = repr((book.effects, book.ended, book.starts, book.ends, book.held, book.away))
    s.undo(len(steps))
    s.redo(len(steps))
    book = effects.book_of(TINY_HOLDS, s.game)
    assert repr((book.effects, book.ended, book.starts, book.ends, book.held, book.away)) == then


@pytest.mark.parametrize("case", list(POINTER))
def test_the_turn_pointer_alone_ends_a_held_turns_effects_early(case: tuple[str, str]) -> None:
    """issue 41 item 4: why the report exists. The same game timed by its turn pointer
    (`turn_moments` None, the default) counts a stopped turn as two."""
    at, _ = _ends_at(TINY_POINTER, *case)
    assert at == POINTER[case] != EXPECTED[case]


def test_a_delay_that_ends_the_turn_first_ends_its_until_end_effects_then() -> None:
    """pf2-combat.txt [22]: helpful effects that would end during its turn end as it
    Delays; such a ruleset reports "end" before "leave"."""
    order = ("Ann", "Bo", "Cy")
    before = TurnView(1, 1, ("Bo",), order, (), 2)
    after = TurnView(1, 2, ("Cy",), order, (), 3)
    said = reported(before, after, [("end", "Bo"), ("leave", "Bo"), ("start", "Cy")])
    assert said == [("end", "Bo", True), ("leave", "Bo"), ("turn", 1, 2), ("start", "Cy", 1)]


def test_a_round_the_report_leaves_out_begins_before_its_first_start() -> None:
    """host/core/interface.py `turn_moments`: ("round", n) left out is put before the
    first start."""
    order = ("Ann", "Bo")
    before = TurnView(1, 1, ("Bo",), order, (), 2)
    after = TurnView(2, 0, ("Ann",), order, (), 1)
    said = reported(before, after, [("end", "Bo"), ("start", "Ann")])
    assert said == [("end", "Bo", True), ("round", 2), ("turn", 2, 0), ("start", "Ann", 2)]


def test_a_moment_the_clock_does_not_know_is_refused() -> None:
    """host/core/effect_clock.py TURN_MOMENTS: a ruleset's typo is said, not ignored."""
    view = TurnView(1, 0, ("Ann",), ("Ann",), (), 1)
    with pytest.raises(ValueError, match="no turn moment 'pause'"):
        reported(view, view, [("pause", "Ann")])
