"""The web pages for a board on its own (`turnlight sim --web`): no session, no ruleset
on the laptop, only what the board holds. Its state (the shared GameState, named by its
descriptor) goes through the same view code as a session's, by way of `BoardRules`, a
Ruleset that reads a board's state and nothing else; the LEDs are the simulated board's."""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from typing import Any

from host.core.audience import Secrets
from host.core.commandline import Language
from host.core.interface import IllegalAction, LiveRow, LiveTable, Ruleset
from shared import roster
from shared.limits import NO_SLOT
from shared.state import F_OUT, GameState


@dataclass
class BoardGame:
    state: GameState
    teams: tuple[str, ...]


class BoardRules(Ruleset):
    """A board's own state as the view's Ruleset: fighters by their labels, teams by
    number, health and marks by the descriptor's names. It plays nothing."""

    id = "board"
    description = "what a board shows on its own"
    language = Language({})

    def state(self, game: BoardGame) -> GameState:
        return game.state

    def summary(self, game: BoardGame) -> dict:
        return {"players": {}, "teams": {}, "team_of": {}}

    def headline(self, game: BoardGame) -> tuple[str, str]:
        state = game.state
        if state.round == 0:
            return "the board on its own", "not started: the next-turn key starts round 1"
        active = state.active
        whose = state.slots[active].label if active != NO_SLOT else "nobody"
        return f"the board on its own, round {state.round}", f"{whose}'s turn"

    def live_roster(self, game: BoardGame) -> LiveTable:
        state = game.state
        rows = []
        for position in range(state.count):
            i = state.order[position]
            slot = state.slots[i]
            health = f"{slot.health}/{slot.health_max}" if slot.health_max else "-"
            out = "out" if slot.flags & F_OUT else ""
            rows.append(
                LiveRow(
                    [slot.label, _team(game, slot.team), health, str(slot.actions)],
                    out,
                    i == state.active,
                )
            )
        return LiveTable(["slot", "team", "health", "actions"], rows)

    def score_line(self, game: BoardGame) -> str:
        scores = game.state.scores
        return "scores: " + " · ".join(f"{t} {scores[i]}" for i, t in enumerate(game.teams))

    def winner(self, game: BoardGame) -> str | None:
        return None

    def device_grid(self, game: BoardGame, color: bool) -> str:
        return ""


def _team(game: BoardGame, team: int) -> str:
    return game.teams[team] if team < len(game.teams) else f"team {team + 1}"


@dataclass
class _Encounter:
    teams: tuple[str, ...]


class BoardSession:
    """What the view reads of a session, for a board alone."""

    def __init__(self, state: GameState, secrets: list[Secrets]) -> None:
        self._secrets = secrets  # the board source's, kept across views
        self.ruleset = BoardRules()
        teams = tuple(f"team {n + 1}" for n in range(max(2, state.team_count)))
        self.game = BoardGame(state, teams)
        self.encounter = _Encounter(teams)

    @property
    def secrets(self) -> Secrets:
        return self._secrets[0]

    def set_secrets(self, secrets: Secrets) -> None:
        self._secrets[0] = secrets


class BoardLive:
    """The web source of `turnlight sim --web`: the simulated board's state and LEDs."""

    def __init__(self, sim: Any) -> None:
        self._sim = sim
        self._copy = GameState()
        self._lock = threading.RLock()
        self._secrets = [Secrets()]

    def session(self) -> Any:
        with self._sim.lock:
            roster.copy_state(self._copy, self._sim.app.state)
        return BoardSession(self._copy, self._secrets)

    def lock(self) -> contextlib.AbstractContextManager[Any]:
        return self._lock

    def stamp(self) -> tuple:
        app = self._sim.app
        return (id(app), app.state.version)

    def log(self) -> list[str]:
        return []

    def dice_lines(self) -> list[str]:
        return []

    def odds(self) -> list[str]:
        return []

    def sim(self) -> Any:
        return self._sim

    def run(self, line: str) -> list[str]:
        raise IllegalAction(
            "the board plays on its own here: press its keys (or link it to a session:"
            " turnlight play --port PATH --web)"
        )

    def text(self, line: str) -> str | None:
        return None

    def follow(self) -> None:
        """A board on its own plays its own state: the page hides, the board cannot."""
