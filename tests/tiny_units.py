"""Two more rulesets written only for the tests: tiny's duel (tests/tiny_ruleset.py) played
with the shared turn machine's other turn units (descriptor version 2, shared/turns.py),
through the host and the simulated board, with no ruleset code in shared/ or firmware/.

- tiny_teams, a group turn (UNIT_TEAM; speaking-stones-turn-order.txt:64, the teams'
  turns alternate). The order keeps each team's players together, Red's first, so a team's
  standing players are active at once. On the team's turn each may hit once, `hit PLAYER
  TARGET` (its allowance of 1, refilled as its turn starts: REFILL); a player with no hit
  left is done, `done PLAYER` says one is done without hitting, and once every one of
  them is done, or on `end`, the other team's turn begins.
- tiny_steps, simultaneous steps (UNIT_STEP; forms-turns-rounds-encounters.txt:26, all
  turns of a round happen at once, in numbered steps: forms-turns-rounds-encounters.txt:47).
  Every standing player acts at once in each of a round's two steps, "aim" then "hit":
  `aim PLAYER` in the aim step (a mark that clears as the round ends: M_ROUND_CLEAR), `hit
  PLAYER TARGET` in the hit step, an aimed player only, once a round (the allowance refills
  as a round starts: ROUND_REFILL; advance-late-combat-round.txt:29, one action a round).
  A player who acts is done in that step; `done PLAYER` says so without acting; once all
  are done, or on `end`, the next step begins (past the hit step, the next round).

Both keep their turns in the shared GameState and move them with shared.turns alone, as
korxsol does, so what the board plays untethered and what the host's rules play agree by
construction. On the board: next turn is `end`, next turn with one of the turn's players
selected is `done PLAYER` (the board sends that slot), next phase in steps is `end` too,
and the chance key flips the coin of the next hit.

    ruleset = "tiny_teams"       # or "tiny_steps"; the rest as tiny's
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tiny_ruleset import SESSION_VERBS, Duel, Game, Tiny, _coin, _point

from host.core.commandline import Command, Language, Verb
from host.core.interface import IllegalAction
from shared import events as ev
from shared import roster, turns
from shared.descriptor import REFILL
from shared.descriptor_pack import (
    M_ROUND_CLEAR,
    ROUND_REFILL,
    UNIT_STEP,
    UNIT_TEAM,
    counter,
    mark,
    pack,
)
from shared.limits import NO_SLOT
from shared.state import F_ACTED, F_ACTIVE, F_OUT, GameState, mark_bit

if TYPE_CHECKING:
    from collections.abc import Callable

    from host.core.interface import SessionAPI

HERE = Path(__file__).parent
AIMED = 0  # tiny_steps' one mark
AIM_STEP = 0
HIT_STEP = 1


def teams_descriptor(board_id: int) -> bytes:
    """tiny_teams' descriptor, with the board id the registry gave it."""
    return pack(
        "tiny-tms",
        board_id,
        1,
        health="left",
        allowance="hit",
        counters=(counter("hits", 9, 7),),
        flags=REFILL | UNIT_TEAM,
        dice_count=1,
    )


def steps_descriptor(board_id: int) -> bytes:
    """tiny_steps' descriptor, with the board id the registry gave it."""
    return pack(
        "tiny-stp",
        board_id,
        1,
        health="left",
        allowance="hit",
        counters=(counter("hits", 9, 7),),
        marks=(mark("aimed", 8, M_ROUND_CLEAR),),
        phases=("aim", "hit"),
        flags=ROUND_REFILL | UNIT_STEP,
        dice_count=1,
    )


_VERBS = {
    "hit": Verb("PLAYER TARGET", "PLAYER flips a coin: on heads TARGET takes a hit"),
    "done": Verb("PLAYER", "PLAYER is done for this turn (or step) without hitting"),
    "end": Verb("", "end the turn (in steps: the step)"),
}
_AIM = {"aim": Verb("PLAYER", "PLAYER aims (the aim step), so it may hit in the hit step")}


class TinyUnits(Tiny):
    start_command = ""
    next_turn_commands = ("end",)

    def __init__(self, id: str, descriptor: Callable[[int], bytes], steps: bool) -> None:
        self.id = id
        self.descriptor = descriptor
        self.board_id = None  # the registry gives it a free one
        self.steps = steps
        self.description = (
            "a test's game: every player at once, in an aim step and a hit step"
            if steps
            else "a test's game: each team's players take their turn together"
        )
        self.language = Language({**_VERBS, **_AIM} if steps else _VERBS, SESSION_VERBS)

    def example_path(self) -> Path:
        return HERE / ("tiny_steps.toml" if self.steps else "tiny_teams.toml")

    def new_game(self, encounter: Duel, seed: int) -> Game:
        st = GameState()
        data = self.descriptor(self.board_id)
        st.rules.load(data, 0, len(data))
        st.ruleset = self.board_id
        st.phase_count = st.rules.phases
        players = encounter.players
        for name, team in players:
            roster.add_slot(st, name[:3], team, 0, 1, encounter.hits)
        # Each team's players next to each other, Red's first: one group per team.
        roster.set_order(st, sorted(range(len(players)), key=lambda i: (players[i][1], i)))
        turns.start_round(st)
        game = Game(encounter, seed, st, [0] * len(players), [0] * len(players))
        _project(game)
        return game

    def _act(self, game: Game, cmd: Command, coins: list[list] | None) -> list[str]:
        won = game.winner()
        if won is not None:
            raise IllegalAction(f"the duel is over: {game.duel.teams[won]} won")
        st = game.state
        game.used = []
        if cmd.verb == "end":
            lines = [self._ends(game)]
            turns.end_turn(st)
        elif cmd.verb == "done":
            i = _to_act(game, cmd.arg(0, "a player"))
            lines = [f"{game.duel.players[i][0]} is done"]
            turns.slot_done(st, i)
        elif cmd.verb == "aim":
            if st.phase != AIM_STEP:
                raise IllegalAction("players aim in the aim step")
            i = _to_act(game, cmd.arg(0, "a player"))
            st.slots[i].flags |= mark_bit(AIMED)
            lines = [f"{game.duel.players[i][0]} aims"]
            turns.slot_done(st, i)
        else:  # hit PLAYER TARGET
            lines = self._hit(game, cmd, coins)
        game.actions += 1
        if st.round != game.round:
            game.timeline.append(_point(game))
        _project(game)
        game.log.extend(lines)
        return lines

    def _hit(self, game: Game, cmd: Command, coins: list[list] | None) -> list[str]:
        st = game.state
        i = _to_act(game, cmd.arg(0, "a player"))
        target = game.player(cmd.arg(1, "a target"))
        hitter, team = game.duel.players[i]
        name, target_team = game.duel.players[target]
        if self.steps and st.phase != HIT_STEP:
            raise IllegalAction("hits are made in the hit step")
        if self.steps and not st.slots[i].flags & mark_bit(AIMED):
            raise IllegalAction(f"{hitter} has not aimed this round")
        if not st.slots[i].actions:
            raise IllegalAction(f"{hitter} has no hit left")
        if target_team == team:
            raise IllegalAction(f"{name} is on {game.duel.teams[team]}'s own team")
        if game.out(target):
            raise IllegalAction(f"{name} is already out")
        coin, source = _coin(game, coins)
        game.used = [[coin, source]]
        st.slots[i].actions -= 1
        if not coin:
            lines = [f"tails: {name} is missed"]
        else:
            game.taken[target] += 1
            game.landed[i] += 1
            lines = [f"heads: {name} takes hit {game.taken[target]} of {game.duel.hits}"]
            if game.out(target):
                st.slots[target].flags |= F_OUT
                lines.append(f"{name} is out")
        won = game.winner()
        if won is not None:
            lines.append(f"{game.duel.teams[won]} wins")
            game.timeline.append(_point(game))
        else:
            turns.slot_done(st, i)
        return lines

    def _ends(self, game: Game) -> str:
        st = game.state
        if self.steps:
            return f"the {('aim', 'hit')[st.phase]} step of round {st.round} ends"
        return f"{game.duel.teams[st.slots[st.active].team]} ends its turn"

    def project(self, game: Game) -> None:
        """Nothing: its turns are the state's own (shared.turns), and `_act` keeps the rest in
        step as it plays, as korxsol does (tiny's projection would undo the turns)."""

    def board_action(self, session: SessionAPI, record: bytes) -> list[str]:
        game = session.game
        code = record[0]
        if code == ev.NEXT_TURN and record[1] != NO_SLOT:
            return session.execute(f"done {game.duel.players[record[1]][0]}")
        if code == ev.NEXT_TURN or (code == ev.NEXT_PHASE and self.steps):
            return session.execute("end")
        return super().board_action(session, record)

    def headline(self, game: Game) -> tuple[str, str]:
        st = game.state
        title = f"{game.duel.name}, round {st.round}"
        won = self.winner(game)
        if won:
            return title, f"{won} wins"
        if self.steps:
            return title, f"the {('aim', 'hit')[st.phase]} step"
        return title, f"{game.duel.teams[game.team]}'s turn"

    def complete(self, game: Game, words: list[str]) -> list[str]:
        return []

    def plan_turn(self, game: Game) -> list[str]:
        return ["end"]


def _to_act(game: Game, name: str) -> int:
    """The player called `name`, if it is one still to act in this turn (or step)."""
    i = game.player(name)
    if game.state.slots[i].flags & (F_ACTIVE | F_ACTED | F_OUT) != F_ACTIVE:
        raise IllegalAction(f"{game.duel.players[i][0]} is not one still to act")
    return i


def _project(game: Game) -> None:
    """What the board shows beyond the turns (shared.turns keeps those): each player's hits
    left as the health bar and hits taken as the counter, each team's landed hits as its
    score; the game's team and round follow the state's."""
    st = game.state
    for i in range(st.count):
        st.slots[i].health = game.duel.hits - game.taken[i]
        st.slots[i].counters[0] = game.taken[i]
    for t in range(2):
        members = [i for i, (_, pt) in enumerate(game.duel.players) if pt == t]
        st.scores[t] = sum(game.landed[i] for i in members)
    game.team = st.slots[st.active].team
    game.round = st.round
    st.touch()


TINY_TEAMS = TinyUnits("tiny_teams", teams_descriptor, steps=False)
TINY_STEPS = TinyUnits("tiny_steps", steps_descriptor, steps=True)
