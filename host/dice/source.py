"""Smart dice as the source of a session's wanted rolls (`play --dice smart`, `dice from
smart`): each roll a die makes (host/dice/table.py) is matched to a place of the roll
the waiting action wants (host/dice/matcher.py); when every place is filled, the faces go
to `Session.supply` with the source `smart:<die id>` (one id per face, in order, when
several dice filled it), so the journal, undo, resume and export treat them as any roll.
A die thrown while nothing waits, or that fits no empty place, is shown and journalled
as a roll the rules did not use (`Session.note_roll`), like a board roll.

Every change to the session runs through `guard` (the play UI's lock, or the tether's),
from the thread the dice run on; the lines go to `say`, written for the log as the
session writes its own (`Session.told`: what they reveal of hidden fighters).

`place_lines()` is what a view shows while a roll is filled: which die filled which place,
and what each empty place waits for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.core.interface import IllegalAction, WantedRoll
from host.dice.matcher import Matcher
from host.dice.settings import PairedDie

SOURCE = "smart"


def _direct(action: Callable[[], list[str]]) -> list[str]:
    return action()


class SmartDiceSource:
    def __init__(
        self,
        session: Callable[[], Any],
        say: Callable[[list[str]], None],
        guard: Callable[[Callable[[], list[str]]], list[str]] = _direct,
        dice_of_kind: Callable[[], dict[str, int]] = dict,
    ) -> None:
        self.session = session  # the session now (a `new` game replaces it)
        self.say = say
        self.guard = guard
        self.dice_of_kind = dice_of_kind
        self.matcher: Matcher | None = None
        self._for: tuple[int, int, int] | None = None  # which wanted roll `matcher` fills
        self.used: list[tuple[str, int, str]] = []  # rolls shown and not used: (die, value, why)

    # -- the wanted roll -------------------------------------------------------------------
    def wanted(self) -> WantedRoll | None:
        """The roll smart dice should fill now, or None."""
        session = self.session()
        pending = session.pending
        if session.dice_from != SOURCE or pending is None or pending.wanted is None:
            return None
        return pending.wanted

    def current(self) -> Matcher | None:
        """The matcher for the roll that waits now (a new one when the wanted roll changed:
        another action, or the same action's next roll)."""
        wanted = self.wanted()
        if wanted is None:
            self.matcher, self._for = None, None
            return None
        pending = self.session().pending
        key = (id(self.session()), id(pending), len(pending.supplied))
        if key != self._for or self.matcher is None:
            self.matcher = Matcher(wanted, self.dice_of_kind())
            self._for = key
        return self.matcher

    def place_lines(self) -> list[str]:
        """The wanted roll's places as filled so far (none while nothing waits)."""
        matcher = self.matcher
        return self.session().told(matcher.lines()) if matcher is not None else []

    def waiting_words(self) -> str:
        from host.core.session import roll_words

        wanted = self.wanted()
        return roll_words(wanted) if wanted is not None else ""

    # -- a die's roll ----------------------------------------------------------------------
    def rolled(self, die: PairedDie, value: int) -> list[str]:
        """A die came to rest showing `value`: fill a place, complete the roll, or show it
        as unused. Returns (and says) the lines."""
        lines = self.guard(lambda: self.session().told(self._rolled(die, value)))
        self.say(lines)
        return lines

    def tell(self, lines: list[str]) -> None:
        """Say lines of the dice's own (a die linked, dropped, its battery low), written for
        the log with what they reveal (a waiting roll names who rolls it: a hidden fighter
        stays off the players' page, host/core/audience.py)."""
        self.say(self.session().told(lines))

    def _rolled(self, die: PairedDie, value: int) -> list[str]:
        said = f"smart die {die.kind} {die.name or die.die_id} rolled {value}"
        matcher = self.current()
        if matcher is None:
            return self._unused(die, value, said, "no roll waits for smart dice")
        at, why = matcher.offer(die.die_id, die.kind, value)
        if at < 0:
            return self._unused(die, value, said, why)
        place = matcher.places[at]
        lines = [f"{said}: place {at + 1} of {len(matcher.places)} ({place.name}) = {place.face}"]
        if not matcher.complete:
            return lines
        faces, source = matcher.faces(), matcher.source()
        filled = matcher.lines()
        self.matcher, self._for = None, None
        try:
            return lines + filled + self.session().supply(faces, source)
        except IllegalAction as err:
            return lines + [f"refused: {err}"]

    def _unused(self, die: PairedDie, value: int, said: str, why: str) -> list[str]:
        self.used.append((die.die_id, value, why))
        self.session().note_roll(die.kind, (value,), die.label)
        return [f"{said}: not used ({why})"]
