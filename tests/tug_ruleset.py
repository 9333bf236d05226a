"""Tug, a small game written only for the tests (it was the tests' plugin until the card
game took that place: tests/plugin): its rules as a turnlight Ruleset (`RULESET`, board id
12), written against the host's interface (host/core/interface.py) alone. A test that plays
it registers it (`registry.register(RULESET)`); tests/dice_ruleset.py builds on it.

The game: two teams take turns, the first team first (a round is its turn, then the
other's). On its team's turn each player may `pull NAME` once: a D3 is the ground the team
gains (the engine's die, or the one the board or the table rolls when the dice come from
there: the pull waits for it). The first team to gain `goal` ground wins; `end` passes the
turn.

On the board it is a ruleset of its own (board id 12): a slot per player, its team's
ground as the health bar, its pulls as its one counter, an allowance of one pull a turn;
its next-turn key is `end`, its roll key rolls the D3 a pull waits for.

    ruleset = "tug"
    name = "Rope"
    teams = ["Red", "Blue"]
    goal = 8                     # the ground a team gains to win (1..30)
    [[player]]
    name = "Ann"
    team = "Red"
"""

from __future__ import annotations

import random
import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from host.core.commandline import Command, Language, Verb
from host.core.encounter_files import Lines, read_toml
from host.core.interface import (
    Applied,
    EncounterError,
    IllegalAction,
    LiveRow,
    LiveTable,
    RollWanted,
    Ruleset,
    Supplied,
    Table,
    WantedRoll,
    game_log,
)
from host.core.timeline import Timeline
from shared import dice, roster
from shared import events as ev
from shared.descriptor_pack import counter, pack
from shared.limits import MAX_COUNTER, MAX_SLOTS
from shared.state import F_ACTED, F_ACTIVE, GameState
from shared.words import EVENT_NAMES

if TYPE_CHECKING:
    from host.core.session import Session

ID = "tug"
EXAMPLE = Path(__file__).parent / "tug_rope.toml"
MAX_GOAL = 30
NAME = re.compile(r"[A-Za-z][A-Za-z0-9]{0,11}")  # its first three letters are its label
VERBS = {
    "pull": Verb("NAME", "NAME, of the team whose turn it is, pulls: a D3 of ground (once a turn)"),
    "end": Verb("", "pass the turn to the other team"),
}
SESSION_VERBS = {"dice": Verb("FACE", "while a pull waits for its D3: the die from the table")}
PULL = 1  # the pull's roll, as the board's wanted roll carries it


@dataclass(frozen=True)
class Rope:
    """An encounter: the teams, the players (name, team index) and the goal."""

    name: str
    teams: tuple[str, ...]
    players: tuple[tuple[str, int], ...]
    goal: int
    source: str = ""
    path: str = ""
    ruleset: str = ID


@dataclass
class Game:
    rope: Rope
    seed: int
    state: GameState
    ground: list[int]  # per team
    pulls: list[int]  # per player
    team: int = 0  # whose turn
    round: int = 1
    pulled: list[int] = field(default_factory=list)  # the players who pulled this turn
    actions: int = 0
    used: list[list] = field(default_factory=list)  # the last action's dice: [face, source]
    supplied: list[Supplied] | None = None  # the rolls given to a waiting pull
    log: deque[str] = field(default_factory=game_log)
    timeline: Timeline = field(default_factory=Timeline)

    @property
    def teams(self) -> tuple[str, ...]:
        return self.rope.teams

    def winner(self) -> int | None:
        return next((t for t, g in enumerate(self.ground) if g >= self.rope.goal), None)

    def player(self, name: str) -> int:
        for i, (n, _) in enumerate(self.rope.players):
            if n.lower() == name.lower():
                return i
        known = ", ".join(n for n, _ in self.rope.players)
        raise IllegalAction(f"unknown player {name!r} (known: {known})")


class Tug(Ruleset):
    id = ID
    description = (
        "a test plugin's game: two teams pull in turns, a D3 of ground each; first to the goal wins"
    )
    rules_version = 1
    board_id = None  # the state's ruleset field: the registry gives it a free one
    language = Language(VERBS, SESSION_VERBS, wanted=True)
    next_turn_commands = ("end",)
    session_totals = ("ground",)
    chart_panels = (("ground", "ground gained"),)
    grid_legend = "one row per player: team, pulls, its team's ground; * may pull now"
    state_modules = ("tug_ruleset",)  # its Game and Rope, in the journal's checkpoints
    asks_for_rolls = True

    # -- encounters ------------------------------------------------------------------------
    def example_path(self) -> Path:
        return EXAMPLE

    def parse_encounter(self, text: str, filename: str) -> Rope:
        doc = read_toml(text, filename)
        lines = Lines(text)

        def fail(what: str, table: str = "", index: int = 0, key: str | None = None) -> NoReturn:
            raise EncounterError(f"{filename}:{lines.of(table, index, key)}: {what}")

        for key in doc:
            if key not in ("ruleset", "name", "teams", "goal", "player"):
                fail(f"unknown key {key!r}", key=key)
        if doc.get("ruleset", ID) != ID:
            fail(f"not a {ID} encounter", key="ruleset")
        name = doc.get("name", "Rope")
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            fail("name must be some text, 40 characters at most", key="name")
        teams = doc.get("teams")
        if (
            not isinstance(teams, list)
            or len(teams) != 2
            or not all(isinstance(t, str) and NAME.fullmatch(t) for t in teams)
            or teams[0].lower() == teams[1].lower()
        ):
            fail("teams must name two teams, each one word", key="teams")
        goal = doc.get("goal", 8)
        if type(goal) is not int or not 1 <= goal <= MAX_GOAL:
            fail(f"goal must be a whole number 1..{MAX_GOAL}", key="goal")
        found = doc.get("player", [])
        if not isinstance(found, list) or len(found) > MAX_SLOTS:
            fail(f"there are 1..{MAX_SLOTS} players, each a [[player]] table", "player")
        players: list[tuple[str, int]] = []
        for n, p in enumerate(found):
            if not isinstance(p, dict) or set(p) - {"name", "team"}:
                fail("a player has a name and a team, and nothing else", "player", n)
            who, team = p.get("name"), p.get("team")
            if not isinstance(who, str) or not NAME.fullmatch(who):
                fail("a player's name is one word of letters and digits", "player", n, "name")
            if team not in teams:
                fail(f"a player's team is one of {', '.join(teams)}", "player", n, "team")
            if any(other.lower() == who.lower() for other, _ in players):
                fail(f"player {who!r} is named twice", "player", n, "name")
            players.append((who, teams.index(team)))
        for t, team in enumerate(teams):
            if not any(pt == t for _, pt in players):
                fail(f"team {team!r} has no player", key="teams")
        return Rope(name.strip(), tuple(teams), tuple(players), goal, text, filename)

    # -- a game ------------------------------------------------------------------------------
    def new_game(self, encounter: Rope, seed: int) -> Game:
        st = GameState()
        data = descriptor(encounter.goal, self.board_id)
        st.rules.load(data, 0, len(data))
        st.ruleset = self.board_id
        for name, team in encounter.players:
            roster.add_slot(st, name[:3], team, 0, 1, encounter.goal)
        st.round = 1
        game = Game(encounter, seed, st, [0, 0], [0] * len(encounter.players))
        _project(game)
        return game

    def apply(self, game: Game, cmd: Command) -> Applied:
        return Applied(self._act(game, cmd, None), list(game.used))

    def replay(self, game: Game, cmd: Command, record: list[list]) -> list[str]:
        return self._act(game, cmd, [list(d) for d in record])

    def _act(self, game: Game, cmd: Command, replayed: list[list] | None) -> list[str]:
        won = game.winner()
        if won is not None:
            raise IllegalAction(f"the tug is over: {game.rope.teams[won]} won")
        game.used = []
        side = game.rope.teams[game.team]
        if cmd.verb == "end":
            lines = [f"{side} ends its turn"]
            game.team = 1 - game.team
            game.pulled = []
            if game.team == 0:
                game.round += 1
            game.timeline.append(_point(game))
        else:  # pull
            who = game.player(cmd.arg(0, "a player"))
            name, team = game.rope.players[who]
            if team != game.team:
                raise IllegalAction(f"{name} is on {game.rope.teams[team]}: it is {side}'s turn")
            if who in game.pulled:
                raise IllegalAction(f"{name} has pulled this turn")
            face, source = _d3(game, who, replayed)
            game.used = [[face, source]]
            dice.enter(game.state, dice.KIND_ACTION_D3, (face,), who)
            game.pulled.append(who)
            game.pulls[who] += 1
            game.ground[team] += face
            shown = "" if source == "engine" else f" ({source})"
            lines = [f"{name} pulls {face}{shown}: {side} {game.ground[team]} of {game.rope.goal}"]
            if game.winner() is not None:
                lines.append(f"{side} wins")
                game.timeline.append(_point(game))
        game.actions += 1
        game.log.extend(lines)
        _project(game)
        return lines

    def record_json(self, record: list[list]) -> list[list]:
        return [list(d) for d in record]

    def record_from_json(self, data: Any) -> list[list]:
        if not isinstance(data, list) or not all(isinstance(d, list) and len(d) == 2 for d in data):
            raise IllegalAction("a tug record is a list of [face, source]")
        return [list(d) for d in data]

    def started(self, game: Game) -> bool:
        return True

    def winner(self, game: Game) -> str | None:
        won = game.winner()
        return None if won is None else game.rope.teams[won]

    def fighter_names(self, game: Game) -> list[str]:
        return [name for name, _ in game.rope.players]  # slot i is player i

    def state(self, game: Game) -> GameState:
        return game.state

    def snapshot(self, game: Game) -> dict:
        return {
            "round": game.round,
            "turn": game.rope.teams[game.team],
            "winner": self.winner(game),
            "ground": dict(zip(game.rope.teams, game.ground, strict=True)),
            "players": [
                {"name": n, "team": game.rope.teams[t], "pulls": game.pulls[i]}
                for i, (n, t) in enumerate(game.rope.players)
            ],
        }

    def note(self, game: Game, text: str) -> None:
        game.log.append(text)

    # -- the D3 a pull wants ---------------------------------------------------------------
    def supply_rolls(self, game: Game, rolls: list[Supplied] | None) -> None:
        game.supplied = rolls

    def roll_lines(self, game: Game) -> list[str]:
        return [f"pull: D3 {face} ({source})" for face, source in game.used]

    def session_command(self, session: Session, cmd: Command) -> list[str]:
        if cmd.verb == "dice":
            raise IllegalAction(
                "no pull waits for a die: the engine rolls them (`dice from entered`)"
            )
        return super().session_command(session, cmd)

    # -- the board ---------------------------------------------------------------------------
    def board_action(self, session: Session, record: bytes) -> list[str]:
        if record[0] in (ev.NEXT_TURN, ev.NEXT_PHASE):
            return session.execute("end")
        if record[0] in (ev.ROLL_ACTION, ev.CHANCE, ev.D100):
            # With the engine's dice (`--dice engine`) a board roll has nothing to go to.
            raise IllegalAction(
                "the engine rolls the dice (--dice engine): the board's roll is not used"
            )
        raise IllegalAction(f"tug has no use for the board's {EVENT_NAMES[record[0]]}")

    # -- scores --------------------------------------------------------------------------------
    def summary(self, game: Game) -> dict:
        players = {n: {"pulls": game.pulls[i]} for i, (n, _) in enumerate(game.rope.players)}
        teams = {
            team: {
                "ground": game.ground[t],
                "pulls": sum(
                    game.pulls[i] for i, (_, pt) in enumerate(game.rope.players) if pt == t
                ),
            }
            for t, team in enumerate(game.rope.teams)
        }
        team_of = {n: game.rope.teams[t] for n, t in game.rope.players}
        return {"players": players, "teams": teams, "team_of": team_of}

    def score_table(self, game: Game) -> Table:
        summary = self.summary(game)
        rows = [[n, str(s["pulls"]), ""] for n, s in summary["players"].items()]
        rows += [
            [f"team {t}", str(s["pulls"]), str(s["ground"])] for t, s in summary["teams"].items()
        ]
        return Table(["who", "pulls", "ground"], rows)

    def score_line(self, game: Game) -> str:
        return "ground: " + " · ".join(
            f"{team} {game.ground[t]}/{game.rope.goal}" for t, team in enumerate(game.rope.teams)
        )

    # -- views ---------------------------------------------------------------------------------
    def headline(self, game: Game) -> tuple[str, str]:
        won = self.winner(game)
        now = f"{won} wins" if won else f"{game.rope.teams[game.team]}'s turn"
        return f"{game.rope.name}, round {game.round}", now

    def roster(self, game: Game) -> Table:
        rows = [
            [n, game.rope.teams[t], str(game.pulls[i]), str(game.ground[t])]
            for i, (n, t) in enumerate(game.rope.players)
        ]
        return Table(["name", "team", "pulls", "ground"], rows)

    def live_roster(self, game: Game) -> LiveTable:
        rows = [
            LiveRow([n, game.rope.teams[t], str(game.pulls[i])], "", _may_pull(game, i))
            for i, (n, t) in enumerate(game.rope.players)
        ]
        return LiveTable(["name", "team", "pulls"], rows)

    def device_grid(self, game: Game, color: bool) -> str:
        return "\n".join(
            f"{'*' if _may_pull(game, i) else ' '} {n:<12} {game.rope.teams[t]:<12} "
            f"{game.pulls[i]:>2} {game.ground[t]:>2}/{game.rope.goal}"
            for i, (n, t) in enumerate(game.rope.players)
        )

    def complete(self, game: Game, words: list[str]) -> list[str]:
        if words[0] == "pull" and len(words) == 2:
            return [n for i, (n, _) in enumerate(game.rope.players) if _may_pull(game, i)]
        return []

    # -- the demo AI -------------------------------------------------------------------------
    def plan_turn(self, game: Game) -> list[str]:
        ready = [n for i, (n, _) in enumerate(game.rope.players) if _may_pull(game, i)]
        return [f"pull {n}" for n in ready] + ["end"]


def descriptor(goal: int, board_id: int) -> bytes:
    """What the board knows of tug: its team's ground as the health bar (to the goal), one
    counter of pulls, one phase, and the D3 a pull rolls; `board_id` the registry gave it."""
    return pack(
        ID,
        board_id,
        Tug.rules_version,
        health="ground",
        allowance="pull",
        counters=(counter("pulls", MAX_COUNTER, 7),),
        flags=0,
        dice_kind=dice.KIND_ACTION_D3,
        dice_count=1,
    )


def _d3(game: Game, who: int, replayed: list[list] | None) -> tuple[int, str]:
    """A pull's die and where it came from: the record's when replaying, else the one given
    to the waiting pull (RollWanted when there is none yet), else the engine's (the same
    seed and action number roll the same)."""
    if replayed is not None:
        if not replayed or replayed[0][0] not in (1, 2, 3):
            raise IllegalAction("the journal holds no D3 for this pull")
        face, source = replayed.pop(0)
        return face, str(source)
    if game.supplied is not None:
        if not game.supplied:
            name = game.rope.players[who][0]
            raise RollWanted(WantedRoll("pull", 1, dice.KIND_ACTION_D3, who, name, PULL))
        purpose, faces, source = game.supplied[0]
        if purpose != "pull" or len(faces) != 1:
            raise IllegalAction(f"the {source} {purpose} roll does not fit a pull's D3")
        return faces[0], source
    return random.Random(game.seed * 100_003 + game.actions).randint(1, 3), "engine"


def _may_pull(game: Game, i: int) -> bool:
    return game.winner() is None and game.rope.players[i][1] == game.team and i not in game.pulled


def _point(game: Game) -> dict:
    return {
        "turn": len(game.timeline) + 1,
        "ground": dict(zip(game.rope.teams, game.ground, strict=True)),
    }


def _project(game: Game) -> None:
    """The tug on the board's state: a slot per player (its team's ground as its health, its
    pulls as its counter, its pull left this turn as its allowance), the first player of the
    team whose turn it is that may still pull as the turn, the ground as the scores."""
    st = game.state
    st.round = game.round
    for i, (_, team) in enumerate(game.rope.players):
        slot = st.slots[i]
        slot.health = min(game.ground[team], game.rope.goal)
        slot.counters[0] = min(game.pulls[i], MAX_COUNTER)
        slot.actions = 0 if i in game.pulled or team != game.team else 1
        slot.flags = F_ACTED if i in game.pulled else 0
    ready = [i for i in range(len(game.rope.players)) if _may_pull(game, i)]
    ours = [i for i, (_, t) in enumerate(game.rope.players) if t == game.team]
    st.turn = (ready or ours)[0]  # the order is the encounter's: position i holds slot i
    st.slots[st.turn].flags |= F_ACTIVE
    for t in range(2):
        st.scores[t] = game.ground[t]
    st.touch()


RULESET = Tug()
