"""The device state: fixed slots, the turn pointer, scores and the last roll, generic over
rulesets: a slot has a team, an order key, an allowance of actions per turn, a health bar,
up to MAX_COUNTERS small counters and ruleset marks, whose meaning (names, caps, colours and
timing rules) the state's descriptor gives (`GameState.rules`, shared/descriptor.py).

Every object here is allocated once, when the state is built; play only rewrites numbers and
bytearrays in place. Code that changes the state calls `GameState.touch()` so that
`version` moves with every change (the link compares versions and digests). The codec
carries everything but `rules`, which the link sends once per link. Adding slots and
copying states is `shared.roster`'s (the host's and the tests'; the board does neither).
"""

from shared import limits  # read as limits.X: no global for each of its names (docs/memory.md)
from shared.compat import HOST, const
from shared.descriptor import Descriptor

# The 64 characters a label may use (the codec spends 6 bits on each).
LABEL_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

# Slot flags (bits of Slot.flags). Bits 0..2 are the same for every ruleset; bits 3..7 are
# the ruleset's marks: mark i is bit MARK0 << i.
F_ACTIVE = const(1)
F_ACTED = const(2)
F_OUT = const(4)  # out of play: skipped by the turn order
MARK0 = const(8)

# The bytes of a slot's small tables (counters, cooldown ids, cooldown turns left).
TABLE = limits.MAX_COUNTERS + 2 * limits.MAX_COOLDOWNS


def mark_bit(mark):
    """The Slot.flags bit of ruleset mark `mark` (0..MAX_MARKS-1)."""
    return MARK0 << mark


class Slot:
    """One participant in the turn order: a character, a monster or a team seat. Its small
    tables (counters, cooldown ids, cooldown turns left) are views of slot `i`'s part of the
    state's buffer `tables`: a view of a shared buffer costs the heap half what a bytearray
    of its own does."""

    # The effects on this slot (0..15, of any name: the host's), and whether one of them ends
    # as its turn ends. On a board, class attributes until a slot first has one: its slot is
    # 12 attributes, and a 13th would grow each slot's attribute table by 96 bytes (on the
    # VM) whether or not the game has effects (docs/memory.md). On the host every slot owns
    # them from the start, so that every slot has the same attributes (a stored checkpoint
    # is checked against them: host/core/plain_data.py).
    effects = 0
    effect_ends = False

    def __init__(self, tables, i):
        if HOST:
            self.effects = 0
            self.effect_ends = False
        view = memoryview(tables)[i * TABLE :]
        c = limits.MAX_COUNTERS
        self.counters = view[:c]
        self.cd_id = view[c : c + limits.MAX_COOLDOWNS]  # 0 = free timer
        self.cd_left = view[c + limits.MAX_COOLDOWNS : TABLE]
        self.clear()

    def clear(self):
        # A str; in a board's slots (shared.slots) an int: no object of its own per label
        # (shared/codec.py writes and reads both).
        self.label = ""
        self.team = 0
        self.order_key = 0  # initiative's dice count and first tie-break
        self.actions = 0  # the allowance left this turn
        self.actions_max = 0
        self.health = 0
        self.health_max = 0
        for i in range(limits.MAX_COUNTERS):
            self.counters[i] = 0
        self.flags = 0
        if self.effects or self.effect_ends:  # (see `effects` below)
            self.effects = 0
            self.effect_ends = False
        self.cd_pending = 0  # bit i: timer i was used this turn and is not yet on cooldown
        for i in range(limits.MAX_COOLDOWNS):
            self.cd_id[i] = 0
            self.cd_left[i] = 0

    def in_play(self):
        return not self.flags & F_OUT


class Roll:
    """A roll of dice (one class for the state's two: a class costs the board's heap more than
    a few unused numbers do).

    GameState.roll, the most recent roll: `count` dice of `kind`, its `faces`, its
    `successes` and who rolled (`who`); `unused` 1: the board rolled it and nothing wanted
    it (the host says so); `degree`, the degree of success the host judged it to have: 0
    none (every roll the board makes), 1 critical failure, 2 failure, 3 success, 4 critical
    success (docs/board.md shows each). Its `purpose` stays 0. For plain dice
    (dice.KIND_DN) `sides[i]` is die i's faces (a d20 with advantage: 20, 20; 2d6 + 1d8:
    6, 6, 8); else all 0.

    GameState.want, the roll the host waits for (an action declared, its dice to come from
    the board): `count` dice of `kind` (plain dice: each die's `sides`) for slot `who`, for
    the ruleset's roll `purpose` (0..15, its own numbering). count 0: nothing is wanted. The
    board lights its roll key with it, and one press rolls exactly that. `smart` 1: the
    host awaits the roll from smart dice (the board's roll key blinks its own way).
    `explode` 1: its plain dice explode (each rolled again on its highest face and added):
    the roll key rolls every die's chain, and the last roll holds the chains' faces in
    turn, each with its die's sides (shared.dice.roll_exploding).
    It has no faces (`faces` is b""); its `successes`, `unused` and `degree` stay 0 (and
    the last roll's `smart`)."""

    # On a board, a class attribute until a roll first explodes: an eleventh attribute
    # grows a roll's attribute table (10 entries) to 12 (as Slot.effects, above). The
    # host's rolls own it from the start (a stored checkpoint is checked against their
    # attributes).
    explode = 0

    def __init__(self, faces, sides):
        self.faces = faces
        self.sides = sides
        self.clear()

    def clear(self):
        self.kind = 0  # a dice.KIND_* value; 0 = no roll yet
        self.count = 0
        self.successes = 0
        self.who = limits.NO_SLOT
        self.unused = 0
        self.degree = 0  # (a tenth attribute: the table of 10 each Roll has is full)
        self.purpose = 0
        self.smart = 0
        if HOST or self.explode:
            self.explode = 0
        for i in range(len(self.faces)):
            self.faces[i] = 0
        for i in range(limits.MAX_DICE):
            self.sides[i] = 0

    def matches(self, roll):
        """Whether `roll` (the last roll) is the one wanted: its kind, count and each die's
        faces."""
        if self.count == 0 or self.kind != roll.kind:
            return False
        if self.explode:  # every die's chain in turn (shared.dice.roll_exploding)
            at = 0
            for i in range(self.count):
                top = self.sides[i]
                while True:
                    if at >= roll.count or roll.sides[at] != top:
                        return False
                    at += 1
                    if roll.faces[at - 1] != top or at >= limits.MAX_DICE - (self.count - i - 1):
                        break
            return at == roll.count
        if self.count != roll.count:
            return False
        for i in range(self.count):
            if self.sides[i] != roll.sides[i]:
                return False
        return True


class GameState:
    """Everything the board shows and needs to keep playing alone. `slots`: by default (the
    host's) a Slot object per fighter; a board passes its shared.slots.Slots, every
    fighter's numbers in rows and a few Slot views of them."""

    def __init__(self, slots=None):
        if slots is None:
            tables = bytearray(limits.MAX_SLOTS * TABLE)
            slots = [Slot(tables, i) for i in range(limits.MAX_SLOTS)]
        self.slots = slots
        self.order = bytearray(limits.MAX_SLOTS)  # slot index at each turn position
        self.order_reason = bytearray(limits.MAX_SLOTS)  # initiative.R_* that decided each position
        self.scores = [0] * limits.MAX_TEAMS
        self.roll = Roll(bytearray(limits.MAX_DICE), bytearray(limits.MAX_DICE))
        self.want = Roll(b"", bytearray(limits.MAX_DICE))
        # A small board of owned, ranked tokens, row by row (grid_w x grid_h of it in use;
        # 0 x 0 = no grid): cells as limits.GRID_OWNER and GRID_RANK_SHIFT say.
        self.grid = bytearray(limits.MAX_GRID_SIDE * limits.MAX_GRID_SIDE)
        # The acting creature's details (its conditions, say): up to 10 entries, a palette
        # colour (1..12) << 4 | a value (0: a mark, shown steady); a 0 byte is none.
        # The host fills them; the counters page draws them on the turn's column.
        self.detail = bytearray(10)
        self.rules = Descriptor()  # what the slots' counters and marks mean, and the timing
        self.version = 0
        self.reset()

    def reset(self):
        """Back to an empty table (the rules stay). Counts as a change."""
        for slot in self.slots:
            slot.clear()
        for i in range(limits.MAX_SLOTS):
            self.order[i] = i
            self.order_reason[i] = 0
        for i in range(limits.MAX_TEAMS):
            self.scores[i] = 0
        self.roll.clear()
        self.want.clear()
        self.grid_w = 0
        self.grid_h = 0
        for i in range(limits.MAX_GRID_SIDE * limits.MAX_GRID_SIDE):
            self.grid[i] = 0
        for i in range(10):
            self.detail[i] = 0
        self.ruleset = 0  # the descriptor's ruleset id: a snapshot of another is refused
        self.count = 0  # slots in use: indexes 0..count-1
        self.team_count = 2
        self.round = 0  # 0 = not started; the first round is 1
        self.turn = 0  # position in `order` whose turn it is
        self.phase = 0
        self.phase_count = 1
        self.off_board = 0  # fighters with no slot (0..15: past the board's slots)
        self.touch()

    def touch(self):
        self.version = (self.version + 1) & 0xFFFF

    def add_counter(self, slot, counter, delta=1):
        """Move counter `counter` of `slot` by `delta`, within 0..its cap (stacks past the
        cap are lost). Raises ValueError for a counter the rules do not have."""
        rules = self.rules
        if not 0 <= counter < rules.counters:
            raise ValueError("counter %d is not one of the %d it has" % (counter, rules.counters))
        value = slot.counters[counter] + delta
        cap = rules.caps[counter]
        slot.counters[counter] = 0 if value < 0 else cap if value > cap else value
        self.touch()

    @property
    def active(self):
        """Index of the slot whose turn it is, or NO_SLOT before the first round."""
        if self.round == 0 or self.count == 0:
            return limits.NO_SLOT
        return self.order[self.turn]
