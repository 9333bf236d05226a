"""The words for shared.codec's problems: for the host and the tests.

The codec raises CodecError(code, number, ...) and keeps no text, so the board's heap holds
none of it; CodecError's str() calls `word` here on the host (the board has no such
module). The texts are in the codec's code order (shared/codec.py's _E_* constants).
"""

from shared import limits
from shared.codec import CODEC_VERSION, MAX_ENCODED

_ENCODE = "cannot encode state: "
# code - 1 -> the text, filled with the numbers the problem carries (and the limits it names).
_WORDS = (
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
)


def word(args):
    """The text of a CodecError's args (code, numbers...)."""
    if not args or not isinstance(args[0], int) or not 1 <= args[0] <= len(_WORDS):
        return " ".join(str(a) for a in args)
    text = _WORDS[args[0] - 1]
    wanted = text.count("%") - 2 * text.count("%%")
    return text % tuple(args[1 : 1 + wanted])
