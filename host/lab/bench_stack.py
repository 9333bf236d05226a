"""`device_stack_bytes` for `turnlight bench`: the Python stack (pystack) the deepest path of
the board's code needs on a 32-bit CircuitPython board.

Measured, not read: the real firmware App runs on fake hardware (CPython, a fake clock, one
thread), linked by an in-memory cable to the host's HostSession holding a ruleset's example
game; a profile hook (host/board/pystack.py) adds up, at every call of the board's code
inside App.step, the frames the compiled code declares for each function on the stack,
under code.py's own module frame. The figure is the most over a fixed set of scenarios, the
same on every run: for every profile and every registered ruleset's game (and the 24
fighters of the big table's reference state),

- every gesture the profile has, with the host answering: each key's press and long press,
  each menu entry (where a menu stands in for keys), the encoder both ways, each
  hold-to-confirm;
- each of those gestures again after a roll, both unacknowledged (the board's frames to the
  host are cut) when the host's snapshot arrives: the board re-applies them on top of it,
  saving its undo for each and restoring it for an UNDO (the deepest path the board has:
  issue #36).
"""

from __future__ import annotations

from collections.abc import Callable

from firmware import app as firmware_app
from firmware.app import MENU, App
from firmware.boards import NAMES, load
from host.board import circuitpy_drive, pystack
from host.board.vm.fakehw import Encoder, Event, Keys, Pixels
from shared import roster
from shared.link.host import HostSession
from shared.state import GameState

Figures = dict[str, float | int]
STEP_MS = 5  # one App.step (and one host poll) a step of the fake clock
SEED = 5  # the board's dice
NONCE = 1
SETTLE_MS = 2000  # at most, for the board and the host to agree again
UNDER_SNAPSHOT_TURNS = (0, 1)  # the game as it begins (round 0, most often), a turn on
TAP = "tap"
LONG = "long"
CONFIRM = "confirm"
_LONG_MS = firmware_app._LONG_MS + 20  # a long press, held a little past the App's limit
_CONFIRM_MS = firmware_app._CONFIRM_MS + 20
# The controls that take a hold to confirm (the rest take a long press).
_HELD_TO_CONFIRM = ("end_combat", "reset")


def ruleset_states() -> dict[str, GameState]:
    """Each ruleset's example game as the board is given it (the host's projection), and
    the big table: the reference state with 24 fighters (shared/reference.py), every one
    on the board, its window following the turn."""
    from host.core import encounter_files, registry
    from shared.reference import BIG_TABLE, build_reference_state

    states = {}
    for ruleset_id in registry.ids():
        ruleset = registry.get(ruleset_id)
        enc = encounter_files.load(ruleset.example_path(), ruleset_id)
        game = ruleset.new_game(enc, 1)
        ruleset.project(game)
        states[ruleset_id] = ruleset.state(game)
    states["reference-24"] = build_reference_state(fighters=BIG_TABLE)
    return states


class _Wire:
    """One direction of the cable; `plugged = False` drops what is sent."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.plugged = True

    def send(self, buf: bytes | bytearray | memoryview) -> None:
        if self.plugged:
            self.data += bytes(buf)


class _End:
    """One end of the cable, shaped like usb_cdc.data and a pyserial port."""

    def __init__(self, incoming: _Wire, outgoing: _Wire) -> None:
        self.incoming = incoming
        self.outgoing = outgoing

    @property
    def in_waiting(self) -> int:
        return len(self.incoming.data)

    def readinto(self, buf: bytearray | memoryview) -> int:
        data = self.incoming.data
        n = min(len(buf), len(data))
        buf[:n] = data[:n]
        del data[:n]
        return n

    def write(self, buf: bytes | bytearray | memoryview) -> int:
        self.outgoing.send(buf)
        return len(buf)


class _Table:
    """A board profile's App and a host joined by a cable, stepped together on a fake
    clock; only the App's steps are measured."""

    def __init__(self, board: str, state: GameState, deepest: pystack.Deepest) -> None:
        self.profile = load(board)
        self.deepest = deepest
        self.up = _Wire()  # board -> host
        self.down = _Wire()  # host -> board
        self.now = 1000
        self.keys = Keys()
        self.encoder = Encoder() if self.profile.ENCODER_PINS else None
        pixels = Pixels(self.profile.WIDTH * self.profile.HEIGHT)
        self.app = App(
            self.profile,
            pixels,
            self.keys,
            Event(),
            _End(self.down, self.up),
            self.encoder,
            now_ms=self.now,
            seed=SEED,
            nonce=NONCE,
        )
        self.game = state
        host_state = GameState()
        roster.copy_state(host_state, state)
        self.host = HostSession(_End(self.up, self.down), host_state, now_ms=self.now)
        self.controls = [c for c in self.profile.KEYMAP if c]

    def run(self, ms: int) -> None:
        for _ in range(ms // STEP_MS):
            self.now += STEP_MS
            self.deepest.install()
            try:
                self.app.step(self.now)
            finally:
                self.deepest.remove()
            self.host.poll(self.now)

    def settle(self) -> None:
        """Step until the board is linked and described, its journal empty and the host
        quiet."""
        session = self.app.session
        for _ in range(SETTLE_MS // STEP_MS):
            self.run(STEP_MS)
            if session.linked and session.described and not session.journal.count:
                if self.host.quiet():
                    return
        raise RuntimeError("the board and the host did not settle")

    def gesture(self, control: str, kind: str) -> None:
        """One gesture: a key's tap, long press or hold to confirm, a menu entry (its
        control name, on a board with a menu) or an encoder detent."""
        keymap = list(self.profile.KEYMAP)
        if control in self.profile.ENCODER_MAP:
            assert self.encoder is not None
            clockwise = self.profile.ENCODER_MAP.index(control) == 1
            step = self.profile.ENCODER_CLOCKWISE
            self.encoder.position += step if clockwise else -step
            self.run(STEP_MS)
            return
        if control not in keymap:  # a menu entry: step the menu to it, then do it
            code = firmware_app.CONTROL_NAMES.index(control)
            while MENU[self.app.menu_cursor] != code:
                self.gesture("menu_next", TAP)
            control = "menu_do"
        key = keymap.index(control)
        held = {TAP: STEP_MS, LONG: _LONG_MS, CONFIRM: _CONFIRM_MS}[kind]
        self.keys.events.put(key, True)
        self.run(held)
        self.keys.events.put(key, False)
        self.run(STEP_MS)

    def gestures(self) -> list[tuple[str, str]]:
        """Every gesture of the profile: each control's tap and its long press (or hold to
        confirm), each menu entry's too, and the encoder's two ways."""
        names = list(self.controls)
        if "menu_do" in names:
            names += [firmware_app.CONTROL_NAMES[code] for code in MENU]
        found = []
        for name in names:
            found.append((name, TAP))
            found.append((name, CONFIRM if name in _HELD_TO_CONFIRM else LONG))
        found += [(name, TAP) for name in self.profile.ENCODER_MAP]
        return found

    def restart(self, turns: int) -> None:
        """The host puts its game back as it began, `turns` turns on."""
        roster.copy_state(self.host.state, self.game)
        self.host.state_changed()
        self.settle()
        for _ in range(turns):
            self.gesture("next_turn", TAP)
            self.settle()

    def under_snapshot(self, control: str, kind: str, turns: int) -> None:
        """From the game `turns` turns on, a roll, then the gesture, both unacknowledged
        when a snapshot of the host's arrives: the board re-applies them on top of it."""
        self.restart(turns)
        session = self.app.session
        self.up.plugged = False  # the host hears nothing of the board's
        self.gesture("roll", TAP)
        self.gesture(control, kind)
        taken = session.snapshots
        self.host.state_changed()
        for _ in range(SETTLE_MS // STEP_MS):
            self.run(STEP_MS)
            if session.snapshots > taken:
                break
        else:
            raise RuntimeError("the host's snapshot did not reach the board")
        self.up.plugged = True
        self.settle()


def _play(board: str, state: GameState, deepest: pystack.Deepest) -> None:
    """Every gesture of `board`'s profile on `state`'s game, with the host answering, then
    each again after a roll under a snapshot."""
    table = _Table(board, state, deepest)
    table.settle()
    gestures = table.gestures()
    for control, kind in gestures:
        table.gesture(control, kind)
        table.settle()
    for turns in UNDER_SNAPSHOT_TURNS:
        for control, kind in gestures:
            table.under_snapshot(control, kind, turns)


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
        for state in games.values():
            _play(board, state, deepest)
        figures[f"device_stack_bytes_{board}"] = deepest.most
        DEEPEST_PATHS[board] = deepest.path
    figures["device_stack_bytes"] = max(figures.values())
    return figures


DEEPEST_PATHS: dict[str, list[str]] = {}  # the last measurement's deepest path, per profile

MEASUREMENTS = (device_stack,)
# #26: two thirds of the stack deploy sets (1,536 bytes, a Trellis M4's default): a third spare
TARGETS = {"device_stack_bytes": ("<=", circuitpy_drive.PYSTACK_BYTES * 2 // 3)}
