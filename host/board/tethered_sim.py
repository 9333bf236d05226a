"""A session tethered to a simulated board on a real pseudo-terminal.

`turnlight demo` and `turnlight play --sim` run this: the real firmware
(host/board/simulated_board.py) on one end of a pty, the host bridge and the session
(host/board/tether.py) on the other. Nothing here talks to the board except through the pty.
"""

from __future__ import annotations

import time

from host.board.simulated_board import SimulatedBoard
from host.board.tether import Tether
from host.core.interface import IllegalAction
from host.core.session import Session
from shared.link.digest import state_digest

SETTLE_SECONDS = 10.0
REFUSED = "board: refused: "  # how the tether says why it refused a press
# Without colour, each LED is drawn by how bright it is (its brightest channel).
SHADES = "·░▒▓█"
SHADE_LEGEND = "board LEDs without colour: ·· off, ░░ dim, ▒▒ half, ▓▓ bright, ██ full"


class BoardDidNotFollow(RuntimeError):
    """The simulated board did not reach the host's state in time."""


class TetheredSim:
    def __init__(self, session: Session, board: str = "trellis_m4", board_undo: str = "own"):
        self.sim = SimulatedBoard(board, seed=session.seed)
        self.session = session
        self.board_undo = board_undo
        self.tether: Tether | None = None

    def start(self, timeout: float = 5.0) -> TetheredSim:
        """Link the board and wait until it shows the session: described, then given the
        state (a key pressed before the board holds a table would be refused there)."""
        path = self.sim.start()
        try:
            self.tether = Tether(self.session, path, self.board_undo).start(timeout)
            self.settle()
        except Exception:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if self.tether is not None:
            self.tether.stop()
        self.sim.stop()

    def __enter__(self) -> TetheredSim:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def path(self) -> str:
        return self.sim.path

    def _tether(self) -> Tether:
        assert self.tether is not None, "start() first"
        return self.tether

    # -- acting --------------------------------------------------------------------------

    def execute(self, line: str) -> list[str]:
        """A command typed on the laptop; the board then gets the new state."""
        tether = self._tether()
        return tether.guard(lambda: tether.session.execute(line))

    def press(self, control: str) -> list[str]:
        """Press a control on the board and wait until the host has taken it and the board
        shows the result. Returns what the press did on the host; raises
        IllegalAction if the host's rules refused it."""

        tether = self._tether()
        link = tether.link.session
        applied, rejected = link.events_applied, link.events_rejected
        self.sim.press(self.sim.key_for(control))
        deadline = time.monotonic() + SETTLE_SECONDS
        while link.events_applied == applied and link.events_rejected == rejected:
            if time.monotonic() > deadline:
                raise BoardDidNotFollow(f"the board's {control} press never reached the host")
            time.sleep(0.001)
        self.settle()
        lines = []
        while tether.lines:
            lines.append(tether.lines.popleft())
        if link.events_rejected != rejected:
            said = [line for line in lines if line.startswith(REFUSED)]
            why = f": {said[-1][len(REFUSED) :]}" if said else ""
            raise IllegalAction(f"the board's {control} press was refused{why}")
        return lines

    def has_key(self, control: str) -> bool:
        try:
            self.sim.key_for(control)
        except KeyError:
            return False
        return True

    # -- watching ------------------------------------------------------------------------

    def settle(self, timeout: float = SETTLE_SECONDS) -> None:
        """Wait until the board holds the host's state and has shown a frame of it."""
        link = self._tether().link
        deadline = time.monotonic() + timeout
        while True:
            with link.lock:
                quiet = link.session.quiet()
                want = state_digest(link.session.state) if quiet else -1
            if quiet:
                with self.sim.lock:
                    have = state_digest(self.sim.app.state)
                    frames = self.sim.app.frames
                if have == want:
                    break
            if time.monotonic() > deadline:
                raise BoardDidNotFollow("the simulated board did not reach the host's state")
            time.sleep(0.001)
        # A frame rendered since: the LEDs show it (the App writes a frame only when it
        # differs from the one the strip shows, so count renders, not writes).
        while time.monotonic() < deadline:
            with self.sim.lock:
                if self.sim.app.frames > frames:
                    return
            time.sleep(0.001)

    def grid(self, color: bool) -> str:
        """The board's LEDs as the table sees them: truecolor blocks, or shades in plain
        text (brighter cells are denser)."""
        from host.board.firmware_host import PAGE_NAMES

        with self.sim.lock:
            title = f"board, {PAGE_NAMES[self.sim.app.page]} page:"
        if color:
            return title + "\n" + self.sim.terminal_grid()
        shades = SHADES
        rows = []
        for row in self.sim.grid():
            cells = []
            for pixel in row:
                level = max(pixel)
                cells.append(shades[0 if level == 0 else min(4, 1 + level * 4 // 256)] * 2)
            rows.append(" ".join(cells))
        return title + "\n" + "\n".join(rows)
