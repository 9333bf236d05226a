"""In-memory checkpoints of a session's game, so that undo, redo and a refused command
replay only the tail of a long game instead of all of it.

A checkpoint is a deep copy of the running game after its first `n` actions (the game is a
pure function of its encounter, seed and actions with their records, so replaying the
rest from a copy gives exactly the game a full replay gives: tests/test_checkpoints.py).
The session keeps one every EVERY actions: the RECENT latest ones, and one every FAR
actions before them, so a game of any length holds a bounded handful near its end and
thins out behind. A checkpoint is only valid for the history it was taken on: the session
forgets those past a point when that history changes (a new action after an undo).
"""

from __future__ import annotations

import copy
from typing import Any

EVERY = 32  # actions between checkpoints
RECENT = 4  # the latest checkpoints kept whatever their position
FAR = 1024  # further back, one every this many actions


class Checkpoints:
    def __init__(self) -> None:
        self._games: dict[int, Any] = {}

    def __len__(self) -> int:
        return len(self._games)

    def due(self, n: int) -> bool:
        """Whether a game after `n` actions should be kept (and is not already)."""
        return n > 0 and n % EVERY == 0 and n not in self._games

    def keep(self, n: int, game: Any) -> None:
        """Keep a copy of `game` as it is after `n` actions."""
        self._games[n] = copy.deepcopy(game)
        near = sorted(k for k in self._games if k % FAR)
        for k in near[:-RECENT]:
            del self._games[k]

    def nearest(self, n: int) -> tuple[int, Any] | None:
        """(k, a copy of the game after k actions) for the largest k <= n kept, or None."""
        below = [k for k in self._games if k <= n]
        if not below:
            return None
        k = max(below)
        return k, copy.deepcopy(self._games[k])

    def forget_after(self, n: int) -> None:
        """Drop the checkpoints past `n` actions (the history after `n` changed)."""
        for k in [k for k in self._games if k > n]:
            del self._games[k]

    def clear(self) -> None:
        self._games.clear()
