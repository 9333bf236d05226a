"""A tiny ruleset written only for the tests, to show the ruleset seam holds: it plugs into
the host through host/core/interface.py and host/core/registry.py alone, and plays through
the generic session, journal, resume, play UI, scores and command line with no change to the host.

The game: two teams take turns, Red first (a round is Red's turn then Blue's). On its
turn a team may `hit NAME` once: a coin is flipped (the engine's, seeded per action, or a
coin from the table or the board waiting with `dice coin 0|1`), and on heads (1) that
player of the other team takes a hit, its one counter. A player with `hits` hits is out; a
team with every player out has lost. `end` passes the turn.

On the board it is a ruleset of its own (`descriptor`, with the board id the registry gives
it): one counter, "hits", and one phase; its next-turn key is `end`, its chance key flips
the coin for the next hit.

    ruleset = "tiny"
    name = "Duel"
    teams = ["Red", "Blue"]
    hits = 2                     # hits that put a player out (1..9)
    [[player]]
    name = "Ann"
    team = "Red"
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from host.core.commandline import Command, Language, Verb, whole_number
from host.core.encounter_files import Lines, read_toml
from host.core.interface import (
    Applied,
    EncounterError,
    IllegalAction,
    LiveRow,
    LiveTable,
    Ruleset,
    Table,
    Waiting,
    game_log,
)
from host.core.timeline import Timeline
from shared import dice, roster
from shared import events as ev
from shared.descriptor_pack import counter, pack
from shared.state import F_ACTIVE, F_OUT, GameState
from shared.words import EVENT_NAMES

if TYPE_CHECKING:
    from host.core.interface import SessionAPI

EXAMPLE = Path(__file__).parent / "tiny_duel.toml"
VERBS = {
    "hit": Verb("NAME", "flip a coin: on heads NAME, of the other team, takes a hit (once a turn)"),
    "end": Verb("", "pass the turn to the other team"),
}
SESSION_VERBS = {
    "dice": Verb("coin FACE", "a coin from the table for the next hit: 1 heads, 0 tails")
}


@dataclass(frozen=True)
class Duel:
    name: str
    teams: tuple[str, ...]
    players: tuple[tuple[str, int], ...]  # (name, team index)
    hits: int
    source: str = ""
    path: str = ""
    ruleset: str = "tiny"


@dataclass
class Game:
    duel: Duel
    seed: int
    state: GameState
    taken: list[int]  # hits taken, per player
    landed: list[int]  # hits landed, per player
    team: int = 0  # whose turn
    round: int = 1
    hit_this_turn: bool = False
    actions: int = 0
    waiting: Waiting = field(default_factory=dict)
    used: list[list] = field(default_factory=list)  # the last action's coins: [face, source]
    log: deque[str] = field(default_factory=game_log)
    timeline: Timeline = field(default_factory=Timeline)

    @property
    def teams(self) -> tuple[str, ...]:
        return self.duel.teams

    def out(self, i: int) -> bool:
        return self.taken[i] >= self.duel.hits

    def winner(self) -> int | None:
        for t in range(len(self.duel.teams)):
            if all(self.out(i) for i, (_, team) in enumerate(self.duel.players) if team == t):
                return 1 - t
        return None

    def player(self, name: str) -> int:
        for i, (n, _) in enumerate(self.duel.players):
            if n.lower() == name.lower():
                return i
        known = ", ".join(n for n, _ in self.duel.players)
        raise IllegalAction(f"unknown player {name!r} (known: {known})")


class Tiny(Ruleset):
    id = "tiny"
    description = "a test's game: two teams alternate, one hit a turn on a coin, two hits out"
    rules_version = 1
    board_id = None  # the state's ruleset field: the registry gives it a free one
    language = Language(VERBS, SESSION_VERBS)
    start_command = ""
    next_turn_commands = ("end",)
    session_totals = ("landed",)
    chart_panels = (("taken", "hits taken"), ("score", "hits landed per team"))
    grid_legend = "one row per player: team, hits taken (xx: out), * whose turn"
    state_modules = ("tiny_ruleset",)  # its Game and Duel, in the journal's checkpoints

    # -- encounters ------------------------------------------------------------------------
    def example_path(self) -> Path:
        return EXAMPLE

    def parse_encounter(self, text: str, filename: str) -> Duel:
        doc = read_toml(text, filename)
        lines = Lines(text)

        def fail(key: str, what: str) -> EncounterError:
            return EncounterError(f"{filename}:{lines.of('', 0, key)}: {what}")

        for key in doc:
            if key not in ("ruleset", "name", "teams", "hits", "player"):
                raise fail(key, f"unknown key {key!r}")
        if doc.get("ruleset", self.id) != self.id:
            raise fail("ruleset", f"not a {self.id} encounter")
        teams = doc.get("teams")
        if not isinstance(teams, list) or len(teams) != 2 or len(set(teams)) != 2:
            raise fail("teams", "teams must name two teams")
        hits = doc.get("hits", 2)
        if not isinstance(hits, int) or not 1 <= hits <= 9:
            raise fail("hits", "hits must be 1..9")
        players = []
        for n, p in enumerate(doc.get("player", [])):
            if p.get("team") not in teams or not str(p.get("name", "")).isalnum():
                line = lines.of("player", n)
                raise EncounterError(f"{filename}:{line}: a player needs a name and a team")
            if any(name.lower() == p["name"].lower() for name, _ in players):
                line = lines.of("player", n, "name")
                raise EncounterError(
                    f"{filename}:{line}: player {p['name']!r} is named twice: `hit NAME` would"
                    " reach either"
                )
            players.append((p["name"], teams.index(p["team"])))
        for t, team in enumerate(teams):
            if not any(pt == t for _, pt in players):
                raise fail("teams", f"team {team!r} has no player")
        return Duel(
            str(doc.get("name", "duel")),
            tuple(teams),
            tuple(players),
            hits,
            text,
            filename,
            self.id,
        )

    # -- a game ------------------------------------------------------------------------------
    def new_game(self, encounter: Duel, seed: int) -> Game:
        st = GameState()
        data = descriptor(self.board_id)
        st.rules.load(data, 0, len(data))
        st.ruleset = self.board_id
        for name, team in encounter.players:
            roster.add_slot(st, name[:3], team, 0, 0, encounter.hits)
        st.round = 1
        return Game(encounter, seed, st, [0] * len(encounter.players), [0] * len(encounter.players))

    def apply(self, game: Game, cmd: Command) -> Applied:
        return Applied(self._act(game, cmd, None), list(game.used))

    def replay(self, game: Game, cmd: Command, record: list[list]) -> list[str]:
        return self._act(game, cmd, list(record))

    def _act(self, game: Game, cmd: Command, coins: list[list] | None) -> list[str]:
        won = game.winner()
        if won is not None:
            raise IllegalAction(f"the duel is over: {game.duel.teams[won]} won")
        game.used = []
        if cmd.verb == "end":
            lines = [f"{game.duel.teams[game.team]} ends its turn"]
            game.team = 1 - game.team
            game.hit_this_turn = False
            if game.team == 0:
                game.round += 1
            game.timeline.append(_point(game))
        else:  # hit
            target = game.player(cmd.arg(0, "a player"))
            name, team = game.duel.players[target]
            if team == game.team:
                raise IllegalAction(f"{name} is on {game.duel.teams[team]}'s own team")
            if game.out(target):
                raise IllegalAction(f"{name} is already out")
            if game.hit_this_turn:
                raise IllegalAction(f"{game.duel.teams[game.team]} has hit once this turn")
            coin, source = _coin(game, coins)
            game.used = [[coin, source]]
            game.hit_this_turn = True
            if not coin:
                lines = [f"tails: {name} is missed"]
            else:
                game.taken[target] += 1
                hitter = next(i for i, (_, t) in enumerate(game.duel.players) if t == game.team)
                game.landed[hitter] += 1
                lines = [f"heads: {name} takes hit {game.taken[target]} of {game.duel.hits}"]
                if game.out(target):
                    lines.append(f"{name} is out")
            won = game.winner()
            if won is not None:
                lines.append(f"{game.duel.teams[won]} wins")
                game.timeline.append(_point(game))
        game.actions += 1
        game.log.extend(lines)
        return lines

    def project(self, game: Game) -> None:
        _project(game)

    def winner(self, game: Game) -> str | None:
        won = game.winner()
        return None if won is None else game.duel.teams[won]

    def fighter_names(self, game: Game) -> list[str]:
        return [name for name, _ in game.duel.players]

    def snapshot(self, game: Game) -> dict:
        return {
            "round": game.round,
            "turn": game.duel.teams[game.team],
            "winner": self.winner(game),
            "players": [
                {"name": n, "team": game.duel.teams[t], "taken": game.taken[i], "out": game.out(i)}
                for i, (n, t) in enumerate(game.duel.players)
            ],
        }

    # -- coins waiting ---------------------------------------------------------------------
    def queue_roll(self, game: Game, purpose: str, faces: tuple[int, ...], source: str) -> None:
        if purpose != "coin" or len(faces) != 1 or faces[0] not in (0, 1):
            raise IllegalAction("a tiny roll is one coin: dice coin 0 or dice coin 1")
        game.waiting.setdefault("coin", deque()).append((faces, source))

    def waiting(self, game: Game) -> Waiting:
        return game.waiting

    def set_waiting(self, game: Game, waiting: Waiting) -> None:
        game.waiting = waiting

    def used_waiting(self, record: list[list]) -> list[str]:
        return ["coin" for _, source in record if source != "engine"]

    def session_command(self, session: SessionAPI, cmd: Command) -> list[str]:
        if cmd.verb == "dice":
            face = whole_number(cmd.arg(1, "a face"), 0, 1, "a coin")
            return session.queue_roll(cmd.arg(0, "coin"), (face,), "entered")
        return super().session_command(session, cmd)

    # -- the board -----------------------------------------------------------------------------
    def board_action(self, session: SessionAPI, record: bytes) -> list[str]:
        if record[0] == ev.NEXT_TURN:
            return session.execute("end")
        if record[0] == ev.CHANCE:  # the first flip is the coin of the next hit
            return session.queue_roll("coin", (record[ev.EVENT_HEADER],), "board")
        raise IllegalAction(f"tiny has no use for the board's {EVENT_NAMES[record[0]]}")

    # -- scores --------------------------------------------------------------------------------
    def summary(self, game: Game) -> dict:
        players = {
            n: {"landed": game.landed[i], "taken": game.taken[i]}
            for i, (n, _) in enumerate(game.duel.players)
        }
        teams = {}
        for t, team in enumerate(game.duel.teams):
            members = [i for i, (_, pt) in enumerate(game.duel.players) if pt == t]
            teams[team] = {
                "landed": sum(game.landed[i] for i in members),
                "taken": sum(game.taken[i] for i in members),
            }
        team_of = {n: game.duel.teams[t] for n, t in game.duel.players}
        return {"players": players, "teams": teams, "team_of": team_of}

    def score_line(self, game: Game) -> str:
        teams = self.summary(game)["teams"]
        return "scores: " + " · ".join(f"{t} {s['landed']}" for t, s in teams.items())

    # -- views ---------------------------------------------------------------------------------
    def headline(self, game: Game) -> tuple[str, str]:
        title = f"{game.duel.name}, round {game.round}"
        won = self.winner(game)
        return title, (f"{won} wins" if won else f"{game.duel.teams[game.team]}'s turn")

    def roster(self, game: Game) -> Table:
        rows = [
            [n, game.duel.teams[t], str(game.taken[i]), "out" if game.out(i) else "-"]
            for i, (n, t) in enumerate(game.duel.players)
        ]
        return Table(["name", "team", "hits", "state"], rows)

    def live_roster(self, game: Game) -> LiveTable:
        rows = [
            LiveRow(
                [n, game.duel.teams[t], str(game.taken[i])],
                "out" if game.out(i) else "",
                t == game.team,
            )
            for i, (n, t) in enumerate(game.duel.players)
        ]
        return LiveTable(["name", "team", "hits"], rows)

    def device_grid(self, game: Game, color: bool) -> str:
        return "\n".join(
            f"{'*' if t == game.team else ' '} {n:<6} {game.duel.teams[t]:<6} "
            + ("xx" if game.out(i) else str(game.taken[i]))
            for i, (n, t) in enumerate(game.duel.players)
        )

    def complete(self, game: Game, words: list[str]) -> list[str]:
        if words[0] == "hit" and len(words) == 2:
            return [n for n, t in game.duel.players if t != game.team]
        return []

    # -- the demo AI -------------------------------------------------------------------------
    def plan_turn(self, game: Game) -> list[str]:
        targets = [
            n for i, (n, t) in enumerate(game.duel.players) if t != game.team and not game.out(i)
        ]
        return ([f"hit {targets[0]}"] if targets else []) + ["end"]


def _coin(game: Game, replayed: list[list] | None) -> tuple[int, str]:
    """The coin of a hit and where it came from: the record's when replaying, else one
    waiting from the table or the board, else the engine's (the same seed and action number
    flip the same coin)."""
    if replayed is not None:
        if not replayed:
            raise IllegalAction("the journal holds no coin for this hit")
        face, source = replayed.pop(0)
        return face, source
    queue = game.waiting.get("coin")
    if queue:
        faces, source = queue.popleft()
        return faces[0], source
    return random.Random(game.seed * 100_003 + game.actions).randrange(2), "engine"


def _point(game: Game) -> dict:
    teams = {}
    for t, team in enumerate(game.duel.teams):
        members = [i for i, (_, pt) in enumerate(game.duel.players) if pt == t]
        teams[team] = sum(game.landed[i] for i in members)
    taken = {n: game.taken[i] for i, (n, _) in enumerate(game.duel.players)}
    return {"turn": len(game.timeline) + 1, "taken": taken, "score": teams}


def _project(game: Game) -> None:
    """The duel on the board's state: a slot per player (its hits left as the health
    bar, out when down), the active team's first standing player as the turn, the hits
    each team landed as its score."""
    st = game.state
    st.round = game.round
    for i in range(st.count):
        slot = st.slots[i]
        slot.health = game.duel.hits - game.taken[i]
        slot.counters[0] = game.taken[i]
        slot.flags = F_OUT if game.out(i) else 0
    standing = [i for i, (_, t) in enumerate(game.duel.players) if t == game.team]
    turn = next((i for i in standing if not game.out(i)), standing[0])
    st.turn = turn  # the order is the encounter's: position i holds slot i
    st.slots[turn].flags |= F_ACTIVE
    for t in range(2):
        members = [i for i, (_, pt) in enumerate(game.duel.players) if pt == t]
        st.scores[t] = sum(game.landed[i] for i in members)
    st.touch()


def descriptor(board_id: int) -> bytes:
    """What the board knows of the game: a counter of hits taken (vermillion), one phase,
    no allowance to refill, and a chance flip for the roll key's sake."""
    return pack(
        "tiny",
        board_id,
        1,
        health="left",
        counters=(counter("hits", 9, 7),),
        flags=0,
        dice_kind=dice.KIND_ACTION_D3,
        dice_count=1,
    )


TINY = Tiny()
