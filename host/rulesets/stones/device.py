"""Stones on the board: its ruleset descriptor and the game projected onto the generic
device state.

A slot is a character (its team, HP as the health bar, its player's index as its order
key). Its counters are its player's cards in hand, that player's hand size and the stones
fused to this character; its marks are the three actions of the character being activated
(fuse, move, act), whether it has a fused ability and whether a status is on it. The
allowance is each character's actions left this turn.

The turn is a player's: the descriptor's turn unit is UNIT_KEY (docs/state-codec.md, "Turn
units"), and a player's characters share their order key, so every standing character of
the player whose turn it is is active at once (F_ACTIVE); one whose part of the turn is
over (its activation ended, or it cannot be activated: stunned, or the turn is in its end
step) is also F_ACTED, as are the characters of the players who have had their turn this
round. The order is the round's characters by their players' turns (state.turn: the first
of the turn's player's); the phase is the turn's end step once break, discard or the last
`done` has begun it. The last roll is the last d100 (two D10: tens, units). Scores are the
damage each team has dealt.

The board runs no stones rule: the descriptor names no timing rules, and the host sends
the whole state after every action. Its next-turn key ends the player's turn (`end`), as
shared.turns.end_turn ends the unit; with one of the player's characters still to act
selected it says that one is done (`done CHAR`), as turns.slot_done does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware import palette as pal
from host.core import kit
from host.rulesets.stones.engine import ACTIONS, round_order, to_act
from shared import dice, roster
from shared.descriptor_pack import UNIT_KEY, counter, mark, pack
from shared.initiative import R_OUT, R_SUCCESSES
from shared.state import F_ACTED, F_ACTIVE, F_OUT, GameState, mark_bit

if TYPE_CHECKING:
    from host.rulesets.stones.engine import Game

HAND, HAND_SIZE, FUSED = 0, 1, 2  # counters
FUSE_DONE, MOVE_DONE, ACT_DONE, HAS_FUSED, HAS_STATUS = 0, 1, 2, 3, 4  # marks
CAP = 15
PHASE_ACT, PHASE_END = 0, 1


# Stones's number on the board (the state's ruleset field); its Ruleset declares
# this one (the registry refuses a number two rulesets declare).
BOARD_ID = 6


def descriptor(version: int) -> bytes:
    return pack(
        "stones",
        BOARD_ID,
        version,
        health="HP",
        allowance="acts",
        counters=(
            counter("hand", CAP, pal.SKY_BLUE),
            counter("handsize", CAP, pal.WHITE),
            counter("fused", CAP, pal.COOLDOWN),
        ),
        marks=(
            mark("fuse", pal.BLUISH_GREEN),
            mark("move", pal.BLUISH_GREEN),
            mark("act", pal.BLUISH_GREEN),
            mark("fused", pal.COOLDOWN),
            mark("status", pal.VERMILLION),
        ),
        phases=("activate", "end"),
        # A player's turn, all their characters at once; the host refills and clears
        # everything: no timing rule on the board.
        flags=UNIT_KEY,
        dice_kind=dice.KIND_D100,
        success_mask=0,
        dice_count=2,
        first_counter=HAND,
    )


def new_state(game_chars: list[tuple[str, int, int, int]], version: int) -> GameState:
    """A table of the characters: (label, team, player, HP) each; the player is the order
    key, so a player's characters take the turn together. Those past the board's slots
    play on the screens only."""
    st = GameState()
    data = descriptor(version)
    st.rules.load(data, 0, len(data))
    st.ruleset = BOARD_ID
    st.phase_count = 2
    kit.fill_slots(st, game_chars, lambda c: (c[0], c[1], c[2], 3, c[3]))
    st.round = 1
    st.touch()
    return st


def project(game: Game) -> None:
    st = game.state
    st.round = game.round
    acting = game.active
    left = to_act(game)
    over = game.winner is not None
    for i, c in enumerate(game.enc.characters[: st.count]):  # (those past are off the board)
        slot = st.slots[i]
        slot.health = game.hp[i]
        slot.counters[HAND] = min(CAP, len(game.hands[c.player]))
        slot.counters[HAND_SIZE] = min(CAP, game.hand_size(c.player))
        slot.counters[FUSED] = min(CAP, sum(len(f.cards) for f in game.fused[i]))
        flags = 0
        if not game.standing(i):
            flags |= F_OUT
        elif c.player == game.player and not over:
            flags |= F_ACTIVE if i in left else F_ACTIVE | F_ACTED
        elif c.player in game.played:
            flags |= F_ACTED  # that player's turn this round is over
        if game.fused[i]:
            flags |= mark_bit(HAS_FUSED)
        if game.statuses[i]:
            flags |= mark_bit(HAS_STATUS)
        if i == acting:
            for action, m in (("fuse", FUSE_DONE), ("move", MOVE_DONE), ("act", ACT_DONE)):
                if action in game.done:
                    flags |= mark_bit(m)
            slot.actions = len(ACTIONS) - len(game.done)
        else:
            slot.actions = len(ACTIONS) if i in left else 0
        slot.flags = flags
    # The initiative page's order: the characters of the round's players in turn order
    # (each player's in the file's order), the incapacitated after them, out of play.
    players = round_order(game)
    slotted = range(st.count)
    first = [i for p in players for i in game.chars_of(p) if game.standing(i) and i in slotted]
    rest = [i for i in slotted if i not in first]
    reasons = [R_SUCCESSES] * len(first) + [R_OUT] * len(rest)
    roster.set_order(st, first + rest, reasons)
    # The turn: the first position of the player's characters (the unit's first slot); a
    # player with none on the board leaves it at the first.
    own = [i for i in game.chars_of(game.player) if i in slotted]
    standing = [i for i in own if game.standing(i)]
    turn = (standing or own or [(first + rest)[0]])[0]
    st.turn = (first + rest).index(turn)
    st.phase = PHASE_END if game.end_step else PHASE_ACT
    for t in range(2):
        st.scores[t] = sum(
            game.stats[i]["damage_dealt"] for i, c in enumerate(game.enc.characters) if c.team == t
        )
    st.touch()
