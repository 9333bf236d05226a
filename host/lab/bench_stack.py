"""`device_stack_bytes` for `turnlight bench`: the Python stack (pystack) the deepest path of
the board's code needs on a 32-bit CircuitPython board.

Measured, not read: the real firmware App runs on the simulated board (CPython), linked over
a pty to the host's BoardLink with each ruleset's example game, and every key of every
profile is pressed (each menu entry too, where a menu stands in for keys, the encoder both
ways, a long press and a hold-to-confirm); a profile hook (host/board/pystack.py) adds up, at
every call of the board's code, the frames the compiled code declares for each function on
the stack, under code.py's own module frame. The figure is the most over all of them.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from firmware.app import MENU
from firmware.boards import NAMES, load
from host.board import circuitpy_drive, pystack
from shared.state import GameState

Figures = dict[str, float | int]
TAP_S = 0.04  # between taps: each is its own gesture
SETTLE_S = 0.3  # for the last press's event to reach the host and its snapshot to come back


def ruleset_states() -> dict[str, GameState]:
    """Each ruleset's example game as the board is given it (the host's projection)."""
    from host.core import encounter_files, registry

    states = {}
    for ruleset_id in registry.ids():
        ruleset = registry.get(ruleset_id)
        enc = encounter_files.load(ruleset.example_path(), ruleset_id)
        game = ruleset.new_game(enc, 1)
        ruleset.project(game)
        states[ruleset_id] = ruleset.state(game)
    return states


def _play(board: str, state: GameState, deepest: pystack.Deepest) -> None:
    """Link a simulated `board` with `state` and press every key it has."""
    from host.board.bridge import BoardLink
    from host.board.simulated_board import SimulatedBoard

    sim = SimulatedBoard(board, seed=5)
    profile = load(board)
    controls = [c for c in (*profile.KEYMAP, *profile.ENCODER_MAP) if c]
    path = sim.start()
    assert sim._thread is not None
    deepest.thread = sim._thread.ident
    try:
        with BoardLink(path, state) as link:
            link.wait_linked()
            # Where a menu stands in for keys, each round does its next entry.
            for _ in range(1 + (len(MENU) if "menu_do" in controls else 0)):
                for control in controls:
                    sim.press(sim.key_for(control))
                    time.sleep(TAP_S)
            for control in ("next_turn", "end_combat"):
                if control in controls:
                    sim.press(sim.key_for(control), hold_ms=1700)
                    time.sleep(1.8)
            time.sleep(SETTLE_S)
    finally:
        sim.stop()


def device_stack(
    boards: tuple[str, ...] = NAMES, states: Callable[[], dict[str, GameState]] = ruleset_states
) -> Figures:
    """The deepest pystack path, per profile and overall (every ruleset's game)."""
    code = pystack.frames(pystack.board_sources())
    base = code[(str(pystack.CODE_PY.relative_to(pystack.ROOT)), 0)].bytes
    figures: Figures = {}
    games = states()
    for board in boards:
        deepest = pystack.Deepest(code, base)
        deepest.install()
        try:
            for state in games.values():
                _play(board, state, deepest)
        finally:
            deepest.remove()
        figures[f"device_stack_bytes_{board}"] = deepest.most
        DEEPEST_PATHS[board] = deepest.path
    figures["device_stack_bytes"] = max(figures.values())
    return figures


DEEPEST_PATHS: dict[str, list[str]] = {}  # the last measurement's deepest path, per profile

MEASUREMENTS = (device_stack,)
# #26: two thirds of the stack deploy sets (1,536 bytes, a Trellis M4's default): a third spare
TARGETS = {"device_stack_bytes": ("<=", circuitpy_drive.PYSTACK_BYTES * 2 // 3)}
