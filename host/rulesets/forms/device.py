"""Forms on the board: its descriptors and the game projected onto the generic device state.

- The turn unit is UNIT_STEP (docs/state-codec.md, "Turn units"): every unit's turn in a
  round happens at once. In combat the steps are the eight combat steps ("1aware" ..
  "8move"); a social round is one step ("social"). The two are two descriptors, the one of
  the round being played (the host describes the game again when it changes): combat's
  from `fight` on, and for a sprung trap's combat round (its step 5, the Dodge roll).
- Every standing unit is active (F_ACTIVE); those with nothing left to do in the step (or
  no part in it) are F_ACTED too, so the active units without F_ACTED are those still to
  act. In combat: the step's units still to act (Engine.to_act). In a social round: before
  any check is entered everyone (an Active Form, a check); then the units with a check
  waiting (a sprung trap: its unit, for its Dodge roll); once every check is made, nobody.
  The turn position is the first standing unit's, as shared.turns keeps it.
- The slot order is the movement order (Agility low to high, then the Agility roll), with
  the reason for each position (order_reason: 0 the roll's top die, 1 Agility alone, 2
  rerolls, 3 down).
- Counters: "check", the attribute number (1 Vitality .. 8 Genius) of the unit's next
  social check; "top", its Agility roll's top die; "dmg", damage waiting for step 7. The
  first and the last clear as a round ends (C_ROUND_CLEAR), as the host's do.
- Marks: aware, and moved, slow, fast, "form" (any other Form declared this round), which
  clear as a round ends (M_ROUND_CLEAR).
- The last roll is the last check's dice (D10), its successes and whose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware import palette as pal
from host.core import kit
from shared import dice, roster
from shared.descriptor_pack import (
    C_ROUND_CLEAR,
    M_ROUND_CLEAR,
    UNIT_STEP,
    counter,
    encoded,
    mark,
    pack,
)
from shared.limits import NO_SLOT
from shared.state import F_ACTED, F_ACTIVE, F_OUT, GameState, mark_bit

if TYPE_CHECKING:
    from host.rulesets.forms.encounter_schema import UnitSpec
    from host.rulesets.forms.engine import Game

CHECK, TOP, DMG = 0, 1, 2
AWARE, MOVED, SLOW, FAST, FORM = 0, 1, 2, 3, 4
STEP_PHASES: tuple[str, ...] = ("1aware", "2move", "3slow", "4fast", "5attack", "6aim")
STEP_PHASES += ("7damage", "8move")
SOCIAL_PHASES: tuple[str, ...] = ("social",)
LAST_STEP = 7  # the phase a game that ends in combat shows: step 7, where combat completes
TOP_CAP = 10
DMG_CAP = 15


# Forms's number on the board (the state's ruleset field); its Ruleset declares
# this one (the registry refuses a number two rulesets declare).
BOARD_ID = 3


def success_mask(success: int) -> int:
    """The D10 faces at or above `success`, as the descriptor's bits (bit i: face i + 1)."""
    return sum(1 << (face - 1) for face in range(success, 11))


def descriptor(
    success: int = 6, dice_count: int = 3, version: int = 0, combat: bool = True
) -> bytes:
    """Forms' descriptor for a combat round (its eight steps) or a social round (one)."""
    return pack(
        "forms",
        BOARD_ID,
        version,
        health="hp",
        allowance="acts",
        counters=(
            counter("check", 8, pal.SKY_BLUE, C_ROUND_CLEAR),
            counter("top", TOP_CAP, pal.WHITE),
            counter("dmg", DMG_CAP, pal.VERMILLION, C_ROUND_CLEAR),
        ),
        marks=(
            mark("aware", pal.SUCCESS),
            mark("moved", pal.BLUISH_GREEN, M_ROUND_CLEAR),
            mark("slow", pal.COOLDOWN, M_ROUND_CLEAR),
            mark("fast", pal.SKY_BLUE, M_ROUND_CLEAR),
            mark("form", pal.WHITE, M_ROUND_CLEAR),
        ),
        phases=STEP_PHASES if combat else SOCIAL_PHASES,
        # Every unit at once, step by step; no allowance to refill, no cooldown phase.
        flags=UNIT_STEP,
        dice_kind=dice.KIND_D10,
        success_mask=success_mask(success),
        dice_count=max(1, dice_count),
        first_counter=CHECK,
    )


def in_combat(game: Game) -> bool:
    """Whether the board shows a combat round's steps (else a social round's one step): in
    combat, in a sprung trap's combat round (its step 5), and once the game is over if it
    ended in combat."""
    if game.mode == "over":
        return game.encounters[-1]["kind"] == "combat"
    return game.mode == "combat" or game.combined is not None


def _describe(game: Game, st: GameState) -> None:
    """Give the state the descriptor of the round being played (only if it changes)."""
    enc = game.encounter
    data = descriptor(enc.rules.success, enc.most_dice, combat=in_combat(game))
    if encoded(st.rules) != data:
        st.rules.load(data, 0, len(data))
        st.phase_count = st.rules.phases


def _slot(u: UnitSpec) -> tuple[str, int, int, int, int]:
    """A unit's slot: its label, side, Agility (its order key) and health."""
    return u.label, u.side, u.score("Agility"), 0, u.health


def new_state(game: Game) -> GameState:
    enc = game.encounter
    st = GameState()
    st.ruleset = BOARD_ID
    st.team_count = len(enc.teams)
    _describe(game, st)
    kit.fill_slots(st, enc.units, _slot)
    return st


def to_act(game: Game) -> set[int]:
    """The units still to act in the step (combat) or the social round, as the board shows
    them: the active units without F_ACTED."""
    standing = {i for i, u in enumerate(game.units) if not u.down and not u.arriving}
    if game.mode == "combat":
        return set(game.to_act())
    if game.mode != "social":
        return set()
    if game.combined is not None:
        return {game.combined[0]} & standing
    if game.checks:
        return {c.unit for c in game.checks} & standing
    return set() if game.checks_made else standing


def project(game: Game, st: GameState) -> None:
    """Keep the board's state in step with the game (after every action)."""
    from host.rulesets.forms.encounter_schema import ATTRIBUTES

    _describe(game, st)
    kit.fill_slots(st, [u.spec for u in game.units], _slot)  # joined under way (`add`)
    waiting = to_act(game)
    next_check: dict[int, int] = {}
    for c in game.checks:
        next_check.setdefault(c.unit, ATTRIBUTES.index(c.attribute) + 1)
    st.round = game.round
    for i, u in enumerate(game.units[: st.count]):  # (those past are off the board)
        slot = st.slots[i]
        slot.health = max(0, u.health)
        slot.counters[CHECK] = next_check.get(i, 0)
        slot.counters[TOP] = min(TOP_CAP, u.chain[0]) if u.chain else 0
        pending = sum(
            max(0, game.units[a.attacker].spec.damage + a.aim - a.block)
            for a in game.attacks
            if a.target == i and a.hit
        )
        slot.counters[DMG] = min(DMG_CAP, pending if game.step in (5, 6) else 0)
        if u.down:
            flags = F_OUT
        elif u.arriving:
            flags = F_ACTED  # it takes part from the next round
        else:
            flags = F_ACTIVE if i in waiting else F_ACTIVE | F_ACTED
        if u.aware:
            flags |= mark_bit(AWARE)
        if u.moved_at:
            flags |= mark_bit(MOVED)
        if u.form == "Slow":
            flags |= mark_bit(SLOW)
        elif u.form == "Fast":
            flags |= mark_bit(FAST)
        elif u.form:
            flags |= mark_bit(FORM)
        slot.flags = flags
    order = [i for i in game.order if i < st.count]
    reasons = [game.order_reason(i)[0] for i in order]
    roster.set_order(st, order, reasons)
    if game.mode == "combat":
        st.phase = game.step - 1
    elif game.combined is not None:
        st.phase = 4  # the sprung trap's Dodge roll: step 5
    elif game.mode == "over" and in_combat(game):
        st.phase = LAST_STEP - 1
    else:
        st.phase = 0  # the social round's one step
    # The step's unit starts at the first standing unit (shared.turns.start_round's).
    standing = [pos for pos, i in enumerate(order) if not game.units[i].down]
    st.turn = standing[0] if standing else 0
    for t in range(len(game.encounter.teams)):
        st.scores[t] = sum(u.dealt for u in game.units if u.spec.side == t)
    roll = st.roll
    if game.last:
        last = game.last[0]
        faces = last.faces[: len(roll.faces)]
        roll.clear()
        roll.kind = dice.KIND_D10 if faces else 0
        roll.count = len(faces)
        for k, face in enumerate(faces):
            roll.faces[k] = face
        roll.successes = min(15, last.successes)
        roll.who = last.who if last.who < st.count else NO_SLOT  # (one off the board)
    else:
        roll.clear()
    st.touch()
