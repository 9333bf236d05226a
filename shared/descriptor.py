"""The ruleset descriptor: what a board must know of a game to show it and run it alone.

The host sends it once per link, before the first snapshot (docs/protocol.md, DESCRIPTOR);
docs/state-codec.md has the byte layout. It names the game's per-slot counters (with their
caps and colours), what each mark bit of Slot.flags means, the phases of a turn (or the
steps of a round), the dice the roll key rolls and which faces succeed, the turn unit (one
slot, a team or a player's slots together, or every slot at once in steps: shared/turns.py)
and the timing rules `shared.turns` runs at each turn's and each round's ends: all of it
data, so the board carries no ruleset code.

`problem(buf, start, n)` checks descriptor bytes as thoroughly as the codec checks a state
(0, or where the first bad byte is): the board checks every descriptor with it and keeps its
last good one on a bad one. `Descriptor.load` then copies good bytes into the preallocated
one. `state_fits` says whether a state can be shown under a descriptor. Building
descriptors, reading their names and wording their problems is `shared.descriptor_pack`
(host and tests only: the board keeps no text here).
"""

from shared import (
    dice,
    limits,  # read as limits.X: no global for each of its names
)
from shared.compat import const

VERSION = const(4)  # versions 2 and 3 read the same (no plain dice, no NATURALS in 2; no
#                     order value kind before 4)
MAX_DESCRIPTOR = const(160)  # bytes; the framed descriptor is 7 or 8 more
_NAME_LEN = const(8)  # characters in a name
COLOURS = const(13)  # colour indexes the board's palette has (firmware/palette.py)

# Turn flags (byte 5).
REFILL = const(1)  # the allowance refills to its maximum as its owner's turn starts
COOLDOWN_PHASE = const(2)  # the owner's cooldown phase runs as its turn ends
SKIPPED_COOLDOWNS = const(4)  # an out-of-play slot's cooldown phase passes with its turn
# Version 2 adds a round refill (8) and the turn unit (bits 4..5), counter rules for the
# round's ends (32, 64, 128) and mark rules for them (8, 16), and the grid flag (64: the
# state may carry a token grid, GameState.grid): their names are
# shared/descriptor_pack.py's (the host's), the board's modules keep private copies.
# Version 3 adds plain dice (dice.KIND_DN) to the roll key, their sides in bytes 7..8 where
# action dice have their success faces, and the NATURALS turn flag (128): a plain die's
# highest and lowest faces count (the board marks them).
# Version 4 adds what a fighter's order value (Slot.order_key) is, in bits 4..7 of byte 1
# (the ruleset id keeps bits 0..3): 0 a number (as before), 1 a playing card (16 in the
# byte: shared/descriptor_pack.py ORDER_CARD has the encoding); any other kind is refused.

# Counter rules.
C_DRAIN = const(1)  # turn start: drains the allowance; at or above it, skips the turn
#                     (allowance 0, straight to the last phase) and sets the counter's mark
C_SPEND = const(2)  # turn start, unless skipped or a guard mark is set: drains the
#                     allowance one for one, spending itself
C_STEP_DOWN = const(4)  # turn end: one off
C_CLEAR_IF_SKIPPED = const(8)  # turn end: cleared entirely if its mark is set
C_CLEAR_AT_END = const(16)  # turn end: cleared

# Mark rules.
M_CLEAR_AT_START = const(1)  # a mark of one turn: cleared as its owner's turn starts and
#                              ends, and when combat ends
M_GET_UP = const(2)  # turn start, unless skipped: cleared at the cost of one action
M_CLEAR_AT_END = const(4)  # cleared as its owner's turn ends

# The layout (docs/state-codec.md; shared/descriptor_pack.py writes the same): a fixed part,
# then the names. The tables are by field: the caps of counters 0..3, then their colours ...
_COUNTS = const(3)  # counters << 4 | marks
_CAPS = const(11)
_COLOURS = const(15)
_RULES = const(19)
_MARKS = const(23)  # the mark a counter's rule sets or reads
_GUARDS = const(27)
_MARK_COLOURS = const(31)
_MARK_RULES = const(36)
_NAMES = const(41)
# A table with no counters, no marks and one phase "turn": what a board shows before a host
# has described its game (ruleset 0).
DEFAULT = (
    b"\x02\x00\x00\x00\x01\x01\x01\x00\x04\x03\x00"
    + bytes(_NAMES - _CAPS)
    + b"\x04none\x06health\x07actions\x04turn"
)


def problem(buf, start, n):
    """0 if buf[start:start + n] is a descriptor the board can take, else where it first
    goes wrong: 1 + the offset of the byte at fault (n + 1: the length). Reads only those
    bytes, allocates nothing and never raises on any input."""
    if n < _NAMES or n > MAX_DESCRIPTOR:
        return n + 1
    b = start
    counters = buf[b + _COUNTS] >> 4
    marks = buf[b + _COUNTS] & 15
    kind = buf[b + 6]
    faces = 3 if kind <= dice.KIND_ACTION_D6 else 10 if kind == dice.KIND_D10 else 0
    if kind == dice.KIND_DN and 2 <= buf[b + 8] <= dice.MAX_SIDES:
        faces = 7  # bytes 7..8 are the sides: 2..MAX_SIDES, 7 bits
    if not 2 <= buf[b] <= VERSION:
        return 1
    if buf[b + 1] > (31 if buf[b] == VERSION else 15):  # a kind past the card (1)
        return 2
    if counters > limits.MAX_COUNTERS or marks > limits.MAX_MARKS:
        return 4
    if not 1 <= buf[b + 4] <= limits.MAX_PHASES:
        return 5
    if buf[b + 5] > 127 and buf[b] == 2:
        return 6
    if kind == 0 or kind == dice.KIND_CHANCE or kind > dice.KIND_D10:
        return 7
    if (buf[b + 7] << 8 | buf[b + 8]) >> faces or (kind == dice.KIND_DN and faces == 0):
        return 8
    if not 1 <= buf[b + 9] <= limits.MAX_DICE:
        return 10
    if buf[b + 10] and buf[b + 10] >= counters:
        return 11
    for i in range(limits.MAX_COUNTERS):
        at = b + _CAPS + i
        rule = buf[at + 8]
        mark = buf[at + 12]
        if i >= counters:
            bad = buf[at] | buf[at + 4] | rule | mark | buf[at + 16]
        else:
            bad = (
                not 1 <= buf[at] <= limits.MAX_COUNTER  # the cap
                or buf[at + 4] >= COLOURS
                or rule & 3 == 3  # drain and spend
                or (mark >= marks if rule & (C_DRAIN | C_CLEAR_IF_SKIPPED) else mark)
                or buf[at + 16] >> marks  # the guard
                or (buf[at + 16] and not rule & C_SPEND)
            )
        if bad:
            return _CAPS + i + 1
    for i in range(limits.MAX_MARKS):
        at = b + _MARK_COLOURS + i
        if i >= marks:
            bad = buf[at] | buf[at + 5]
        else:
            bad = buf[at] >= COLOURS or buf[at + 5] > 31
        if bad:
            return _MARK_COLOURS + i + 1
    at = b + _NAMES
    end = b + n
    for _ in range(3 + counters + marks + buf[b + 4]):
        length = buf[at] if at < end else 0
        if not 1 <= length <= _NAME_LEN or at + 1 + length > end:
            return at - b + 1
        for k in range(at + 1, at + 1 + length):
            if not 0x20 <= buf[k] <= 0x7E:
                return k - b + 1
        at += 1 + length
    return 0 if at == end else at - b + 1


class Descriptor:
    """One descriptor, kept as its bytes in a preallocated buffer (the names stay there
    too), with views of its tables: `caps[i]`, `colours[i]`, `counter_rules[i]`,
    `counter_marks[i]`, `guards[i]` for counter i; `mark_colours[i]`, `mark_rules[i]`
    for mark i. A counter past the ones in use reads cap 0. The order value's kind
    is read from `raw[1]` (over 15: a card) where it is needed: an attribute more would
    take this object's attribute table a step larger (docs/memory.md)."""

    def __init__(self):
        raw = self.raw = bytearray(MAX_DESCRIPTOR)
        view = memoryview(raw)
        self.caps = view[_CAPS:_COLOURS]
        self.colours = view[_COLOURS:_RULES]
        self.counter_rules = view[_RULES:_MARKS]
        self.counter_marks = view[_MARKS:_GUARDS]
        self.guards = view[_GUARDS:_MARK_COLOURS]
        self.mark_colours = view[_MARK_COLOURS:_MARK_RULES]
        self.mark_rules = view[_MARK_RULES:_NAMES]
        self.load(DEFAULT, 0, len(DEFAULT))

    def load(self, buf, start, n):
        """Take the descriptor buf[start:start + n], which `problem` has passed (or the whole
        `raw` of another Descriptor: its bytes past the names are zeros)."""
        raw = self.raw
        for i in range(MAX_DESCRIPTOR):
            raw[i] = buf[start + i] if i < n else 0
        self.ruleset = raw[1] & 15
        self.counters = raw[_COUNTS] >> 4
        self.marks = raw[_COUNTS] & 15
        self.phases = raw[4]
        self.flags = raw[5]
        self.dice_kind = raw[6]
        self.success_mask = raw[7] << 8 | raw[8]  # for plain dice: their sides instead
        self.dice_count = raw[9]
        self.first_counter = raw[10]


def state_fits(rules, state):
    """Whether `state` can be shown and played under `rules`: the same ruleset and phase
    count, no counter past its cap, no mark the descriptor does not name, no token grid
    unless the descriptor has the grid flag (64). A snapshot that does not fit is refused
    like a bad one. Allocates nothing."""
    if state.ruleset != rules.ruleset or state.phase_count != rules.phases:
        return False
    if state.grid_w and not rules.flags & 64:
        return False
    unknown = 0xFF & ~((8 << rules.marks) - 1)  # flag bits past the generic and the marks
    caps = rules.caps
    for i in range(state.count):
        slot = state.slots[i]
        if slot.flags & unknown:
            return False
        for k in range(limits.MAX_COUNTERS):
            if slot.counters[k] > caps[k]:
                return False
    return True
