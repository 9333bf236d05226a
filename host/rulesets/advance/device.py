"""Advance on the board: its descriptor (shared/descriptor.py) and the game projected onto the
generic device state after every action.

- the turn unit: UNIT_STEP (docs/state-codec.md, "Turn units"): a round is one turn of every
  character in the fight at once, in the steps A to E, the descriptor's phases. Once the
  round has begun every character in the fight is active (F_ACTIVE); the ones who may act
  now are those without F_ACTED: in B the Advance adventurers who have not acted, in C the
  enemies, in D the Late adventurers, in E those whose extra actions come now; while a hit
  waits for its answer, or a Death check is owed, only the one who must answer. Nobody in
  A (the Initiative checks are the game master's `next`);
- health bar: Stamina;
- counters: Willpower (0), damaged body parts (1), extra actions left this round (2);
- marks: Advance (0), Late (1), Full Power (2), Helpless (3), a Cooperative Attack's support
  waiting on the slot (4); F_OUT: dead or fled;
- the allowance: the actions the character has left this round (its action, then extras):
  0 is who has acted this round;
- the order: Advance adventurers, enemies, Late adventurers (B, C, D), out of the fight last;
  the turn position is the first in the fight (the step's unit starts there);
- scores: the foes each side has put down (dead, fled or Helpless);
- the roll key rolls one D6 (the Death check); two D6 are a check. The descriptor has no
  plain D6, so its dice are "D6 read as D3" with no success faces: the faces are the D6's.
"""

from __future__ import annotations

from firmware import palette as pal
from host.core import kit
from host.rulesets.advance.engine import STEPS, Death, Fighter, Game, Hit
from shared import dice
from shared.descriptor_pack import UNIT_STEP, counter, mark, pack
from shared.initiative import R_OUT, R_SUCCESSES
from shared.limits import MAX_ACTIONS
from shared.state import F_ACTED, F_ACTIVE, F_OUT, GameState, mark_bit

WILLPOWER = 0
PARTS = 1
EXTRA = 2
ADVANCE, LATE, FULL_POWER, HELPLESS, SUPPORTED = range(5)
F_ADVANCE = mark_bit(ADVANCE)
F_LATE = mark_bit(LATE)
F_FULL_POWER = mark_bit(FULL_POWER)
F_HELPLESS = mark_bit(HELPLESS)
F_SUPPORTED = mark_bit(SUPPORTED)
PHASE_NAMES = ("A init", "B advnce", "C enemy", "D late", "E extra")


# Advance's number on the board (the state's ruleset field); its Ruleset declares
# this one (the registry refuses a number two rulesets declare).
BOARD_ID = 5


def descriptor(parts: int, version: int) -> bytes:
    return pack(
        "advance",
        BOARD_ID,
        version,
        health="Stamina",
        allowance="actions",
        counters=(
            counter("will", 15, pal.SKY_BLUE),
            counter("parts", max(1, parts), pal.VERMILLION),
            counter("extra", MAX_ACTIONS, pal.COOLDOWN),
        ),
        marks=(
            mark("advance", pal.SUCCESS),
            mark("late", pal.FAIL),
            mark("fullpwr", pal.WARN),
            mark("helpless", pal.WHITE),
            mark("support", pal.BLUISH_GREEN),
        ),
        phases=PHASE_NAMES,
        # Every character at once, step by step; the host runs every turn rule: nothing
        # refills or ticks on the board.
        flags=UNIT_STEP,
        dice_kind=dice.KIND_ACTION_D6,
        success_mask=0,
        dice_count=1,
        first_counter=WILLPOWER,
    )


def _slot(f: Fighter) -> tuple[str, int, int, int, int]:
    return f.spec.label, f.spec.side, 0, 1, f.spec.stamina


def new_state(game: Game, version: int) -> GameState:
    st = GameState()
    data = descriptor(len(game.encounter.parts), version)
    st.rules.load(data, 0, len(data))
    st.ruleset = BOARD_ID
    st.phase_count = len(STEPS)
    kit.fill_slots(st, game.fighters, _slot)
    return st


def project(game: Game, st: GameState) -> None:
    st.round = game.round if game.started else 0
    st.phase = game.step
    kit.fill_slots(st, game.fighters, _slot)  # joined under way (`add`)
    acting = to_act(game)
    on_board = game.fighters[: st.count]  # (those past are off the board)
    for f in on_board:
        slot = st.slots[f.index]
        slot.health = f.stamina
        slot.counters[WILLPOWER] = f.willpower
        slot.counters[PARTS] = len(f.damaged)
        slot.counters[EXTRA] = min(MAX_ACTIONS, f.extra)
        left = min(MAX_ACTIONS, (0 if f.done else 1) + f.extra) if f.in_combat else 0
        slot.actions = left if f.in_combat and not f.helpless else 0
        slot.actions_max = max(1, slot.actions)
        flags = 0
        if not f.in_combat:
            flags |= F_OUT
        elif st.round:
            flags |= F_ACTIVE if f.index in acting else F_ACTIVE | F_ACTED
        if f.advance is True:
            flags |= F_ADVANCE
        elif f.advance is False:
            flags |= F_LATE
        if f.full_power:
            flags |= F_FULL_POWER
        if f.helpless:
            flags |= F_HELPLESS
        if f.supports:
            flags |= F_SUPPORTED
        slot.flags = flags
    order = sorted(on_board, key=lambda f: (not f.in_combat, _place(f), f.index))
    for pos, f in enumerate(order):
        st.order[pos] = f.index
        st.order_reason[pos] = R_SUCCESSES if f.in_combat else R_OUT
    st.turn = 0  # the first in the fight: out of it is last
    from host.rulesets.advance.verbs import downs

    st.scores[0] = downs(game, 0)
    st.scores[1] = downs(game, 1)
    last = game.dice.last
    if last is not None:
        purpose, faces, _, who = last
        passed = 1 if purpose != "d6" and game.last_ok else 0
        kit.show_roll(st, dice.KIND_ACTION_D6, faces, who, successes=passed)
    st.touch()


def _place(f) -> int:
    if f.enemy:
        return 1
    return 2 if f.advance is False else 0


def to_act(game: Game) -> set[int]:
    """Who may act now: the one who must answer a hit or owes a Death check, else those
    whose action (or extra action in E) comes in this step; nobody once the fight is
    over."""
    p = game.pending
    if game.over is not None:
        return set()
    if isinstance(p, Hit):
        return {p.target}
    if isinstance(p, Death):
        return {p.who}
    return {f.index for f in game.acting_now()}
