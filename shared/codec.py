"""The compact, versioned binary encoding of a whole GameState (exact round trips).

Layout (most significant bit first; docs/state-codec.md has the byte-level table):
one version byte, then bit fields for the globals, the last roll, each slot in use, and the
turn order with its initiative reasons; the last byte is zero padded.

`decode` raises CodecError, and only CodecError, for bad input. It reads into a state the
caller owns (it never grows a buffer), rejects input longer than MAX_ENCODED at once, and
never loops on its input. On error the target state is left half written: decode into a
spare state and copy it over on success (GameState.copy_from).
"""

from shared import dice
from shared.bits import BitReader, BitWriter
from shared.compat import const
from shared.limits import (
    BURN_CAP,
    LABEL_LEN,
    MAX_COOLDOWNS,
    MAX_DICE,
    MAX_FEAR,
    MAX_FROST,
    MAX_SLOTS,
    MAX_TEAMS,
    NO_SLOT,
    SLOT_BITS,
)
from shared.state import LABEL_CHARS

CODEC_VERSION = const(1)


_FACE_BITS = (0, 2, 3, 1, 4, 8)  # per dice kind: none, d3, d6, chance, d100 digit, dN
_WHO_NONE = const(15)

_HEADER_BITS = 8 + 4 + 8 + 16 + 16 + 4 + 4 + 4 + 4 + 2 + MAX_TEAMS * 16
_ROLL_BITS = 3 + 4 + 4 + 4 + 8 + MAX_DICE * 8
_SLOT_BITS = 2 + 6 * LABEL_LEN + 2 + 4 + 3 + 3 + 8 + 8 + 3 + 2 + 3 + 8 + MAX_COOLDOWNS
_SLOT_BITS += MAX_COOLDOWNS * (3 + 4 + 1)
_ORDER_BITS = SLOT_BITS + 2
MAX_ENCODED = (_HEADER_BITS + _ROLL_BITS + MAX_SLOTS * (_SLOT_BITS + _ORDER_BITS) + 7) // 8


class CodecError(ValueError):
    """Bytes that are not a valid encoded state, or a state the encoding cannot hold."""


_WRITER = BitWriter(bytearray(0))  # reused, so encoding into a buffer allocates nothing


def encode(state, buf=None):
    """Encode `state`. With a buffer (at least MAX_ENCODED bytes) it writes there and returns
    the length; without one it returns new bytes."""
    target = buf if buf is not None else bytearray(MAX_ENCODED)
    w = _WRITER
    w.buf = target
    w.start(0)
    try:
        _write(w, state)
    except ValueError as err:
        raise CodecError("cannot encode state: %s" % err)
    n = w.finish()
    if buf is not None:
        return n
    return bytes(target[:n])


def _write(w, s):
    w.write(CODEC_VERSION, 8)
    w.write(s.ruleset, 4)
    w.write(s.timing, 8)
    w.write(s.round, 16)
    w.write(s.version, 16)
    w.write(s.count, 4)
    w.write(s.turn, 4)
    w.write(s.phase, 4)
    w.write(s.phase_count, 4)
    w.write(s.team_count - 1, 2)
    for i in range(s.team_count):
        w.write(s.scores[i] & 0xFFFF, 16)
    r = s.roll
    w.write(r.kind, 3)
    w.write(r.count, 4)
    w.write(_WHO_NONE if r.who == NO_SLOT else r.who, 4)
    w.write(r.successes, 4)
    if r.kind == dice.KIND_DN:
        w.write(r.sides, 8)
    bits = _FACE_BITS[r.kind]
    for i in range(r.count):
        w.write(r.faces[i], bits)
    for i in range(s.count):
        _write_slot(w, s.slots[i])
    for i in range(s.count):
        w.write(s.order[i], SLOT_BITS)
        w.write(s.order_reason[i], 2)


def _write_slot(w, slot):
    label = slot.label
    if len(label) > LABEL_LEN:
        raise ValueError("label %r is longer than %d characters" % (label, LABEL_LEN))
    w.write(len(label), 2)
    for ch in label:
        code = LABEL_CHARS.find(ch)
        if code < 0:
            raise ValueError("label %r: only letters, digits, '-' and '_'" % label)
        w.write(code, 6)
    w.write(slot.team, 2)
    w.write(slot.agility, 4)
    w.write(slot.ap, 3)
    w.write(slot.ap_max, 3)
    w.write(slot.kor, 8)
    w.write(slot.kor_max, 8)
    w.write(slot.frost, 3)
    w.write(slot.burn, 2)
    w.write(slot.fear, 3)
    w.write(slot.flags, 8)
    used = 0
    for i in range(MAX_COOLDOWNS):
        if slot.cd_id[i]:
            used |= 1 << i
    w.write(used, MAX_COOLDOWNS)
    for i in range(MAX_COOLDOWNS):
        if used & (1 << i):
            w.write(slot.cd_id[i], 3)
            w.write(slot.cd_left[i], 4)
            w.write((slot.cd_pending >> i) & 1, 1)


def decode(data, state):
    """Decode `data` into `state`; raises CodecError with a clear message on bad input."""
    if len(data) == 0:
        raise CodecError("empty state")
    if len(data) > MAX_ENCODED:
        raise CodecError(
            "state of %d bytes is longer than the %d maximum" % (len(data), MAX_ENCODED)
        )
    if data[0] != CODEC_VERSION:
        raise CodecError("state codec version %d, expected %d" % (data[0], CODEC_VERSION))
    r = BitReader(data, 1)
    try:
        _read(r, state)
    except EOFError:
        raise CodecError("state is truncated (%d bytes)" % len(data))
    if r.pos != len(data) or not r.padding_is_clean():
        raise CodecError("state has %d stray bytes at the end" % (len(data) - r.pos))


def _check(ok, what):
    if not ok:
        raise CodecError(what)


def _read(r, s):
    s.ruleset = r.read(4)
    s.timing = r.read(8)
    s.round = r.read(16)
    version = r.read(16)
    count = r.read(4)
    _check(count <= MAX_SLOTS, "state names %d slots, at most %d fit" % (count, MAX_SLOTS))
    s.count = count
    s.turn = r.read(4)
    _check(s.turn < count or (count == 0 and s.turn == 0), "turn position out of range")
    s.phase = r.read(4)
    s.phase_count = r.read(4)
    _check(0 < s.phase_count and s.phase < s.phase_count, "phase out of range")
    s.team_count = r.read(2) + 1
    for i in range(MAX_TEAMS):
        s.scores[i] = 0
    for i in range(s.team_count):
        v = r.read(16)
        s.scores[i] = v - 0x10000 if v & 0x8000 else v
    roll = s.roll
    roll.kind = r.read(3)
    _check(roll.kind < len(_FACE_BITS), "unknown dice kind %d" % roll.kind)
    roll.count = r.read(4)
    _check(roll.kind != dice.KIND_NONE or roll.count == 0, "a roll with no kind has dice")
    who = r.read(4)
    _check(who == _WHO_NONE or who < count, "roll by slot %d, which is not in use" % who)
    roll.who = NO_SLOT if who == _WHO_NONE else who
    roll.successes = r.read(4)
    _check(roll.successes <= roll.count, "more successes than dice")
    roll.sides = r.read(8) if roll.kind == dice.KIND_DN else 0
    bits = _FACE_BITS[roll.kind]
    if roll.kind != dice.KIND_NONE:
        low, high = _face_range(roll.kind, roll.sides)
    for i in range(MAX_DICE):
        roll.faces[i] = 0
    for i in range(roll.count):
        face = r.read(bits)
        _check(low <= face <= high, "die face %d out of range" % face)
        roll.faces[i] = face
    for i in range(count):
        _read_slot(r, s.slots[i], s.team_count)
    for i in range(count, MAX_SLOTS):
        s.slots[i].clear()
    seen = 0
    for i in range(count):
        index = r.read(SLOT_BITS)
        _check(index < count and not seen & (1 << index), "turn order is not a permutation")
        seen |= 1 << index
        s.order[i] = index
        s.order_reason[i] = r.read(2)
    for i in range(count, MAX_SLOTS):
        s.order[i] = i
        s.order_reason[i] = 0
    s.version = version


def _face_range(kind, sides):
    try:
        return dice.face_range(kind, sides)
    except dice.DiceError as err:
        raise CodecError(str(err))


def _read_slot(r, slot, team_count):
    n = r.read(2)
    label = ""
    for _ in range(n):
        label += LABEL_CHARS[r.read(6)]
    slot.label = label
    slot.team = r.read(2)
    _check(slot.team < team_count, "slot team %d out of range" % slot.team)
    slot.agility = r.read(4)
    slot.ap = r.read(3)
    slot.ap_max = r.read(3)
    slot.kor = r.read(8)
    slot.kor_max = r.read(8)
    slot.frost = r.read(3)
    slot.burn = r.read(2)
    _check(slot.burn <= BURN_CAP, "burn above its cap")
    slot.fear = r.read(3)
    _check(slot.frost <= MAX_FROST and slot.fear <= MAX_FEAR, "stacks out of range")
    slot.flags = r.read(8)
    used = r.read(MAX_COOLDOWNS)
    slot.cd_pending = 0
    for i in range(MAX_COOLDOWNS):
        if used & (1 << i):
            cd_id = r.read(3)
            _check(cd_id != 0, "cooldown with id 0")
            slot.cd_id[i] = cd_id
            slot.cd_left[i] = r.read(4)
            slot.cd_pending |= r.read(1) << i
        else:
            slot.cd_id[i] = 0
            slot.cd_left[i] = 0
