"""`turnlight demo --pace SECONDS`: the demo at a speed a person can follow. After every
action the game waits SECONDS; on a terminal the grid and the latest lines of the game are
redrawn in place (the cursor goes back up over the last frame), so the board's lights seem
to change where they are instead of scrolling past. Piped, each frame is printed after the
last, without cursor moves.
"""

from __future__ import annotations

import shutil
import textwrap
import time
from collections.abc import Callable

UP_AND_CLEAR = "\x1b[{}A\x1b[J"  # cursor up N lines, then clear to the end of the screen


class PacedScreen:
    """Collects the demo's lines and draws a frame (its first lines, the grid, the latest
    lines that fit) after each action."""

    def __init__(
        self,
        seconds: float,
        write: Callable[[str], object],
        in_place: bool,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self.seconds = seconds
        self.write = write
        self.in_place = in_place
        self.sleep = sleep or time.sleep
        self.lines: list[str] = []
        self.top = 0  # lines[:top] stay at the top of every frame (what the demo plays)
        self.shown = 0  # how many of `lines` a frame has printed (piped)
        self.drawn = 0  # terminal lines the last frame took (in place)
        self.frames = 0

    def say(self, line: str) -> None:
        self.lines.extend(line.split("\n"))

    def keep_on_top(self) -> None:
        """The lines said so far head every frame."""
        self.top = len(self.lines)

    def frame(self, grid: str) -> None:
        """Draw the grid with the lines said since the last frame, then wait."""
        self.frames += 1
        if not self.in_place:
            fresh = self.lines[self.shown :]
            self.shown = len(self.lines)
            self.write("\n".join(fresh + grid.split("\n")) + "\n")
        else:
            size = shutil.get_terminal_size()
            width, height = max(20, size.columns), max(10, size.lines)
            top = self._fit(self.lines[: self.top], width)
            board = grid.split("\n")  # the grid's cells are short: they never wrap
            room = max(1, height - len(top) - len(board) - 2)
            latest = self._fit(self.lines[self.top :], width)[-room:]
            block = top + board + [""] + latest
            up = UP_AND_CLEAR.format(self.drawn) if self.drawn else ""
            self.write(up + "\n".join(block) + "\n")
            self.drawn = len(block)
        self.sleep(self.seconds)

    def done(self) -> None:
        """The game is over: what comes next is printed under the last frame."""
        if not self.in_place:
            fresh = self.lines[self.shown :]
            if fresh:
                self.write("\n".join(fresh) + "\n")
        self.shown = len(self.lines)

    @staticmethod
    def _fit(lines: list[str], width: int) -> list[str]:
        """The lines as the terminal shows them: each wrapped between words to the width."""
        out: list[str] = []
        for line in lines:
            indent = line[: len(line) - len(line.lstrip())]
            out += textwrap.wrap(
                line, width, subsequent_indent=indent + "  ", break_long_words=True
            ) or [""]
        return out
