"""What a korxsol game's state may hold beyond the kinds of value a new game shows: a
stored checkpoint's game outside it is refused and replayed (host/core/state_check.py).

SOL never goes below 0 (spending needs a point; the game master's adjust stops at 0) and
has no ceiling (adjust adds any amount); armor stays within 0 and the dice a roll can have
(a teammate's assist goes past the cap up to there). Rules: korxsol-players-guide.txt.
"""

from __future__ import annotations

from host.core.state_check import Field, StateSchema, each_at_its_index
from host.rulesets.korxsol.engine import Game
from host.rulesets.korxsol.fighter import Fighter
from host.rulesets.korxsol.model import Effects, Move
from host.rulesets.korxsol.rolls import Roller
from host.rulesets.korxsol.table import WIDTH
from shared.limits import MAX_DICE

SCHEMA = StateSchema(
    {
        Game: {"winner": Field((int, None)), "_current": Field((Effects, None))},
        Roller: {"replay": Field((list, None))},
        Fighter: {
            "sol": Field((int,), low=0, high=2**31),
            "armor": Field((int,), low=0, high=MAX_DICE),
            "index": Field((int,), low=0, high=WIDTH - 1),  # a slot of its table (table.py)
            "charging": Field((Move, None)),
        },
    },
    each_at_its_index("fighters"),
)
