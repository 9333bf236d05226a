"""pf2 on the board: its descriptor (shared/descriptor.py) and the game projected onto the
generic device state after every action, within the board's fixed capacities
(shared/limits.py: 4 counters, 5 marks a slot).

- the turn unit: UNIT_KEY, each entry of the initiative order its own key, so a group of
  identical creatures takes its turn together;
- health bar: HP (temporary hit points are not on it: the screens show them);
- the allowance: the actions left of those the creature regained this turn [3][4]: three
  pips, fewer when slowed or stunned, a fourth when quickened (actions_max);
- counters: dying (0), wounded (1), the multiple attack penalty's step of the creature
  taking its turn (2: 0, then 1 for -5/-4, 2 for -10/-8) [6], and (3) the value of the
  creature's first condition with a value by priority: stunned, slowed, frightened,
  sickened, drained, enfeebled, clumsy, stupefied, doomed (the screens name them all);
- marks: reaction used (0), persistent damage (1), delaying (2), prone (3), any other
  condition without a value (4: off-guard, grabbed ...); F_OUT: dead or gone;
- the order: the initiative order, entry by entry, the dead and gone in their places
  (out of play), then the creatures that Delay (delay.py says why there);
- scores: the foes each team has down;
- slots: a creature each, in the order they came (a group's members one after another),
  while the board has slots (host/core/kit.py `fill_slots`); the rest play on the screens
  only (`off_board`). While an entry with no slot has the turn, the turn the state shows
  stays the last one that had a slot;
- the roll key: a d20 (plain dice, KIND_DN), its natural 20 and 1 marked (NATURALS);
- the last roll: the action's last roll, or, when the action judged a check [7], that
  check's d20 with its degree of success (`Game.dice.degree` + 1 as the state's
  `roll.degree`: the dice page shows each of the four in its own colour and blink,
  docs/board.md), rolled by whoever rolled last.

- the turn's details (GameState.detail): every condition of the creature taking its
  turn, those with a value first (VALUED's order, each in its COLOURS colour with its
  value), then those without one as white marks (value 0), the first 10 [19]; the
  counters page draws them on the turn's column (docs/board.md).

What does not fit (docs/rulesets/pf2.md, "On the board"): each condition of every slot on
counters and marks of its own (12 counters and some 17 marks a slot).
"""

from __future__ import annotations

from firmware import palette as pal
from host.core import kit
from host.rulesets.pf2.encounter_schema import MARKED, VALUED
from host.rulesets.pf2.engine import Fighter, Game
from shared import dice
from shared.descriptor_pack import counter, mark
from shared.limits import MAX_ACTIONS, MAX_COUNTER, MAX_HEALTH
from shared.state import F_ACTIVE, F_OUT, GameState, mark_bit

DYING, WOUNDED, ATTACK_STEP, VALUE = range(4)
REACTED, PERSISTENT, DELAYING, PRONE, OTHER = range(5)
# Each valued condition's colour on the board's detail rows (VALUED's order): stunned red,
# slowed amber, frightened reddish purple (palette 3), sickened bluish green, drained grey
# blue, enfeebled vermillion, clumsy yellow (palette 4), stupefied sky blue, doomed blue
# (palette 1); the conditions without a value are white marks.
COLOURS = bytes(
    (pal.WARN, pal.COOLDOWN, 3, pal.BLUISH_GREEN, pal.FAIL, pal.VERMILLION, 4, pal.SKY_BLUE, 1)
)
BOARD_ID = 8  # pf2's number on the board (the state's ruleset field)
# The rolls a degree of success is judged on [7] (engine.CODES' purposes): the board shows
# the last of an action's with its degree (GameState.roll.degree: checks' 0..3 plus 1).
JUDGED = ("attack", "save", "recovery", "flat", "reroll")


def descriptor(version: int) -> bytes:
    return kit.creature_descriptor(
        "pf2",
        BOARD_ID,
        version,
        counters=(
            counter("dying", 4, pal.WARN),
            counter("wounded", MAX_COUNTER, pal.VERMILLION),
            counter("MAP", 2, pal.COOLDOWN),
            counter("cond", MAX_COUNTER, pal.SKY_BLUE),
        ),
        marks=(
            mark("reacted", pal.FAIL),
            mark("persist", pal.VERMILLION),
            mark("delay", pal.BLUISH_GREEN),
            mark("prone", pal.WARN),
            mark("cond", pal.WHITE),
        ),
        first_counter=VALUE,
    )


def new_state(game: Game, version: int) -> GameState:
    return kit.board_state(game, descriptor(version), BOARD_ID, _slot)


def _slot(f: Fighter) -> tuple[str, int, int, int, int]:
    return f.label, f.spec.team, 0, 3, min(MAX_HEALTH, f.spec.hp)


def order(game: Game) -> list[list[int]]:
    """The slots by entry: the order's, then the delayed entries'; before initiative, the
    encounter's order, one each."""
    placed = [list(e.members) for e in game.order] + [list(d.entry.members) for d in game.delayed]
    return kit.in_order(game.fighters, placed)


def first_value(values: dict[str, int]) -> int:
    """The value of the first condition with a value, by VALUED's priority."""
    return next((values[n] for n in VALUED if values.get(n)), 0)


def details(f: Fighter | None) -> bytes:
    """The state's `detail` for the creature taking its turn: each condition with a value
    (VALUED's order) in its colour with its value, then each without one (MARKED's order) as
    a white mark (value 0), the first 10 of them; b"\\0" * 10 for none [19]."""
    out = bytearray(10)
    if f is not None:
        valued = [
            c << 4 | min(MAX_COUNTER, f.values[n])
            for n, c in zip(VALUED, COLOURS, strict=True)
            if f.values.get(n)
        ]
        marks = [pal.WHITE << 4 for n in MARKED if n in f.marks]
        for i, v in enumerate((valued + marks)[:10]):
            out[i] = v
    return bytes(out)


def project(game: Game, st: GameState) -> None:
    kit.fill_slots(st, game.fighters, _slot)  # a creature that joined the fight
    st.round = game.round
    st.phase = 0
    active = kit.acting(game)
    for f in game.fighters[: st.count]:  # (those past are off the board)
        slot = st.slots[f.index]
        slot.health = min(MAX_HEALTH, f.hp)
        slot.counters[DYING] = min(4, f.dying)
        slot.counters[WOUNDED] = min(MAX_COUNTER, f.wounded)
        slot.counters[ATTACK_STEP] = min(2, f.attacks) if f.index in active else 0
        slot.counters[VALUE] = min(MAX_COUNTER, first_value(f.values))
        taking = f.index in active and f.in_fight
        slot.actions = min(MAX_ACTIONS, f.actions) if taking else 0
        slot.actions_max = min(MAX_ACTIONS, f.actions_max) if taking else 3
        flags = 0
        if not f.in_fight:
            flags |= F_OUT
        elif f.index in active:
            flags |= F_ACTIVE
        if not f.reaction:
            flags |= mark_bit(REACTED)
        if f.persistent:
            flags |= mark_bit(PERSISTENT)
        if game.is_delayed(f):
            flags |= mark_bit(DELAYING)
        if "prone" in f.marks:
            flags |= mark_bit(PRONE)
        if any(m in f.marks for m in MARKED if m != "prone"):
            flags |= mark_bit(OTHER)
        slot.flags = flags
    kit.place_order(game, st, order(game))
    if not kit.first_active(st, active):
        _last_slotted_turn(game, st)
    st.detail[:] = details(game.fighters[st.active] if st.active in active else None)
    kit.downs_and_roll(game, st)
    judged = [r for r in game.dice.records if r[0] in JUDGED]
    last, degree = game.dice.last, game.dice.degree
    if last is not None and degree >= 0 and judged:  # the check judged, not the damage after
        kit.show_roll(st, dice.KIND_DN, tuple(judged[-1][1]), last[3], (20,), 0, degree + 1)
        st.touch()


def _slotted(game: Game, st: GameState) -> list[list[int]]:
    """`order`'s units with a board slot, each only its members with one."""
    units = ([i for i in unit if i < st.count] for unit in order(game))
    return [unit for unit in units if unit]


def _last_slotted_turn(game: Game, st: GameState) -> None:
    """While an entry with no board slot has the turn, the turn the state shows stays the
    previous one that had a slot (host/core/kit.py `hold_turn`)."""
    e = game.entry()
    if e is None or game.over is not None or any(i < st.count for i in e.members):
        return
    units = [e.members for e in game.order]
    kit.hold_turn(st, units, game.at, game.round, lambda i: game.fighters[i].in_fight)


def position(game: Game, index: int) -> int:
    """The board position of a creature's slot in the order (the effect clock's)."""
    flat = [i for unit in _slotted(game, game.state) for i in unit]
    return flat.index(index) if index in flat else 0
