"""A ruleset written only for the tests whose turns stop and come back, reporting its turn
moments (`Ruleset.turn_moments`, host/core/effect_clock.py) so that the effect clock times
every duration through a held action, an interrupt and a Delay (issue 41, item 4).

The game: each player takes its own turn, in the encounter's order, round after round.

- `end`: the running turn ends; the next player in the order takes its turn (or, after an
  interrupt, the interrupted player's turn goes on).
- `hold`: the running player holds its action: its turn stops and the next player's
  begins; a held turn not taken back by the round's end is lost (it ends then).
- `interrupt NAME`: NAME, holding, acts now: the running turn stops, NAME's goes on, and
  when NAME ends it the interrupted turn goes on.
- `delay`: the running player steps out of the order (pf2-combat.txt [22], in its plain
  form: its turn is stopped, not ended); `return NAME` ends the running turn and NAME
  comes back right after it in the order, and its turn goes on. A player delayed a whole
  round loses its turn and is back at its place in the next.

`TINY_HOLDS` reports its moments; `TINY_POINTER` is the same game reporting none, timed by
the turn pointer alone (the clock as it was before the report); `TINY_AWAY` shows a
delaying player out of play on the board while it waits.

    ruleset = "tiny_holds"
    name = "Holds"
    [[player]]
    name = "Ann"
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host.core.commandline import Command, Language, Verb
from host.core.encounter_files import read_toml
from host.core.interface import Applied, EncounterError, IllegalAction, Ruleset
from shared import roster
from shared.descriptor_pack import counter, pack
from shared.state import F_ACTIVE, F_OUT, GameState

HERE = Path(__file__).parent
VERBS = {
    "end": Verb("", "end the running turn"),
    "hold": Verb("", "the running player holds its action: the next player's turn begins"),
    "interrupt": Verb("NAME", "NAME, holding, acts now: the running turn stops"),
    "delay": Verb("", "the running player steps out of the order"),
    "return": Verb("NAME", "end the running turn; NAME, delaying, comes back after it"),
}


@dataclass(frozen=True)
class Holds:
    name: str
    players: tuple[str, ...]
    source: str = ""
    path: str = ""
    ruleset: str = "tiny_holds"
    teams: tuple[str, ...] = ("all",)


@dataclass
class Game:
    holds: Holds
    state: GameState
    order: list[int]  # players by their place in the order
    at: int = 0  # the place of the running turn
    round: int = 1
    held: list[int] = field(default_factory=list)  # holding their action
    away: list[int] = field(default_factory=list)  # delaying, out of the order
    interrupted: list[int] = field(default_factory=list)  # turns stopped by an interrupt
    moments: list[tuple[str, Any]] = field(default_factory=list)  # the last action's

    @property
    def teams(self) -> tuple[str, ...]:
        return self.holds.teams

    def name(self, i: int) -> str:
        return self.holds.players[i]

    def running(self) -> int:
        return self.order[self.at]


class TinyHolds(Ruleset):
    id = "tiny_holds"
    description = "a test's game: one turn each, held, interrupted and delayed"
    board_id = None  # the registry gives each of these a free one
    language = Language(VERBS)
    next_turn_commands = ("end",)
    state_modules = ("tiny_holds",)
    reports = True
    away_on_board = True  # one delaying is shown in play (else out of it, greyed)

    def example_path(self) -> Path:
        return HERE / "tiny_holds.toml"

    def parse_encounter(self, text: str, filename: str) -> Holds:
        doc = read_toml(text, filename)
        names = tuple(str(p.get("name", "")) for p in doc.get("player", []))
        if doc.get("ruleset") not in (TinyHolds.id, self.id) or len(names) < 2 or not all(names):
            raise EncounterError(f"{filename}: a {self.id} encounter names two players or more")
        return Holds(str(doc.get("name", "holds")), names, text, filename, self.id)

    def new_game(self, encounter: Holds, seed: int) -> Game:
        st = GameState()
        data = pack("tiny-hld", self.board_id, 1, health="left", counters=(counter("x", 9, 7),))
        st.rules.load(data, 0, len(data))
        st.ruleset = self.board_id
        for name in encounter.players:
            roster.add_slot(st, name[:3], 0, 0, 0, 1)
        return Game(encounter, st, list(range(len(encounter.players))))

    def apply(self, game: Game, cmd: Command) -> Applied:
        return Applied(self._act(game, cmd), [])

    def replay(self, game: Game, cmd: Command, record: Any) -> list[str]:
        return self._act(game, cmd)

    def turn_moments(self, game: Game) -> list[tuple[str, Any]] | None:
        return list(game.moments) if self.reports else None

    def _act(self, game: Game, cmd: Command) -> list[str]:
        game.moments = []
        say = game.moments.append
        me = game.running()
        lines = [f"{game.name(me)}: {cmd.verb}"]
        if cmd.verb == "end":
            say(("end", game.name(me)))
            if game.interrupted:
                self._resume(game, game.interrupted.pop())
            else:
                self._next(game)
        elif cmd.verb == "hold":
            say(("suspend", game.name(me)))
            game.held.append(me)
            self._next(game)
        elif cmd.verb == "interrupt":
            who = self._named(game, cmd, game.held, "holding")
            say(("suspend", game.name(me)))
            game.interrupted.append(me)
            game.held.remove(who)
            self._resume(game, who)
        elif cmd.verb == "delay":
            say(("leave", game.name(me)))
            game.away.append(me)
            game.order.remove(me)
            game.at -= 1  # (the next place is where it stood)
            self._next(game)
        elif cmd.verb == "return":
            who = self._named(game, cmd, game.away, "delaying")
            say(("end", game.name(me)))
            game.away.remove(who)
            game.order.insert(game.at + 1, who)
            say(("rejoin", game.name(who)))
            self._resume(game, who)
        return lines

    def _named(self, game: Game, cmd: Command, among: list[int], what: str) -> int:
        word = cmd.arg(0, "NAME").lower()
        found = [i for i in among if game.name(i).lower() == word]
        if not found:
            names = ", ".join(game.name(i) for i in among) or "nobody"
            raise IllegalAction(f"{cmd.verb}: {word} is not {what} ({what}: {names})")
        return found[0]

    def _resume(self, game: Game, who: int) -> None:
        game.at = game.order.index(who)
        game.moments.append(("resume", game.name(who)))

    def _next(self, game: Game) -> None:
        """The next place's turn begins; past the last, the round ends (held turns lost,
        delayed players back at their places) and the next begins."""
        game.at += 1
        if game.at >= len(game.order):
            for i in game.held:
                game.moments.append(("end", game.name(i)))
            for i in sorted(game.away):
                game.order.insert(min(i, len(game.order)), i)
                game.moments.append(("rejoin", game.name(i)))
            game.held, game.away = [], []
            game.round += 1
            game.at = 0
            game.moments.append(("round", game.round))
        game.moments.append(("start", game.name(game.running())))

    def project(self, game: Game) -> None:
        st = game.state
        st.round = game.round
        placed = game.order + sorted(game.away)  # (one delaying keeps a place on the board)
        for p, i in enumerate(placed):
            st.order[p] = i
        for i in range(st.count):
            st.slots[i].flags = F_OUT if i in game.away and not self.away_on_board else 0
        st.turn = game.at
        st.slots[game.running()].flags |= F_ACTIVE
        st.touch()

    def winner(self, game: Game) -> str | None:
        return None

    def fighter_names(self, game: Game) -> list[str]:
        return list(game.holds.players)

    def snapshot(self, game: Game) -> dict:
        return {"round": game.round, "running": game.name(game.running())}


class TinyAway(TinyHolds):
    """tiny_holds whose board shows a delaying player out of play while it waits."""

    id = "tiny_away"
    away_on_board = False


class TinyPointer(TinyHolds):
    id = "tiny_pointer"
    reports = False


TINY_HOLDS = TinyHolds()
TINY_POINTER = TinyPointer()
TINY_AWAY = TinyAway()
