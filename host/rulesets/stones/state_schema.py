"""What a stones game's state may hold beyond the kinds of value a new game shows: a stored
checkpoint's game outside it is refused and replayed (host/core/state_check.py). Counts
never go below 0, and the player whose turn it is is one of the encounter's. Rules:
speaking-stones-turn-order.txt.
"""

from __future__ import annotations

from typing import Any

from host.core.state_check import Field, StateSchema
from host.rulesets.stones.engine import Game

_COUNT = Field((int,), low=0)


def _relations(game: Any) -> str | None:
    players = len(game.enc.players)
    if not 0 <= game.player < players:
        return f"its player is {game.player} of {players}"
    return None


SCHEMA = StateSchema(
    {
        Game: {
            "turns": _COUNT,
            "actions": _COUNT,
            "reshuffles": _COUNT,
            "moved": _COUNT,
            "active": Field((int, None)),
            "winner": Field((int, None)),
        }
    },
    _relations,
)
