"""Ruleset ids and the timing rules each ruleset asks the board to run on its own.

The board never carries ruleset code: the host projects its game onto the generic state and
sets `GameState.timing`, a bit set naming which of the trimmed rules tick at a turn's ends.
"""

from shared.compat import const

NONE = const(0)
KORXSOL = const(1)
STONES = const(2)
FORMS = const(3)
FLARE = const(4)
ADVANCE = const(5)

NAMES = ("none", "korxsol", "stones", "forms", "flare", "advance")

# Timing rules (bits of GameState.timing).
T_FROST = const(1)  # frost drains action points at turn start, may freeze, thaws at turn end
T_FEAR_CLEANSE = const(2)  # any fear still left is removed when its owner's turn ends
T_PIN_CLEAR = const(4)  # pin clears at the end of the owner's turn
T_COOLDOWNS = const(8)  # the owner's cooldown phase runs at the end of each turn
T_KNOCKDOWN_GETUP = const(16)  # a knocked-down slot pays 1 action point to stand

KORXSOL_TIMING = const(31)  # all of the above
KORXSOL_PHASES = const(2)  # 0 = Action Phase, 1 = Cooldown Phase
PHASE_ACTION = const(0)
PHASE_COOLDOWN = const(1)
