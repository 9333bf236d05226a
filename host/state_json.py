"""The game state as plain JSON: what a straightforward text protocol would send.

The bench compares its size with the binary snapshot; people and tools can read it too.
"""

from __future__ import annotations

import json
from typing import Any

from shared import dice
from shared.state import GameState

# The names of Slot.flags' bits (shared/state.py's F_* constants), lowest bit first.
FLAG_NAMES = ("active", "acted", "out", "frozen", "knocked_down", "pinned", "grappled", "charging")


def state_to_dict(state: GameState) -> dict[str, Any]:
    slots = []
    for index in range(state.count):
        slot = state.slots[index]
        slots.append(
            {
                "label": slot.label,
                "team": slot.team,
                "agility": slot.agility,
                "ap": slot.ap,
                "ap_max": slot.ap_max,
                "kor": slot.kor,
                "kor_max": slot.kor_max,
                "frost": slot.frost,
                "burn": slot.burn,
                "fear": slot.fear,
                "flags": [name for bit, name in enumerate(FLAG_NAMES) if slot.flags & (1 << bit)],
                "cooldowns": [
                    {
                        "id": slot.cd_id[i],
                        "turns_left": slot.cd_left[i],
                        "used_this_turn": bool(slot.cd_pending & (1 << i)),
                    }
                    for i in range(len(slot.cd_id))
                    if slot.cd_id[i]
                ],
            }
        )
    roll = state.roll
    return {
        "ruleset": state.ruleset,
        "timing": state.timing,
        "round": state.round,
        "version": state.version,
        "turn": state.turn,
        "phase": state.phase,
        "phase_count": state.phase_count,
        "scores": list(state.scores[: state.team_count]),
        "last_roll": {
            "kind": dice.KIND_NAMES[roll.kind],
            "sides": roll.sides,
            "faces": list(roll.faces[: roll.count]),
            "successes": roll.successes,
            "who": None if roll.who == 0xFF else roll.who,
        },
        "slots": slots,
        "order": list(state.order[: state.count]),
        "order_reasons": list(state.order_reason[: state.count]),
    }


def state_to_json(state: GameState) -> str:
    """Compact JSON (no spaces)."""
    return json.dumps(state_to_dict(state), separators=(",", ":"))
