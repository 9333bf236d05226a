"""A session's history as plain records: an applied action (Entry), an action waiting for
its roll (Pending), the placeholder for an action a resume has not read yet (HOLE), and
the journal's events turned back into that history (replay_events).

The session (session.py) keeps its history in these, and the checkpoints stored in the
journal (journal_checkpoints.py) rebuild it: both import this module, never each other.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from host.core.commandline import without_comment
from host.core.interface import Supplied, Waiting, WantedRoll


@dataclass
class Entry:
    """One applied action: its command line, its record (the rolls it used) and where it
    came from: "laptop" (typed, or a script) or "board" (a board press, while tethered)."""

    text: str
    rolls: Any
    by: str = "laptop"
    seq: int = 0  # its `action` event's seq in the journal (0: not journalled)


@dataclass
class Pending:
    """An action declared while its dice come from the board or the table: the rolls it
    was given so far, in order, and the roll it waits for now."""

    text: str
    by: str
    supplied: list[Supplied] = field(default_factory=list)
    wanted: WantedRoll | None = None

    def copy(self) -> Pending:
        return Pending(self.text, self.by, list(self.supplied), self.wanted)

    @property
    def action(self) -> str:
        """The action as the session says it: its line without a `# comment` (the journal
        keeps the whole line)."""
        return without_comment(self.text)


# An action done before the near end of the history a resume started from (a checkpoint in
# the journal): not read until an undo, redo or replay reaches it (Session._fill).
HOLE = Entry("(an action not read from the journal yet)", None, "laptop", -1)


def replay_events(
    ruleset: Any,
    events: list[tuple[int, str, dict, str]],
    done: list[Entry],
    undone: list[Entry],
    waiting: Waiting,
    pending: list[Pending] | None = None,
) -> None:
    """The journal's events as the session's history: what is done, undone and waiting
    (`pending`: the action waiting for a roll, if one is)."""
    waits: list[Pending] = pending if pending is not None else []
    for seq, kind, payload, _ in events:
        if kind == "want":
            waits[:] = [Pending(payload["text"], payload.get("by", "laptop"))]
        elif kind == "want-dice":
            if waits:
                waits[0].supplied.append(
                    (payload["purpose"], tuple(payload["faces"]), payload["source"])
                )
        elif kind == "want-drop":
            waits.clear()
        elif kind == "action":
            waits.clear()
            rolls = ruleset.record_from_json(payload["rolls"])
            for queue in ruleset.used_waiting(rolls):
                if waiting.get(queue):
                    waiting[queue].popleft()
            done.append(Entry(payload["text"], rolls, payload.get("by", "laptop"), seq))
            undone.clear()
        elif kind == "undo":
            for _ in range(payload["steps"]):
                undone.append(done.pop())
        elif kind == "redo":
            for _ in range(payload["steps"]):
                done.append(undone.pop())
        elif kind == "dice":
            waiting.setdefault(payload["purpose"], deque()).append(
                (tuple(payload["faces"]), payload["source"])
            )
        elif kind == "dice-clear":
            waiting.clear()
        elif kind == "dice-withdraw" and waiting.get(payload["purpose"]):
            waiting[payload["purpose"]].pop()
