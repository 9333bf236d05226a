"""The game state as plain JSON: what a straightforward text protocol would send.

The bench compares its size with the binary snapshot; people and tools can read it too.
Counters and marks are named by the state's descriptor (shared/descriptor.py).
"""

from __future__ import annotations

import json
from typing import Any

from shared.descriptor_pack import encoded, names
from shared.limits import GRID_OWNER, GRID_RANK_SHIFT
from shared.state import GameState
from shared.words import KIND_NAMES

# The names of Slot.flags' generic bits (shared/state.py's F_* constants), lowest bit first;
# the descriptor names the marks after them.
FLAG_NAMES = ("active", "acted", "out")


def state_to_dict(state: GameState) -> dict[str, Any]:
    described = names(encoded(state.rules))
    flag_names = FLAG_NAMES + tuple(described["marks"])
    counter_names = described["counters"]
    slots = []
    for index in range(state.count):
        slot = state.slots[index]
        slots.append(
            {
                "label": slot.label,
                "team": slot.team,
                "order_key": slot.order_key,
                "actions": slot.actions,
                "actions_max": slot.actions_max,
                "health": slot.health,
                "health_max": slot.health_max,
                "counters": {name: slot.counters[i] for i, name in enumerate(counter_names)},
                "flags": [name for bit, name in enumerate(flag_names) if slot.flags & (1 << bit)],
                "effects": slot.effects,
                "effect_ends": bool(slot.effect_ends),
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
    out: dict[str, Any] = {
        "ruleset": described["ruleset"],
        "round": state.round,
        "version": state.version,
        "turn": state.turn,
        "phase": state.phase,
        "phase_count": state.phase_count,
        "scores": list(state.scores[: state.team_count]),
        "last_roll": {
            "kind": KIND_NAMES[roll.kind],
            "sides": list(roll.sides[: roll.count]),
            "faces": list(roll.faces[: roll.count]),
            "successes": roll.successes,
            "who": None if roll.who == 0xFF else roll.who,
        },
        "slots": slots,
        "order": list(state.order[: state.count]),
        "order_reasons": list(state.order_reason[: state.count]),
    }
    if state.grid_w:  # a token grid (only a game that has one): rows of owner and rank
        w = state.grid_w
        out["grid"] = [
            [_token(state.grid[r * w + c]) for c in range(w)] for r in range(state.grid_h)
        ]
    return out


def _token(cell: int) -> dict[str, int] | None:
    if not cell:
        return None
    return {"owner": (cell & GRID_OWNER) - 1, "rank": cell >> GRID_RANK_SHIFT}


def state_to_json(state: GameState) -> str:
    """JSON without spaces, its keys and flags spelt out (what a person reads)."""
    return json.dumps(state_to_dict(state), separators=(",", ":"))


def state_to_compact_json(state: GameState) -> str:
    """The same fields as plain arrays in a fixed order, numbers for flags and kinds: the
    strongest honest JSON peer of the binary snapshot (what a protocol designer would send
    if it had to be JSON). Each slot is [label, team, order_key, actions, actions_max,
    health, health_max, [counters], flags, cd_pending, [[cooldown id, turns left], ...]];
    the state is [ruleset, round, version, turn, phase, phase_count, [scores],
    [kind, sides, successes, who, [faces]], [slots], [order], [order reasons]], and with a
    token grid [width, height, [cell bytes]] after them."""
    counters = state.rules.counters
    slots = []
    for index in range(state.count):
        slot = state.slots[index]
        slots.append(
            [
                slot.label,
                slot.team,
                slot.order_key,
                slot.actions,
                slot.actions_max,
                slot.health,
                slot.health_max,
                list(slot.counters[:counters]),
                slot.flags,
                slot.cd_pending,
                [[slot.cd_id[i], slot.cd_left[i]] for i in range(len(slot.cd_id)) if slot.cd_id[i]],
            ]
        )
    roll = state.roll
    compact = [
        state.ruleset,
        state.round,
        state.version,
        state.turn,
        state.phase,
        state.phase_count,
        list(state.scores[: state.team_count]),
        [
            roll.kind,
            list(roll.sides[: roll.count]),
            roll.successes,
            roll.who,
            list(roll.faces[: roll.count]),
        ],
        slots,
        list(state.order[: state.count]),
        list(state.order_reason[: state.count]),
    ]
    if state.grid_w:
        compact.append(
            [state.grid_w, state.grid_h, list(state.grid[: state.grid_w * state.grid_h])]
        )
    return json.dumps(compact, separators=(",", ":"))
