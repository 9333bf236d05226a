"""Building ruleset descriptors, reading their names and wording their problems: for the
host and the tests.

The board only checks and loads descriptors (shared/descriptor.py) and never imports this,
so the text lives here. A ruleset calls `pack` with its counters, marks, phases and dice,
and sends the bytes. The byte layout (docs/state-codec.md) is written here and read there;
`tests/engine/test_descriptor.py` checks that the two agree.
"""

from shared import dice
from shared.compat import const
from shared.descriptor import MAX_DESCRIPTOR, REFILL, VERSION, problem
from shared.limits import MAX_COUNTERS, MAX_MARKS

# Descriptor version 2's turn units and round rules (docs/state-codec.md). The board's
# modules write them as numbers (shared/turns.py, shared/events.py) or private constants
# (firmware/app.py), which cost its heap no name; tests/test_turn_unit_names.py checks them.
# The turn unit, in the turn flags (bits 4..5; one of them, or none for UNIT_SLOT):
UNIT_SLOT = 0  # one slot takes each turn (the default)
UNIT_TEAM = 16  # the consecutive positions of the order that share a team, together
UNIT_KEY = 32  # the consecutive positions that share an order key (a player's slots)
UNIT_STEP = 48  # every in-play slot at once, in each step (a phase) of the round
# A turn flag: every in-play slot's allowance refills as a round starts (with or instead of
# REFILL, as its turn starts).
ROUND_REFILL = 8
# A turn flag: the game has a token grid (GameState.grid: owned, ranked tokens on a small
# board); a state with a grid fits only a descriptor with it (shared.descriptor.state_fits).
GRID = 64
# A turn flag (descriptor version 3): a plain die's highest and lowest faces count (a natural
# maximum and minimum), and the board marks them.
NATURALS = 128
# What a fighter's order value (Slot.order_key) is (descriptor version 4; `pack`'s `order`):
# a number (the default), or a playing card: rank * 4 + suit, rank 2..14 (an ace 14), suit
# 0..3 in bridge order (clubs, diamonds, hearts, spades), so the keys order as the cards do
# high to low, ties by suit; a Joker CARD_JOKER; under 8 (0) no card. The board shows the
# card on its initiative page (docs/board.md).
ORDER_NUMBER = 0
ORDER_CARD = 16
CARD_JOKER = 60
# Counter rules for the round's ends.
C_ROUND_FILL = 32  # round start: filled to its cap
C_ROUND_STEP_DOWN = 64  # round end: one off
C_ROUND_CLEAR = 128  # round end: cleared
# Mark rules for the round's ends.
M_ROUND_SET = 8  # set as a round starts
M_ROUND_CLEAR = 16  # cleared as a round ends

WHITE = const(5)  # the board palette's white (firmware/palette.py): a counter's colour unless told

_COUNTS = const(3)
_CAPS = const(11)  # then colours at 15, rules at 19, marks at 23, guards at 27
_MARK_COLOURS = const(31)  # then mark rules at 36
_NAMES = const(41)

# What each byte of the fixed part is, for `explain`: (first offset, what).
_FIELDS = (
    (0, "the descriptor version"),
    (1, "the ruleset id or the order value's kind"),
    (3, "the counter or mark count"),
    (4, "the phase count"),
    (5, "the turn flags"),
    (6, "the roll key's dice"),
    (7, "the success faces (plain dice: their sides)"),
    (9, "the dice count"),
    (10, "the first counter"),
    (11, "a counter's cap, colour, rule, mark or guard"),
    (31, "a mark's colour or rule"),
    (41, "a name"),
)


class DescriptorError(ValueError):
    """A descriptor the board would refuse, or bytes that are not one."""


def counter(name, cap, colour=WHITE, rule=0, mark=0, guard=0):
    """One counter's entry for `pack`."""
    return (name, cap, colour, rule, mark, guard)


def mark(name, colour=WHITE, rule=0):
    """One mark's entry for `pack` (mark i is Slot.flags bit 3 + i)."""
    return (name, colour, rule)


def pack(
    name,
    ruleset,
    rules_version=0,
    health="health",
    allowance="actions",
    counters=(),
    marks=(),
    phases=("turn",),
    flags=REFILL,
    dice_kind=dice.KIND_ACTION_D3,
    success_mask=dice.DEFAULT_SUCCESS_MASK,
    dice_count=3,
    first_counter=0,
    sides=0,
    order=ORDER_NUMBER,
):
    """The descriptor's bytes; raises DescriptorError, saying why, if the board would refuse
    them (shared.descriptor.problem). Plain dice (dice_kind dice.KIND_DN) take `sides`
    (2..100) and no success faces; the NATURALS flag marks their highest and lowest faces.
    `order` says what a fighter's order value is: ORDER_NUMBER or ORDER_CARD (`card_key`)."""
    if dice_kind == dice.KIND_DN:
        success_mask = sides
    if ruleset not in range(16):  # (its byte's high bits are the order's kind)
        raise DescriptorError("descriptor for %s: the ruleset id is over its byte's 0..15" % name)
    if order not in (ORDER_NUMBER, ORDER_CARD):
        raise DescriptorError("descriptor for %s: the order is ORDER_NUMBER or ORDER_CARD" % name)
    if len(counters) > MAX_COUNTERS or len(marks) > MAX_MARKS:
        raise DescriptorError("descriptor for %s: too many counters or marks" % name)
    # Every number is checked before it is stored: a bytearray refuses one over 255 with
    # ValueError on CPython and OverflowError on CircuitPython, and MicroPython wraps it.
    fields = [
        VERSION,
        ruleset | order,
        rules_version,
        len(counters) << 4 | len(marks),
        len(phases),
        flags,
        dice_kind,
        success_mask >> 8,
        success_mask & 0xFF,
        dice_count,
        first_counter,
    ]
    for c in counters:
        fields.extend(c[1:6])
    for m in marks:
        fields.extend(m[1:3])
    if len(fields) != _CAPS + 5 * len(counters) + 2 * len(marks):
        raise DescriptorError("descriptor for %s: a counter or mark entry is short" % name)
    for v in fields:
        if not isinstance(v, int) or not 0 <= v <= 255:
            raise DescriptorError("descriptor for %s: a number does not fit its byte" % name)
    out = bytearray(_NAMES)
    for i in range(_CAPS):  # the fixed fields come first, in this order
        out[i] = fields[i]
    at = _CAPS
    for i in range(len(counters)):
        for k in range(5):  # cap, colour, rule, mark, guard
            out[_CAPS + k * MAX_COUNTERS + i] = fields[at]
            at += 1
    for i in range(len(marks)):
        for k in range(2):  # colour, rule
            out[_MARK_COLOURS + k * MAX_MARKS + i] = fields[at]
            at += 1
    all_names = [name, health, allowance]
    all_names.extend(c[0] for c in counters)
    all_names.extend(m[0] for m in marks)
    all_names.extend(phases)
    for text in all_names:
        raw = text.encode()
        if len(raw) > 255:
            raise DescriptorError("descriptor for %s: a name of over 255 bytes" % name)
        out.append(len(raw))
        out.extend(raw)
    data = bytes(out)
    reason = explain(data)
    if reason:
        raise DescriptorError("descriptor for %s: %s" % (name, reason))
    return data


def card_key(rank, suit):
    """A card's order value under ORDER_CARD: `rank` 2..14 (an ace 14; 15 a Joker) and
    `suit` 0..3 in bridge order (clubs, diamonds, hearts, spades; a Joker's is ignored)."""
    if rank == 15:
        return CARD_JOKER
    if not 2 <= rank <= 14 or suit not in range(4):
        raise ValueError("a card is of rank 2..14 (or 15, a Joker) and suit 0..3")
    return rank * 4 + suit


def encoded(rules):
    """The bytes of a loaded descriptor (a shared.descriptor.Descriptor): its fixed part, then
    its names (the board keeps no length: `problem` passed exactly this many names)."""
    raw = rules.raw
    at = _NAMES
    for _ in range(3 + rules.counters + rules.marks + rules.phases):
        at += 1 + raw[at]
    return bytes(raw[:at])


def explain(data):
    """What is wrong with descriptor bytes, in words ("" if nothing is)."""
    at = problem(data, 0, len(data))
    if not at:
        return ""
    if at == len(data) + 1:
        if len(data) > MAX_DESCRIPTOR:
            return "%d bytes, more than the %d a board takes" % (len(data), MAX_DESCRIPTOR)
        if len(data) < _NAMES:
            return "%d bytes, shorter than its fixed part" % len(data)
        return "bytes after the names"
    what = ""
    for first, field in _FIELDS:
        if at - 1 >= first:
            what = field
    return "%s (byte %d) is out of range or inconsistent" % (what, at - 1)


def names(data):
    """The names in descriptor bytes: a dict of "ruleset", "health", "allowance" (strings)
    and "counters", "marks", "phases" (lists of strings)."""
    reason = explain(data)
    if reason:
        raise DescriptorError(reason)
    found = []
    at = _NAMES
    while at < len(data):
        length = data[at]
        found.append(bytes(data[at + 1 : at + 1 + length]).decode())
        at += 1 + length
    counts = (data[_COUNTS] >> 4, data[_COUNTS] & 15, data[4])
    result = {"ruleset": found[0], "health": found[1], "allowance": found[2]}
    at = 3
    keys = ("counters", "marks", "phases")
    for i in range(3):
        result[keys[i]] = found[at : at + counts[i]]
        at += counts[i]
    return result


def state_problem(rules, state):
    """Why `state` does not fit `rules` (shared.descriptor.state_fits), in words; "" if it
    does."""
    if state.ruleset != rules.ruleset:
        return "the state is of ruleset %d, the descriptor of %d" % (state.ruleset, rules.ruleset)
    if state.phase_count != rules.phases:
        return "the state has %d phases, the descriptor %d" % (state.phase_count, rules.phases)
    if state.grid_w and not rules.flags & GRID:
        return "the state has a token grid, and the descriptor no GRID flag"
    for i in range(state.count):
        slot = state.slots[i]
        if slot.flags >> (3 + rules.marks):
            return "slot %d has a mark the descriptor does not name" % i
        for k in range(MAX_COUNTERS):
            if slot.counters[k] > rules.caps[k]:
                return "slot %d's counter %d is past its cap" % (i, k)
    return ""
