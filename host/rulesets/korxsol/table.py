"""Korxsol's whole table: the engine keeps each fighter's own state (KOR, AP, counters,
marks, cooldowns) in a slot of a GameState, and runs shared/turns.py's timing rules on it,
as the board does. A fight holds more fighters (host/core/newcomers.py MOST_FIGHTERS) than
the board has slots (shared/limits.py MAX_SLOTS), so the engine's state is a `TableState`,
a GameState with a slot for every fighter the fight may hold, and the board's is
projected from it (`board_view`): the first MAX_SLOTS fighters (in the order they came),
the order and the turn among them; the rest play on the screens only. With a board of as
many slots as the fight, the two are the same.
"""

from __future__ import annotations

from host.core.newcomers import MOST_FIGHTERS
from shared import roster
from shared.descriptor_pack import encoded
from shared.limits import (
    MAX_ACTIONS,
    MAX_COOLDOWNS,
    MAX_COUNTERS,
    MAX_HEALTH,
    MAX_ORDER_KEY,
    MAX_SLOTS,
    NO_SLOT,
)
from shared.state import GameState, Slot

WIDTH = max(MOST_FIGHTERS, MAX_SLOTS)


class TableState(GameState):
    """A GameState with WIDTH slots: every fighter of the fight has one. Host-only: it never
    goes to the board (the codec takes MAX_SLOTS), `board_view` does."""

    def __init__(self) -> None:
        super().__init__()
        tables = bytearray(WIDTH * (MAX_COUNTERS + 2 * MAX_COOLDOWNS))
        self.slots = [Slot(tables, i) for i in range(WIDTH)]
        self.order = bytearray(WIDTH)
        self.order_reason = bytearray(WIDTH)
        self.reset()

    def reset(self) -> None:
        super().reset()
        for i in range(len(self.order)):
            self.order[i] = i
            self.order_reason[i] = 0

    def __deepcopy__(self, memo: dict) -> TableState:
        # (shared/roster.py gives GameState its deep copy: a board's width of slots)
        twin = TableState()
        roster.copy_state(twin, self)
        for i in range(MAX_SLOTS, WIDTH):
            roster.copy_slot(twin.slots[i], self.slots[i])
        return twin


def add_slot(
    state: GameState, label: str, team: int, order_key: int, actions_max: int, health_max: int
) -> int:
    """shared.roster.add_slot on a table of any width (`state.slots`): its index. Raises
    ValueError, changing nothing, for a slot the table cannot hold."""
    if state.count < MAX_SLOTS:
        return int(roster.add_slot(state, label, team, order_key, actions_max, health_max))
    if state.count >= len(state.slots):
        raise ValueError(f"a fight holds at most {len(state.slots)} fighters")
    if not 0 <= team < state.team_count:
        raise ValueError(f"team {team} is not one of 0..{state.team_count - 1}")
    roster.check_label(label)
    for what, value, most in (
        ("order key", order_key, MAX_ORDER_KEY),
        ("actions", actions_max, MAX_ACTIONS),
        ("health", health_max, MAX_HEALTH),
    ):
        if not 0 <= value <= most:
            raise ValueError(f"{what} {value} is not in 0..{most}")
    index = int(state.count)
    slot = state.slots[index]
    slot.clear()
    slot.label = label
    slot.team = team
    slot.order_key = order_key
    slot.actions = slot.actions_max = actions_max
    slot.health = slot.health_max = health_max
    state.order[index] = index
    state.count = index + 1
    state.touch()
    return index


def board_view(table: GameState, board: GameState) -> None:
    """Make `board` (the board's GameState) the board's share of `table`: its first
    MAX_SLOTS slots, the order among them, and the turn: that of the fighter whose turn it
    is, or, while one past the board's slots has it, the last before it in the order that
    has a slot (as long as its turn runs, the board shows the one before). Allocates
    nothing once `board` has the table's rules."""
    rules = encoded(table.rules)
    if encoded(board.rules) != rules:
        board.rules.load(rules, 0, len(rules))
    n = min(table.count, MAX_SLOTS)
    for i in range(MAX_SLOTS):
        a = board.slots[i]
        if i >= n:
            a.clear()
            continue
        roster.copy_slot(a, table.slots[i])
    pos = 0
    turn = 0
    for p in range(table.count):
        i = table.order[p]
        if p == table.turn:
            turn = pos if i < n else max(0, pos - 1)
        if i < n:
            board.order[pos] = i
            board.order_reason[pos] = table.order_reason[p]
            pos += 1
    for p in range(pos, MAX_SLOTS):
        board.order[p] = p
        board.order_reason[p] = 0
    board.scores[:] = table.scores
    for mine, theirs in ((board.roll, table.roll), (board.want, table.want)):
        mine.kind = theirs.kind
        mine.count = theirs.count
        mine.sides[:] = theirs.sides
        if mine is board.roll:  # (the wanted roll has no faces)
            mine.faces[:] = theirs.faces
        mine.successes = theirs.successes
        mine.who = theirs.who if theirs.who < n else NO_SLOT
        mine.unused = theirs.unused
        mine.purpose = theirs.purpose
        mine.smart = theirs.smart
    board.ruleset = table.ruleset
    board.count = n
    board.team_count = table.team_count
    board.round = table.round
    board.turn = turn
    board.phase = table.phase
    board.phase_count = table.phase_count
    board.grid_w = table.grid_w
    board.grid_h = table.grid_h
    board.grid[:] = table.grid
    board.version = table.version
