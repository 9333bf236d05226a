"""The device state: fixed slots, the turn pointer, scores and the last roll.

Every object here is allocated once, when the state is built; play only rewrites numbers and
bytearrays in place. Code that changes the state calls `GameState.touch()` so that
`version` moves with every change (the link compares versions and digests).
"""

from shared.compat import const
from shared.dice import DEFAULT_SUCCESS_MASK
from shared.limits import (
    LABEL_LEN,
    MAX_AGILITY,
    MAX_AP,
    MAX_COOLDOWNS,
    MAX_DICE,
    MAX_KOR,
    MAX_SLOTS,
    MAX_TEAMS,
    NO_SLOT,
)

# The 64 characters a label may use (the codec spends 6 bits on each).
LABEL_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

# Slot flags (bits of Slot.flags).
F_ACTIVE = const(1)
F_ACTED = const(2)
F_OUT = const(4)  # out of play: skipped by the turn order
F_FROZEN = const(8)
F_KNOCKED_DOWN = const(16)
F_PINNED = const(32)
F_GRAPPLED = const(64)
F_CHARGING = const(128)


class Slot:
    """One participant in the turn order: a character, a monster or a team seat."""

    def __init__(self):
        self.cd_id = bytearray(MAX_COOLDOWNS)  # 0 = free timer
        self.cd_left = bytearray(MAX_COOLDOWNS)
        self.clear()

    def clear(self):
        self.label = ""
        self.team = 0
        self.agility = 0  # base Agility: dice rolled for initiative, first tie-break
        self.ap = 0
        self.ap_max = 0
        self.kor = 0
        self.kor_max = 0
        self.frost = 0
        self.burn = 0
        self.fear = 0
        self.flags = 0
        self.cd_pending = 0  # bit i: timer i was used this turn and is not yet on cooldown
        for i in range(MAX_COOLDOWNS):
            self.cd_id[i] = 0
            self.cd_left[i] = 0

    def in_play(self):
        return not self.flags & F_OUT

    def copy_from(self, other):
        self.label = other.label
        self.team = other.team
        self.agility = other.agility
        self.ap = other.ap
        self.ap_max = other.ap_max
        self.kor = other.kor
        self.kor_max = other.kor_max
        self.frost = other.frost
        self.burn = other.burn
        self.fear = other.fear
        self.flags = other.flags
        self.cd_pending = other.cd_pending
        self.cd_id[:] = other.cd_id
        self.cd_left[:] = other.cd_left


class LastRoll:
    """The most recent roll: what was rolled, the faces, the successes and who rolled."""

    def __init__(self):
        self.faces = bytearray(MAX_DICE)
        self.clear()

    def clear(self):
        self.kind = 0  # a dice.KIND_* value; 0 = no roll yet
        self.sides = 0  # for plain dN rolls
        self.count = 0
        self.successes = 0
        self.who = NO_SLOT
        for i in range(MAX_DICE):
            self.faces[i] = 0

    def copy_from(self, other):
        self.kind = other.kind
        self.sides = other.sides
        self.count = other.count
        self.successes = other.successes
        self.who = other.who
        self.faces[:] = other.faces


class GameState:
    """Everything the board shows and needs to keep playing alone."""

    def __init__(self):
        self.slots = [Slot() for _ in range(MAX_SLOTS)]
        self.order = bytearray(MAX_SLOTS)  # slot index at each turn position
        self.order_reason = bytearray(MAX_SLOTS)  # initiative.R_* that decided each position
        self.scores = [0] * MAX_TEAMS
        self.roll = LastRoll()
        self.version = 0
        self.reset()

    def reset(self):
        """Back to an empty table. Counts as a change."""
        for slot in self.slots:
            slot.clear()
        for i in range(MAX_SLOTS):
            self.order[i] = i
            self.order_reason[i] = 0
        for i in range(MAX_TEAMS):
            self.scores[i] = 0
        self.roll.clear()
        self.ruleset = 0
        self.timing = 0
        self.success_mask = DEFAULT_SUCCESS_MASK  # which action-die faces succeed (dice.py)
        self.count = 0  # slots in use: indexes 0..count-1
        self.team_count = 2
        self.round = 0  # 0 = not started; the first round is 1
        self.turn = 0  # position in `order` whose turn it is
        self.phase = 0
        self.phase_count = 1
        self.touch()

    def touch(self):
        self.version = (self.version + 1) & 0xFFFF

    @property
    def active(self):
        """Index of the slot whose turn it is, or NO_SLOT before the first round."""
        if self.round == 0 or self.count == 0:
            return NO_SLOT
        return self.order[self.turn]

    def add_slot(self, label, team=0, agility=0, ap_max=0, kor_max=0):
        """Append a slot at full action points and KOR; returns its index."""
        if self.count >= MAX_SLOTS:
            raise ValueError("the board holds at most %d slots" % MAX_SLOTS)
        if not 0 <= team < self.team_count:
            raise ValueError("team %d is not one of 0..%d" % (team, self.team_count - 1))
        check_label(label)
        _check_range("agility", agility, MAX_AGILITY)
        _check_range("action points", ap_max, MAX_AP)
        _check_range("KOR", kor_max, MAX_KOR)
        index = self.count
        slot = self.slots[index]
        slot.clear()
        slot.label = label
        slot.team = team
        slot.agility = agility
        slot.ap = slot.ap_max = ap_max
        slot.kor = slot.kor_max = kor_max
        self.order[index] = index
        self.count = index + 1
        self.touch()
        return index

    def copy_from(self, other):
        """Make this state equal to `other` without allocating."""
        for i in range(MAX_SLOTS):
            self.slots[i].copy_from(other.slots[i])
        self.order[:] = other.order
        self.order_reason[:] = other.order_reason
        for i in range(MAX_TEAMS):
            self.scores[i] = other.scores[i]
        self.roll.copy_from(other.roll)
        self.ruleset = other.ruleset
        self.timing = other.timing
        self.success_mask = other.success_mask
        self.count = other.count
        self.team_count = other.team_count
        self.round = other.round
        self.turn = other.turn
        self.phase = other.phase
        self.phase_count = other.phase_count
        self.version = other.version


def check_label(label):
    if not 1 <= len(label) <= LABEL_LEN:
        raise ValueError("label %r must be 1..%d characters" % (label, LABEL_LEN))
    for ch in label:
        if LABEL_CHARS.find(ch) < 0:
            raise ValueError("label %r may use only letters, digits, '-' and '_'" % label)


def _check_range(what, value, ceiling):
    if not 0 <= value <= ceiling:
        raise ValueError("%s %d is not in 0..%d" % (what, value, ceiling))
