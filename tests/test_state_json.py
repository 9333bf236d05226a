"""The JSON peers of the binary snapshot (host/board/state_json.py, `turnlight bench`): the
compact one, plain arrays, still carries every field the snapshot carries, so its size is
an honest comparison (issue #17)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from host.board.state_json import state_to_compact_json, state_to_json
from shared import codec, roster
from shared.reference import build_reference_state
from shared.state import GameState

CHANGES: dict[str, Callable[[GameState], None]] = {
    "health": lambda s: setattr(s.slots[0], "health", s.slots[0].health - 1),
    "actions": lambda s: setattr(s.slots[1], "actions", 0),
    "counter": lambda s: s.slots[2].counters.__setitem__(0, 5),
    "flags": lambda s: setattr(s.slots[3], "flags", s.slots[3].flags ^ 8),
    "cooldown": lambda s: s.slots[4].cd_left.__setitem__(0, 9),
    "used this turn": lambda s: setattr(s.slots[5], "cd_pending", s.slots[5].cd_pending ^ 2),
    "score": lambda s: s.scores.__setitem__(1, 6),
    "roll face": lambda s: s.roll.faces.__setitem__(0, 1 + s.roll.faces[0] % 3),
    "order": lambda s: s.order.__setitem__(slice(0, 2), bytes([s.order[1], s.order[0]])),
    "phase": lambda s: setattr(s, "phase", 1 - s.phase),
    "label": lambda s: setattr(s.slots[6], "label", "Q"),
    "grid": lambda s: roster.set_grid(s, 2, 2, (roster.grid_cell(1, 2),)),
}


@pytest.mark.parametrize("field", sorted(CHANGES))
def test_the_compact_json_carries_every_field_the_snapshot_does(field: str) -> None:
    state = build_reference_state()
    before_snapshot, before = codec.encode(state), state_to_compact_json(state)
    CHANGES[field](state)
    assert codec.encode(state) != before_snapshot  # a field the snapshot carries ...
    assert state_to_compact_json(state) != before  # ... the compact JSON carries too


def test_the_compact_json_is_plain_arrays_and_smaller_than_the_spelt_out_one() -> None:
    state = build_reference_state()
    compact = json.loads(state_to_compact_json(state))
    assert isinstance(compact, list) and len(compact[8]) == state.count
    assert len(state_to_compact_json(state)) < len(state_to_json(state)) / 3
