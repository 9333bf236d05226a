"""A game master's session tethered to a board over the link, for any ruleset.

The board speaks in the shared engine's events (shared/events.py); the desktop speaks the
ruleset's command language. The ruleset turns each press into the session's actions
(`Ruleset.board_action`); this module carries them between the link and the session, and
nothing else: the link (host/bridge.BoardLink) owns the port, the thread and the protocol.

- A board press arrives on the link's thread and becomes session actions. The session
  journals them before `apply` returns, so the board is acknowledged only after the
  journal has them. A press the full rules refuse is refused on the link too (the board
  shows the error and its state comes back from the host's snapshot).
- With each board event the link's resume point (the board's nonce and the next board
  seq) is saved in the same journal transaction, and a tether made for a resumed session
  starts its link from the saved point: a board event applied just before the laptop was
  killed, and resent because its ack never left, is not applied twice.
- Every change made on the laptop runs through `guard`, under the link's lock, and the
  board gets the new state (the ruleset's projection of the game) as a snapshot.

The board's roll keys show their dice at once; the host keeps that last roll on the board
until the rules use the faces (or roll dice of their own).

Where the session takes an action's dice from the board (`play --dice board`, the default
with a board, for a ruleset that asks for its rolls): the roll the waiting action wants
goes to the board in every snapshot (`GameState.want`, so an untethered board still knows
it), the board's roll key lights with it and rolls exactly that, and the roll is given to
the action (`Session.supply`). A board roll that fits nothing wanted (nothing waits, or
another count or kind) is shown on the board as unused (`GameState.roll.unused`) and said
in one line, journalled as `roll-shown`, and used for nothing: it never becomes a later
roll. Past UNUSED_ROLLS_A_TURN such rolls in one turn (a stuck key), the rest are only
shown: the log says so once, and they are neither journalled nor said until the turn
moves on (docs/reliability.md).
The board's undo right after its own roll takes back that roll: one given to a waiting
action is taken from it, and the action waits for it again (`Session.take_back_roll`);
one that fit nothing was only shown, and nothing else is undone.

Who may undo what from the board's undo key (`play --board-undo`): `own` (the default)
undoes only an action that came from a board press, so the key never takes back what the
game master typed; `all` undoes whatever was last; `off` refuses the key. A refused press,
whatever refused it, is said in `lines` with its reason.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

from host.board.bridge import BoardLink
from host.core import audience, draws, effects
from host.core.interface import IllegalAction, Waiting
from host.core.journal import Journal
from host.core.session import UNUSED_ROLLS_A_TURN, Session, dice_words, roll_words
from shared import dice, roster
from shared import events as ev
from shared.limits import MAX_DICE, NO_SLOT
from shared.state import GameState
from shared.words import KIND_NAMES

# The presses that roll: the board shows their dice until the rules roll their own.
ROLLS = (ev.ROLL_ACTION, ev.CHANCE, ev.D100, ev.ROLL_DICE)
BOARD_UNDO = ("own", "all", "off")  # who the board's undo key may undo: see above
# Said once a turn when the board's rolls that no rule uses pass the turn's limit
# (Session.note_roll): the rest are shown on the board, and neither journalled nor said.
UNUSED_ROLLS_STOP = (
    f"more than {UNUSED_ROLLS_A_TURN} rolls this turn that no rule uses (a stuck key?):"
    " the rest are shown on the board, not journalled or said, until the turn moves on"
)
OFF_BOARD_MAX = 15  # GameState.off_board's 4 bits in the codec (docs/state-codec.md)
WANTED = "\x00wanted"  # the board's last roll was given to a waiting action (not a queue)


class Tether:
    """Keeps one board showing `session` and turns its presses into its actions."""

    def __init__(self, session: Session, url: str, board_undo: str = "own") -> None:
        if board_undo not in BOARD_UNDO:
            raise ValueError(f"board_undo must be one of {', '.join(BOARD_UNDO)}")
        self.session = session
        self.url = url
        self.board_undo = board_undo
        self.lines: deque[str] = deque(maxlen=200)  # what board presses did, for the UI
        self._roll_shown: bytes | None = None
        # Where the shown roll waits (its queue and entry; ("", ()) for a roll only shown):
        # once the rules have used it, the board shows the rules' roll instead.
        self._shown_waits: tuple[str, tuple] = ("", ())
        self._roll_unused = False  # the board's roll shown fits nothing wanted
        # The board's last press, when it was a roll: the queue it went to and the entry it
        # made there (("", ()) for a roll only shown), for the board's undo.
        self._last_roll: tuple[str, tuple] | None = None
        self._state = GameState()
        # As every later state: a resumed action may wait for its roll, a fighter be hidden.
        self._sync(self._state)
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
            self._roll_unused = False
            self._sync(self._state)
            self.link.changed()
            return lines

    def replace_session(self, session: Session) -> None:
        """The next game of the session (`new` in play): the board follows it."""
        self.guard(lambda: self._set_session(session))

    def _set_session(self, session: Session) -> list[str]:
        self.session = session
        self._last_roll = None
        return []

    # -- the board's side (called on the link's thread, under its lock) --------------------

    def apply(self, state: GameState, record: bytes) -> bool:
        """The link's applier: one board event through the full rules. Raises ValueError
        (IllegalAction or EventError), changing nothing, when the rules refuse it. The
        event's journal rows and the link's resume point commit together."""
        journal = self.session.journal
        point = self.link.session.resume_point()  # already past this event
        unused, past_limit = self.session.unused_rolls, UNUSED_ROLLS_A_TURN + 1
        try:
            if journal is None or point is None:
                lines = self._translate(record)
            else:
                kept = self.session.checkpoint()
                last_roll = self._last_roll
                try:
                    with journal.transaction():
                        lines = self._translate(record)
                        self._save_point(journal, point)
                except Exception:
                    # Refused, or not committed: nothing journalled, so nothing kept in the
                    # game either. The link has handled the event (the board hears
                    # E_REJECTED): a resumed link must not offer it again.
                    self.session.restore(kept)
                    self._last_roll = last_roll
                    self._save_point(journal, point)
                    raise
        except ValueError as err:  # IllegalAction, EventError: the game master hears why
            self.lines.append(f"board: refused: {err}")
            raise
        if self.session.unused_rolls != unused and self.session.unused_rolls == past_limit:
            lines = [*lines, UNUSED_ROLLS_STOP]  # once a turn: the rest go unsaid too
        self.lines.extend(self.session.told(["board: " + line for line in lines]))
        self._sync(state)
        return True

    def _save_point(self, journal: Journal, point: tuple[int, int]) -> None:
        journal.save_link_point(self.session.session_id, self.session.game_id, point)

    def _translate(self, record: bytes) -> list[str]:
        if record[0] == ev.UNDO:
            undone_roll = self._undo_board_roll()
            if undone_roll is not None:
                return undone_roll
            self._may_undo()
        if record[0] in ROLLS and self.session.asks:
            return self._wanted_roll(record)
        before = _copy_waiting(self.session.ruleset.waiting(self.session.game))
        self.session.pressed = True
        try:
            lines = board_press(self.session, record)
        finally:
            self.session.pressed = False
        self._last_roll = None
        waiting = self.session.ruleset.waiting(self.session.game)
        self._roll_unused = False
        if record[0] in ROLLS:
            self._roll_shown = bytes(record)
            self._last_roll = _new_arrival(before, waiting) or ("", ())
            self._shown_waits = self._last_roll
        elif self._roll_shown is not None and self._shown_waits[0]:
            purpose, entry = self._shown_waits
            if entry not in [tuple(e) for e in waiting.get(purpose, ())]:
                self._roll_shown = None  # the rules used it: the board shows their roll now
        return lines

    def _wanted_roll(self, record: bytes) -> list[str]:
        """A board roll while actions wait for their dice: the wanted roll if it fits (the
        action is tried again), else shown as unused and said, never kept for later."""
        session = self.session
        code = record[0]
        faces = tuple(record[ev.EVENT_HEADER : ev.EVENT_HEADER + record[3]])
        sides: tuple[int, ...] = ()
        kind = (
            dice.KIND_CHANCE
            if code == ev.CHANCE
            else dice.KIND_D100
            if code == ev.D100
            else record[2]
        )
        if code == ev.ROLL_DICE:  # plain dice: the faces, then each die's sides
            faces, sides = board_dice(record)
            kind = dice.KIND_DN
        pending = session.pending
        wanted = pending.wanted if pending is not None else None
        if (
            wanted is not None
            and kind == dice.KIND_ACTION_D6
            and wanted.kind == dice.KIND_ACTION_D3
        ):
            faces = tuple(dice.d6_as_d3(f) for f in faces)  # a D6 read as a D3
            kind = dice.KIND_ACTION_D3
        self._last_roll = None
        self._roll_shown = bytes(record)
        shown = " ".join(map(str, faces))
        if (
            wanted is not None
            and wanted.kind == kind
            and draws.faces_sides(wanted, faces) == sides  # an exploding roll: every chain
        ):
            session.pressed = True
            try:
                lines = session.supply(faces, "board")
            finally:
                session.pressed = False
            self._roll_unused = False
            if session.pending is None:
                self._roll_shown = None  # the action's own last roll shows
            self._last_roll = (WANTED, faces)  # the board's undo takes it back
            return lines
        if wanted is None:
            why = "no action waits for a roll"
        else:
            why = f"{roll_words(wanted)} is wanted"
        kept = session.note_roll(dice_words(sides) if sides else KIND_NAMES[kind], faces, "board")
        self._roll_unused = True
        self._last_roll = ("", ())  # only shown: the board's undo takes back nothing more
        if not kept:
            return []  # past the turn's limit: `apply` said so once
        return [f"roll {shown} fits no wanted roll ({why}): shown, not used"]

    def _undo_board_roll(self) -> list[str] | None:
        """The board's undo right after a roll of its own takes back that roll, as the
        board does (not the action before it): a roll still waiting is withdrawn, one only
        shown (a d100, or one that fit nothing wanted) needs nothing, and one given to a
        waiting action is taken back from it (`Session.take_back_roll`: the action waits
        for it again; one it resolved is undone first, whoever declared it, since the roll
        was the board's). None when the board's last press was not a roll, or its roll
        was used since."""
        last, self._last_roll = self._last_roll, None
        if last is None:
            return None
        purpose, entry = last
        if not purpose:
            self._roll_shown = None  # the board took its roll back: the rules' shows again
            return ["undone: the board's roll (only shown, nothing waited for it)"]
        if purpose == WANTED:  # given to a waiting action: it waits for that roll again
            if self.board_undo == "off":
                return None  # refused as any undo is
            try:
                lines = self.session.take_back_roll(tuple(entry), "board")
            except IllegalAction:
                return None  # things moved since: the key undoes as usual
            self._roll_shown = None
            return lines
        queue = self.session.ruleset.waiting(self.session.game).get(purpose)
        if not queue or tuple(queue[-1]) != entry:
            return None
        lines = self.session.withdraw_roll(purpose)
        self._roll_shown = None
        return lines

    def _may_undo(self) -> None:
        """Raise IllegalAction when the board's undo key may not take back the last action."""
        if self.board_undo == "off":
            raise IllegalAction(
                "the board's undo key is off (--board-undo off): undo on the laptop"
            )
        pending = self.session.pending
        if pending is not None:  # the undo drops the action waiting for its roll
            if self.board_undo == "own" and pending.by != "board":
                raise IllegalAction(
                    f"the board's undo takes back only board presses, and `{pending.action}`"
                    " (waiting for its roll) was typed: `cancel` it on the laptop (or play"
                    " with --board-undo all)"
                )
            return
        done = self.session.done
        if self.board_undo == "own" and done and done[-1].by != "board":
            raise IllegalAction(
                f"the board's undo takes back only board presses, and `{done[-1].text}` was"
                " typed: undo it on the laptop (or play with --board-undo all)"
            )

    # -- keeping the board's state ----------------------------------------------------------

    def _sync(self, state: GameState) -> None:
        """Make the link's state the session's device view, with a newer version."""
        version = state.version
        roster.copy_state(state, self.session.ruleset.state(self.session.game))
        if self._roll_shown is not None:
            # The board's own roll stays on its dice page until the rules roll.
            ev.apply_event(state, self._roll_shown)
            if self._roll_unused:
                state.roll.unused = 1
        _set_want(state, self.session)
        # The board is the players' to see: a hidden fighter's place is dark on it.
        secrets = self.session.secrets
        # Whoever takes turns with no slot (past the board's): the board signals how many.
        # A hidden one is not counted.
        off = self.session.ruleset.off_board(self.session.game)
        state.off_board = min(OFF_BOARD_MAX, sum(f.name not in secrets.hidden for f in off))
        if secrets.hidden or secrets.health != "number":
            game = self.session.game
            names = self.session.ruleset.fighter_names(game)
            audience.darken(state, {i for i, name in enumerate(names) if name in secrets.hidden})
            # Health as the players' page shows it, for the teams other than theirs.
            teams = list(game.teams)
            players = teams.index(secrets.players_team(teams)) if teams else 0
            others = {i for i in range(state.count) if state.slots[i].team != players}
            audience.blur_health(state, others, secrets.health)
        # How many effects each fighter bears, and a blink where one ends this turn.
        effects.set_board_counts(self.session.ruleset, self.session.game, state, secrets.hidden)
        state.version = version
        state.touch()


def _set_want(state: GameState, session: Session) -> None:
    """The roll the session's waiting action wants, into the board's state (or none)."""
    want = state.want
    pending = session.pending
    wanted = pending.wanted if pending is not None else None
    if wanted is None:
        want.clear()
        return
    want.kind = wanted.kind
    want.count = wanted.count
    for i in range(len(want.sides)):  # plain dice: each die's faces (the session checked them)
        want.sides[i] = wanted.sides[i] if i < len(wanted.sides) else 0
    want.who = wanted.who if 0 <= wanted.who < state.count else NO_SLOT
    want.purpose = wanted.code & 15
    # Smart dice will give the roll: the board's roll key says so with its own blink.
    want.smart = 1 if session.dice_from == "smart" else 0
    want.explode = 1 if wanted.explode else 0


def board_dice(record: bytes) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A ROLL_DICE record's faces and each die's sides (the link checked the record)."""
    sides = bytearray(MAX_DICE)
    ev.dice_sides(record, 0, sides)
    count = record[2]
    return (
        tuple(record[ev.EVENT_HEADER : ev.EVENT_HEADER + count]),
        tuple(sides[:count]),
    )


def _copy_waiting(waiting: Waiting) -> dict[str, list[tuple]]:
    return {purpose: [tuple(e) for e in queue] for purpose, queue in waiting.items()}


def _new_arrival(before: dict[str, list[tuple]], after: Waiting) -> tuple[str, tuple] | None:
    """The queue that grew by one at its end between `before` and `after`, and its entry."""
    for purpose, queue in after.items():
        old = before.get(purpose, [])
        if len(queue) == len(old) + 1 and [tuple(e) for e in list(queue)[:-1]] == old:
            return purpose, tuple(queue[-1])
    return None


def board_press(session: Session, record: bytes) -> list[str]:
    """One board press (a shared.events record) through the session. What every game means
    alike is taken here: select is the board's own (which slot its keys act on), and undo
    takes back the session's last action; the rest is the ruleset's `board_action`."""
    code = record[0]
    if code == ev.SELECT:
        return []
    if code == ev.UNDO:
        return session.undo(1)
    return session.ruleset.board_action(session, record)
