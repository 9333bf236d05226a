"""A game master's korxsol session tethered to a board over the link.

The board speaks in the shared engine's events (shared/events.py); the desktop speaks the
korxsol command language. This module is the translation between the two, and nothing
else: the link (host/bridge.BoardLink) owns the port, the thread and the protocol.

- A board press arrives on the link's thread and becomes a session action (`end`,
  `initiative`, `adjust ... frost +1`, a board roll waiting in the `next` queue, ...). The
  session journals it before `apply` returns, so the board is acknowledged only after the
  journal has it. A press the full rules refuse is refused on the link too (the board shows
  the error and its state comes back from the host's snapshot).
- With each board event the link's resume point (the board's nonce and the next board
  seq) is saved in the same journal transaction, and a tether made for a resumed session
  starts its link from the saved point: a board event applied just before the laptop was
  killed, and resent because its ack never left, is not applied twice.
- Every change made on the laptop runs through `guard`, under the link's lock, and the
  board gets the new state as a snapshot.

The board's roll keys show their dice at once; the host keeps that last roll on the board
until the engine uses the faces (or makes a roll of its own).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

from host.bridge import BoardLink
from host.journal import Journal
from host.korxsol.rolls import IllegalAction
from host.session import Session
from shared import dice
from shared import events as ev
from shared.limits import NO_SLOT
from shared.state import GameState

FROST_BURN = {
    ev.ADD_FROST: ("frost", 1),
    ev.REMOVE_FROST: ("frost", -1),
    ev.ADD_BURN: ("burn", 1),
    ev.REMOVE_BURN: ("burn", -1),
}


class Tether:
    """Keeps one board showing `session` and turns its presses into korxsol actions."""

    def __init__(self, session: Session, url: str) -> None:
        self.session = session
        self.url = url
        self.lines: deque[str] = deque(maxlen=200)  # what board presses did, for the UI
        self._roll_shown: bytes | None = None
        self._state = GameState()
        self._state.copy_from(session.game.state)
        self.link = BoardLink(url, self._state, applier=self.apply)
        self.lock: threading.RLock = self.link.lock
        journal = session.journal
        if journal is not None:
            point = journal.link_point(session.session_id)
            if point is not None:
                self.link.session.restore(point)

    def start(self, timeout: float = 5.0) -> Tether:
        """Start the link and wait for the board's HELLO (raises bridge.LinkError)."""
        self.link.start()
        try:
            self.link.wait_linked(timeout)
        except Exception:
            self.link.stop()
            raise
        return self

    def stop(self) -> None:
        self.link.stop()

    def __enter__(self) -> Tether:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the laptop's side ----------------------------------------------------------------

    def guard(self, action: Callable[[], list[str]]) -> list[str]:
        """Run a laptop command under the link's lock; the board then gets the new state."""
        with self.lock:
            lines = action()  # a refused command raises and changes nothing
            self._roll_shown = None
            self._sync(self._state)
            self.link.session.state_changed()
            return lines

    def replace_session(self, session: Session) -> None:
        """The next game of the session (`new` in play): the board follows it."""
        self.guard(lambda: self._set_session(session))

    def _set_session(self, session: Session) -> list[str]:
        self.session = session
        return []

    # -- the board's side (called on the link's thread, under its lock) --------------------

    def apply(self, state: GameState, record: bytes) -> bool:
        """The link's applier: one board event through the full rules. Raises ValueError
        (IllegalAction or EventError), changing nothing, when the rules refuse it. The
        event's journal rows and the link's resume point commit together."""
        journal = self.session.journal
        point = self.link.session.resume_point()  # already past this event
        if journal is None or point is None:
            lines = self._translate(record)
        else:
            try:
                with journal.transaction():
                    lines = self._translate(record)
                    self._save_point(journal, point)
            except Exception:
                # Refused: nothing journalled, but the link has handled the event (the
                # board hears E_REJECTED): a resumed link must not offer it again.
                self._save_point(journal, point)
                raise
        self.lines.extend("board: " + line for line in lines)
        self._sync(state)
        return True

    def _save_point(self, journal: Journal, point: tuple[int, int]) -> None:
        journal.save_link_point(self.session.session_id, self.session.game_id, point)

    def _translate(self, record: bytes) -> list[str]:
        code = record[0]
        game = self.session.game
        if code == ev.SELECT:
            return []
        if code == ev.NEXT_TURN:
            return self.session.execute("end" if game.started else "initiative")
        if code == ev.NEXT_PHASE:
            if not game.started:
                raise IllegalAction("no turn is running: press next turn to roll initiative")
            # korxsol's Cooldown Phase runs as the turn ends.
            return self.session.execute("end")
        if code in FROST_BURN:
            what, sign = FROST_BURN[code]
            name = self._fighter_name(record[1])
            stacks = (record[2] or 1) * sign
            return self.session.execute(f'adjust "{name}" {what} {stacks:+d}')
        if code in (ev.ROLL_ACTION, ev.CHANCE, ev.D100):
            return self._board_roll(record)
        if code == ev.UNDO:
            return self.session.undo(1)
        if code in (ev.END_COMBAT, ev.RESET):
            raise IllegalAction(
                f"{ev.NAMES[code]} is the game master's call while tethered: use the laptop"
            )
        raise IllegalAction(f"unknown board event {code}")

    def _board_roll(self, record: bytes) -> list[str]:
        code = record[0]
        faces = tuple(record[ev.EVENT_HEADER : ev.EVENT_HEADER + record[3]])
        lines: list[str]
        if code == ev.D100:
            # korxsol rolls no d100; the board's roll is shown and journalled, nothing waits.
            dice.check_faces(dice.KIND_D100, faces)
            self.session.note_roll("d100", faces, "board")
            lines = [f"d100 roll: {dice.d100_value(faces[0], faces[1])}"]
        elif code == ev.CHANCE:
            lines = self.session.queue_roll("chance", faces, "board")
        else:
            kind = record[2]
            if kind == dice.KIND_ACTION_D6 and self.session.game.roller.kind == dice.KIND_ACTION_D3:
                faces = tuple(dice.d6_as_d3(f) for f in faces)
            elif kind != self.session.game.roller.kind:
                raise IllegalAction(
                    "this encounter rolls D6 action dice: set the board's dice to D6"
                )
            lines = self.session.queue_roll("next", faces, "board")
        self._roll_shown = bytes(record)
        return lines

    # -- keeping the board's state ----------------------------------------------------------

    def _sync(self, state: GameState) -> None:
        """Make the link's state the session's device view, with a newer version."""
        version = state.version
        state.copy_from(self.session.game.state)
        if self._roll_shown is not None:
            # The board's own roll stays on its dice page until the engine rolls.
            ev.apply_event(state, self._roll_shown)
        state.version = version
        state.touch()

    def _fighter_name(self, slot: int) -> str:
        game = self.session.game
        if slot == NO_SLOT:
            active = game.active
            if active is None:
                raise IllegalAction("select a character first: no turn is running")
            return active.spec.name
        if slot >= len(game.fighters):
            raise IllegalAction(f"slot {slot} is not in this encounter")
        return game.fighters[slot].spec.name
