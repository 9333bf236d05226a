"""The board's slots: the state's fighters (up to MAX_SLOTS, the big table's 24) in one
bytearray, seen through a few Slot views, where a Slot object per fighter would cost a
board's heap more than it has (docs/memory.md, docs/protocol.md). The host keeps a Slot per
fighter (shared.state.GameState's default); the board's App passes these.
"""

from shared import limits  # read as limits.X: no global for each of its names
from shared.compat import const
from shared.state import Slot

# A fighter's row: team, order key, actions, actions_max, health, health_max, flags,
# cd_pending, effects (times two, plus 1 when one ends this turn), then its tables: counters,
# cooldown ids, cooldown turns left (shared.state.TABLE bytes; tests/test_board_slots.py
# checks the two agree).
_TABLE = const(12)
_ROW = const(21)
_COUNTERS = const(4)  # limits.MAX_COUNTERS
_COOLDOWNS = const(4)  # limits.MAX_COOLDOWNS


class Slots:
    """The board's slots: every fighter's numbers in one bytearray (a row of _ROW bytes
    each) and its label in a list (on a board packed in an int once decoded: the codec's
    labels of a state whose slots are these), seen through a few Slot views (`views` of them).
    `slots[i]` is the view that holds fighter i, loading it into the view used longest ago
    (whose fighter goes back to the rows first): a Slot object per fighter would cost the
    heap about 350 B each, 24 of them more than the board has (docs/memory.md).

    A view stays fighter i's until `views` other fighters have been loaded since: code
    that holds a slot while looking others up holds at most views - 1 of them (the turn
    machine, the codec and the pages hold one or two)."""

    def __init__(self, views):
        self.rows = bytearray(limits.MAX_SLOTS * _ROW)
        self.labels = [""] * limits.MAX_SLOTS
        tables = bytearray(views * _TABLE)
        self.views = [Slot(tables, i) for i in range(views)]
        self.held = bytearray(b"\xff" * views)  # each view's fighter (NO_SLOT: none)
        self.victim = 0  # the view loaded longest ago

    def __getitem__(self, i):
        # Its locals are few: it runs under the codec on the board's deepest path (an UNDO
        # re-applied under a snapshot: decode, _slot_widths, here), where each costs the
        # Python stack (docs/benchmarks.md, device_stack_bytes).
        if not 0 <= i < limits.MAX_SLOTS:
            raise IndexError(i)  # (and the end of iteration)
        for v in range(len(self.held)):
            if self.held[v] == i:
                return self.views[v]
        v = self.victim
        self.victim = (v + 1) % len(self.held)
        slot = self.views[v]
        rows = self.rows
        at = self.held[v]
        if at != limits.NO_SLOT:  # its fighter goes back to the rows
            self.labels[at] = slot.label
            at *= _ROW
            rows[at] = slot.team
            rows[at + 1] = slot.order_key
            rows[at + 2] = slot.actions
            rows[at + 3] = slot.actions_max
            rows[at + 4] = slot.health
            rows[at + 5] = slot.health_max
            rows[at + 6] = slot.flags
            rows[at + 7] = slot.cd_pending
            rows[at + 8] = slot.effects << 1 | (1 if slot.effect_ends else 0)
            for k in range(_COUNTERS):
                rows[at + 9 + k] = slot.counters[k]
            at += 9 + _COUNTERS
            for k in range(_COOLDOWNS):
                rows[at + k] = slot.cd_id[k]
                rows[at + _COOLDOWNS + k] = slot.cd_left[k]
        self.held[v] = i
        at = i * _ROW
        slot.label = self.labels[i]
        slot.team = rows[at]
        slot.order_key = rows[at + 1]
        slot.actions = rows[at + 2]
        slot.actions_max = rows[at + 3]
        slot.health = rows[at + 4]
        slot.health_max = rows[at + 5]
        slot.flags = rows[at + 6]
        slot.cd_pending = rows[at + 7]
        if rows[at + 8] or slot.effects or slot.effect_ends:  # (see Slot.effects)
            slot.effects = rows[at + 8] >> 1
            slot.effect_ends = rows[at + 8] & 1 == 1
        for k in range(_COUNTERS):
            slot.counters[k] = rows[at + 9 + k]
        at += 9 + _COUNTERS
        for k in range(_COOLDOWNS):
            slot.cd_id[k] = rows[at + k]
            slot.cd_left[k] = rows[at + _COOLDOWNS + k]
        return slot
