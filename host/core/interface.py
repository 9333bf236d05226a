"""The seam between the host and a game's rules: what a ruleset provides, and the errors
and view data that cross it.

The generic host (the session with undo and redo, the journal, the tether, the play UI,
scores and exports, the command line) knows a game only through a `Ruleset`. Each ruleset
(a `RULESET` in its own package) is one object that the registry (host/core/registry.py) hands
out by id. A running game is whatever object `new_game` returns: the host keeps it and
passes it back to the ruleset, and never looks inside.

A game must be a pure function of (encounter, seed, the actions applied with their
records): undo, redo and resume rebuild it by replaying them. The few things the host
reads of a game itself are `Game` (its log, its timeline, its teams); the board's view of
it is `Ruleset.state`, which the session brings in step (`Ruleset.project`) after every
change it makes to the game. The host keeps one thing of its own on a game object: its
effect book (host/core/effects.py, the attribute EFFECT_BOOK), so a game object must
take a new attribute (a plain class does), and it travels with every copy and checkpoint.
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from host.core import state_check
from host.core.commandline import Command, Language
from host.core.errors import EncounterError, IllegalAction
from host.core.state_check import StateSchema
from host.core.timeline import Timeline
from shared import events as ev
from shared.limits import NO_SLOT
from shared.state import GameState
from shared.words import EVENT_NAMES

__all__ = ["EncounterError", "IllegalAction"]  # raised across the seam: importable from here


# The attribute of a game object that holds the host's effect book (host/core/effects.py).
EFFECT_BOOK = "host_effects"

# A game's own log keeps only its latest lines: the journal holds the whole game, and a
# log of every line was most of a long game's memory after its timeline (host/core/timeline.py).
GAME_LOG_LINES = 256


def game_log() -> deque[str]:
    """An empty log for a game: the latest GAME_LOG_LINES lines."""
    return deque(maxlen=GAME_LOG_LINES)


# Rolls waiting to be used: purpose -> (faces, source) in the order they came, from the
# board ("board") or from physical dice typed in ("entered").
Waiting = dict[str, deque[tuple[tuple[int, ...], str]]]


@dataclass(frozen=True)
class WantedRoll:
    """A roll an action waits for, when the session takes its dice from the board or the
    table rather than the engine: `count` dice of `kind` (shared.dice.KIND_*) for
    `purpose` (the ruleset's word: "hit", "power", ...), rolled by slot `who` (named
    `who_name`; -1 and "" for nobody in particular). `code` is the purpose as the board's
    state carries it (0..15, the ruleset's own numbering: kit.SeededDice's `codes`, d20's
    `CODES`; no event code of shared.events). For plain dice
    (shared.dice.KIND_DN), `sides` names each die's faces in the order the faces come
    (a d20 with advantage: (20, 20); 2d6 + 1d8: (6, 6, 8)); () for the other kinds.

    Plain dice may `explode`: each die rolls again on its highest face and adds, and the
    faces given are each die's chain in turn (host/core/draws.py `chains`). A draw names
    its `deck` and the cards left in it (`cards`, in the deck's order): `count` cards are
    drawn without replacement, as plain dice of len(cards), len(cards) - 1, ... faces, each
    face a card's place among those left (the kit's `Deck.wanted` makes one)."""

    purpose: str
    count: int
    kind: int
    who: int = -1
    who_name: str = ""
    code: int = 0
    sides: tuple[int, ...] = ()
    explode: bool = False
    deck: str = ""
    cards: tuple[str, ...] = ()


class RollWanted(Exception):
    """Raised by `Ruleset.apply` while rolls are supplied (`supply_rolls`) and the action
    needs one more than it was given: the session rebuilds the game, keeps the action
    waiting and asks for `wanted`. Not an IllegalAction: nothing is wrong with the action."""

    def __init__(self, wanted: WantedRoll) -> None:
        super().__init__(f"{wanted.purpose} roll of {wanted.count} dice wanted")
        self.wanted = wanted


# A roll given to a waiting action: (purpose, faces, source), source "board", "entered" or
# "engine" (the session rolled the wanted dice itself, from the game's seed).
Supplied = tuple[str, tuple[int, ...], str]


class Encounter(Protocol):
    """What the host reads of any ruleset's encounter."""

    @property
    def name(self) -> str: ...
    @property
    def teams(self) -> tuple[str, ...]: ...
    @property
    def source(self) -> str: ...  # the file's text: a journal rebuilds the game from it
    @property
    def path(self) -> str: ...
    @property
    def ruleset(self) -> str: ...  # the id of the ruleset that reads it


@runtime_checkable
class Game(Protocol):
    """What the host relies on in a running game, whatever else `new_game` makes of it (the
    rest is the ruleset's, passed back to it and never looked into): its own log, its
    timeline and its teams. A game keeps them as attributes (`teams` may be a property)."""

    log: deque[str]  # its latest lines, GAME_LOG_LINES at most (game_log()): `Ruleset.note`
    timeline: Timeline  # one point a turn: `Ruleset.timeline`, the chart and the exports

    @property
    def teams(self) -> Sequence[str]:
        """The encounter's teams, in its order: a board slot's `team` is an index into it."""
        ...


@dataclass
class Applied:
    """What one action did: lines for the log, and its record, which replays it exactly
    (the dice it used). The session keeps the record; the journal stores it as JSON."""

    lines: list[str]
    record: Any


@dataclass
class Table:
    """Rows of text cells under headers. The columns in `wrap` hold comma-separated lists
    that may wrap to fit a width."""

    headers: list[str]
    rows: list[list[str]]
    wrap: tuple[int, ...] = ()


@dataclass
class LiveRow:
    cells: list[str]
    note: str = ""  # shown indented under the row ("" for none)
    current: bool = False  # the row of whoever's turn it is


@dataclass
class LiveTable:
    """The live view's table of whoever takes turns, made for a narrow screen."""

    headers: list[str]
    rows: list[LiveRow]


@dataclass
class Fighter:
    """One of whoever takes turns, as the web view shows it (host/web/): the name the
    table knows, the team, health (None where the game has none), what marks and counters
    it bears, its cooldowns, and whether it is taking its turn or out of play. `label` is
    its short name on the board (the web view hides both when the game master hides it)."""

    name: str
    team: str
    label: str = ""
    health: int | None = None
    health_max: int | None = None
    statuses: list[str] = field(default_factory=list)
    cooldowns: list[str] = field(default_factory=list)
    current: bool = False
    out: bool = False
    # The effects on it, each in a few words: "Bless 2 rounds". The host fills them from
    # its effect book after the ruleset's `fighters` (host/core/effects.py `fighters`):
    # a ruleset leaves them empty, and names none of them among its statuses.
    effects: list[str] = field(default_factory=list)


class SessionAPI(Protocol):
    """What a ruleset may use of the session that drives it (`session_command`,
    `board_action`): the game, its actions and the rolls kept for them. The session
    (host/core/session.py) is one; the interface names only this, never the session."""

    game: Any
    pending: Any  # the action waiting for a roll, or None

    ruleset: Ruleset

    @property
    def over(self) -> bool: ...

    def execute(self, line: str) -> list[str]: ...

    def queue_roll(self, purpose: str, faces: tuple[int, ...], source: str) -> list[str]: ...

    def note_roll(self, kind: str, faces: tuple[int, ...], source: str) -> bool: ...

    def clear_rolls(self) -> list[str]: ...


class Ruleset:
    """One game's rules, as the host uses them. Members that raise NotImplementedError are
    required; the others have a default that fits a game without them (no entered dice,
    no odds, no notes)."""

    id: str = ""
    description: str = ""  # one line for `turnlight rulesets`
    rules_version: int = 1  # raise it when the same journal would play out differently
    # Its number on the board: the state's ruleset field and its descriptor's (0..15, 4
    # bits; 0 is the board's table before any game is described). A board holding one
    # game's descriptor refuses another's snapshot, so no two rulesets of one process share
    # one: the registry refuses a second with the same. None: the registry gives it a free
    # one when it is found or registered (its descriptor and state then read
    # `self.board_id`); an outside package should declare None (docs/writing-a-ruleset.md).
    board_id: int | None = 0
    # Where `turnlight bench` finds this game's figures, if it has any: "module:function",
    # the function returning {figure: value}. Only the bench imports it.
    bench_module: str | None = None
    language: Language  # the verbs and their parser (host/core/commandline.py)
    start_command: str = ""  # the demo's first line (what starts the game, if anything)
    # The commands the board's next-turn key gives: the demo presses the key for them.
    next_turn_commands: tuple[str, ...] = ()
    # Team statistics (keys of summary()["teams"][team]) the session table adds up.
    session_totals: tuple[str, ...] = ()
    # Headers for statistics' keys where `damage_dealt` -> `damage dealt` is not enough.
    stat_labels: dict[str, str] = {}
    # The chart's panels: (timeline key, title); one or two.
    chart_panels: tuple[tuple[str, str], ...] = ()
    grid_legend: str = ""  # what device_grid's rows mean, said once above the first
    # The score table's columns, (statistic, header), of summary()'s players and teams: ()
    # for every statistic the players have, headed as `stat_labels` says. The first column
    # names a player under `score_words[0]`, a team as `score_words[1]` and its name.
    score_columns: tuple[tuple[str, str], ...] = ()
    score_words: tuple[str, str] = ("who", "team")
    # A book of monsters it reads by name (`bestiary`, `with_monsters`, `add goblin`).
    has_bestiary: bool = False
    # Board presses the rules refuse, by event code (shared.events): the one-line reason.
    board_refusals: dict[int, str] = {}
    # What `dice` says while no action waits for a roll, in a game that asks for its rolls
    # and keeps no queue of rolls made ahead ("": `dice` is no verb of its own).
    no_roll_waits: str = ""
    # Checkpoints in the journal (docs/checkpoints.md): raise `state_version` whenever the
    # game object changes shape (an attribute added, renamed or of another kind), so that
    # checkpoints written by older code are refused and the game is replayed instead.
    # `state_modules`: modules other than host.* and shared.* whose classes a game holds.
    state_version: int = 1
    state_modules: tuple[str, ...] = ()
    # The words its log lines put next to a fighter's health (host/core/audience.py): the
    # numbers right after one ("HP 15 -> 8", "HP: 5 -> 8", "KOR (12/16)") or a fraction or
    # change right before one ("5/12 HP") are the health the players may not see exactly
    # (health as a word, a bar or nothing); an entry with "#" is a phrase whose health
    # stands where the "#" is ("# left": "(4 left)"). Every other number (rolls, damage
    # dealt, the digit of a name) is the table's. () (a game that declares none): every
    # number of a line naming such a fighter is masked.
    health_words: tuple[str, ...] = ()

    def state_schema(self) -> StateSchema:
        """What a game's objects may hold beyond the kinds of value a new game shows: a
        stored checkpoint's game that does not fit is refused and replayed instead
        (host/core/state_check.py). By default the SCHEMA of the module `state_schema`
        beside the ruleset's own (host/rulesets/<id>/state_schema.py), if there is one."""
        return state_check.schema_of(self)

    # -- encounters --------------------------------------------------------------------
    def example_path(self) -> Path:
        """The bundled encounter played when none is named."""
        raise NotImplementedError

    def parse_encounter(self, text: str, filename: str) -> Encounter:
        """Read and check an encounter file's text; raises EncounterError."""
        raise NotImplementedError

    def template(self) -> str:
        """A commented encounter file to start a new one from (`turnlight encounter new`);
        it passes parse_encounter as it is."""
        raise IllegalAction(
            f"ruleset {self.id!r} has no encounter template: `turnlight encounter new` needs"
            " its Ruleset.template()"
        )

    def with_monsters(self, source: str, monsters: str) -> str:
        """The encounter file `source` with its foes replaced by the monsters `monsters`
        names from the ruleset's book of stat lines (`--monsters "4 goblin, bugbear"` on
        `play` and `encounter new`); raises IllegalAction (one line) for a name not in it."""
        raise IllegalAction(
            f"ruleset {self.id!r} has no book of monsters: --monsters needs its"
            " Ruleset.with_monsters(); write the foes in the encounter file"
        )

    def bestiary(self, words: list[str]) -> Table:
        """The entries of the ruleset's book of monsters whose name or kind holds every one
        of `words` (all for none), a row each (`turnlight bestiary`); raises IllegalAction
        (one line naming the closest entry) when none does. `has_bestiary` says it has one."""
        raise IllegalAction(
            f"ruleset {self.id!r} has no book of monsters (`turnlight bestiary --ruleset ID`"
            " with a ruleset that has one)"
        )

    def encounter_notes(self, game: Any) -> list[str]:
        """Lines about the fight as a whole (what its foes are worth, say) that `encounter
        check` prints under the fighters and the game master's console shows. None by
        default."""
        return []

    # -- a game ----------------------------------------------------------------------------
    def new_game(self, encounter: Any, seed: int) -> Any:
        raise NotImplementedError

    def apply(self, game: Any, cmd: Command) -> Applied:
        """Check the action and apply it; raises IllegalAction (one line) when the rules
        refuse it. The session rebuilds the game after a refusal, so a ruleset need not
        undo what it changed on the way."""
        raise NotImplementedError

    def replay(self, game: Any, cmd: Command, record: Any) -> list[str]:
        """Apply an action again with the record it made (undo, redo, resume)."""
        raise NotImplementedError

    def check(self, game: Any, cmd: Command) -> None:
        """The legal-action check: raises IllegalAction when the rules refuse the action,
        and changes nothing either way (by default: it is tried on a copy)."""
        self.apply(copy.deepcopy(game), cmd)

    def record_json(self, record: Any) -> Any:
        """An action's record as JSON for the journal; by default the record as it is (a
        record of lists, strings and numbers)."""
        return record

    def record_from_json(self, data: Any) -> Any:
        """The record `record_json` wrote, read back from the journal."""
        return data

    def started(self, game: Any) -> bool:
        """Whether the game is under way (by default from its first action on)."""
        return True

    def winner(self, game: Any) -> str | None:
        """The winning team's name ("nobody" for none) once the game is over, else None."""
        raise NotImplementedError

    def state(self, game: Any) -> GameState:
        """The game projected onto the board's trimmed state (shared.state), kept in step
        with every action (`project`): the tether sends it to the board. By default the
        game's `state`."""
        state: GameState = game.state
        return state

    def project(self, game: Any) -> None:
        """Bring `state(game)` in step with the game. The session calls it after every
        change it makes to a game: a new game, an action applied, an action replayed (redo,
        undo and resume rebuild the game by replay), so the rules need not. By default
        nothing: a game that keeps its state in step as it plays (korxsol)."""

    def turn_begins(self, lines: list[str]) -> int | None:
        """Where, in the lines of an action that ended a turn and began another, the new
        turn's lines begin (its "X's turn" line), so that what the effect book ends with the
        old turn is said before it (host/core/effects.py `after_action`). By default None:
        the book's lines follow the action's."""
        return None

    def book_places(self, game: Any, lines: list[str]) -> tuple[int | None, int | None]:
        """Where, in the lines of one action, the effect book's lines go (host/core/effects.py
        `after_action`): what it ends with the turns that ended, and what it ends or asks as
        the new turn begins; None is after all the action's lines. By default the first
        before the new turn's lines (`turn_begins`), the second after them all; a game whose
        turn has steps in a set order (the book's ends first) says where its steps begin."""
        return self.turn_begins(lines), None

    def passed_turns(self, game: Any) -> list[tuple[int, int]]:
        """The turns the last action began and finished inside it, before the one it left
        running, as (round, position in the order of the unit's first slot), in order:
        the effects tick at their ends too (host/core/effect_clock.py). By default none:
        an action that moves the turn moves it to the next unit, and the fighters the
        order skipped on the way (out of play) are read from the order itself."""
        return []

    def turn_moments(self, game: Any) -> list[tuple[str, Any]] | None:
        """The turn moments of the last action (applied or replayed), in order, for a game
        whose turns stop and come back: a held action, an interrupt, a readied action,
        pf2's Delay [22]. Each is (moment, full name of `fighter_names`):

        - "start" / "end": the fighter's turn begins / ends (what waits for it ends; a
          save=end on it asks at a real end);
        - "suspend": its turn stops before its end (held, interrupted); "resume": it goes
          on. Neither is a start or an end: "until the end of its turn" waits on;
        - "leave": it steps out of the order (Delay): no turn of it counts, and none is
          passed over, until "rejoin" puts it back; its running turn is suspended. A game
          whose rules end the turn's effects as it leaves (pf2 [22]) reports "end" first;
        - "passed": the order passed over its turn while it was out of play (counted as a
          turn that came and went);
        - ("round", n): round n begins (left out, it is put before the first start).

        For example an interrupt: [("suspend", "Vex"), ("resume", "Orrin"), ("end",
        "Orrin"), ("resume", "Vex")]; a Delay: [("leave", "Kaelen")], then at its return
        [("rejoin", "Kaelen"), ("resume", "Kaelen")]. The rules make the list as they
        play (kept on the game, begun again at each action), so a replay reports the same.
        The effect clock (host/core/effect_clock.py `reported`) times every duration kind
        by them alone (host/core/effects.py KINDS; docs/effects.md, "Turns that stop").
        By default None: the moments are derived from the board's projection, the turn
        pointer being the turn (`state`, `passed_turns`)."""
        return None

    def fighter_names(self, game: Any) -> list[str]:
        """The full name of whoever each board slot stands for, by slot index (the web
        pages, and the roll a waiting action wants: `WantedRoll.who` is a slot), then of
        whoever has no slot (a newcomer past the board's: `off_board`). By default the
        board's labels, for a game whose labels are its names (a board on its own)."""
        state = self.state(game)
        return [state.slots[i].label for i in range(state.count)]

    def effects_changed(self, game: Any) -> list[str]:
        """What the rules make, at once, of an `effect` line just applied to `game` (a
        condition they know taking hold: host/core/effects.py calls it after the verb,
        applied or replayed alike). By default nothing."""
        return []

    def gone(self, game: Any) -> set[str]:
        """The full names (`fighter_names`') of the fighters who have left the fight
        (`remove`): they keep their slot, their statistics and their place in the journal,
        but take no turn and no effect can wait on one. By default nobody."""
        return set()

    def snapshot(self, game: Any) -> dict:
        """The whole game as plain data: `run --json` and the export's final state."""
        raise NotImplementedError

    def note(self, game: Any, text: str) -> None:
        """Add a line the host says (a resume notice) to the game's own log."""
        game.log.append(text)

    # -- the roll an action wants (opt-in: asks_for_rolls) ----------------------------------
    # A ruleset that sets `asks_for_rolls` lets the session take an action's dice from the
    # board or the table (`play --dice board|entered`): before `apply` the session calls
    # `supply_rolls` with the rolls given so far, in order, and `apply` uses them for its
    # rolls in order and raises RollWanted for the first roll it has none for (the session
    # rebuilds the game, so nothing of the partial action stays). The record must hold
    # every roll, so `replay` needs nothing else. Without it (the default) the session
    # rolls with the engine and board rolls go to `queue_roll` as before.
    asks_for_rolls: bool = False

    def supply_rolls(self, game: Any, rolls: list[Supplied] | None) -> None:
        """The rolls the next `apply` takes, in order (None: the engine rolls, as usual)."""
        if rolls is not None:
            raise IllegalAction(f"{self.id} does not ask for rolls: its engine rolls them")

    # -- rolls made at the table or on the board, waiting for the rules to use them --------
    def queue_roll(self, game: Any, purpose: str, faces: tuple[int, ...], source: str) -> None:
        raise IllegalAction(f"{self.id} takes no dice from the table or the board")

    def waiting(self, game: Any) -> Waiting:
        """The rolls waiting now (the session carries them over a rebuild)."""
        return {}

    def set_waiting(self, game: Any, waiting: Waiting) -> None:
        pass

    def used_waiting(self, record: Any) -> list[str]:
        """The waiting queues an action's record took a roll from, in order (resume)."""
        return []

    def roll_lines(self, game: Any) -> list[str]:
        """The last action's rolls, one line each, for the play UI's dice line."""
        return []

    def session_command(self, session: SessionAPI, cmd: Command) -> list[str]:
        """A session verb of this ruleset's language other than undo, redo and new (entering
        dice, asking the odds, ...). By default `dice` is refused with `no_roll_waits` (the
        session takes it itself while an action waits for its roll)."""
        if cmd.verb == "dice" and self.no_roll_waits:
            raise IllegalAction(self.no_roll_waits)
        raise IllegalAction(self.language.unknown_verb(cmd.verb))

    # -- the board ---------------------------------------------------------------------------
    def board_action(self, session: SessionAPI, record: bytes) -> list[str]:
        """A board press (a shared.events record) made into the session's actions, through
        `session.execute`, `queue_roll` or `note_roll`; raises IllegalAction when the rules
        refuse it. Select and undo never reach it: they mean the same in every game, and
        the tether takes them (host/board/tether.py, `board_press`).

        By default next turn with a slot selected is `slot_done`, and next turn or next
        phase otherwise the last of `next_turn_commands`; any other press is refused with
        its line in `board_refusals`, else as the game master's call (end combat, reset)."""
        code = record[0]
        if code == ev.NEXT_TURN and record[1] != NO_SLOT:
            lines = self.slot_done(session, record[1])
            if lines is not None:
                return lines
        if code in (ev.NEXT_TURN, ev.NEXT_PHASE) and self.next_turn_commands:
            return session.execute(self.next_turn_commands[-1])
        if code in self.board_refusals:
            raise IllegalAction(self.board_refusals[code])
        if code in (ev.ROLL_ACTION, ev.CHANCE, ev.D100, ev.ROLL_DICE) and self.asks_for_rolls:
            # (the session's dice are the engine's: with the board's, the tether takes it)
            raise IllegalAction(
                "the engine rolls the dice (--dice engine): the board's roll is not used;"
                " `dice from board` and the next roll waits for the roll key"
            )
        if code in (ev.END_COMBAT, ev.RESET):
            raise IllegalAction(f"{EVENT_NAMES[code]} is the game master's call: use the laptop")
        raise IllegalAction(f"unknown board event {code}")

    def slot_done(self, session: SessionAPI, slot: int) -> list[str] | None:
        """The board's next-turn key with `slot` selected (one of the turn's slots): that one
        is done (`shared.turns.slot_done`), as the session's actions. None: the press is
        next turn, as with no slot selected (the default)."""
        return None

    # -- scores ------------------------------------------------------------------------------
    def summary(self, game: Any) -> dict:
        """The statistics as plain data: {"players": {name: stats}, "teams": {team: stats},
        "team_of": {name: team}}, each stats a flat dict of numbers in a fixed order. The
        journal keeps it with the winner; the score exports write it."""
        raise NotImplementedError

    def score_table(self, game: Any) -> Table:
        """The statistics of `summary` as a table: a row a player, then a row a team, in
        the columns `score_columns` names."""
        summary = self.summary(game)
        players: dict[str, dict] = summary["players"]
        columns = self.score_columns or tuple(
            (key, self.stat_labels.get(key, key)) for key in next(iter(players.values()), {})
        )
        who, team = self.score_words
        rows = [[name, *(str(stats[k]) for k, _ in columns)] for name, stats in players.items()]
        rows += [
            [f"{team} {name}", *(str(stats[k]) for k, _ in columns)]
            for name, stats in summary["teams"].items()
        ]
        return Table([who, *(header for _, header in columns)], rows)

    def score_line(self, game: Any) -> str:
        """Every team's score in one line, for the live view."""
        raise NotImplementedError

    def timeline(self, game: Any) -> list[dict]:
        """One point per turn: {key of chart_panels: {line name: value}} (and anything
        else an export should carry): the game's `timeline`."""
        return game.timeline.points()

    # -- a campaign (host/core/campaign.py) --------------------------------------------------
    def carry(self) -> Any:
        """What a campaign carries from one of its fights to the next, and the rests between:
        a Carry of the kit (host/core/campaign_carry.py). By default None: the game has no
        campaign, and nothing carries."""
        return None

    # -- views --------------------------------------------------------------------------------
    def headline(self, game: Any) -> tuple[str, str]:
        """(title, what is going on) for the live view's first line."""
        raise NotImplementedError

    def roster(self, game: Any) -> Table:
        """The full table of everyone taking turns (the end of `demo` and `run`)."""
        raise NotImplementedError

    def live_roster(self, game: Any) -> LiveTable:
        raise NotImplementedError

    def fighters(self, game: Any) -> list[Fighter]:
        """Whoever takes turns, in the turn order, for the web view. The default reads the
        board's projection (`state`): each slot's health, the marks it bears and its
        counters by the descriptor's names, its cooldowns; its name is `fighter_names`'
        and its team the game's `teams`'. The effects the host's verb put on (its effect
        book) are not a ruleset's to show: the host fills `Fighter.effects` after this
        (host/core/effects.py `fighters`), with their durations; a ruleset's statuses
        leave them out."""
        from shared.descriptor_pack import encoded, names
        from shared.state import F_ACTIVE, F_OUT, mark_bit

        state = self.table_state(game)
        words = names(encoded(state.rules))
        teams = list(game.teams)
        full_names = self.fighter_names(game)
        by_slot: dict[int, Fighter] = {}
        for i in range(state.count):
            slot = state.slots[i]
            statuses = [m for b, m in enumerate(words["marks"]) if slot.flags & mark_bit(b)]
            statuses += [
                f"{c} {slot.counters[n]}"
                for n, c in enumerate(words["counters"])
                if slot.counters[n]
            ]
            cooldowns = [
                f"cooldown {slot.cd_id[n]}: {slot.cd_left[n]}"
                for n in range(len(slot.cd_id))
                if slot.cd_id[n] and slot.cd_left[n]
            ]
            by_slot[i] = Fighter(
                full_names[i],
                teams[slot.team] if slot.team < len(teams) else "",
                slot.label,
                slot.health if slot.health_max else None,
                slot.health_max or None,
                statuses,
                cooldowns,
                bool(slot.flags & F_ACTIVE),
                bool(slot.flags & F_OUT),
            )
        order = [state.order[p] for p in range(state.count)]
        shown = [by_slot[i] for i in order if i in by_slot]
        if state.count >= len(full_names):  # (a table state holds everyone)
            return shown
        return shown + self.off_board(game)

    def table_state(self, game: Any) -> GameState:
        """The game's state with a slot for every fighter, those past the board's slots too,
        for a game that keeps its fighters' own state in slots (korxsol): `fighters` reads
        it. By default the board's (`state`)."""
        return self.state(game)

    def off_board(self, game: Any) -> list[Fighter]:
        """Whoever takes turns with no board slot (one past the board's slots, in the file
        or a newcomer: host/core/kit.py `fill_slots`), after those on the board in
        `fighters`. By default nobody: every fighter has a slot."""
        return []

    def device_grid(self, game: Any, color: bool) -> str:
        """The device view drawn as text, for a demo without a board."""
        raise NotImplementedError

    def complete(self, game: Any, words: list[str]) -> list[str]:
        """Completions for the last word (maybe "") of a line whose first word is a verb."""
        return []

    def unusable(self, game: Any, words: list[str], names: list[str]) -> dict[str, str]:
        """Of `names`, what `complete` offers for the last of `words` (the acting fighter's
        moves after `attack NAME`, say), those the rules would refuse now, each with its
        reason in a few words ("on cooldown 2 turns", "an assist: use `assist`", "no AP
        left"): `help VERB`, Tab and the web console offer the others first and mark these
        with it (host/core/verb_choices.py). Keys are the names as `complete` gave them.
        By default none: every choice offered may be used."""
        return {}

    def help_notes(self) -> list[str]:
        """Lines `help` adds under the verbs."""
        return []

    # -- odds, where the game has them ---------------------------------------------------------
    def odds_preview(self, game: Any) -> list[str]:
        """Odds worth showing now, unasked (the live view)."""
        return []

    def before(self, game: Any, line: str) -> list[str]:
        """What to say before a command is run (the odds of an attack, say)."""
        return []

    # -- the demo AI -------------------------------------------------------------------------
    def plan_turn(self, game: Any) -> list[str]:
        """The commands of the current turn, the last one ending it."""
        raise NotImplementedError

    def demo_presses(self, game: Any, command: str) -> tuple[tuple[str, ...], bool]:
        """How a player at the board would make `command` in a demo played on one: the
        board controls to press first (its roll key, for the dice the command will use),
        and whether the command is then still typed (False: the presses made it). By
        default: nothing pressed, typed (next-turn commands are pressed by the demo
        itself)."""
        return (), True
