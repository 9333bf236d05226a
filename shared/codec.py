# The compact, versioned binary encoding of a whole GameState (exact round trips).
#
# Layout (most significant bit first; docs/state-codec.md has the bit-level table): one
# version byte, then bit fields for the globals, the last roll, each slot in use, and the
# turn order with its initiative reasons; the last byte is zero padded. Numbers that are
# small in play (the round, the scores, and per-slot order key, health, each counter and
# cooldown turns) are written with just the bits the largest of them needs in this state,
# and the header says how many: a real table costs well under the fixed-width worst case.
# The state's rules (its descriptor) are not part of it: the link sends them once per link.
#
# Bit packing (_put and _get, most significant bit first, no allocation) rather
# than `struct` formats: most fields are 1 to 6 bits wide, and byte-aligned `struct` fields
# would cost about half again as many bytes.
#
# `decode` raises CodecError, and only CodecError, for bad input. It reads into a state the
# caller owns (it never grows a buffer), rejects input longer than MAX_ENCODED at once, and
# never loops on its input. It checks every field against the codec's own ceilings only; a
# ruleset's caps are the descriptor's (shared.descriptor.state_fits). On error the target
# state is left half written: decode into a spare state and copy it over on success
# (GameState.copy_from), or encode the target first and decode that back on error (the
# board's way: MAX_ENCODED bytes instead of a spare state).
#
#
# (Comments, not a docstring: the codec is the board's largest compile, and a docstring is
# a string token its compile holds in the heap: docs/memory.md.)

from shared import (
    dice,
    limits,  # read as limits.X: no global for each of its names
)
from shared.compat import HOST, Problem
from shared.state import LABEL_CHARS

CODEC_VERSION = 10

# The bits of a face, per dice kind: none, d3, d6, chance, d100 digit, dN, d10. A plain die's
# (dN) face takes the bits of its sides (a d20's 5, a d100's 7), here 0.
_FACE_BITS = b"\x00\x02\x03\x01\x04\x00\x04"
_COUNT_BITS = limits.SLOT_BITS + 1  # a slot count, 0..MAX_SLOTS
_WHO_NONE = (1 << _COUNT_BITS) - 1  # "nobody rolled" in a roller field of _COUNT_BITS

# The per-slot numbers written at a width the state chooses, in this order: order key,
# health (and its maximum), cooldown turns left, each counter, then the effects (their
# count, times two, plus 1 when one ends this turn). For each, the bits of its width field
# and the widest it may be (an order key 6: a card, descriptor_pack.ORDER_CARD, is 8..60).
_WIDTH_BITS = b"\x03\x04\x03" + b"\x03" * limits.MAX_COUNTERS + b"\x03"
_WIDEST = b"\x06\x08\x04" + b"\x04" * limits.MAX_COUNTERS + b"\x05"
_NUMBERS = 4 + limits.MAX_COUNTERS
_WIDTHS = bytearray(_NUMBERS)  # the widths of the state being encoded or decoded
_FOUND = bytearray(_NUMBERS)  # what a decoded state's values need, to check its widths
_ORS = [0] * _NUMBERS  # the OR of each number over the slots (_slot_widths)

# The longest encoding, every field at its widest, in bits (one expression: the board keeps
# no names for the parts).
MAX_ENCODED = (
    # the version byte and the globals (the round and the scores at their widest)
    8 + 4 + 5 + 16 + 16 + _COUNT_BITS + limits.SLOT_BITS + 4 + 4 + 2
    + 5 + limits.MAX_TEAMS * 16 + 3 + 4 + 3 + limits.MAX_COUNTERS * 3 + 3
    # the last roll (plain dice: each die's sides and face, 7 bits each)
    + 3 + 4 + _COUNT_BITS + 4 + limits.MAX_DICE * 14
    # the roll's unused bit and degree, the wanted roll (dice count, then kind, its dice'
    # sides, roller, purpose, explode, smart), and the fighters off the board
    + 1 + 3 + 4 + 3 + limits.MAX_DICE * 7 + _COUNT_BITS + 4 + 1 + 1 + 4
    # each slot (label, numbers, counters, flags, cooldown timers), and its place in the
    # turn order
    + limits.MAX_SLOTS * (
        2 + 6 * limits.LABEL_LEN + 2 + 6 + 3 + 3 + 8 + 8 + limits.MAX_COUNTERS * 4 + 8
        + limits.MAX_COOLDOWNS
        + limits.MAX_COOLDOWNS * (3 + 4 + 1) + 5
        + limits.SLOT_BITS + 2
    )
    # the grid: a bit, its width and height, each cell (occupied, then owner and rank)
    + 1 + 3 + 3 + limits.MAX_GRID_SIDE * limits.MAX_GRID_SIDE * 5
    # the acting creature's details: their count, 8 bits each
    + 4 + 10 * 8
    + 7
) // 8  # fmt: skip


# Problems, by code: CodecError(code, number), or ValueError(code, ...) inside the writer.
# The codes are written as numbers where they are raised (a name for each would cost the
# board's heap a qstr); shared/words.py's _CODEC words code c as its entry c - 1, so a new
# problem takes the next free number and a line there. The board keeps no words for them.


class CodecError(Problem):
    """Bytes that are not a valid encoded state, or a state the encoding cannot hold. Its
    args are a problem code and the number it names; str() words it on the host."""


# Bit fields, most significant bit first, written into a byte buffer or read out of one
# without allocating: one encode or decode at a time (the lock at the end) keeps its place
# here. Module functions, not a writer and a reader class: a class costs the board's heap
# more than its methods do. A field is at most 16 bits wide, so the accumulator stays a
# small int on every board.
_buf = None  # the buffer being written, or the data being read
_pos = 0  # the next byte
_acc = 0  # bits taken in and not yet written out (or read and not yet used)
_n = 0  # how many


def _start(buf, pos):
    global _buf, _pos, _acc, _n
    _buf = buf
    _pos = pos
    _acc = 0
    _n = 0


def _put(value, width):
    global _pos, _acc, _n
    if value < 0 or value >> width:
        raise ValueError(1, value, width)  # does not fit its bits
    _acc = (_acc << width) | value
    _n += width
    while _n >= 8:
        _n -= 8
        if _pos >= len(_buf):
            raise ValueError(2)  # the buffer is full
        _buf[_pos] = (_acc >> _n) & 0xFF
        _pos += 1
        _acc &= (1 << _n) - 1


def _get(width):
    """Read `width` bits; raises EOFError if the data runs out."""
    global _pos, _acc, _n
    while _n < width:
        if _pos >= len(_buf):
            raise EOFError
        _acc = (_acc << 8) | _buf[_pos]
        _pos += 1
        _n += 8
    _n -= width
    value = _acc >> _n
    _acc &= (1 << _n) - 1
    return value


# That scratch (the bit buffer, _WIDTHS, _FOUND) is shared. The board runs one thread; the host
# encodes and decodes on several at once (a link thread per board, a simulated board in the
# same process), so there one encode or decode runs at a time: the end of this module
# wraps encode and decode in a lock where there are threads.


def encode(state, buf=None):
    """Encode `state`. With a buffer (at least MAX_ENCODED bytes) it writes there and returns
    the length; without one it returns new bytes."""
    target = buf if buf is not None else bytearray(MAX_ENCODED)
    _start(target, 0)
    s = state
    # The fields are written here, not in a function of their own: on a board this runs
    # under a press's whole path (its undo save), whose every level costs the Python stack.
    try:
        _put(CODEC_VERSION, 8)
        _put(s.ruleset, 4)
        n = _bits_for(s.round)
        _put(n, 5)
        _put(s.round, n)
        _put(s.version, 16)
        if s.count > limits.MAX_SLOTS:
            raise ValueError(5)  # more slots than a state has
        _put(s.count, _COUNT_BITS)
        _put(s.turn, limits.SLOT_BITS)
        _put(s.phase, 4)
        _put(s.phase_count, 4)
        _put(s.team_count - 1, 2)
        # The scores zigzagged (0, -1, 1, -2 ... as 0, 1, 2, 3 ...), at the width of the widest.
        n = 0
        for i in range(s.team_count):
            v = s.scores[i]
            if not limits.MIN_SCORE <= v <= limits.MAX_SCORE:
                raise ValueError(3, v)  # a team score out of range
            n |= v * 2 if v >= 0 else -v * 2 - 1  # the bits of an OR are those of the largest
        n = _bits_for(n)
        _put(n, 5)
        for i in range(s.team_count):
            v = s.scores[i]
            _put(v * 2 if v >= 0 else -v * 2 - 1, n)
        widths = _WIDTHS
        for i in range(s.count):
            slot = s.slots[i]
            # The bytearray fields would wrap silently; health, the order key and the effects
            # are checked by their widths below, and their OR would hide a negative one.
            if slot.order_key < 0 or slot.health < 0 or slot.health_max < 0 or slot.effects < 0:
                raise ValueError(4)  # a negative number
        _slot_widths(s, widths)
        for k in range(_NUMBERS):
            if widths[k] > _WIDEST[k]:
                raise ValueError(5)  # a number too large
            _put(widths[k], _WIDTH_BITS[k])
        r = s.roll
        if not 0 <= r.kind < len(_FACE_BITS):
            raise ValueError(20, r.kind)  # no dice kind
        _put(r.kind, 3)
        _put(r.count, 4)
        _put(_WHO_NONE if r.who == limits.NO_SLOT else r.who, _COUNT_BITS)
        _put(r.successes, 4)
        for i in range(r.count):
            bits = _FACE_BITS[r.kind]
            if r.kind == dice.KIND_DN:  # a plain die: its sides, and a face of their bits
                bits = _put_sides(r, i)
            _put(r.faces[i], bits)
        _put(r.unused, 1)
        _put(r.degree, 3)
        want = s.want
        _put(want.count, 4)
        if want.count:
            _put(want.kind, 3)
            if want.kind == dice.KIND_DN:
                for i in range(want.count):
                    _put_sides(want, i)
            _put(_WHO_NONE if want.who == limits.NO_SLOT else want.who, _COUNT_BITS)
            _put(want.purpose, 4)
            _put(want.explode, 1)
        _put(want.smart, 1)
        _put(s.off_board, 4)
        for i in range(s.count):
            _write_slot(s.slots[i], widths)
        for i in range(s.count):
            _put(s.order[i], limits.SLOT_BITS)
            _put(s.order_reason[i], 2)
        _write_grid(s)
        # The turn's details: how many (to the last that is not 0), then 8 bits each.
        n = 10
        while n and not s.detail[n - 1]:
            n -= 1
        _put(n, 4)
        for i in range(n):
            v = s.detail[i]
            if v and not 0 < v >> 4 <= 12:
                raise ValueError(41, v)  # a colour not 1..12
            _put(v, 8)
        if _n:
            _put(0, 8 - _n)  # zero padding to the byte
    except ValueError as err:
        raise CodecError(*err.args)
    n = _pos
    if buf is not None:
        return n
    return bytes(target[:n])


def _bits_for(value):
    """How many bits `value` needs; 0 needs none, and so does a negative value (every field
    goes through _put, which refuses it there)."""
    n = 0
    while value > 0:
        n += 1
        value >>= 1
    return n


def _slot_widths(s, out):
    """The fewest bits that hold each per-slot number of `s`, into `out` (see _WIDTH_BITS)."""
    # The bits of an OR of values are those of their largest. The ORs are kept as ints (in
    # _ORS) and only their widths go into `out`: a number over 255 stored in a bytearray
    # raises ValueError on CPython and OverflowError on CircuitPython, and wraps on
    # MicroPython. Slot by slot, each looked up once: a board's slots are views it loads
    # (shared.state.Slots).
    # (Few locals: this runs on the board's deepest path, under decode.)
    for k in range(_NUMBERS):
        _ORS[k] = 0
    for i in range(s.count):
        slot = s.slots[i]
        _ORS[0] |= slot.order_key
        _ORS[1] |= slot.health | slot.health_max
        for k in range(limits.MAX_COOLDOWNS):
            _ORS[2] |= slot.cd_left[k]
        for k in range(limits.MAX_COUNTERS):
            _ORS[3 + k] |= slot.counters[k]
        _ORS[_NUMBERS - 1] |= slot.effects << 1 | (1 if slot.effect_ends else 0)
    for k in range(_NUMBERS):
        i = _bits_for(_ORS[k])
        out[k] = i if i < 256 else 255  # over any width: refused by the caller


def _put_sides(roll, i):
    # Die i's sides, less 2 (7 bits: a d2 is 0, a d100 98); returns the bits of its face.
    sides = roll.sides[i]
    if sides > dice.MAX_SIDES:
        raise ValueError(39, sides)  # (and _put refuses one of fewer than 2)
    _put(sides - 2, 7)
    return _bits_for(sides)


def _write_grid(s):
    gw = s.grid_w
    gh = s.grid_h
    side = limits.MAX_GRID_SIDE
    if not (0 <= gw <= side and 0 <= gh <= side and (gw == 0) == (gh == 0)):
        raise ValueError(36)  # the grid does not fit
    used = gw * gh
    for i in range(used, side * side):
        if s.grid[i]:
            raise ValueError(36)  # a token outside the grid would not come back
    _put(1 if used else 0, 1)
    if not used:
        return
    _put(gw - 1, 3)
    _put(gh - 1, 3)
    for i in range(used):
        cell = s.grid[i]
        _put(1 if cell else 0, 1)
        if cell:
            owner = (cell & limits.GRID_OWNER) - 1
            rank = cell >> limits.GRID_RANK_SHIFT
            if not 0 <= owner < s.team_count or rank > limits.MAX_RANK:
                raise ValueError(36)  # a token of no team in play, or of too high a rank
            _put(owner, 2)
            _put(rank, 2)


def _write_slot(slot, widths):
    label = slot.label
    if type(label) is int:  # a label packed in an int (_read_slot)
        n = label >> 18
        _put(n, 2)
        for j in range(n):
            _put(label >> (12 - 6 * j) & 63, 6)
    else:
        if len(label) > limits.LABEL_LEN:
            raise ValueError(6, label)  # too long
        _put(len(label), 2)
        for ch in label:
            code = LABEL_CHARS.find(ch)
            if code < 0:
                raise ValueError(7, label)  # a character it cannot hold
            _put(code, 6)
    _put(slot.team, 2)
    _put(slot.order_key, widths[0])
    _put(slot.actions, 3)
    _put(slot.actions_max, 3)
    _put(slot.health, widths[1])
    _put(slot.health_max, widths[1])
    for k in range(limits.MAX_COUNTERS):
        _put(slot.counters[k], widths[3 + k])
    _put(slot.effects << 1 | (1 if slot.effect_ends else 0), widths[_NUMBERS - 1])
    _put(slot.flags, 8)
    # Only the bits of timers in use are written: one outside the field would be lost.
    if slot.cd_pending < 0 or slot.cd_pending >> limits.MAX_COOLDOWNS:
        raise ValueError(1, slot.cd_pending, limits.MAX_COOLDOWNS)  # does not fit its bits
    used = 0
    for i in range(limits.MAX_COOLDOWNS):
        if slot.cd_id[i]:
            used |= 1 << i
    _put(used, limits.MAX_COOLDOWNS)
    for i in range(limits.MAX_COOLDOWNS):
        if used & (1 << i):
            _put(slot.cd_id[i], 3)
            _put(slot.cd_left[i], widths[2])
            _put((slot.cd_pending >> i) & 1, 1)


def decode(data, s):
    """Decode `data` into the state `s`; raises CodecError with a clear message on bad input."""
    if len(data) == 0:
        raise CodecError(8)  # empty
    if len(data) > MAX_ENCODED:
        raise CodecError(9, len(data))  # too long
    if data[0] != CODEC_VERSION:
        raise CodecError(10, data[0])  # another version
    _start(data, 1)
    # Read here, not in a function of their own: one call level less (see encode). Its
    # locals are as few as will do (the state is `s`, one name reused for several reads):
    # it is on the board's deepest path (an UNDO re-applied under a snapshot), where each
    # costs the Python stack.
    try:
        s.ruleset = _get(4)
        n = _get(5)
        s.round = _get(n)
        _check(_bits_for(s.round) == n, 13, n)
        version = _get(16)
        count = _get(_COUNT_BITS)
        _check(count <= limits.MAX_SLOTS, 14, count)
        s.count = count
        s.turn = _get(limits.SLOT_BITS)
        _check(s.turn < count or (count == 0 and s.turn == 0), 15)
        s.phase = _get(4)
        s.phase_count = _get(4)
        _check(0 < s.phase_count and s.phase < s.phase_count, 16)
        s.team_count = _get(2) + 1
        for i in range(limits.MAX_TEAMS):
            s.scores[i] = 0
        n = _get(5)
        widest = 0
        for i in range(s.team_count):
            v = _get(n)
            widest = max(widest, v)
            score = -((v + 1) >> 1) if v & 1 else v >> 1
            # encode refuses a score outside the range: a state that decodes must encode back.
            _check(limits.MIN_SCORE <= score <= limits.MAX_SCORE, 17, score)
            s.scores[i] = score
        _check(_bits_for(widest) == n, 18, n)
        widths = _WIDTHS
        for k in range(_NUMBERS):
            widths[k] = _get(_WIDTH_BITS[k])
            _check(widths[k] <= _WIDEST[k], 19)
        roll = s.roll
        roll.kind = _get(3)
        _check(roll.kind < len(_FACE_BITS), 20, roll.kind)
        roll.count = _get(4)
        _check(roll.kind != dice.KIND_NONE or roll.count == 0, 21)
        _check(roll.kind != dice.KIND_D100 or roll.count == 2, 22)
        v = _get(_COUNT_BITS)  # who rolled
        _check(v == _WHO_NONE or v < count, 23, v)
        roll.who = limits.NO_SLOT if v == _WHO_NONE else v
        roll.successes = _get(4)
        _check(roll.successes <= roll.count, 24)
        _check(
            roll.successes == 0 or roll.kind < dice.KIND_D100 or roll.kind == dice.KIND_D10,
            25,
        )
        for i in range(limits.MAX_DICE):
            roll.faces[i] = 0
            roll.sides[i] = 0
        for i in range(roll.count):
            bits = _FACE_BITS[roll.kind]
            sides = 0
            if roll.kind == dice.KIND_DN:  # a plain die: its sides, then its face
                sides = _get(7) + 2
                _check(sides <= dice.MAX_SIDES, 39, sides)
                roll.sides[i] = sides
                bits = _bits_for(sides)
            face = _get(bits)
            sides, bits = dice.face_range(roll.kind, sides)  # (its lowest and highest face)
            _check(sides <= face <= bits, 26, face)
            roll.faces[i] = face
        roll.unused = _get(1)
        _check(roll.unused == 0 or roll.kind != dice.KIND_NONE, 27)
        roll.degree = _get(3)  # 0 none, 1..4 critical failure .. critical success
        _check(roll.degree <= 4 and (roll.degree == 0 or roll.kind), 40, roll.degree)
        want = s.want
        want.clear()
        want.count = _get(4)
        if want.count:
            want.kind = _get(3)
            _check(
                dice.KIND_ACTION_D3 <= want.kind <= dice.KIND_CHANCE
                or dice.KIND_DN <= want.kind <= dice.KIND_D10
                or (want.kind == dice.KIND_D100 and want.count == 2),  # a d100 is two D10
                28,
                want.kind,
            )
            for i in range(want.count if want.kind == dice.KIND_DN else 0):
                want.sides[i] = _get(7) + 2
                _check(want.sides[i] <= dice.MAX_SIDES, 39, want.sides[i])
            v = _get(_COUNT_BITS)  # who is to roll
            _check(v == _WHO_NONE or v < count, 29, v)
            want.who = limits.NO_SLOT if v == _WHO_NONE else v
            want.purpose = _get(4)
            if _get(1):  # (else 0, as want.clear left it)
                want.explode = 1
                _check(want.kind == dice.KIND_DN, 28, want.kind)
        want.smart = _get(1)
        s.off_board = _get(4)
        for i in range(count):
            _read_slot(s.slots[i], s.team_count, widths, HOST or type(s.slots) is list)
        for i in range(count, limits.MAX_SLOTS):
            s.slots[i].clear()
        # A width wider than its numbers need would decode but re-encode to other bytes.
        _slot_widths(s, _FOUND)
        _check(_FOUND == widths, 30)
        seen = 0
        for i in range(count):
            v = _get(limits.SLOT_BITS)  # the slot at position i
            _check(v < count and not seen & (1 << v), 31)
            seen |= 1 << v
            s.order[i] = v
            s.order_reason[i] = _get(2)
        for i in range(count, limits.MAX_SLOTS):
            s.order[i] = i
            s.order_reason[i] = 0
        _read_grid(s)
        n = _get(4)
        for i in range(10):
            v = _get(8) if i < n else 0
            _check(not v or 0 < v >> 4 <= 12, 41, v)
            s.detail[i] = v
        # (a last entry of 0 would re-encode shorter)
        _check(n <= 10 and (n == 0 or s.detail[n - 1]), 42, n)
        s.version = version
    except EOFError:
        raise CodecError(11, len(data))  # truncated
    if _pos != len(data) or _acc:  # the bits left in the last byte are zero padding
        raise CodecError(12, len(data) - _pos)  # stray bytes


def _check(ok, code, a=0):
    if not ok:
        raise CodecError(code, a)


def _read_grid(s):
    side = limits.MAX_GRID_SIDE
    grid = s.grid
    used = 0
    s.grid_w = s.grid_h = 0
    if _get(1):
        s.grid_w = _get(3) + 1
        s.grid_h = _get(3) + 1
        used = s.grid_w * s.grid_h
    for i in range(used):
        cell = 0
        if _get(1):
            owner = _get(2)
            _check(owner < s.team_count, 37, owner)
            rank = _get(2)
            _check(rank <= limits.MAX_RANK, 38, rank)
            cell = (owner + 1) | rank << limits.GRID_RANK_SHIFT
        grid[i] = cell
    for i in range(used, side * side):
        grid[i] = 0


def _read_slot(slot, team_count, widths, text):
    # `text`: the label as a str (the host's, or a Slot per fighter); else packed in an int,
    # no object of its own (a board's shared.slots.Slots): its length << 18, then each
    # character's index in LABEL_CHARS, 6 bits each, the first highest.
    n = _get(2)
    _check(n > 0, 33)
    if text:
        label = ""
        for _ in range(n):
            label += LABEL_CHARS[_get(6)]
    else:
        label = n << 18
        for j in range(n):
            label |= _get(6) << (12 - 6 * j)
    slot.label = label
    slot.team = _get(2)
    _check(slot.team < team_count, 34, slot.team)
    slot.order_key = _get(widths[0])
    slot.actions = _get(3)
    slot.actions_max = _get(3)
    slot.health = _get(widths[1])
    slot.health_max = _get(widths[1])
    for k in range(limits.MAX_COUNTERS):
        slot.counters[k] = _get(widths[3 + k])
    v = _get(widths[_NUMBERS - 1])
    if v or slot.effects or slot.effect_ends:  # set only once a slot has them (shared/state.py)
        slot.effects = v >> 1
        slot.effect_ends = v & 1 == 1
    slot.flags = _get(8)
    used = _get(limits.MAX_COOLDOWNS)
    slot.cd_pending = 0
    for i in range(limits.MAX_COOLDOWNS):
        if used & (1 << i):
            cd_id = _get(3)
            _check(cd_id != 0, 35)
            slot.cd_id[i] = cd_id
            slot.cd_left[i] = _get(widths[2])
            slot.cd_pending |= _get(1) << i
        else:
            slot.cd_id[i] = 0
            slot.cd_left[i] = 0


try:
    from threading import RLock
except ImportError:  # MicroPython, CircuitPython: one thread, nothing to guard
    pass
else:  # the host: the functions above, one call at a time (the board never makes these)
    _lock = RLock()
    _encode_unlocked = encode
    _decode_unlocked = decode

    def encode(state, buf=None):
        """Encode `state`. With a buffer (at least MAX_ENCODED bytes) it writes there and
        returns the length; without one it returns new bytes."""
        with _lock:
            return _encode_unlocked(state, buf)

    def decode(data, state):
        """Decode `data` into `state`; raises CodecError with a clear message on bad input."""
        with _lock:
            return _decode_unlocked(data, state)
