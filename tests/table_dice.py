"""Dice rolled at the table ahead of the actions that use them, as the rules tests of
stones, forms and advance write them (`dice check 6 5`, then `attack ...`), played through
the session's wanted-roll flow (host/core/session.py): no ruleset keeps rolls made ahead any
more, so the test keeps them, and gives each to the action that wants it.

`TableSession` is the real `Session` (its rules, journal, undo and resume untouched); only
its `execute` is wrapped: a `dice ...` line typed while nothing waits and the engine rolls
is held here, in order. An action typed while rolls are held is declared with the dice from
the table (`dice from entered`), and while it waits, each roll it wants is given with `dice`
from the rolls held (the first of its purpose, for advance; the first of any, for stones'
d100s; for forms, the first, cut to the count wanted, as the game master would pick up that
many dice), or, once none is left, rolled by the engine (`roll`). An action typed while
nothing is held plays with the engine's dice, as before.
"""

from __future__ import annotations

from typing import Any

from host.core.interface import IllegalAction
from host.core.session import Session

KEYED = {"advance"}  # rulesets whose held rolls are kept per purpose (`dice check 6 5`)


class TableSession(Session):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.held: list[tuple[str, tuple[int, ...]]] = []  # (purpose or "", faces)

    def execute(self, line: str) -> list[str]:
        cmd = self.ruleset.language.parse(line)
        if cmd is None:
            return []
        if (
            cmd.verb == "dice"
            and cmd.args[:1] != ["from"]
            and self.pending is None
            and self.dice_from == "engine"
        ):
            return self._hold(cmd.args)
        if cmd.verb in self.ruleset.language.verbs and self.held and self.pending is None:
            return self._declare(line)
        return super().execute(line)

    def _hold(self, args: list[str]) -> list[str]:
        if args == ["clear"]:
            self.held.clear()
            return ["entered dice cleared"]
        purpose = ""
        if args and not args[0].isdigit():
            purpose, args = args[0], args[1:]
        if not args or not all(a.isdigit() for a in args):
            raise IllegalAction(f"dice: faces are missing or not numbers: {args}")
        self.held.append((purpose if self.ruleset.id in KEYED else "", tuple(map(int, args))))
        return [f"entered {purpose or 'next'} roll held: {' '.join(args)}"]

    def _declare(self, line: str) -> list[str]:
        before = self.dice_from
        self.dice_from = "entered"
        try:
            lines = super().execute(line)
            while self.pending is not None and self.pending.wanted is not None:
                # What the roll given says (`entered crit roll for Kaelen: 9 9`) is left out.
                lines += self._give(self.pending.wanted.purpose, self.pending.wanted.count)[1:]
        finally:
            self.dice_from = before
        # The action's own lines, as it said them with the rolls made ahead.
        return [x for x in lines if ": waits for " not in x]

    def _give(self, purpose: str, count: int) -> list[str]:
        for n, (held, faces) in enumerate(self.held):
            if held in ("", purpose):
                del self.held[n]
                if len(faces) < count:  # forms: a roll held with too few dice
                    self.drop_wanted()
                    raise IllegalAction(
                        f"{purpose} roll takes {count} dice and {len(faces)} were entered"
                    )
                return super().execute("dice " + " ".join(map(str, faces[:count])))
        return super().execute("roll")
