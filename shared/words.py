"""The words for the shared modules' problems, and the names of the dice kinds and of the
board's events: for the host and the tests (and the engine's tests on the MicroPython VM: it
runs there too).

CodecError, DiceError, EventError and TurnError (shared.compat.Problem) carry a problem code
and its numbers and no text, so the board's heap holds none of it; their str() calls `word`
here on the host (a board never loads it: shared.compat.Problem). Each table is in its
module's code order: the numbers each `raise` (and each `_check`) in shared/codec.py,
shared/dice.py, shared/events.py and shared/turns.py writes; and
shared.link.messages.event_record_problem's codes (`record_problem`).
"""

from shared import dice, limits
from shared.codec import CODEC_VERSION, MAX_ENCODED, CodecError
from shared.compat import Problem
from shared.dice import DiceError
from shared.events import EVENT_HEADER, EventError
from shared.turns import TurnError

# The names of the dice kinds (shared.dice.KIND_*) and of the board's events (shared.events'
# codes), by number.
KIND_NAMES = ("none", "d3", "d6", "chance", "d100", "dN", "d10")
EVENT_NAMES = (
    "?",
    "next turn",
    "next phase",
    "roll",
    "chance",
    "d100",
    "select",
    "counter up",
    "counter down",
    "undo",
    "end combat",
    "reset",
    "roll dice",
)

_ENCODE = "cannot encode state: "
# code - 1 -> the text, filled with the numbers the problem carries (and the limits it names).
_CODEC = (
    _ENCODE + "%d does not fit in %d bits",
    _ENCODE + "the buffer is full",
    _ENCODE + "team score %%d is outside %d..%d" % (limits.MIN_SCORE, limits.MAX_SCORE),
    _ENCODE + "a slot holds a negative number",
    _ENCODE + "a slot holds a number too large for the codec",
    _ENCODE + "label %%r is longer than %d characters" % limits.LABEL_LEN,
    _ENCODE + "label %r: only letters, digits, '-' and '_'",
    "empty state",
    "state of %%d bytes is longer than the %d maximum" % MAX_ENCODED,
    "state codec version %%d, expected %d" % CODEC_VERSION,
    "state is truncated (%d bytes)",
    "state has %d stray bytes at the end",
    "round width %d is not the fewest bits",
    "state names %%d slots, at most %d fit" % limits.MAX_SLOTS,
    "turn position out of range",
    "phase out of range",
    "team score %d out of range",
    "score width %d is not the fewest bits",
    "a slot number width is over its limit",
    "unknown dice kind %d",
    "a roll with no kind has dice",
    "a d100 is two dice",
    "roll by slot %d, which is not in use",
    "more successes than dice",
    "a d100 or dN roll has no successes",
    "die face %d out of range",
    "no roll is marked unused",
    "a wanted roll of dice kind %d",
    "a roll wanted of slot %d, not in use",
    "a slot number width is not the fewest bits",
    "turn order is not a permutation",
    "%s",
    "a slot without a label",
    "slot team %d out of range",
    "cooldown with id 0",
    _ENCODE + "the token grid does not fit the codec",
    "grid token of team %d, not in play",
    "grid token rank %%d over %d" % limits.MAX_RANK,
    "a plain die of %%d faces, not 2..%d" % dice.MAX_SIDES,
    "degree of success %d: 1..4 on a roll, else 0",
    "detail entry 0x%02x: its colour (the high 4 bits) is not 1..12",
    "%d detail entries: at most 10, the last not 0",
)


_DICE = (
    "cannot draw below %d",
    "a dN die needs 2..%d sides, not %%d" % dice.MAX_SIDES,
    "unknown dice kind %d",
    "a d100 is two D10s (tens, units), not %d dice",
    lambda kind, count: (
        "%s rolls take 1..%d dice, not %d" % (KIND_NAMES[kind], limits.MAX_DICE, count)
    ),
    "this roll takes %d dice, but %d were entered",
    lambda die, face, kind, low, high: (
        "die %d shows %r, but a %s die reads %d..%d" % (die, face, KIND_NAMES[kind], low, high)
    ),
)

_NO_TURN = "no turn is running: start a round first"
_NOT_TO_ACT = "slot %d is not one still to act in this turn"
_TURNS = ("no slot is in play", _NO_TURN, _NOT_TO_ACT)

_EVENTS = (
    "an event carries at most %d dice, not %%d" % limits.MAX_DICE,
    lambda code: "%s needs a slot, and no turn is running" % EVENT_NAMES[code],
    "slot %d is not in use (the table has %d)",
    "an event record is at least %d bytes, not %%d" % EVENT_HEADER,
    lambda faces, n: (
        "an event record with %d faces is %d bytes, not %d" % (faces, EVENT_HEADER + faces, n)
    ),
    "the table is empty",
    "no slot is in play",
    _NO_TURN,
    _NOT_TO_ACT,
    "action dice are D3 or D6, or D10, not dice kind %d",
    "flip the chance token 1..3 times, not %d",
    "counter %d is not one of the %d it has",
    "unknown event code %d",
    "%s",
    lambda code, slot, problem: "event %d, slot %d: %s" % (code, slot, record_problem(problem)),
    "event %d, slot %d, argument %d: each is a byte, 0..255",
    "a die face of %d: a face is a byte, 0..255",
    "a roll of plain dice is at most %d kinds of die" % limits.MAX_KINDS,
    "a plain dice record's dice (each 2..%d faces) or faces are not well formed" % dice.MAX_SIDES,
)

# shared.link.messages.event_record_problem's codes (1..).
_RECORD = (
    "too long or too short",
    "the face count does not match the length",
    "no such slot",
    "action dice are D3 or D6, or D10",
    "a roll needs dice",
    "1..3 chance flips",
    "a d100 is two faces",
    "unknown event code",
    "no such counter",
    "this event carries no faces",
    "a face out of range",
    "its plain dice are not well formed",
    "too large for a board's journal (9 or more bytes of dice, one of them over 15)",
)


def record_problem(code):
    """The words for an event_record_problem code ("" for 0: nothing is wrong)."""
    return _RECORD[code - 1] if code else ""


_TABLES = ((CodecError, _CODEC), (DiceError, _DICE), (EventError, _EVENTS), (TurnError, _TURNS))


def word(err):
    """The text of a shared.compat.Problem: its table's entry for its code, filled with its
    numbers. Args that are not a known code (a host's own text) are shown as they are."""
    args = err.args
    table = ()
    for cls, words in _TABLES:
        if isinstance(err, cls):
            table = words
    if not args or not isinstance(args[0], int) or not 1 <= args[0] <= len(table):
        return " ".join(str(a) for a in args)
    entry = table[args[0] - 1]
    if callable(entry):
        return entry(*args[1:])
    wanted = entry.count("%") - 2 * entry.count("%%")
    return entry % tuple(args[1 : 1 + wanted])


# Every shared Problem's str() is worded from here on (shared/compat.py).
Problem.worded = word  # type: ignore[assignment]
