"""Korxsol on the board: its ruleset descriptor (shared/descriptor.py) and the names of its
counter indexes and mark bits in the generic device state.

The board knows korxsol only through these bytes: frost, burn and fear are counters 0..2,
the terrain a fighter stands on is counter 3 (shown, never ticked: the engine keeps it in
step with `terrain` and every move, host/rulesets/korxsol/terrain.py), frozen, knocked down, pinned,
grappled and charging are marks 0..4, and its turn rules (korxsol-players-guide.txt, "ON
YOUR TURN" and the Status Effect Indicators) are the descriptor's timing rules, which
shared/turns.py runs on the board and the desktop alike.

Plain data and MicroPython-safe on purpose: the engine tests (tests/engine) import it to play
korxsol's turn rules inside the MicroPython VM too. Keep it free of typing and f-strings.
"""

from firmware import palette as pal
from shared import dice
from shared.descriptor import (
    C_CLEAR_AT_END,
    C_CLEAR_IF_SKIPPED,
    C_DRAIN,
    C_SPEND,
    C_STEP_DOWN,
    COOLDOWN_PHASE,
    M_CLEAR_AT_END,
    M_CLEAR_AT_START,
    M_GET_UP,
    REFILL,
    SKIPPED_COOLDOWNS,
)
from shared.descriptor_pack import counter, mark, pack
from shared.state import mark_bit

# Korxsol's number on the board (the state's ruleset field), which its Ruleset declares
# (Korxsol.board_id). It is kept here, not read from ruleset.py as the other rulesets'
# device modules do: this module also runs on MicroPython (tests/engine), which cannot
# import the ruleset.
BOARD_ID = 1

# Counters (indexes into Slot.counters) and their caps. Burn stacks up to 3 times; the text
# caps neither frost nor fear, which stop at 7.
FROST = 0
BURN = 1
FEAR = 2
TERRAIN = 3
FROST_CAP = 7
BURN_CAP = 3
FEAR_CAP = 7
# The terrain counter's values, in host/rulesets/korxsol/terrain.TERRAINS' order.
TERRAIN_GROUND = 0
TERRAIN_SHALLOWS = 1
TERRAIN_WATER = 2
TERRAIN_LAVA = 3
TERRAIN_ICE = 4
TERRAIN_CAP = 4

# Marks, and their Slot.flags bits.
FROZEN = 0
KNOCKED_DOWN = 1
PINNED = 2
GRAPPLED = 3
CHARGING = 4
F_FROZEN = mark_bit(FROZEN)
F_KNOCKED_DOWN = mark_bit(KNOCKED_DOWN)
F_PINNED = mark_bit(PINNED)
F_GRAPPLED = mark_bit(GRAPPLED)
F_CHARGING = mark_bit(CHARGING)

# Phases of a turn.
PHASE_ACTION = 0
PHASE_COOLDOWN = 1
PHASES = 2


def descriptor(dice_kind=dice.KIND_ACTION_D3, success_mask=dice.DEFAULT_SUCCESS_MASK, version=0):
    """Korxsol's descriptor bytes for an encounter that rolls `dice_kind` action dice whose
    `success_mask` faces succeed, under rules version `version`."""
    return pack(
        "korxsol",
        BOARD_ID,
        version,
        health="KOR",
        allowance="AP",
        counters=(
            # Frost drains action points as its owner's turn starts and, at or above them,
            # freezes the turn (straight to the Cooldown Phase); one stack thaws at the
            # turn's end, all of them after a frozen turn.
            counter(
                "frost",
                FROST_CAP,
                pal.SKY_BLUE,
                C_DRAIN | C_STEP_DOWN | C_CLEAR_IF_SKIPPED,
                mark=FROZEN,
            ),
            counter("burn", BURN_CAP, pal.VERMILLION),
            # Fear spends action points running away, one for one, unless the fighter is
            # held where it stands (pinned or grappled); what is left goes at turn end.
            counter(
                "fear",
                FEAR_CAP,
                pal.WHITE,
                C_SPEND | C_CLEAR_AT_END,
                guard=(1 << PINNED) | (1 << GRAPPLED),
            ),
            # Where the fighter stands: 0 ground, 1 shallows, 2 water, 3 lava, 4 ice. No
            # timing rule: water's and lava's effects are the engine's, which sets it.
            counter("terrain", TERRAIN_CAP, pal.COOLDOWN),
        ),
        marks=(
            mark("frozen", pal.BLUISH_GREEN, M_CLEAR_AT_START),
            mark("knocked", pal.BLUISH_GREEN, M_GET_UP),  # getting up costs 1 AP
            mark("pinned", pal.BLUISH_GREEN, M_CLEAR_AT_END),
            mark("grappled", pal.BLUISH_GREEN),
            mark("charging", pal.BLUISH_GREEN),
        ),
        phases=("action", "cooldown"),
        # A collapsed fighter's turns are skipped, but its Cooldown Phases still pass.
        flags=REFILL | COOLDOWN_PHASE | SKIPPED_COOLDOWNS,
        dice_kind=dice_kind,
        success_mask=success_mask,
        dice_count=3,
        first_counter=FROST,
    )


def load_rules(
    state, dice_kind=dice.KIND_ACTION_D3, success_mask=dice.DEFAULT_SUCCESS_MASK, version=0
):
    """Make `state` a korxsol table: its descriptor, ruleset id and phase count."""
    data = descriptor(dice_kind, success_mask, version)
    state.rules.load(data, 0, len(data))
    state.ruleset = BOARD_ID
    state.phase_count = PHASES
    state.touch()
