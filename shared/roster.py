"""What the host does to a device state and the board never does: adding a slot (with the
checks that keep it within what the codec holds), setting the turn order, setting flags for
its rules, and copying a whole state.

The host builds its table here (and the tests theirs); the board takes the host's
snapshots and decodes them in place, so none of this is loaded on it.
"""

from shared.limits import (
    GRID_RANK_SHIFT,
    LABEL_LEN,
    MAX_ACTIONS,
    MAX_GRID_SIDE,
    MAX_HEALTH,
    MAX_ORDER_KEY,
    MAX_RANK,
    MAX_SLOTS,
    MAX_TEAMS,
)
from shared.state import LABEL_CHARS, GameState
from shared.turns import TurnError


def add_slot(state, label, team=0, order_key=0, actions_max=0, health_max=0):
    """Append a slot to `state` with its whole allowance and full health; returns its
    index. Raises ValueError, changing nothing, for a slot the board cannot hold."""
    if state.count >= MAX_SLOTS:
        raise ValueError("the board holds at most %d slots" % MAX_SLOTS)
    if not 0 <= team < state.team_count:
        raise ValueError("team %d is not one of 0..%d" % (team, state.team_count - 1))
    check_label(label)
    _check_range("order key", order_key, MAX_ORDER_KEY)
    _check_range("actions", actions_max, MAX_ACTIONS)
    _check_range("health", health_max, MAX_HEALTH)
    index = state.count
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


def set_order(state, slot_indexes, reasons=None):
    """Set the turn order from a sequence holding every slot index once. A turn that is
    running stays with its slot, wherever the new order puts it."""
    n = state.count
    if len(slot_indexes) != n:
        raise TurnError("the order names %d slots, the table has %d" % (len(slot_indexes), n))
    seen = 0
    for i in range(n):
        index = slot_indexes[i]
        if not 0 <= index < n or seen & (1 << index):
            raise TurnError("the order must name each slot 0..%d exactly once" % (n - 1))
        seen |= 1 << index
        if reasons is not None:
            _check_range("order reason", reasons[i], 255)
    active = state.active
    for i in range(n):
        state.order[i] = slot_indexes[i]
        state.order_reason[i] = reasons[i] if reasons is not None else 0
        if state.order[i] == active:
            state.turn = i
    state.touch()


def check_label(label):
    if not 1 <= len(label) <= LABEL_LEN:
        raise ValueError("label %r must be 1..%d characters" % (label, LABEL_LEN))
    for ch in label:
        if LABEL_CHARS.find(ch) < 0:
            raise ValueError("label %r may use only letters, digits, '-' and '_'" % label)


def _check_range(what, value, ceiling):
    if not 0 <= value <= ceiling:
        raise ValueError("%s %d is not in 0..%d" % (what, value, ceiling))


def set_flag(state, slot, flag, on=True):
    """Set (or clear) the Slot.flags bits `flag` of `slot` (a mark: shared.state.mark_bit)."""
    if on:
        slot.flags |= flag
    else:
        slot.flags &= ~flag
    state.touch()


def copy_slot(a, b):
    """Make slot `a` equal to slot `b` without allocating."""
    a.label = b.label
    a.team = b.team
    a.order_key = b.order_key
    a.actions = b.actions
    a.actions_max = b.actions_max
    a.health = b.health
    a.health_max = b.health_max
    a.counters[:] = b.counters
    a.flags = b.flags
    a.effects = b.effects
    a.effect_ends = b.effect_ends
    a.cd_pending = b.cd_pending
    a.cd_id[:] = b.cd_id
    a.cd_left[:] = b.cd_left


def copy_state(target, source):
    """Make `target` equal to `source` (its rules too) without allocating."""
    for i in range(MAX_SLOTS):
        copy_slot(target.slots[i], source.slots[i])
    target.order[:] = source.order
    target.order_reason[:] = source.order_reason
    for i in range(MAX_TEAMS):
        target.scores[i] = source.scores[i]
    roll = target.roll
    roll.kind = source.roll.kind
    roll.sides[:] = source.roll.sides
    roll.count = source.roll.count
    roll.successes = source.roll.successes
    roll.who = source.roll.who
    roll.faces[:] = source.roll.faces
    roll.unused = source.roll.unused
    roll.degree = source.roll.degree
    want = target.want
    want.kind = source.want.kind
    want.count = source.want.count
    want.sides[:] = source.want.sides
    want.who = source.want.who
    want.purpose = source.want.purpose
    want.smart = source.want.smart
    want.explode = source.want.explode
    target.off_board = source.off_board
    target.rules.load(source.rules.raw, 0, len(source.rules.raw))
    target.ruleset = source.ruleset
    target.count = source.count
    target.team_count = source.team_count
    target.round = source.round
    target.turn = source.turn
    target.phase = source.phase
    target.phase_count = source.phase_count
    target.grid_w = source.grid_w
    target.grid_h = source.grid_h
    target.grid[:] = source.grid
    target.detail[:] = source.detail
    target.version = source.version


def grid_cell(owner, rank):
    """The GameState.grid byte of a token of team `owner` (0..MAX_TEAMS-1) and `rank`
    (0 common, 1 heroic, 2 legendary); owner None is an empty cell (0)."""
    if owner is None:
        return 0
    _check_range("grid owner", owner, MAX_TEAMS - 1)
    _check_range("grid rank", rank, MAX_RANK)
    return (owner + 1) | rank << GRID_RANK_SHIFT


def set_grid(state, width, height, cells=()):
    """Give `state` a token grid of width x height (0 x 0: none), row by row from `cells`
    (grid_cell bytes; missing cells are empty)."""
    if width == 0 or height == 0:
        width = height = 0
    _check_range("grid width", width, MAX_GRID_SIDE)
    _check_range("grid height", height, MAX_GRID_SIDE)
    if len(cells) > width * height:
        raise ValueError("%d cells do not fit a %d x %d grid" % (len(cells), width, height))
    for cell in cells:  # checked here: a bytearray would refuse or wrap it by platform
        _check_range("grid cell", cell, 255)
    state.grid_w = width
    state.grid_h = height
    for i in range(MAX_GRID_SIDE * MAX_GRID_SIDE):
        state.grid[i] = cells[i] if i < len(cells) else 0
    state.touch()


def _deep_copy(state, seen):
    """A GameState of its own with the same contents, its rules too: the views of a state
    (its slots' tables, its descriptor's) cannot be copied one by one."""
    copy = GameState()
    copy_state(copy, state)
    return copy


# The host deep-copies games (its legal-action check). A board never does, and never loads
# this module: GameState gets its deep copy here, so shared/state.py needs nothing of it.
GameState.__deepcopy__ = _deep_copy  # type: ignore[attr-defined]
