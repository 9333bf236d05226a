"""Fixed capacities of the device state.

Everything on the board is allocated once from these numbers, and the codec's field widths
follow from them. MAX_SLOTS (24: the big table, issue 39) is a one-line change here:
SLOT_BITS, the codec's slot fields and MAX_ENCODED (and with it the link's largest frame)
follow.
"""

from shared.compat import const

MAX_SLOTS = const(24)
SLOT_BITS = 1  # bits that hold a slot index: 3 for 8 slots, 4 for 16, 5 for 24
while (1 << SLOT_BITS) < MAX_SLOTS:
    SLOT_BITS += 1
MAX_COOLDOWNS = const(4)  # cooldown timers per slot
MAX_COUNTERS = const(4)  # small per-slot counters a ruleset names (shared/descriptor.py)
MAX_MARKS = const(5)  # ruleset marks: Slot.flags bits 3..7
MAX_PHASES = const(15)  # phases (or steps) of a turn
MAX_TEAMS = const(4)
MAX_DICE = const(15)  # faces kept for the last roll (a count fits in 4 bits)
MAX_KINDS = const(3)  # kinds of plain die in one roll (2d6 + 1d8 is two)
LABEL_LEN = const(3)  # characters in a slot's short label
MAX_GRID_SIDE = const(8)  # a token grid (GameState.grid) is at most 8 x 8 cells
MAX_RANK = const(2)  # a grid token's rank: 0 common, 1 heroic, 2 legendary
# A grid cell (GameState.grid, one byte each): 0 = empty; else owner + 1 in the low bits
# (GRID_OWNER), the token's rank (0..MAX_RANK) in the next (GRID_RANK_SHIFT up).
GRID_OWNER = const(7)
GRID_RANK_SHIFT = const(3)

# Field ceilings, set by the codec's bit widths. A ruleset's own caps (shared/descriptor.py)
# sit at or below them.
MAX_ACTIONS = const(7)  # a turn's allowance of actions
MAX_ORDER_KEY = const(63)  # 6 bits: a card (descriptor_pack.ORDER_CARD) is up to 60
MAX_HEALTH = const(255)
MAX_COUNTER = const(15)
MAX_COOLDOWN_TURNS = const(15)
MAX_COOLDOWN_ID = const(7)  # ids are 1..7; 0 marks a free timer
MIN_SCORE = const(-32768)  # team scores are 16-bit signed on the wire
MAX_SCORE = const(32767)
NO_SLOT = const(0xFF)
