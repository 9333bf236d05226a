"""Forms on the board: its descriptor and the game projected onto the generic device state.

- The phases are the eight combat steps ("1aware" .. "8move"), then "form" and "check" for a
  social round: the board shows the step.
- The slot order is the movement order (Agility low to high, then the Agility roll), with
  the reason for each position (order_reason: 0 the roll's top die, 1 Agility alone, 2
  rerolls, 3 down).
- The turn is the unit the next-turn key acts for (the first still to act in the step, or
  whose check comes next); F_ACTED marks every unit with nothing left to do in the step,
  so the units without it are those still to act.
- Counters: "check", the attribute number (1 Vitality .. 8 Genius) of the unit's next
  social check; "top", its Agility roll's top die; "dmg", damage waiting for step 7.
- Marks: aware, moved, slow, fast, and "form" for any other Form declared this round.
- The last roll is the last check's dice (D10), its successes and whose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware import palette as pal
from shared import dice, roster
from shared.descriptor_pack import counter, mark, pack
from shared.state import F_ACTED, F_ACTIVE, F_OUT, GameState, mark_bit

if TYPE_CHECKING:
    from host.forms.engine import Game

BOARD_ID = 3  # forms' id in the state's ruleset field (korxsol 1, the tests' tiny 2)
CHECK, TOP, DMG = 0, 1, 2
AWARE, MOVED, SLOW, FAST, FORM = 0, 1, 2, 3, 4
PHASES: tuple[str, ...] = ("1aware", "2move", "3slow", "4fast", "5attack", "6aim", "7damage")
PHASES += ("8move", "form", "check")
PHASE_FORM, PHASE_CHECK = 8, 9
TOP_CAP = 10
DMG_CAP = 15


def success_mask(success: int) -> int:
    """The D10 faces at or above `success`, as the descriptor's bits (bit i: face i + 1)."""
    return sum(1 << (face - 1) for face in range(success, 11))


def descriptor(success: int = 6, dice_count: int = 3, version: int = 0) -> bytes:
    return pack(
        "forms",
        BOARD_ID,
        version,
        health="hp",
        allowance="acts",
        counters=(
            counter("check", 8, pal.SKY_BLUE),
            counter("top", TOP_CAP, pal.WHITE),
            counter("dmg", DMG_CAP, pal.VERMILLION),
        ),
        marks=(
            mark("aware", pal.SUCCESS),
            mark("moved", pal.BLUISH_GREEN),
            mark("slow", pal.COOLDOWN),
            mark("fast", pal.SKY_BLUE),
            mark("form", pal.WHITE),
        ),
        phases=PHASES,
        flags=0,  # no allowance to refill, no cooldown phase: a step is not a turn
        dice_kind=dice.KIND_D10,
        success_mask=success_mask(success),
        dice_count=max(1, dice_count),
        first_counter=CHECK,
    )


def new_state(game: Game) -> GameState:
    enc = game.encounter
    st = GameState()
    data = descriptor(enc.rules.success, enc.most_dice)
    st.rules.load(data, 0, len(data))
    st.ruleset = BOARD_ID
    st.phase_count = len(PHASES)
    st.team_count = len(enc.teams)
    for u in enc.units:
        roster.add_slot(st, u.label, u.side, u.score("Agility"), 0, u.health)
    return st


def project(game: Game, st: GameState) -> None:
    """Keep the board's state in step with the game (after every action)."""
    from host.forms.model import ATTRIBUTES

    waiting = set(game.to_act())
    active = game.active()
    next_check: dict[int, int] = {}
    for c in game.checks:
        next_check.setdefault(c.unit, ATTRIBUTES.index(c.attribute) + 1)
    st.round = game.round
    for i, u in enumerate(game.units):
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
        flags = 0
        if u.down:
            flags |= F_OUT
        if i == active:
            flags |= F_ACTIVE
        elif game.mode == "combat" and i not in waiting:
            flags |= F_ACTED
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
    reasons = [game.order_reason(i)[0] for i in game.order]
    roster.set_order(st, game.order, reasons)
    if game.mode == "combat":
        st.phase = game.step - 1
    elif game.combined is not None:
        st.phase = 4  # the sprung trap's Dodge roll: step 5
    else:
        st.phase = PHASE_CHECK if game.checks_made else PHASE_FORM
    st.turn = game.order.index(active) if active is not None else 0
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
        roll.who = last.who
    else:
        roll.clear()
    st.touch()
