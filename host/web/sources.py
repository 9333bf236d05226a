"""Where the web pages' views come from: the Source protocol, and its two kinds, a `play`
session (PlayLive: its PlayUI, and the simulated board with --sim) and a demo (DemoLive,
which the console only watches). A board on its own is host/web/board_source.py's."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

from host.core.interface import IllegalAction

if TYPE_CHECKING:
    from host.board.simulated_board import SimulatedBoard
    from host.core.session import Session


class Source(Protocol):
    """Where the views come from: a `play` session (PlayLive), a demo (DemoLive) or a board
    on its own (host/web/board_source.py's BoardLive)."""

    def session(self) -> Session: ...
    def lock(self) -> contextlib.AbstractContextManager[Any]: ...
    def stamp(self) -> tuple: ...
    def log(self) -> list[str]: ...
    def dice_lines(self) -> list[str]: ...
    def odds(self) -> list[str]: ...
    def sim(self) -> SimulatedBoard | None: ...
    def run(self, line: str) -> list[str]: ...
    def text(self, line: str) -> str | None: ...
    def follow(self) -> None: ...  # the board takes a change of the secrets now


@contextlib.contextmanager
def _both(first: Any, second: Any) -> Iterator[None]:
    with first, second:
        yield


class PlayLive:
    """The views of a `play` session: its PlayUI (and the simulated board, with --sim)."""

    def __init__(self, ui: Any, sim: SimulatedBoard | None = None) -> None:
        self.ui = ui
        self._sim = sim

    def session(self) -> Session:
        return self.ui.session

    def lock(self) -> contextlib.AbstractContextManager[Any]:
        tether = self.ui.tether
        if tether is None:
            return self.ui.command_lock
        return _both(self.ui.command_lock, tether.lock)

    def stamp(self) -> tuple:
        session = self.ui.session
        tether = self.ui.tether
        version = tether.link.state.version if tether is not None else -1
        return (id(session), len(session.done), len(session.undone), self.ui.shown, version)

    def log(self) -> list[str]:
        # The board's lines not yet taken into play's log: peeked, so that play's own
        # watcher still sees them and redraws the terminal.
        tether = self.ui.tether
        waiting = list(tether.lines) if tether is not None else []
        return list(self.ui.messages) + waiting

    def dice_lines(self) -> list[str]:
        ui = self.ui
        lines = list(ui.dice_log[ui.dice_mark :])
        waiting = ui.session.ruleset.waiting(ui.session.game)
        lines += [f"waiting: {p} x{len(q)}" for p, q in waiting.items() if q]
        return lines

    def odds(self) -> list[str]:
        return list(self.ui._odds())

    def sim(self) -> SimulatedBoard | None:
        return self._sim

    def follow(self) -> None:
        tether = self.ui.tether
        if tether is not None:
            tether.guard(list)

    def run(self, line: str) -> list[str]:
        ui = self.ui
        with ui.command_lock:
            before = len(ui.messages)
            ui.run_line(line)
            if ui.odds_lines and line.split()[0].lower() in ui.session.ruleset.language.asides:
                return list(ui.odds_lines)
            return ui.messages[before:] if len(ui.messages) >= before else list(ui.messages)

    def text(self, line: str) -> str | None:
        """The read-only verbs of the prompt (help, scores, table), as text."""
        from host.core.interface import Table
        from host.screens import text_tables

        words = line.split()
        verb = words[0].lower()
        ui = self.ui
        if verb == "help":
            text: str = ui.help_text(words[1] if len(words) > 1 else None, 80)
            return text  # the console adds its own verbs to a bare `help`
        ruleset = ui.session.ruleset
        if verb == "scores":
            with self.lock():
                return text_tables.fitted_table("scores", ruleset.score_table(ui.session.game), 80)
        if verb == "table":
            keys = ("team", "games", "wins", *ruleset.session_totals)
            headers = [ruleset.stat_labels.get(k) or text_tables.humane(k) for k in keys]
            with self.lock():
                rows = [[str(row[k]) for k in keys] for row in ui.session.session_table()]
            return text_tables.fitted_table("session table", Table(headers, rows), 80)
        return None


class DemoLive:
    """The views of a demo: its session and what it printed; the console only reads."""

    def __init__(
        self,
        session: Session,
        lock: Any,
        sim: Callable[[], SimulatedBoard | None],
        follow: Callable[[], object] = list,
    ):
        self._session = session
        self._lock = lock
        self._sim = sim
        self._follow = follow  # brings the board in step with the secrets
        self.lines: list[str] = []
        self.changes = 0

    def say(self, line: str) -> None:
        self.lines.append(line)
        self.changes += 1

    def session(self) -> Session:
        return self._session

    def lock(self) -> contextlib.AbstractContextManager[Any]:
        return self._lock

    def stamp(self) -> tuple:
        s = self._session
        return (len(s.done), len(s.undone), self.changes)

    def log(self) -> list[str]:
        return list(self.lines)

    def dice_lines(self) -> list[str]:
        return self._session.ruleset.roll_lines(self._session.game)

    def odds(self) -> list[str]:
        return []

    def sim(self) -> SimulatedBoard | None:
        return self._sim()

    def follow(self) -> None:
        self._follow()

    def run(self, line: str) -> list[str]:
        raise IllegalAction("the demo plays itself: the console only watches it")

    def text(self, line: str) -> str | None:
        return None
