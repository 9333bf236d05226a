"""The ruleset kit: what the rulesets share in writing a game, beside the interface they
implement (host/core/interface.py, whose base class has the defaults).

- `Dice`: the one order every die of an action is taken in. The record's faces when the
  action is replayed; else, while the session takes the dice from the board or the table,
  the next roll given to the action that waits for them (`RollWanted` when none is left,
  a one-line refusal for a roll given of another purpose or count); else the engine's own
  dice (or, for korxsol, a roll made ahead and waiting in its queue). `Rolled` is what one
  roll came to. Who rolls is named by the session, from `Ruleset.fighter_names`.
- `Deck`: a named deck the game keeps (the standard 54 cards by default), its wanted draw
  (`Deck.wanted`, taken by `Dice.take_roll` as any roll) and the cards a draw took out.
  `exploding`: a wanted roll of plain dice that roll again on their highest face, and
  `totals`, what each die's chain came to (host/core/draws.py says how both travel).
- `summary`: a ruleset's `summary()` from its players' statistics, each team's the sums.
- `winner_name` and `from_where`: words every ruleset says the same way.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from host.core import draws
from host.core.errors import IllegalAction
from host.core.interface import RollWanted, Supplied, WantedRoll
from shared import dice as shared_dice

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
            or draws.faces_sides(wanted, rolled.faces) is None
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
        sides = draws.faces_sides(wanted, tuple(faces))
        if (
            purpose != wanted.purpose
            or sides is None
            or not all(1 <= f <= n for f, n in zip(faces, sides, strict=False))
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


class Deck:
    """A named deck the game keeps: its cards (by default the standard 54, written `KS`,
    `10H`, `Joker`) and those `left` to draw, in the deck's order. A draw takes any card
    left, each as likely (a shuffled deck's chance); the cards drawn stay out until
    `shuffle`. A plain class of a name and two lists: checkpoints and copies carry it."""

    def __init__(self, name: str, cards: Sequence[str] = draws.STANDARD_54) -> None:
        self.name = name
        self.cards = list(cards)
        self.left = list(cards)

    def wanted(self, purpose: str, count: int = 1, who: int = -1, code: int = 0) -> WantedRoll:
        """The draw of `count` cards (1..3 at a time) an action waits for, for slot `who`:
        give it to `Dice.take_roll`, and the faces it returns to `take`."""
        return WantedRoll(
            purpose,
            count,
            shared_dice.KIND_DN,
            who,
            code=code,
            sides=draws.draw_sides(len(self.left), count),
            deck=self.name,
            cards=tuple(self.left),
        )

    def own(self, count: int, below: Callable[[int], int]) -> Rolled:
        """The engine's draw of `count` cards (`below(n)`: a number 0..n-1 from the game's
        seeded dice), for `Dice.take_roll`'s `own`."""
        sides = draws.draw_sides(len(self.left), count)
        return Rolled(tuple(1 + below(n) for n in sides), "engine")

    def take(self, faces: Sequence[int]) -> list[str]:
        """Take out the cards a draw's faces name (their places among those left)."""
        drawn = draws.take(self.left, faces)
        for card in drawn:
            self.left.remove(card)
        return drawn

    def shuffle(self) -> None:
        """Every card back in the deck."""
        self.left = list(self.cards)


def exploding(purpose: str, sides: Sequence[int], who: int = -1, code: int = 0) -> WantedRoll:
    """A wanted roll of plain dice (`sides`: each die's faces) that each roll again on their
    highest face and add: the board rolls every chain, and the table types `6+6+3`."""
    return WantedRoll(
        purpose,
        len(sides),
        shared_dice.KIND_DN,
        who,
        code=code,
        sides=tuple(sides),
        explode=True,
    )


def exploding_own(sides: Sequence[int], below: Callable[[int], int]) -> Rolled:
    """The engine's exploding roll, for `Dice.take_roll`'s `own`."""
    return Rolled(tuple(draws.roll_chains(sides, below)), "engine")


def totals(faces: Sequence[int], sides: Sequence[int]) -> list[int]:
    """What each die of an exploding roll came to: its chain's sum."""
    return [sum(chain) for chain in draws.chains(faces, sides) or []]


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
