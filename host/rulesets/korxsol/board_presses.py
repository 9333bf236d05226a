"""How a board press becomes korxsol actions while tethered (docs/commands.md, "Board presses
while tethered"): next turn is `initiative` then `end`, next phase is `phase`, a counter
key on frost, burn or fear is an `adjust` (on terrain it is refused: the game master says
where a fighter stands, with `terrain` on the laptop), the board's rolls wait for the
engine's next rolls, undo is `undo`; end combat and reset are the game master's, on the
laptop. (What the board shows of korxsol, and its counter indexes, is
host/rulesets/korxsol/device.py.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from host.core.interface import IllegalAction
from host.rulesets.korxsol.device import BURN, FEAR, FROST, TERRAIN
from shared import dice
from shared import events as ev
from shared.host_only import d100_value
from shared.limits import NO_SLOT
from shared.words import EVENT_NAMES, KIND_NAMES

if TYPE_CHECKING:
    from host.core.interface import SessionAPI

# The board's counters (their index in the descriptor) as `adjust` names them.
COUNTER_WORDS = {FROST: "frost", BURN: "burn", FEAR: "fear"}
COUNTER_KEYS = {ev.COUNTER_UP: 1, ev.COUNTER_DOWN: -1}


def board_action(session: SessionAPI, record: bytes) -> list[str]:
    """One board event (a shared.events record) through the session; raises IllegalAction
    when the rules refuse it."""
    code = record[0]
    game = session.game
    if code == ev.NEXT_TURN:
        return session.execute("end" if game.started else "initiative")
    if code == ev.NEXT_PHASE:
        if not game.started:
            raise IllegalAction("no turn is running: press next turn to roll initiative")
        # As on the board: the Action Phase ends (korxsol's last phase: the turn ends).
        return session.execute("phase")
    if code in COUNTER_KEYS:
        if record[2] == TERRAIN:
            raise IllegalAction(
                "terrain is the game master's: say `terrain NAME KIND` on the laptop"
            )
        what = COUNTER_WORDS.get(record[2])
        if what is None:
            raise IllegalAction(f"korxsol has no counter {record[2]}")
        name = _fighter_name(session, record[1])
        return session.execute(f'adjust "{name}" {what} {COUNTER_KEYS[code]:+d}')
    if code in (ev.ROLL_ACTION, ev.CHANCE, ev.D100):
        return _board_roll(session, record)
    if code in (ev.END_COMBAT, ev.RESET):
        raise IllegalAction(
            f"{EVENT_NAMES[code]} is the game master's call while tethered: use the laptop"
        )
    raise IllegalAction(f"unknown board event {code}")


def _board_roll(session: SessionAPI, record: bytes) -> list[str]:
    code = record[0]
    faces = tuple(record[ev.EVENT_HEADER : ev.EVENT_HEADER + record[3]])
    if code == ev.D100:
        # korxsol rolls no d100; the board's roll is shown and journalled, nothing waits.
        dice.check_faces(dice.KIND_D100, faces)
        session.note_roll("d100", faces, "board")
        return [f"d100 roll: {d100_value(faces[0], faces[1])}"]
    if code == ev.CHANCE:
        return session.queue_roll("chance", faces, "board")
    kind = record[2]
    roller = session.game.roller
    if kind == dice.KIND_ACTION_D6 and roller.kind == dice.KIND_ACTION_D3:
        faces = tuple(dice.d6_as_d3(f) for f in faces)
    elif kind != roller.kind:
        # The board rolls the dice of the descriptor it holds: one from another game (its
        # journal replayed after a relink) can differ from this encounter's.
        raise IllegalAction(
            f"the board rolled {KIND_NAMES[kind].upper()} action dice;"
            f" this encounter rolls {KIND_NAMES[roller.kind].upper()}"
        )
    return session.queue_roll("next", faces, "board")


def _fighter_name(session: SessionAPI, slot: int) -> str:
    game = session.game
    if slot == NO_SLOT:
        active = game.active
        if active is None:
            raise IllegalAction("select a character first: no turn is running")
        return active.spec.name
    if slot >= len(game.fighters):
        raise IllegalAction(f"slot {slot} is not in this encounter")
    return game.fighters[slot].spec.name
