"""The board's events (key presses and rolls) and the one function that applies them.

An event is a small record: code, slot, arg, body length, then the body: the faces (one byte
each), and for plain dice (ROLL_DICE) each die's faces after them (`dice_sides`).
The board applies a press locally with `apply_event` the moment it happens and journals the
record; the host replays the same record through its rules (by default `apply_event` too),
so the board and the desktop run the same code for the same press.

Rolls carry their faces: the board rolls (or a player enters physical dice) and everyone
records the same result, so replaying a roll can never reroll it.
"""

from shared import dice, turns
from shared.compat import Problem, const
from shared.descriptor import M_CLEAR_AT_START
from shared.limits import MAX_DICE, NO_SLOT
from shared.state import F_ACTED, F_ACTIVE

EVENT_HEADER = const(4)  # code, slot, arg, body length (the faces, and plain dice's sides)
EVENT_MAX = const(24)  # EVENT_HEADER + MAX_DICE + 1 + 2 * (MAX_KINDS - 1)
# The bytes of a plain dice record's dice at most: die 0's faces, and the first die and faces
# of each of the MAX_KINDS - 1 kinds after it (shared.limits.MAX_KINDS; a private copy, which
# costs the board's heap no name: tests/test_dice_records.py checks that the two agree).
_KIND_BYTES = const(5)

NEXT_TURN = const(1)  # end the active turn (or start round 1 before the first turn); in a
#                       unit of several slots, naming one of them: that slot is done
NEXT_PHASE = const(2)  # step to the turn's next phase (past the last one, end the turn)
ROLL_ACTION = const(3)  # arg = dice.KIND_ACTION_D3, KIND_ACTION_D6 or KIND_D10; 1..15 faces
CHANCE = const(4)  # 1..3 chance-token flips; faces 1 = heads, 0 = tails
D100 = const(5)  # two D10 faces: tens, units (0 and 0 read 100)
SELECT = const(6)  # a slot was selected on the board; changes no state
COUNTER_UP = const(7)  # arg = counter index: one more on `slot`, up to the counter's cap
COUNTER_DOWN = const(8)  # arg = counter index: one less on `slot`, down to 0
UNDO = const(9)  # undo the last local action
END_COMBAT = const(10)  # back to "not started": round 0, no active turn, no last roll
RESET = const(11)  # an empty table
ROLL_DICE = const(12)  # plain dice (dice.KIND_DN): arg = the dice count; the body is the
#                       faces, then die 0's sides, then (first die, sides) of each later kind
# Their names, for people: shared.words.EVENT_NAMES (the host's).
MAX_CHANCE_FLIPS = const(3)


class EventError(Problem):
    """An event the current state cannot take (the state is left unchanged): a code and
    its numbers, worded on the host (shared/words.py)."""


def write_event(buf, code, slot=NO_SLOT, arg=0, faces=None, count=0):
    """Write an event record into buf (EVENT_MAX bytes); returns its length. A ROLL_DICE
    record then takes its dice with `write_sides`."""
    if faces is not None and count == 0:
        count = len(faces)
    if count > MAX_DICE:
        raise EventError(1, count)
    # Each field is checked before it is stored: a bytearray refuses a number over 255 with
    # ValueError on CPython and OverflowError on CircuitPython, and MicroPython wraps it.
    if not (0 <= code <= 255 and 0 <= slot <= 255 and 0 <= arg <= 255):
        raise EventError(16, code, slot, arg)
    for i in range(count):
        if not 0 <= faces[i] <= 255:
            raise EventError(17, faces[i])
    buf[0] = code
    buf[1] = slot
    buf[2] = arg
    buf[3] = count
    for i in range(count):
        buf[EVENT_HEADER + i] = faces[i]
    return EVENT_HEADER + count


def write_sides(buf, sides):
    """After the faces of the ROLL_DICE record in buf (its arg dice), each die's faces
    (`sides`: one number for every die, or one per die): die 0's, then the first die and the
    faces of each later kind of die; returns the record's length."""
    count = buf[2]
    n = EVENT_HEADER + count
    last = dice.die_sides(sides, 0) & 0xFF  # (a bad number: dice_sides refuses it)
    buf[n] = last
    n += 1
    for i in range(1, count):
        s = dice.die_sides(sides, i) & 0xFF
        if s != last:
            if n + 2 > EVENT_HEADER + count + _KIND_BYTES:
                raise EventError(18)
            buf[n] = i
            buf[n + 1] = s
            n += 2
            last = s
    buf[3] = n - EVENT_HEADER
    return n


def dice_sides(buf, start, out=None):
    """0 if the ROLL_DICE record at buf[start:] is well formed (every die of 2..MAX_SIDES
    faces, a later kind's first die after the one before, each face within its die's, and
    a board's journal can hold it), and then each die's faces into `out` (if given); else a
    problem code (shared.link.messages' record codes: 11 a face, 12 the dice, 13 too large
    for a journal). Allocates nothing."""
    count = buf[start + 2]
    at = start + EVENT_HEADER + count
    end = start + EVENT_HEADER + buf[start + 3]
    if not 1 <= count <= MAX_DICE or at >= end or (end - at) & 1 == 0:
        return 12
    if end - at > _KIND_BYTES:
        return 12
    sides = buf[at]
    at += 1
    for i in range(count):
        if at < end and buf[at] == i and i:
            sides = buf[at + 1]
            at += 2
        if not 2 <= sides <= dice.MAX_SIDES:
            return 12
        face = buf[start + EVENT_HEADER + i]
        if face < 1 or face > sides:
            return 11
        if out is not None:
            out[i] = sides
    if at != end:
        return 12
    # A board journals a body of 8 bytes as it is, or else two to a byte
    # (shared/link/board.py): a longer body with a number over 15 is refused.
    if end - start - EVENT_HEADER > 8:
        for i in range(start + EVENT_HEADER, end):
            if buf[i] > 15 or end - start - EVENT_HEADER > 16:
                return 13
    return 0


def _slot_index(state, record):
    index = record[1]
    if index == NO_SLOT:
        index = state.active
        if index == NO_SLOT:
            raise EventError(2, record[0])
    if index >= state.count:
        raise EventError(3, index, state.count)
    return index


def _who(state, record):
    """The roller: the named slot, else the active one, else nobody."""
    index = record[1]
    if index == NO_SLOT:
        return state.active
    if index >= state.count:
        raise EventError(3, index, state.count)
    return index


def _check(state, record):
    """Raise EventError if the event cannot apply; changes nothing."""
    if len(record) < EVENT_HEADER:
        raise EventError(4, len(record))
    if len(record) < EVENT_HEADER + record[3]:
        raise EventError(5, record[3], len(record))
    code = record[0]
    count = record[3]
    if code == NEXT_TURN or code == NEXT_PHASE:
        if state.count == 0:
            raise EventError(6)
        in_play = False
        for i in range(state.count):
            if state.slots[i].in_play():
                in_play = True
        if not in_play:
            raise EventError(7)
        if code == NEXT_PHASE and state.round == 0:
            raise EventError(8)
        if record[1] != NO_SLOT and state.round and state.rules.flags & 48:  # (a turn unit)
            # In a turn of several slots, naming one: that slot is done.
            index = _slot_index(state, record)
            if state.slots[index].flags & (F_ACTIVE | F_ACTED) != F_ACTIVE:
                raise EventError(9, index)
    elif code == ROLL_ACTION:
        kind = record[2]
        if kind != dice.KIND_ACTION_D3 and kind != dice.KIND_ACTION_D6 and kind != dice.KIND_D10:
            raise EventError(10, kind)
        _check_faces(record, kind)
        _who(state, record)
    elif code == CHANCE:
        if not 1 <= count <= MAX_CHANCE_FLIPS:
            raise EventError(11, count)
        _check_faces(record, dice.KIND_CHANCE)
        _who(state, record)
    elif code == D100:
        _check_faces(record, dice.KIND_D100)
        _who(state, record)
    elif code == ROLL_DICE:
        if dice_sides(record, 0):
            raise EventError(19)
        _who(state, record)
    elif code == SELECT:
        _slot_index(state, record)
    elif code == COUNTER_UP or code == COUNTER_DOWN:
        _slot_index(state, record)
        counters_in_use = state.rules.counters
        if record[2] >= counters_in_use:
            raise EventError(12, record[2], counters_in_use)
    elif code != UNDO and code != END_COMBAT and code != RESET:
        raise EventError(13, code)


def _check_faces(record, kind):
    if record[3] > MAX_DICE:
        raise EventError(1, record[3])
    try:
        dice.check_faces(kind, record[EVENT_HEADER : EVENT_HEADER + record[3]])
    except dice.DiceError as err:
        raise EventError(14, err)


def apply_event(state, record, undo=None):
    """Apply one event record to `state` with the shared engine.

    Returns True if the state changed. Raises EventError, leaving the state unchanged, for
    an event the state cannot take. `undo` (anything with save(state) and restore(state):
    the board's session keeps one level, shared/link/board.py; the host's UndoHistory many)
    is saved before each change and restored by UNDO; without one, UNDO changes nothing
    here (the host keeps the real history).
    """
    _check(state, record)
    code = record[0]
    if code == SELECT:
        return False
    if code == UNDO:
        return undo is not None and undo.restore(state)
    if undo is not None:
        undo.save(state)
    if code == NEXT_TURN:
        if state.round == 0:
            turns.start_round(state)
        elif record[1] != NO_SLOT and state.rules.flags & 48:  # a unit of several slots
            turns.slot_done(state, record[1])
        else:
            turns.end_turn(state)
    elif code == NEXT_PHASE:
        turns.advance_phase(state)
    elif code == ROLL_ACTION or code == CHANCE or code == D100:
        # The faces as a slice: allocates a little (presses are not the idle loop).
        faces = record[EVENT_HEADER : EVENT_HEADER + record[3]]
        kind = dice.KIND_CHANCE if code == CHANCE else dice.KIND_D100 if code == D100 else record[2]
        dice.enter(state, kind, faces, _who(state, record))
        if state.want.matches(state.roll):
            state.want.clear()  # the wanted roll is made: the roll key goes dark
    elif code == ROLL_DICE:  # each die's faces into the roll's first (_check passed them)
        dice_sides(record, 0, state.roll.sides)
        faces = record[EVENT_HEADER : EVENT_HEADER + record[2]]
        dice.enter(state, dice.KIND_DN, faces, _who(state, record), state.roll.sides)
        if state.want.matches(state.roll):
            state.want.clear()
    elif code == COUNTER_UP or code == COUNTER_DOWN:
        slot = state.slots[_slot_index(state, record)]
        state.add_counter(slot, record[2], 1 if code == COUNTER_UP else -1)
    elif code == END_COMBAT:
        end_combat(state)
    elif code == RESET:
        state.reset()
    return True


def end_combat(state):
    """Leave the fight: no round, no active turn, no last roll, no marks of one turn; the
    roster stays."""
    clear = F_ACTIVE | F_ACTED | turns.marks_with(state.rules, M_CLEAR_AT_START)
    for i in range(state.count):
        state.slots[i].flags &= ~clear
    state.round = 0
    state.turn = 0
    state.phase = 0
    state.roll.clear()
    state.touch()
