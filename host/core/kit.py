"""The ruleset kit: what the rulesets share in writing a game, beside the interface they
implement (host/core/interface.py, whose base class has the defaults).

- `Dice`: the one order every die of an action is taken in. The record's faces when the
  action is replayed; else, while the session takes the dice from the board or the table,
  the next roll given to the action that waits for them (`RollWanted` when none is left,
  a one-line refusal for a roll given of another purpose or count); else the engine's own
  dice (or, for korxsol, a roll made ahead and waiting in its queue). `Rolled` is what one
  roll came to. Who rolls is named by the session, from `Ruleset.fighter_names`.
- `SeededDice`: `Dice` whose own dice are seeded per action, recording each roll as
  [purpose, faces, source]; a ruleset numbers its rolls' purposes (`codes`: 0..15, its
  own numbering, `WantedRoll.code`) and asks with `draw(purpose, who, sides)` or
  `draw_kind(purpose, who, count, kind, faces)`.
- `show_roll`: the board's last roll (`GameState.roll`) from what `SeededDice.last` keeps
  (or any faces): the board roll projection a ruleset's `device.project` calls.
- `Rules`: a `Ruleset` whose encounters are a module's (`encounters`: `parse`, `EXAMPLE`,
  `TEMPLATE`; `bundled` makes those paths). `DiceRules`: one whose
  game holds `SeededDice` as `game.dice` and plays an action in one function (`play`):
  apply, replay, the record's JSON, the rolls given and said, a new game and its board
  projection (`game_type`, `device`) come with it. Each says in its docstring the hooks
  a ruleset fills.
- `Encounter`: the shape of what `Ruleset.parse_encounter` returns (a protocol: the
  fields the host reads); `EncounterGame`: a mixin for an engine's game that keeps its
  encounter, giving the `teams` and `started` every game declares alike.
- Encounter files: host/core/encounter_files.py's `TableReader` (a ruleset's reader
  subclasses it: `integer`, `text`, `choice`, `words`, `flag`, `known`); newcomers:
  host/core/newcomers.py's `read_past_the_board` (`add` read with the ruleset's reader).
- `Deck`: a named deck the game keeps (the standard 54 cards by default), its wanted draw
  (`Deck.wanted`, taken by `Dice.take_roll` as any roll) and the cards a draw took out.
  `exploding`: a wanted roll of plain dice that roll again on their highest face, and
  `totals`, what each die's chain came to (host/core/draws.py says how both travel).
- `summary`: a ruleset's `summary()` from its players' statistics, each team's the sums.
- `winner_name` and `from_where`: words every ruleset says the same way.
- `fill_slots` and `past_the_board`: the board projection's one rule of who has a slot
  (the fighters in the order they came, while the board's state has slots: MAX_SLOTS) and
  who plays on the screens only (the rest, `Ruleset.off_board`), so that a board with more
  slots shows more fighters with no change in a ruleset.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from host.core import draws
from host.core.commandline import Command
from host.core.errors import IllegalAction
from host.core.interface import Applied, RollWanted, Ruleset, Supplied, WantedRoll
from shared import dice, roster
from shared.limits import MAX_SLOTS, NO_SLOT
from shared.state import GameState

T = TypeVar("T")

WANTED = "wanted"  # the queue of a roll given to the waiting action (it waited in none)


@runtime_checkable
class Encounter(Protocol):
    """What a ruleset's `parse_encounter` returns, as the host reads it: its `name`, its
    `teams` (their names, in order: `Ruleset.summary` and the scores use them), `source`
    (the file's text: a resume rebuilds the game from it), `path` (the file's, "" for
    none) and `ruleset` (the ruleset's id). Any object with them fits (the built-in
    rulesets' are frozen dataclasses ending in `source: str = ""`, `path: str = ""`,
    `ruleset: str = ID`); the fighters are the ruleset's own, by its own name (d20's
    `creatures`, advance's `characters`): the host never reads them."""

    @property
    def name(self) -> str: ...
    @property
    def teams(self) -> tuple[str, ...]: ...
    @property
    def source(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def ruleset(self) -> str: ...


EncounterT = TypeVar("EncounterT", bound=Encounter)


class EncounterGame(Generic[EncounterT]):
    """A mixin for an engine's game that keeps its encounter as `encounter`, of the
    ruleset's own class (`class Game(kit.EncounterGame[Encounter])`): it gives `teams` (the
    encounter's, which the host reads as `game.teams`) and `started` (False until the game
    sets it; `DiceRules.started` reads it). It adds no attribute to the game's instances,
    so a checkpoint's shape is the game's own."""

    encounter: EncounterT
    started: bool = False

    @property
    def teams(self) -> tuple[str, ...]:  # (interface.Game)
        return tuple(self.encounter.teams)


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


class SeededDice(Dice):
    """`Dice` whose own dice are seeded per action (`seed` and the action's number roll the
    same faces on every replay); each roll of an action is kept in `records` as [purpose,
    faces, source], its record, and the last in `last` as (purpose, faces, sides, who),
    for the board (`show_roll`). A ruleset fills `codes`: each purpose's number, 0..15 in
    the ruleset's own numbering (d20's and advance's `CODES`), which a wanted roll carries
    as `WantedRoll.code` and the board's state as the wanted roll's purpose
    (host/board/tether.py); it is no event code of shared.events. The ruleset calls
    `begin(n, record)` as each action starts (n: the game's count of actions played, so
    the same action rolls the same faces; its record when replayed) and `draw` (plain
    dice of given sides) or `draw_kind` (a kind of shared.dice) for each roll."""

    codes: dict[str, int] = {}

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.supplied: list[Supplied] | None = None
        self.supplied_at = 0
        self.records: list[list[Any]] = []  # the action's rolls: [purpose, faces, source]
        self._replay: list[list[Any]] | None = None
        self._rng = random.Random(0)
        self.last: tuple[str, tuple[int, ...], tuple[int, ...], int] | None = None

    def begin(self, action: int, replay: list[list[Any]] | None) -> None:
        """Action number `action` begins: replaying `replay` (its record), or rolling.
        `action` is the game's own count of the actions played before this one (d20's and
        advance's `game.actions`, raised by one at each action's end; a refused action
        raises none, as the session rebuilds its game by replay), so it is the same
        number on every replay and the seeded dice roll the same faces."""
        self.records = []
        self.new_action()
        self._replay = None if replay is None else [list(r) for r in replay]
        self._rng = random.Random(self.seed * 1_000_003 + action)

    def draw(self, purpose: str, who: int, sides: tuple[int, ...]) -> tuple[int, ...]:
        """Plain dice of `sides` (one entry a die: a d20 with advantage is (20, 20)) rolled
        for `purpose` by slot `who` (-1 nobody)."""
        wanted = WantedRoll(
            purpose, len(sides), dice.KIND_DN, who, code=self.codes[purpose], sides=sides
        )
        return self._roll(wanted, sides, sides)

    def draw_kind(
        self, purpose: str, who: int, count: int, kind: int, faces: int
    ) -> tuple[int, ...]:
        """`count` dice of shared.dice kind `kind` (each 1..`faces`) rolled for `purpose` by
        slot `who`."""
        wanted = WantedRoll(purpose, count, kind, who, code=self.codes[purpose])
        return self._roll(wanted, (faces,) * count, ())

    def _roll(
        self, wanted: WantedRoll, tops: tuple[int, ...], sides: tuple[int, ...]
    ) -> tuple[int, ...]:
        rolled = self.take_roll(
            wanted,
            self._replay,
            lambda: Rolled(tuple(self._rng.randint(1, s) for s in tops), "engine"),
        )
        for face, top in zip(rolled.faces, tops, strict=True):
            if not 1 <= face <= top:
                raise IllegalAction(
                    f"a {wanted.purpose} roll's d{top} shows {face}: it has 1..{top}"
                )
        self.records.append([wanted.purpose, list(rolled.faces), rolled.source])
        self.last = (wanted.purpose, rolled.faces, sides, wanted.who)
        return rolled.faces


def show_roll(
    state: Any,
    kind: int,
    faces: Sequence[int],
    who: int,
    sides: Sequence[int] = (),
    successes: int = 0,
) -> None:
    """The board's last roll (`state.roll` of a shared.state GameState) showing `faces` of
    dice `kind` (plain dice: each die's `sides`), rolled by slot `who` (one off the board,
    or nobody: NO_SLOT), counting `successes` (0..15)."""
    roll = state.roll
    roll.kind = kind if faces else 0
    roll.count = min(len(faces), len(roll.faces))
    for i in range(len(roll.sides)):
        roll.sides[i] = sides[i] if i < roll.count and i < len(sides) else 0
    roll.who = who if 0 <= who < state.count else NO_SLOT
    for i in range(len(roll.faces)):
        roll.faces[i] = faces[i] if i < len(faces) else 0
    roll.successes = min(15, successes)


def bundled(package: str, filename: str) -> Path:
    """The path of an encounter bundled with a ruleset's package (in its `encounters`
    folder): what a ruleset's `example_path` and `template_path` return."""
    return Path(str(resources.files(package) / "encounters" / filename))


class Rules(Ruleset):
    """A `Ruleset` whose encounter files are read by one module. The hook a ruleset fills:
    `encounters`, that module, with `parse(text, filename)` (EncounterError for a file it
    refuses), `EXAMPLE` (the path of the encounter played when none is named) and
    `TEMPLATE` (the commented file `turnlight encounter new` starts from; `bundled` makes
    the paths of files in the ruleset's package)."""

    encounters: Any = None

    def example_path(self) -> Path:
        path: Path = self.encounters.EXAMPLE
        return path

    def parse_encounter(self, text: str, filename: str) -> Any:
        return self.encounters.parse(text, filename)

    def template(self) -> str:
        text: str = self.encounters.TEMPLATE.read_text(encoding="utf-8")
        return text


class DiceRules(Rules):
    """`Rules` for a game that holds its dice as `game.dice` (a `SeededDice`) and plays an
    action in one function. The hooks a ruleset fills:

    - `play(game, cmd, record)`: the action's lines (record None: applied, else replayed
      with the rolls it recorded). It calls `game.dice.begin(game.actions, record)` first
      and raises `game.actions` by one when the action is done: `actions` is a counter
      the game keeps (0 in a new game, in `game_type`'s `__init__`), the action's number,
      which seeds its dice (d20/verbs.py and advance/verbs.py `apply`);
    - `game_type`: the engine's game, made as `game_type(encounter, seed)`, with the
      attributes `dice`, `state` (the board's, made by `device.new_state(game,
      rules_version)` and kept by `device.project(game, state)`), `actions` (above),
      `teams` and `started` (`EncounterGame` gives both), `over` (the winner's name or
      None), `log` and `timeline` (interface.Game) and `fighters` (each with a `name`);
    - `device`: the module of that board projection.

    What comes with it: `apply` and `replay` (the record is the dice's `records`),
    `record_from_json`, `supply_rolls`, `roll_lines` (`purpose faces (source)`),
    `new_game`, `project`, `started`, `winner` and `fighter_names`."""

    game_type: Any = None
    device: Any = None

    def play(self, game: Any, cmd: Command, record: list[list] | None) -> list[str]:
        raise NotImplementedError

    def new_game(self, encounter: Any, seed: int) -> Any:
        game = self.game_type(encounter, seed)
        game.state = self.device.new_state(game, self.rules_version)
        return game

    def apply(self, game: Any, cmd: Command) -> Applied:
        lines = self.play(game, cmd, None)
        return Applied(lines, [list(r) for r in game.dice.records])

    def replay(self, game: Any, cmd: Command, record: list[list]) -> list[str]:
        return self.play(game, cmd, record)

    def project(self, game: Any) -> None:
        self.device.project(game, game.state)

    def record_from_json(self, data: Any) -> list[list]:
        return [[str(p), [int(x) for x in f], str(s)] for p, f, s in data]

    def started(self, game: Any) -> bool:
        return bool(game.started)

    def winner(self, game: Any) -> str | None:
        over: str | None = game.over
        return over

    def fighter_names(self, game: Any) -> list[str]:
        return [f.name for f in game.fighters]

    def supply_rolls(self, game: Any, rolls: list[Supplied] | None) -> None:
        game.dice.supply(rolls)

    def roll_lines(self, game: Any) -> list[str]:
        return [
            f"{purpose} {' '.join(map(str, faces))}{from_where(source)}"
            for purpose, faces, source in game.dice.records
        ]


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
            dice.KIND_DN,
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
        dice.KIND_DN,
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
