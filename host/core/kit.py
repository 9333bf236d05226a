"""The ruleset kit: what the rulesets share in writing a game, beside the interface they
implement (host/core/interface.py, whose base class has the defaults).

- `Dice`: the one order every die of an action is taken in. The record's faces when the
  action is replayed; else, while the session takes the dice from the board or the table,
  the next roll given to the action that waits for them (`RollWanted` when none is left,
  a one-line refusal for a roll given of another purpose or count); else the engine's own
  dice (or, for korxsol, a roll made ahead and waiting in its queue). `Rolled` is what one
  roll came to. Who rolls is named by the session, from `Ruleset.fighter_names`.
- `summary`: a ruleset's `summary()` from its players' statistics, each team's the sums.
- `winner_name` and `from_where`: words every ruleset says the same way.
- `fill_slots` and `past_the_board`: the board projection's one rule of who has a slot
  (the fighters in the order they came, while the board's state has slots: MAX_SLOTS) and
  who plays on the screens only (the rest, `Ruleset.off_board`), so that a board with more
  slots shows more fighters with no change in a ruleset.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from host.core.errors import IllegalAction
from host.core.interface import RollWanted, Supplied, WantedRoll
from shared import roster
from shared.limits import MAX_SLOTS
from shared.state import GameState

T = TypeVar("T")

WANTED = "wanted"  # the queue of a roll given to the waiting action (it waited in none)


@dataclass(frozen=True)
class Rolled:
    """What one roll came to: its faces, where they came from ("engine", "board" or
    "entered") and the queue they waited in (a ruleset's queue of rolls made ahead, WANTED
    for a roll given to the waiting action, "" for the engine's dice). Read back from a
    record, also what the roll was for and who rolled it, where the record keeps them."""

    faces: tuple[int, ...]
    source: str
    queue: str = ""
    purpose: str | None = None
    who: int | None = None


class Dice:
    """An action's dice, taken in the house order (`take_roll`). A ruleset's dice object
    is one (advance's Dice, korxsol's Roller), or its game is (forms, stones): `supplied`
    and `supplied_at` are that object's own attributes, and the kit adds none, because a
    stored checkpoint is checked against the shape of the game as it was written."""

    # The rolls given to the action that waits for its dice (Ruleset.supply_rolls), taken
    # in order; None: the engine rolls.
    supplied: list[Supplied] | None
    supplied_at: int  # how many of them the action being applied has taken

    def supply(self, rolls: list[Supplied] | None) -> None:
        """The rolls the next action takes, in order (None: the engine's dice)."""
        self.supplied = rolls

    def new_action(self) -> None:
        """An action begins: it takes the rolls given from the first."""
        self.supplied_at = 0

    def take_roll(
        self,
        wanted: WantedRoll,
        replaying: list[Any] | deque[Any] | None,
        own: Callable[[], Rolled],
    ) -> Rolled:
        """The roll `wanted` (its purpose, count and kind of dice, who rolls it): the next
        entry of `replaying` (the action's record, while it is replayed), else the next
        roll given to the waiting action, else `own()`, the engine's."""
        if replaying is not None:
            return self.recorded(wanted, replaying)
        if self.supplied is not None:
            return self.given(wanted)
        return own()

    def recorded(self, wanted: WantedRoll, replaying: list[Any] | deque[Any]) -> Rolled:
        """The record's next roll, which must be the roll wanted (a journal that does not
        fit the action is refused in one line)."""
        if not replaying:
            raise IllegalAction(f"the journal holds no {wanted.purpose} roll for this action")
        entry = replaying.popleft() if isinstance(replaying, deque) else replaying.pop(0)
        rolled = self.read_record(entry)
        if (
            rolled.purpose not in (None, wanted.purpose)
            or rolled.who not in (None, wanted.who)
            or len(rolled.faces) != wanted.count
        ):
            raise IllegalAction(
                f"the journal's {rolled.purpose or 'next'} roll of {len(rolled.faces)} dice"
                f" does not fit this {wanted.purpose} roll of {wanted.count}"
            )
        return rolled

    def given(self, wanted: WantedRoll) -> Rolled:
        """The next roll given to the waiting action; RollWanted when it has none left."""
        supplied = self.supplied
        assert supplied is not None
        if self.supplied_at >= len(supplied):
            raise RollWanted(wanted)
        purpose, faces, source = supplied[self.supplied_at]
        self.supplied_at += 1
        if (
            purpose != wanted.purpose
            or len(faces) != wanted.count
            or not all(1 <= f <= n for f, n in zip(faces, wanted.sides, strict=False))
        ):
            of = f" ({'+'.join(f'd{n}' for n in wanted.sides)})" if wanted.sides else ""
            raise IllegalAction(
                f"the {source} {purpose} roll of {len(faces)} dice does not fit this"
                f" {wanted.purpose} roll of {wanted.count}{of}"
            )
        return Rolled(tuple(faces), source, WANTED, purpose, wanted.who)

    def read_record(self, entry: Any) -> Rolled:
        """One entry of an action's record as the roll it was; by default the entry is
        (purpose, faces, source), as a roll given is."""
        purpose, faces, source = entry
        return Rolled(tuple(faces), str(source), purpose=str(purpose))


def from_where(source: str) -> str:
    """What a roll's line adds after its faces: ` (board)`, ` (entered)`, or nothing for
    the engine's own dice."""
    return "" if source == "engine" else f" ({source})"


def winner_name(teams: Sequence[str], winner: int | None) -> str | None:
    """`Ruleset.winner` of a game that keeps the winning team's index (-1: nobody won)."""
    if winner is None:
        return None
    return teams[winner] if winner >= 0 else "nobody"


def summary(
    players: Iterable[tuple[str, str, dict[str, int]]],
    teams: Sequence[str],
    totals: Sequence[str] | None = None,
) -> dict:
    """`Ruleset.summary` from each player's (name, team, statistics): every team's
    statistics are the sums of its players' `totals` (by default every statistic the
    players have), in that order; a ruleset adds a team statistic that is not a sum after."""
    rows = list(players)
    keys = list(totals) if totals is not None else list(rows[0][2] if rows else ())
    return {
        "players": {name: dict(stats) for name, _, stats in rows},
        "teams": {
            team: {key: sum(stats[key] for _, of, stats in rows if of == team) for key in keys}
            for team in teams
        },
        "team_of": {name: team for name, team, _ in rows},
    }


def fill_slots(
    state: GameState, fighters: Sequence[T], slot: Callable[[T], tuple[str, int, int, int, int]]
) -> None:
    """Give each of `fighters` (in the order they came: the encounter's, then those who
    joined) that has no slot yet one of its own, while the board's state has one left
    (MAX_SLOTS); `slot(f)`: its (label, team, order key, allowance, health), as
    shared.roster.add_slot takes them. Slot i is fighter i; the rest are `past_the_board`."""
    for f in fighters[state.count : MAX_SLOTS]:
        roster.add_slot(state, *slot(f))


def past_the_board(state: GameState, fighters: Sequence[T]) -> list[T]:
    """Those of `fighters` (in the order they came) with no board slot: they play on the
    screens only (`Ruleset.off_board`), and the board counts them (GameState.off_board)."""
    return list(fighters[state.count :])
