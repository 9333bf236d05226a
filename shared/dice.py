"""Dice: action dice (D3, a D6 read as a D3, or D10), chance-token flips, a d100 made of two
D10s and plain dice of 2..100 faces (KIND_DN: a d4, d6, d8, d10, d12, d20, d100 ... and a roll of
several of them, each die with its own faces: `sides` is one number for every die or one per
die), from an injectable, seedable random source; plus checks for results entered by hand from
physical dice.

The default source is a xorshift32 generator, so one seed gives the same rolls on the board,
under MicroPython and on the desktop. The board seeds it from `os.urandom`.
"""

from shared.compat import Problem, const

KIND_NONE = const(0)
KIND_ACTION_D3 = const(1)
KIND_ACTION_D6 = const(2)  # a D6 read as a D3: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3
KIND_CHANCE = const(3)  # faces: 1 = heads (a success), 0 = tails
KIND_D100 = const(4)  # faces: the tens D10 then the units D10, each 0..9; 0 and 0 read 100
KIND_DN = const(5)  # faces 1..sides, per die
MAX_SIDES = const(100)  # a plain die has 2..MAX_SIDES faces
KIND_D10 = const(6)  # an action die of ten faces, 1..10
# Their names, for people: shared.words.KIND_NAMES (the host's).

# Which action-die faces count as a success, as a bit mask (bit 0 = face 1; a D6 is read as
# a D3 first). By default only a 3 succeeds (one chance in three); a ruleset's descriptor
# says otherwise (shared/descriptor.py).
DEFAULT_SUCCESS_MASK = const(0b100)
_MAX_DICE = const(15)  # shared.limits.MAX_DICE (tests/test_board_app.py: they agree)


class DiceError(Problem):
    """A roll request or a hand-entered result that is out of range (a code and its
    numbers, worded on the host: shared/words.py)."""


# `const` and `Problem` are needed only up to DiceError: deleting them frees their slots in
# this module's globals for the names below, so the table stays a size smaller
# (docs/memory.md).
del const, Problem


class XorShift32:
    """Marsaglia's xorshift32: small, fast, and the same sequence on every Python."""

    def __init__(self, seed=1):
        self.seed(seed)

    def seed(self, seed):
        seed &= 0xFFFFFFFF
        self._x = seed if seed else 0x9E3779B9  # the all-zero state would stick at zero

    def next_u32(self):
        x = self._x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self._x = x
        return x

    def below(self, n):
        """A uniform integer in 0..n-1 (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise DiceError(1, n)
        limit = 0x100000000 - (0x100000000 % n)
        while True:
            x = self.next_u32()
            if x < limit:
                return x % n


def random_source_from_os():
    """A generator seeded from the operating system's entropy (os.urandom on the board)."""
    import os

    raw = os.urandom(4)
    return XorShift32(raw[0] | raw[1] << 8 | raw[2] << 16 | raw[3] << 24)


def d6_as_d3(face):
    return (face + 1) // 2


def face_succeeds(kind, face, mask=DEFAULT_SUCCESS_MASK):
    """Whether one face is a success: action dice by the mask, chance flips on heads."""
    if kind == KIND_ACTION_D3 or kind == KIND_D10:
        return bool(mask & (1 << (face - 1)))
    if kind == KIND_ACTION_D6:
        return bool(mask & (1 << (d6_as_d3(face) - 1)))
    if kind == KIND_CHANCE:
        return face == 1
    return False


def count_successes(kind, faces, count, mask=DEFAULT_SUCCESS_MASK):
    total = 0
    for i in range(count):
        if face_succeeds(kind, faces[i], mask):
            total += 1
    return total


def die_sides(sides, i):
    """Die i's faces, from `sides`: one number for every die, or one per die."""
    return sides if isinstance(sides, int) else sides[i]


def face_range(kind, sides=0):
    """(lowest, highest) face of one die of this kind (`sides`: a plain die's faces)."""
    if kind == KIND_ACTION_D3:
        return 1, 3
    if kind == KIND_ACTION_D6:
        return 1, 6
    if kind == KIND_D10:
        return 1, 10
    if kind == KIND_CHANCE:
        return 0, 1
    if kind == KIND_D100:
        return 0, 9
    if kind == KIND_DN:
        if not 2 <= sides <= MAX_SIDES:
            raise DiceError(2, sides)
        return 1, sides
    raise DiceError(3, kind)


def roll_faces(rng, kind, count, out, sides=0):
    """Roll `count` dice of `kind` into the buffer `out` (no allocation)."""
    # The count's check, as check_faces makes it (in line: one global fewer, docs/memory.md).
    if kind == KIND_D100:
        if count != 2:
            raise DiceError(4, count)
    elif not 1 <= count <= _MAX_DICE:
        raise DiceError(5, kind, count)
    for i in range(count):
        low, high = face_range(kind, die_sides(sides, i))
        out[i] = low + rng.below(high - low + 1)


def roll_exploding(rng, count, sides, out, out_sides):
    """Roll `count` plain dice that explode (each rolled again on its highest face and added),
    die i of `sides[i]` faces, into `out`: every die's chain in turn, each face's die in
    `out_sides` (no allocation). Returns how many faces. A chain ends where the buffer leaves
    room only for one face of each die after (MAX_DICE faces in all)."""
    n = 0
    for i in range(count):
        top = sides[i]
        while True:
            out[n] = 1 + rng.below(top)
            out_sides[n] = top
            n += 1
            if out[n - 1] != top or n >= _MAX_DICE - (count - i - 1):
                break
    return n


def check_faces(kind, faces, sides=0, count=-1):
    """Validate hand-entered faces: the right count (`count` dice when it is given) and every
    face in range."""
    if kind == KIND_D100:  # (the count's check, as roll_faces makes it)
        if len(faces) != 2:
            raise DiceError(4, len(faces))
    elif not 1 <= len(faces) <= _MAX_DICE:
        raise DiceError(5, kind, len(faces))
    if count >= 0 and len(faces) != count:
        raise DiceError(6, count, len(faces))
    for i in range(len(faces)):
        face = faces[i]
        low, high = face_range(kind, die_sides(sides, i))
        if not low <= face <= high:
            raise DiceError(7, i + 1, face, kind, low, high)


def enter(state, kind, faces, who, sides=0, mask=None, count=-1):
    """Record dice rolled (by the board, or physical dice at the table) as the state's last
    roll (a plain die's faces: `sides`, one number or one per die); raises DiceError and
    changes nothing if the result is impossible (a face out of range, or not `count` dice
    when it is given). Returns the successes (counted with `mask`, by default the success
    faces of the state's descriptor). Rolling into the state from a generator is
    shared.host_only.roll (the host's)."""
    check_faces(kind, faces, sides, count)
    if mask is None:
        mask = state.rules.success_mask
    count = len(faces)
    roll = state.roll
    for i in range(_MAX_DICE):
        roll.faces[i] = faces[i] if i < count else 0
        roll.sides[i] = die_sides(sides, i) if i < count and kind == KIND_DN else 0
    roll.kind = kind
    roll.count = count
    roll.who = who
    roll.unused = 0
    roll.degree = 0  # judged by the host, if ever (GameState.roll)
    roll.successes = count_successes(kind, roll.faces, count, mask)
    state.touch()
    return roll.successes
