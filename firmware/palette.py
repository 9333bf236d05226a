"""Colours and blink patterns, chosen so that no meaning rests on hue alone.

Hues come from the Okabe-Ito set (told apart by most colour-blind players), and every
meaning also has a brightness or a blink pattern: team k's pixels dip dark k times per
cycle (team 0 never dips), the active turn pulses fast, counts blink that many times, a
pending hold-to-confirm strobes. Colours are indexes into one preallocated table; a
ruleset's descriptor names its counters' and marks' colours by these indexes (its check
allows shared.descriptor.COLOURS of them).
"""

from shared.compat import const

# Colour indexes.
_OFF = const(0)
_TEAM0 = const(1)  # blue (a team's colour: team_colour)
_TEAM1 = const(2)  # orange
_TEAM2 = const(3)  # reddish purple
_TEAM3 = const(4)  # yellow
WHITE = const(5)
SKY_BLUE = const(6)
VERMILLION = const(7)
BLUISH_GREEN = const(8)
COOLDOWN = const(9)  # amber
SUCCESS = const(10)  # white-green
FAIL = const(11)  # dim grey-blue
WARN = const(12)  # red

RGB = bytes(
    (
        0, 0, 0,
        0, 114, 178,
        230, 159, 0,
        204, 121, 167,
        240, 228, 66,
        255, 255, 255,
        86, 180, 233,
        213, 94, 0,
        0, 158, 115,
        255, 176, 0,
        200, 255, 200,
        60, 70, 110,
        255, 0, 0,
    )
)  # fmt: skip

FULL = const(255)
DIM = const(40)
MID = const(120)

CYCLE_MS = const(2400)  # the slow cycle every pattern shares (room for 10 blinks)
_BLIP_MS = const(200)  # one dip or blink within it

# `const` is needed only above: deleting it frees its slot in this module's globals for the
# functions below, so the table stays a size smaller (docs/memory.md).
del const


def put(frame, cell, colour, level):
    """Write colour at `level` (0..255) into cell's three bytes of the RGB frame."""
    base = colour * 3
    at = cell * 3
    frame[at] = RGB[base] * level // 255
    frame[at + 1] = RGB[base + 1] * level // 255
    frame[at + 2] = RGB[base + 2] * level // 255


def team_colour(team):
    return _TEAM0 + (team & 3)


def team_lit(team, now_ms):
    """Team k's identity pattern: steady, dark for `k` short dips at the start of a cycle."""
    phase = now_ms % CYCLE_MS
    if phase >= (team & 3) * _BLIP_MS:
        return True
    return (phase % _BLIP_MS) < _BLIP_MS // 2  # the dip is the second half of each blip


def count_lit(count, now_ms):
    """A count shown as that many blinks, then a pause (0 = dark; 11 or more = steady)."""
    if count <= 0:
        return False
    if count > 10:
        return True
    phase = now_ms % CYCLE_MS
    if phase >= count * _BLIP_MS:
        return False
    return (phase % _BLIP_MS) < _BLIP_MS * 3 // 5


def tally_lit(count, now_ms, ten=10):
    """A count of up to 23 as blinks: up to `ten` as count_lit; past it a long blink per
    `ten`, then a short one per unit (23: two long, three short; with `ten` 5, a card's rank
    as tally marks: 9 one long and four short, an ace's 14 two long and four short)."""
    if count <= ten:
        return count_lit(count, now_ms)
    phase = now_ms % CYCLE_MS
    tens = count // ten
    if phase < tens * 2 * _BLIP_MS:  # a long blink: on for most of two blips
        return phase % (2 * _BLIP_MS) < _BLIP_MS * 3 // 2
    return count_lit(count % ten, phase - tens * 2 * _BLIP_MS)


def fast_pulse(now_ms):
    """The active turn: bright and dim, four times a second."""
    return (now_ms % 250) < 150


def slow_blink(now_ms):
    return (now_ms % 2000) < 1000


def strobe(now_ms):
    return (now_ms % 120) < 60
