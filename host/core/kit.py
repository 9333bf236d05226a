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
- `Roll` and `read_dice`: dice and a flat modifier as an encounter file writes them.
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
  subclasses it: `integer`, `text`, `choice`, `words`, `flag`, `known`; a file of
  `[[creature]]`s, `head` and `creatures`); a fighter named as typed: `find_fighter`, and
  the bases of a creature encounter's fighter and game, `Creature` and `Fight`; newcomers:
  host/core/newcomers.py's `read_past_the_board` (`add` read with the ruleset's reader).
- `Deck`: a named deck the game keeps (the standard 54 cards by default), its wanted draw
  (`Deck.wanted`, taken by `Dice.take_roll` as any roll) and the cards a draw took out.
  `exploding`: a wanted roll of plain dice that roll again on their highest face, and
  `totals`, what each die's chain came to (host/core/draws.py says how both travel).
- `summary`: a ruleset's `summary()` from its players' statistics, each team's the sums.
- `winner_name`, `won` and `from_where`: words every ruleset says the same way; `point`
  and `downs`: a timeline's point of a game of fighters with hit points, foes down.
- `fill_slots` and `past_the_board`: the board projection's one rule of who has a slot
  (the fighters in the order they came, while the board's state has slots: MAX_SLOTS) and
  who plays on the screens only (the rest, `Ruleset.off_board`: `DiceRules` says so), so
  that a board with more slots shows more fighters with no change in a ruleset;
  `hold_turn`, the turn the board shows while one with no slot is taken.
- A creature encounter: `CreatureRules` (a `DiceRules` with a summary, score line, turn
  lines and who left) and, for one run on an initiative order of entries (d20's, pf2's),
  `InitiativeRules` (its views and completions from a few hooks, and the declarations
  such a game shares: its docstring names the hooks), `Creature` and `Fight`
  (the bases of its fighter and its game: `creature_stats`, `Fight.meet`), `units` (the
  initiative order's, a group one), `pick` (an attack named as typed), `leave`
  (`remove`), and the steps its verbs share: `may_play`, `initiative_once`,
  `first_round`, `advanced` (`next`), `end_named`, `named_winner` and `finish_named`
  (`finish`), `action_done`, `auto_end` and `over` (an action's end and the fight's),
  `trigger_of` and `readied` (`ready`, `trigger`), `acting`, `opening` (the demo's first
  move), `fighter_or_none`, `offered_to`, `names_of` and `quoted` (completions). Its
  board: `creature_descriptor` (the ruleset's `device` fills the counters and marks),
  `board_state` and `in_order`, and the steps of its `project`: `place_order`,
  `first_active` and `downs_and_roll`; `engine_refusals`, the board's presses refused
  while the engine rolls (`Ruleset.board_refusals`). Its file: host/core/encounter_files.py
  `creature_reader` and `TableReader.options`; its checkpoints: host/core/state_check.py
  `FIGHT` and `fight_relations`.
"""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from host.core import draws, newcomers, numbers
from host.core.commandline import Command
from host.core.errors import IllegalAction
from host.core.interface import (
    Applied,
    Fighter,
    LiveRow,
    LiveTable,
    RollWanted,
    Ruleset,
    Supplied,
    Table,
    WantedRoll,
)
from host.core.names import closest, plain
from shared import dice, roster
from shared import events as ev
from shared.descriptor_pack import NATURALS, UNIT_KEY, pack
from shared.initiative import R_OUT, R_SUCCESSES
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


DICE = re.compile(r"^\s*(\d+d\d+(\s*\+\s*\d+d\d+)*)(\s*[+-]\s*\d+)?\s*$", re.ASCII)
DIE = re.compile(r"(\d+)d(\d+)", re.ASCII)


@dataclass(frozen=True)
class Roll:
    """Dice and a flat modifier: `2d6+1d8+3` is dice ((2, 6), (1, 8)) and flat 3."""

    dice: tuple[tuple[int, int], ...]
    flat: int = 0

    @property
    def sides(self) -> tuple[int, ...]:
        """Each die's faces, one entry a die (the wanted roll's `sides`)."""
        return tuple(s for n, s in self.dice for _ in range(n))

    def text(self) -> str:
        out = "+".join(f"{n}d{s}" for n, s in self.dice)
        if not out:
            return str(self.flat)
        return out + (f"{self.flat:+d}" if self.flat else "")


def read_dice(text: str, sides: Sequence[int], most_kinds: int, most: int) -> Roll | None:
    """`2d6+1d8+3` as a Roll, or None when it is not one: each die one of `sides`, each kind
    written once, at most `most_kinds` kinds and 1..`most` dice."""
    m = DICE.match(text)
    if not m:
        return None
    found = tuple((int(n), int(s)) for n, s in DIE.findall(m.group(1)))
    kinds = {s for _, s in found}
    if any(s not in sides for s in kinds) or len(kinds) != len(found) or len(kinds) > most_kinds:
        return None
    if not 1 <= sum(n for n, _ in found) <= most:
        return None
    flat = numbers.whole("".join(m.group(3).split()), signed=True) if m.group(3) else 0
    return Roll(found, flat)


def show_roll(
    state: Any,
    kind: int,
    faces: Sequence[int],
    who: int,
    sides: Sequence[int] = (),
    successes: int = 0,
    degree: int = 0,
) -> None:
    """The board's last roll (`state.roll` of a shared.state GameState) showing `faces` of
    dice `kind` (plain dice: each die's `sides`), rolled by slot `who` (one off the board,
    or nobody: NO_SLOT), counting `successes` (0..15), of the `degree` of success the
    ruleset judged it to have (shared.state's Roll: 1 critical failure .. 4 critical
    success; 0 none)."""
    roll = state.roll
    roll.kind = kind if faces else 0
    roll.count = min(len(faces), len(roll.faces))
    for i in range(len(roll.sides)):
        roll.sides[i] = sides[i] if i < roll.count and i < len(sides) else 0
    roll.who = who if 0 <= who < state.count else NO_SLOT
    for i in range(len(roll.faces)):
        roll.faces[i] = faces[i] if i < len(faces) else 0
    roll.successes = min(15, successes)
    roll.degree = degree


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
    `new_game`, `project`, `started`, `winner`, `fighter_names` and `off_board` (the
    fighters past the board's slots, as `fighters` shows them)."""

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

    def off_board(self, game: Any) -> list[Fighter]:
        past = {f.name for f in past_the_board(game.state, game.fighters)}
        return [f for f in self.fighters(game) if f.name in past]


# The statistics a creature encounter's fighter keeps and a player's summary sums.
CREATURE_STATS = ("damage_dealt", "damage_taken", "hits", "misses", "crits", "downs", "healed")


def creature_stats(*more: str) -> dict[str, int]:
    """A new creature's statistics: CREATURE_STATS, then the ruleset's `more`, each 0 (its
    Fighter's `stats`, as `field(default_factory=kit.creature_stats)`)."""
    return dict.fromkeys((*CREATURE_STATS, *more), 0)


# What `dice` says while no action waits, in a game whose engine may roll every die.
NO_ROLL_WAITS = (
    "no action waits for a roll: the engine rolls them (`dice from board` or"
    " `dice from entered`, and the next roll waits for the board or for `dice`)"
)


def engine_refusals(waiting: str, counters: str) -> dict[int, str]:
    """`Ruleset.board_refusals` of a game that counts its own counters and, with the
    engine's dice (`--dice engine`), rolls its own: the roll keys' presses are refused
    naming `dice from board` (the next `waiting`, "roll" or "check", then waits for the
    key), the counter keys' with `counters` (what the rules count, and where instead)."""
    return {
        **dict.fromkeys(
            (ev.ROLL_ACTION, ev.CHANCE, ev.D100),
            "the engine rolls the dice (--dice engine): the board's roll is not used;"
            f" `dice from board` and the next {waiting} waits for the roll key",
        ),
        **dict.fromkeys((ev.COUNTER_UP, ev.COUNTER_DOWN), counters),
    }


class CreatureRules(DiceRules):
    """`DiceRules` for a creature encounter: a `Fight` of `Creature`s, each with its
    `stats`, its order's units from `device.order(game)`, and `game.gone`. The hooks a
    ruleset fills beside DiceRules': `stat_keys`, the statistics a player's summary sums,
    and `turn_line`, the pattern of a turn's first line in the log. What comes with it:
    `summary`, `score_line` (each team's foes down), `turn_begins`, `gone` and `_in_order`
    (the fighters in the order's units). `InitiativeRules` adds the views, completions and
    declarations of a game whose order is one of entries (d20's, pf2's)."""

    stat_keys: tuple[str, ...] = ()
    turn_line: re.Pattern[str] = re.compile("$^")

    def gone(self, game: Any) -> set[str]:
        return set(game.gone)

    def summary(self, game: Any) -> dict:
        teams = game.teams
        players = [
            (f.name, teams[f.spec.team], {k: f.stats[k] for k in self.stat_keys})
            for f in game.fighters
        ]
        return summary(players, teams)

    def score_line(self, game: Any) -> str:
        return "foes down: " + " · ".join(f"{t} {downs(game, n)}" for n, t in enumerate(game.teams))

    def turn_begins(self, lines: list[str]) -> int | None:
        return next((i for i, line in enumerate(lines) if self.turn_line.match(line)), None)

    def _in_order(self, game: Any) -> list[Any]:
        return [game.fighters[i] for unit in self.device.order(game) for i in unit]


class InitiativeRules(CreatureRules):
    """`CreatureRules` for a creature encounter run on an initiative order of entries (d20's,
    pf2's): a `Fight` whose `entry()` is the entry whose turn it is (None before
    initiative), with HP, temporary HP and conditions. The hooks a ruleset fills beside
    CreatureRules':

    - `stat_keys`, the statistics a player's summary sums (CREATURE_STATS by default), and
      `turn_line`, the pattern of a turn's first line in the log;
    - `verbs`, `ai` and `choices`: its modules of `apply(game, cmd, record)` (`play`),
      `plan_turn(game)` and `unusable(game, words, names)`;
    - the views' words: `state_word(f)` (up, dying ...), `condition_words(game, f,
      booked)` (booked False: without the host's effect book, which the live views add),
      `fighter_notes(game, f, acting)` (the screens' words of a fighter), `grid_tail(game,
      f, acting)` (a grid row's words after its temporary HP), `turn_headline(game, e)`
      (what the headline says of entry `e`'s turn) and `hp_max(f)` (by default its stat
      line's `hp`);
    - the completions: `joiners` (its host/core/newcomers.py `Roster`, which `add` and
      `remove` complete from), `purposes` (`dice PURPOSE`), `condition_names`, `who_may` (a verb
      whose first word completes only the creatures it applies to: {verb: (game, f) ->
      bool}), `recoverable(game, f)` (what `recover` ends), and `complete_more(game,
      words, joining)`, the ruleset's own, asked first (None where it has none; `joining`:
      what `add` or `remove` completes to, None for another verb; `names_of` gives a
      fighter's attacks or powers), and `help_line`, what `help` notes of its options.

    What comes with it: `play`, `plan_turn`, `unusable`, `summary`, `score_line` (each
    team's foes down), `turn_begins`, `gone`, `_in_order` (the fighters in the order's
    units), `_acting` (the fighters whose turn it is), `headline`, `roster`,
    `live_roster`, `fighters`, `device_grid` and `complete`; and the declarations such a
    game shares: `initiative` starts it, `next` ends a turn, the engine may roll every
    die (`asks_for_rolls`, `no_roll_waits`), the totals and charts of damage and downs."""

    stat_keys: tuple[str, ...] = CREATURE_STATS
    verbs: Any = None
    ai: Any = None
    choices: Any = None
    purposes: tuple[str, ...] = ()
    condition_names: tuple[str, ...] = ()
    who_may: dict[str, Callable[[Any, Any], bool]] = {}
    joiners: Any = None  # its newcomers.Roster (`add`'s words)
    help_line = ""  # what `help` notes of its verbs' options
    start_command = "initiative"
    next_turn_commands = ("next",)
    session_totals = ("damage_dealt", "downs")
    stat_labels = {"damage_dealt": "damage dealt", "damage_taken": "damage taken"}
    chart_panels = (("hp", "HP per creature"), ("score", "foes down per team"))
    no_roll_waits = NO_ROLL_WAITS
    asks_for_rolls = True

    def play(self, game: Any, cmd: Command, record: list[list] | None) -> list[str]:
        lines: list[str] = self.verbs.apply(game, cmd, record)
        return lines

    def plan_turn(self, game: Any) -> list[str]:
        plan: list[str] = self.ai.plan_turn(game)
        return plan

    def unusable(self, game: Any, words: list[str], names: list[str]) -> dict[str, str]:
        why: dict[str, str] = self.choices.unusable(game, words, names)
        return why

    # -- the views' hooks ---------------------------------------------------------------
    def hp_max(self, f: Any) -> int:
        hp: int = f.spec.hp
        return hp

    def state_word(self, f: Any) -> str:
        raise NotImplementedError

    def condition_words(self, game: Any, f: Any, booked: bool = True) -> list[str]:
        raise NotImplementedError

    def fighter_notes(self, game: Any, f: Any, acting: bool) -> list[str]:
        raise NotImplementedError

    def grid_tail(self, game: Any, f: Any, acting: bool) -> str:
        raise NotImplementedError

    def turn_headline(self, game: Any, e: Any) -> str:
        raise NotImplementedError

    def recoverable(self, game: Any, f: Any) -> list[str]:
        return []

    def complete_more(self, game: Any, words: list[str], joining: list[str] | None) -> Any:
        return None

    def help_notes(self) -> list[str]:
        return [self.help_line, newcomers.help_note(self.joiners)]

    # -- the views ------------------------------------------------------------------------
    def _acting(self, game: Any) -> list[int]:
        e = game.entry()
        if e is None or game.over is not None:
            return []
        return list(e.members)

    def headline(self, game: Any) -> tuple[str, str]:
        title = f"{game.encounter.name}, round {game.round}"
        if game.over is not None:
            return title, f"the fight is over: {won(game.over)}"
        if not game.started:
            return title, "`initiative` rolls initiative and starts round 1"
        e = game.entry()
        assert e is not None
        return title, self.turn_headline(game, e)

    def _health(self, f: Any) -> str:
        return f"{f.hp}/{self.hp_max(f)}" + (f" +{f.temp}" if f.temp else "")

    def roster(self, game: Any) -> Table:
        rows = [
            [
                f.name,
                game.teams[f.spec.team],
                self._health(f),
                str(f.spec.ac),
                "-" if f.initiative is None else str(f.initiative),
                self.state_word(f),
                ", ".join(self.condition_words(game, f)) or "-",
            ]
            for f in self._in_order(game)
        ]
        return Table(["name", "team", "HP", "AC", "init", "state", "conditions"], rows, (6,))

    def live_roster(self, game: Any) -> LiveTable:
        now = set(self._acting(game))
        rows = [
            LiveRow(
                [
                    f.label,
                    f"{f.hp}" + (f"+{f.temp}" if f.temp else ""),
                    str(f.spec.ac),
                    "-" if f.initiative is None else str(f.initiative),
                ],
                ", ".join(
                    ([] if self.state_word(f) == "up" else [self.state_word(f)])
                    + self.condition_words(game, f, booked=False)  # (the host adds the book's)
                ),
                f.index in now,
            )
            for f in self._in_order(game)
        ]
        return LiveTable(["who", "HP", "AC", "init"], rows)

    def fighters(self, game: Any) -> list[Fighter]:
        now = set(self._acting(game))
        return [
            Fighter(
                f.name,
                game.teams[f.spec.team],
                f.label,
                f.hp,
                self.hp_max(f),
                self.fighter_notes(game, f, f.index in now),
                [],
                f.index in now,
                not f.in_fight,
            )
            for f in self._in_order(game)
        ]

    def device_grid(self, game: Any, color: bool) -> str:
        now = set(self._acting(game))
        lines = [f"round {game.round}"]
        for f in self._in_order(game):
            mark = ">" if f.index in now else ("x" if not f.in_fight else " ")
            lines.append(
                f"{mark} {f.label:<3} {game.teams[f.spec.team][:8]:<8}"
                f" HP {f.hp:>3}/{self.hp_max(f):<3}"
                f" tmp {f.temp:>2}{self.grid_tail(game, f, f.index in now)}"
            )
        return "\n".join(lines)

    def complete(self, game: Any, words: list[str]) -> list[str]:
        present = [f.name for f in game.fighters if f.in_fight]
        joining = newcomers.complete(
            words, game.encounter.source, self.joiners, present, game.encounter.teams
        )
        own = self.complete_more(game, words, joining)
        if own is not None:
            return list(own)
        if joining is not None:
            return joining
        if words[0] == "dice" and len(words) == 2:
            return [*self.purposes, "from"]
        if words[:2] == ["dice", "from"] and len(words) == 3:
            return ["board", "engine", "entered"]
        if words[0] == "condition" and len(words) == 3:
            return list(self.condition_names)
        if words[0] in self.who_may and len(words) == 2:
            return [f.label for f in game.fighters if self.who_may[words[0]](game, f)]
        if words[0] == "recover" and len(words) == 3:
            return names_of(game, words[1], lambda f: self.recoverable(game, f))
        if words[0] == "finish" and len(words) == 2:
            return list(game.teams) + ["nobody"]
        return [f.label for f in game.fighters]


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


class Creature:
    """The base of a fighter of a creature encounter (d20's, pf2's: a dataclass of its own
    fields): it has a `spec` (with a `name` and a `label`), `hp`, `dead` and `fled`."""

    spec: Any
    hp: int
    dead: bool
    fled: bool

    @property
    def name(self) -> str:
        name: str = self.spec.name
        return name

    @property
    def label(self) -> str:
        label: str = self.spec.label
        return label

    @property
    def in_fight(self) -> bool:
        """Still in the fight: not dead, not fled or gone (a dying creature is)."""
        return not self.dead and not self.fled

    @property
    def down(self) -> bool:
        """At 0 HP, dead or gone: not standing."""
        return not self.in_fight or self.hp == 0


F = TypeVar("F")
E = TypeVar("E")


class Fight(Generic[F, E]):
    """The base of a creature encounter's game (d20's, pf2's): it has its `encounter` (with
    its `teams`), `fighters` (`Creature`s), `round` (0 before initiative), and `order` and
    `at`, the initiative order's entries and the place of the one whose turn it is."""

    encounter: Any
    fighters: list[F]
    round: int
    order: list[E]
    at: int

    def meet(self, encounter: Any, seed: int, fighter: Callable[[Any, int, int], F]) -> None:
        """A new game's first attributes, the game's `__init__` calls it first: its
        `encounter`, the encounter's `options`, its `seed` and `fighters`, each made as
        `fighter(spec, index, hp)` from the encounter's `creatures` (at full HP)."""
        self.encounter = encounter
        self.options = encounter.options
        self.seed = seed
        self.fighters = [fighter(spec, i, spec.hp) for i, spec in enumerate(encounter.creatures)]

    @property
    def teams(self) -> tuple[str, ...]:  # (interface.Game)
        teams: tuple[str, ...] = self.encounter.teams
        return teams

    @property
    def started(self) -> bool:
        return self.round > 0

    def fighter(self, word: str) -> F:
        """The fighter `word` names (`find_fighter`)."""
        found: F = find_fighter(self.fighters, word)
        return found

    def entry(self) -> E | None:
        """The entry whose turn it is (None before initiative)."""
        return self.order[self.at] if self.order else None


def find_fighter(fighters: Sequence[Any], word: str) -> Any:
    """The fighter `word` names (its name or label, as typed: host/core/names.py `plain`),
    refused in one line that names what would work: a group's members (`Goblin` for
    `Goblin 1` and `Goblin 2`), the closest name, or every name. Each fighter has a `name`
    and a `label`."""
    key = plain(word)
    for f in fighters:
        if key in (plain(f.name), plain(f.label)):
            return f
    # A group's members are "Goblin 1", "Goblin 2": "Goblin" names them all, as Tab does.
    members = [f for f in fighters if plain(f.name).startswith(key + " ")]
    if members:
        named = " or ".join(f"{f.name!r} ({f.label})" for f in members)
        raise IllegalAction(f"unknown creature {word!r}; did you mean {named}?")
    every = [f.name for f in fighters]
    close = closest(word, every)
    if close is not None:
        raise IllegalAction(f"unknown creature {word!r}; did you mean {close[0]!r}?")
    raise IllegalAction(f"unknown creature {word!r} (known: {', '.join(every)})")


def quoted(name: str) -> str:
    """A name as a command takes it: in quotes where it has a space."""
    return f'"{name}"' if " " in name else name


def units(fighters: Sequence[T]) -> list[list[T]]:
    """The fighters in the fight (`in_fight`) as the initiative order's units, in the
    order they came: a group of like creatures (its members' `spec.group`, -1 none) one."""
    groups: dict[int, list[T]] = {}
    out: list[list[T]] = []
    for f in fighters:
        if not f.in_fight:  # type: ignore[attr-defined]
            continue
        group: int = f.spec.group  # type: ignore[attr-defined]
        if group >= 0:
            if group not in groups:
                groups[group] = []
                out.append(groups[group])
            groups[group].append(f)
        else:
            out.append([f])
    return out


def named_winner(teams: Sequence[str], word: str) -> str:
    """The winner `finish WORD` names: a team, or nobody (no word, or `nobody`)."""
    if not word or plain(word) == "nobody":
        return "nobody"
    found = [t for t in teams if plain(t) == plain(word)]
    if not found:
        raise IllegalAction(f"unknown team {word!r} (known: {', '.join(teams)}, nobody)")
    return found[0]


def end_named(game: Any, cmd: Command) -> None:
    """`end [NAME]` ends the turn in every game: a name, if given, must be the one whose
    turn it is (`game.turn_of`); a team's name is refused saying that ending the fight is
    `finish`."""
    if cmd.args:
        word = " ".join(cmd.args)
        if plain(word) == "nobody" or any(plain(t) == plain(word) for t in game.teams):
            raise IllegalAction(f"`end` ends the turn; to end the fight: `finish {word}`")
        named = game.fighter(word)
        if not game.turn_of(named):
            raise IllegalAction(f"it is not {named.name}'s turn: `end` alone ends the turn")


def leave(game: Any, cmd: Command) -> tuple[Any, list[str]]:
    """`remove NAME [WHY]`: the fighter named leaves the fight as one who fled does
    (`fled`; `game.gone` keeps why), refused if it is already out; it and the lines said."""
    name, why = newcomers.read_leaver(cmd, lambda w: game.fighter(w).name, game.gone)
    f = game.fighter(name)
    if not f.in_fight:
        raise IllegalAction(f"remove: {f.name} is already out of the fight")
    f.fled = True
    game.gone[f.name] = why
    return f, [f"{f.name} leaves the fight ({why}); its statistics stay in the scores"]


def initiative_once(game: Any) -> None:
    """Initiative is rolled once, at the fight's start: refused after, naming `add`."""
    if game.started:
        raise IllegalAction(
            f"initiative is rolled once, at the start; this is round {game.round}"
            " (`add NAME` brings a newcomer in with its own roll)"
        )


def advanced(game: Any, advance: Callable[[Any], list[str]]) -> list[str]:
    """`next`: the turn moves on (`advance(game)`, the ruleset's), and a new round adds a
    point to the game's timeline (`point`)."""
    was = game.round
    lines = advance(game)
    if game.round != was:
        game.timeline.append(point(game))
    return lines


def fighter_or_none(game: Any, word: str) -> Any:
    """The fighter `word` names (`game.fighter`), or None for a word that names none (the
    choices offered after a name typed so far)."""
    try:
        return game.fighter(word)
    except IllegalAction:
        return None


def names_of(game: Any, word: str, items: Callable[[Any], Iterable[Any]]) -> list[str]:
    """The completions of what the fighter `word` names has (`items(f)`: names, or things
    with a `name`), each as a command takes it (`quoted`); none for a word naming none."""
    f = fighter_or_none(game, word)
    if f is None:
        return []
    return [quoted(x if isinstance(x, str) else x.name) for x in items(f)]


def offered_to(game: Any, words: list[str], places: dict[str, int]) -> Any:
    """The fighter a line being completed names (its second word) where its verb offers
    choices at this count of words (`places`: {verb: the count}, `Ruleset.unusable`'s);
    None otherwise, or for a word naming none."""
    at = places.get(words[0])
    return fighter_or_none(game, words[1]) if len(words) == at else None


def opening(game: Any) -> tuple[list[str] | None, Any]:
    """A demo player's move before its turns: none once the fight is over, `initiative`
    before it starts; while it is under way, None and the entry whose turn it is."""
    if game.over is not None:
        return [], None
    if not game.started:
        return ["initiative"], None
    return None, game.entry()


def may_play(game: Any, cmd: Command) -> None:
    """A fight's verbs wait for initiative (but `initiative`, `finish`, `add`, `remove`)
    and stop once the fight is over: refused in one line saying why."""
    if game.over is not None:
        raise IllegalAction(f"the fight is over: {won(game.over)}")
    if not game.started and cmd.verb not in ("initiative", "finish", "add", "remove"):
        raise IllegalAction("roll initiative first: `initiative`")


def action_done(
    game: Any, cmd: Command, lines: list[str], settle: Callable[[Any, list[str]], None]
) -> list[str]:
    """An action's end in a creature fight's `apply`: the game's count of actions raised
    (`DiceRules.play`), `settle(game, lines)` (the ruleset's: has the fight ended by
    itself?) unless the action was `finish`, and its lines logged: the lines."""
    game.actions += 1
    if cmd.verb != "finish":
        settle(game, lines)
    game.log.extend(lines)
    return lines


def auto_end(
    game: Any,
    lines: list[str],
    standing: Callable[[Any], bool],
    finish: Callable[[Any, str, list[str]], None],
) -> None:
    """With `end = "auto"` (`game.options.end`), once the fight has started: the fight ends
    (`finish(game, winner, lines)`, the ruleset's) once at most one team has anyone
    `standing(f)` (the ruleset's), that team the winner (nobody for none)."""
    if game.options.end != "auto" or not game.started:
        return
    teams = sorted({f.spec.team for f in game.fighters if standing(f)})
    if len(teams) > 1:
        return
    finish(game, game.teams[teams[0]] if teams else "nobody", lines)


def over(game: Any, winner: str, lines: list[str], after: Sequence[str] = ()) -> None:
    """The fight is over: `winner` (a team's name or "nobody") won, said in `lines`, then
    the ruleset's `after` (what goes on after it), and the timeline's last point."""
    game.over = winner
    lines.append(f"the fight is over: {won(winner)}")
    lines += after
    game.timeline.append(point(game))


def finish_named(
    game: Any, cmd: Command, finish: Callable[[Any, str, list[str]], None]
) -> list[str]:
    """`finish [TEAM|nobody]`: the game master ends the fight (`finish(game, winner,
    lines)`, the ruleset's), saying that `undo` takes it back."""
    winner = named_winner(game.teams, " ".join(cmd.args))
    lines: list[str] = []
    finish(game, winner, lines)
    lines.append("(`undo` takes it back: the fight goes on)")
    return lines


def trigger_of(cmd: Command) -> str:
    """`ready NAME TRIGGER...`: the readied action's trigger and what it does (refused in
    one line where none is given)."""
    cmd.arg(1, "a trigger")
    return " ".join(cmd.args[1:])


def readied(f: Any) -> str:
    """`trigger NAME`: what `f` readied (`f.readied`), refused in one line naming `ready`
    where it readied nothing."""
    if not f.readied:
        raise IllegalAction(
            f"{f.name} has no readied action (`ready {f.label} TRIGGER` readies one)"
        )
    what: str = f.readied
    return what


def first_round(game: Any, lines: list[str], start_turn: Callable[[Any], list[str]]) -> list[str]:
    """Initiative rolled (`lines` said it): round 1 begins at the order's first entry, whose
    turn starts (`start_turn(game)`, the ruleset's), and the timeline has its first point."""
    game.round = 1
    game.at = 0
    lines += start_turn(game)
    game.timeline.append(point(game))
    return lines


def acting(game: Any) -> set[int]:
    """The fighters (by index) of the entry whose turn it is (`game.entry()`, with its
    `members`): none before initiative or once the fight is over."""
    e = game.entry()
    return set(e.members) if e is not None and game.over is None else set()


def pick(owner: str, items: Sequence[T], word: str | None, what: str) -> T:
    """The one of `items` (each with a `name`: a stat line's attacks) that `word` names
    as typed, the first for no word; refused in one line naming `owner`'s `what`s."""
    if not items:
        raise IllegalAction(f"{owner} has no {what}s in its stat line")
    if word is None:
        return items[0]
    for item in items:
        if plain(item.name) == plain(word):  # type: ignore[attr-defined]
            return item
    known = ", ".join(item.name for item in items)  # type: ignore[attr-defined]
    raise IllegalAction(f"{owner} has no {what} {word!r} (it has: {known})")


def won(over: str) -> str:
    """What a game's end says of its winner (`over`: a team's name or "nobody")."""
    return "nobody won" if over == "nobody" else f"{over} won"


def downs(game: Any, team: int) -> int:
    """The foes of team `team` that are down (each of `game.fighters` has `spec.team` and
    `down`)."""
    return sum(1 for f in game.fighters if f.spec.team != team and f.down)


def point(game: Any) -> dict:
    """A game's point of its timeline (host/core/timeline.py): its round, each fighter's
    hit points, each team's foes down (`downs`)."""
    return {
        "round": game.round,
        "hp": {f.name: f.hp for f in game.fighters},
        "score": {t: downs(game, n) for n, t in enumerate(game.teams)},
    }


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


def board_state(
    game: Any,
    descriptor: bytes,
    board_id: int,
    slot: Callable[[Any], tuple[str, int, int, int, int]],
    phases: int = 1,
) -> GameState:
    """A new game's board state: the ruleset's `descriptor` (shared/descriptor.py) loaded,
    its number `board_id`, `phases` phases, and a slot for each of `game.fighters` while
    there is one (`fill_slots`, with `slot`)."""
    st = GameState()
    st.rules.load(descriptor, 0, len(descriptor))
    st.ruleset = board_id
    st.phase_count = phases
    fill_slots(st, game.fighters, slot)
    return st


def creature_descriptor(
    name: str,
    board_id: int,
    version: int,
    counters: tuple[bytes, ...],
    marks: tuple[bytes, ...],
    first_counter: int,
) -> bytes:
    """The descriptor (shared/descriptor.py) of a creature encounter rolled on a d20 (d20's,
    pf2's): HP on the health bar, the actions left as the allowance, one phase, a group's
    members taking their turn together (UNIT_KEY), the roll key a d20 whose 20 and 1 the
    board marks (NATURALS). The host runs every turn rule: nothing refills or ticks on the
    board. The ruleset fills its `name`, `board_id`, `counters` and `marks`
    (shared.descriptor_pack `counter`, `mark`) and the counter the board shows first."""
    return pack(
        name,
        board_id,
        version,
        health="HP",
        allowance="actions",
        counters=counters,
        marks=marks,
        phases=("turn",),
        flags=UNIT_KEY | NATURALS,
        dice_kind=dice.KIND_DN,
        sides=20,
        success_mask=0,
        dice_count=1,
        first_counter=first_counter,
    )


def place_order(game: Any, state: GameState, units: Sequence[Sequence[int]]) -> None:
    """The board's order from the initiative order's `units` (fighter indexes, as
    `in_order` gives them): those with a slot, each unit its own order key (one that
    follows another never shares it, so a group takes its turn together), the fighters
    out of the fight in their places, out of play."""
    pos = 0
    slotted = ([i for i in unit if i < state.count] for unit in units)
    for key, unit in enumerate(u for u in slotted if u):
        for i in unit:
            state.order[pos] = i
            state.order_reason[pos] = R_SUCCESSES if game.fighters[i].in_fight else R_OUT
            state.slots[i].order_key = key % 15 + 1
            pos += 1


def first_active(state: GameState, active: set[int]) -> bool:
    """The turn position is the first of the `active` slots' (the entry's first); 0, and
    False, when none has one."""
    for pos in range(state.count):
        if state.order[pos] in active:
            state.turn = pos
            return True
    state.turn = 0
    return False


def downs_and_roll(game: Any, state: GameState) -> None:
    """The end of a creature encounter's board projection: each team's score its foes
    down (`downs`), the last roll of plain dice (`game.dice.last`: each die's faces, no
    successes counted), and the state touched."""
    for n in range(len(game.teams)):
        state.scores[n] = downs(game, n)
    last = game.dice.last
    if last is not None:
        _, faces, sides, who = last
        show_roll(state, dice.KIND_DN, faces, who, sides)
    state.touch()


def in_order(fighters: Sequence[Any], placed: list[list[int]]) -> list[list[int]]:
    """The board's order by unit: `placed`, the units of the initiative order (fighter
    indexes), then each fighter none of them holds, alone, in the order they came (all of
    them before initiative)."""
    seen = {i for unit in placed for i in unit}
    return placed + [[f.index] for f in fighters if f.index not in seen]


def fill_slots(
    state: GameState, fighters: Sequence[T], slot: Callable[[T], tuple[str, int, int, int, int]]
) -> None:
    """Give each of `fighters` (in the order they came: the encounter's, then those who
    joined) that has no slot yet one of its own, while the board's state has one left
    (MAX_SLOTS); `slot(f)`: its (label, team, order key, allowance, health), as
    shared.roster.add_slot takes them. Slot i is fighter i; the rest are `past_the_board`."""
    for f in fighters[state.count : MAX_SLOTS]:
        roster.add_slot(state, *slot(f))


def hold_turn(
    state: GameState,
    units: Sequence[Sequence[int]],
    at: int,
    rnd: int,
    in_fight: Callable[[int], bool],
) -> None:
    """The turn the board shows while unit `at` of the order (`units`: each unit's fighters,
    by index) has none of its own there (no slot, or none at all: d20's lair): it stays the
    previous unit's that has a slot and a fighter in the fight (`in_fight(i)`), in the
    round `rnd` (in the round before, before the first such unit), so that what ends as a
    turn starts or ends waits for the next turn the board shows (host/core/effect_clock.py
    reads it); none (round 0) when there is no such unit."""

    def slotted(n: int) -> bool:
        return any(i < state.count for i in units[n])

    before = [n for n in range(at) if slotted(n)]
    if not before:
        rnd -= 1
        before = [n for n in range(len(units)) if slotted(n)]
    taking = [n for n in before if any(in_fight(i) for i in units[n] if i < state.count)]
    if rnd == 0 or not taking:
        state.round, state.turn = 0, 0
        return
    first = next(i for i in units[taking[-1]] if i < state.count)
    state.round = rnd
    state.turn = next(p for p in range(state.count) if state.order[p] == first)


def past_the_board(state: GameState, fighters: Sequence[T]) -> list[T]:
    """Those of `fighters` (in the order they came) with no board slot: they play on the
    screens only (`Ruleset.off_board`), and the board counts them (GameState.off_board)."""
    return list(fighters[state.count :])
