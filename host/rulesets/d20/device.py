"""d20 on the board: its descriptor (shared/descriptor.py) and the game projected onto the
generic device state after every action.

- the turn unit: UNIT_KEY, the consecutive positions that share an order key: each entry
  of the initiative order has its own key, so a group of identical creatures takes its
  turn together; on the lair's count 20 its owner's slot is lit, and the turn the state
  shows stays the last creature's (no creature's turn starts or ends on it);
- health bar: HP (temporary hit points are not on it: the screens show them);
- counters: conditions (1 each, exhaustion's level counted as one) (0), death save
  successes (1) and failures (2), legendary actions left (3);
- marks: concentrating (0), prone (1), incapacitated (2), reaction used (3), surprised (4);
  F_OUT: dead or fled;
- the allowance: the action and the bonus action left this turn;
- the order: the initiative order, entry by entry, the dead and fled in their places, out
  of play (before initiative, the encounter's order);
- scores: the foes each team has down;
- slots: a creature each, in the order they came (a group's members one after another),
  while the board has slots (host/core/kit.py `fill_slots`); the rest play on the screens
  only (`off_board`). While an entry with no slot has the turn, the turn the state shows
  stays the last one that had a slot, as on the lair's count;
- the roll key: a d20 (plain dice, KIND_DN), its natural 20 and 1 marked (NATURALS); a
  roll an action waits for is exactly the dice it wants (two d20s with advantage, 2d6 and
  a d8 of damage), each die with its own faces; the last roll shows them the same way.
"""

from __future__ import annotations

from firmware import palette as pal
from host.core import kit
from host.rulesets.d20 import conditions
from host.rulesets.d20.engine import Fighter, Game
from shared.descriptor_pack import counter, mark
from shared.limits import MAX_COUNTER, MAX_HEALTH
from shared.state import F_ACTED, F_ACTIVE, F_OUT, GameState, mark_bit

CONDITIONS, SUCCESSES, FAILURES, LEGENDARY = range(4)
CONCENTRATING, PRONE, INCAPACITATED, REACTED, SURPRISED = range(5)

# d20's number on the board (the state's ruleset field); its Ruleset declares this one.
BOARD_ID = 7


def descriptor(version: int) -> bytes:
    return kit.creature_descriptor(
        "d20",
        BOARD_ID,
        version,
        counters=(
            counter("conds", MAX_COUNTER, pal.VERMILLION),
            counter("saves+", 3, pal.SUCCESS),
            counter("saves-", 3, pal.FAIL),
            counter("legend", MAX_COUNTER, pal.COOLDOWN),
        ),
        marks=(
            mark("conc", pal.SKY_BLUE),
            mark("prone", pal.WARN),
            mark("incap", pal.WHITE),
            mark("reacted", pal.FAIL),
            mark("surprise", pal.BLUISH_GREEN),
        ),
        first_counter=CONDITIONS,
    )


def new_state(game: Game, version: int) -> GameState:
    return kit.board_state(game, descriptor(version), BOARD_ID, _slot)


def _slot(f: Fighter) -> tuple[str, int, int, int, int]:
    return f.label, f.spec.team, 0, 2, min(MAX_HEALTH, f.spec.hp)


def order(game: Game) -> list[list[int]]:
    """The slots by entry, in the order (a lair's entry is none), the dead and the fled in
    their places (out of play: the order still passes them, so an effect that waits for a
    dead creature's turn ends as that turn would have come); before initiative, the
    encounter's order, one each."""
    return kit.in_order(game.fighters, [list(e.members) for e in game.order if e.members])


def project(game: Game, st: GameState) -> None:
    kit.fill_slots(st, game.fighters, _slot)  # a creature that joined the fight
    st.round = game.round
    st.phase = 0
    e = game.entry()
    active = kit.acting(game)
    if e is not None and e.lair_of >= 0 and game.over is None:
        active = {e.lair_of}
    for f in game.fighters[: st.count]:  # (those past are off the board)
        slot = st.slots[f.index]
        slot.health = min(MAX_HEALTH, f.hp)
        names = conditions.on(game, f.index)
        slot.counters[CONDITIONS] = min(MAX_COUNTER, len(names))
        slot.counters[SUCCESSES] = f.successes
        slot.counters[FAILURES] = min(3, f.failures)
        slot.counters[LEGENDARY] = min(MAX_COUNTER, f.legendary_left)
        slot.actions = int(f.action) + int(f.bonus) if f.in_fight and f.hp else 0
        slot.actions_max = 2
        flags = 0
        if not f.in_fight:
            flags |= F_OUT
        elif f.index in active:
            flags |= F_ACTIVE | (F_ACTED if game.legendary_now else 0)
        if f.concentration:
            flags |= mark_bit(CONCENTRATING)
        if "prone" in names:
            flags |= mark_bit(PRONE)
        if conditions.incapacitated(game, f.index):
            flags |= mark_bit(INCAPACITATED)
        if not f.reaction:
            flags |= mark_bit(REACTED)
        if f.surprised:
            flags |= mark_bit(SURPRISED)
        slot.flags = flags
    kit.place_order(game, st, order(game))
    kit.first_active(st, active)
    if e is not None and game.over is None and (e.lair_of >= 0 or not _slotted(e.members, st)):
        _lair_count(game, st)
    kit.downs_and_roll(game, st)  # each die's faces: 20, 20; or 6, 6, 8


def _slotted(members: list[int], st: GameState) -> bool:
    return any(i < st.count for i in members)


def _lair_count(game: Game, st: GameState) -> None:
    """On a lair's count 20 no creature takes a turn: the turn the board's state shows (and
    the host's effect clock reads, host/core/effect_clock.py) stays the one before it, the
    previous entry that took a turn (in round 0 before the first), so what ends as a turn
    starts or ends waits for the next creature's turn. Its owner's slot is lit. So too on
    the turn of an entry with no board slot: the board's order has no place for it."""
    units = [e.members for e in game.order]
    kit.hold_turn(st, units, game.at, game.round, lambda i: game.fighters[i].in_fight)
