"""What a flare game's state may hold beyond the kinds of value a new game shows: a stored
checkpoint's game outside it is refused and replayed (host/core/state_check.py). Turns,
rounds and the counts a player's statistics keep never go below where they start, and the
player whose turn it is is one of the encounter's. Rules: flare-summoning-turn.txt.
"""

from __future__ import annotations

from typing import Any

from host.core.state_check import Field, StateSchema
from host.rulesets.flare.engine import Game, Stats

_COUNT = Field((int,), low=0)


def _relations(game: Any) -> str | None:
    players = len(game.enc.players)
    for name in ("current", "controller"):
        if not 0 <= getattr(game, name) < players:
            return f"its {name} is player {getattr(game, name)} of {players}"
    return None


SCHEMA = StateSchema(
    {
        Game: {
            "round": Field((int,), low=1),
            "turns": _COUNT,
            "actions_left": _COUNT,
            "lent": Field((tuple, None)),
            "winner": Field((str, None)),
        },
        Stats: {name: _COUNT for name in ("destroyed", "flares", "legendaries", "placed")},
    },
    _relations,
)
