"""`turnlight sim`: run the real firmware as a simulated board on a pseudo-terminal.

It prints the pty's path (open it with `turnlight play --port PATH` or any pyserial
program), draws the LED grid live in the terminal and takes key presses from the keyboard.
`--png FILE` writes one picture and exits; `--pictures DIR` writes every page and the key
map (the README's images).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from host.simboard import SimulatedBoard

# Keyboard letters for the controls in the interactive simulator.
KEYBOARD = {
    "n": "next_turn",
    "r": "roll",
    "c": "chance",
    "d": "d100",
    "f": "frost_add",
    "F": "frost_remove",
    "b": "burn_add",
    "B": "burn_remove",
    "u": "undo",
    "p": "page",
    "l": "brightness",
    "[": "select_prev",
    "]": "select_next",
    "m": "menu_next",
    "o": "menu_do",
    "E": "end_combat",
    "R": "reset",
}
LONG_KEYS = {"N": "next_turn", "T": "roll", "C": "chance", "P": "page", "L": "brightness"}
HOLD_MS = 1700  # longer than the hold-to-confirm time


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sim",
        help="run the firmware as a simulated board on a pseudo-terminal",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--board",
        default="trellis_m4",
        help="board profile: trellis_m4 (default), macropad or pico_matrix",
    )
    p.add_argument("--seed", type=int, default=None, help="seed the board's dice (repeatable)")
    p.add_argument(
        "--demo-state",
        action="store_true",
        help="start from the reference table (8 slots mid-round) instead of an empty one",
    )
    p.add_argument("--page", default=None, help="page to show first (initiative, dice, ...)")
    p.add_argument("--png", metavar="FILE", help="write the grid as a PNG image and exit")
    p.add_argument(
        "--pictures",
        metavar="DIR",
        help="write a PNG of every page (reference table) and of the key map, then exit",
    )
    p.add_argument(
        "--seconds", type=float, default=0, help="stop after this many seconds (0 = until q)"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from firmware.boards import NAMES

    if args.board not in NAMES:
        print(f"turnlight sim: unknown board {args.board!r} (known: {', '.join(NAMES)})")
        return 2
    from firmware.pages import PAGE_NAMES

    if args.page is not None and args.page not in PAGE_NAMES:
        print(f"turnlight sim: unknown page {args.page!r} (pages: {', '.join(PAGE_NAMES)})")
        return 2
    from host import simpictures
    from host.simboard import SimulatedBoard

    if args.pictures:
        for written in simpictures.write_pictures(Path(args.pictures), args.board):
            print(f"wrote {written}")
        return 0
    if args.png:
        simpictures.write_one(Path(args.png), args.board, args.page or "initiative", args.seed)
        print(f"wrote {args.png}")
        return 0
    sim = SimulatedBoard(args.board, seed=args.seed)
    if args.demo_state:
        from shared.reference import build_reference_state

        sim.load_state(build_reference_state())
    if args.page:
        sim.set_page(args.page)
    path = sim.start()
    print(f"simulated {args.board} on {path}  (turnlight play --port {path})")
    print(_help_line(sim))
    try:
        _interact(sim, args.seconds)
    finally:
        sim.stop()
    return 0


def _help_line(sim: SimulatedBoard) -> str:
    words = [f"{k}={v}" for k, v in KEYBOARD.items()]
    longs = [f"{k}=long {v}" for k, v in LONG_KEYS.items()]
    return "keys: " + " ".join(words + longs) + " 1-8=select position  q=quit"


def _interact(sim: SimulatedBoard, seconds: float) -> None:
    import select
    import termios
    import tty

    interactive = sys.stdin.isatty()
    saved = termios.tcgetattr(sys.stdin) if interactive else None
    if interactive:
        tty.setcbreak(sys.stdin.fileno())
    deadline = time.monotonic() + seconds if seconds else None
    rows = sim.profile.HEIGHT
    try:
        sys.stdout.write(sim.terminal_grid() + "\n")
        while deadline is None or time.monotonic() < deadline:
            if interactive and select.select([sys.stdin], [], [], 0.05)[0]:
                ch = sys.stdin.read(1)
                if ch == "q":
                    break
                _key(sim, ch)
            elif not interactive:
                time.sleep(0.05)
            sys.stdout.write(f"\x1b[{rows}A" + sim.terminal_grid() + "\n")
            sys.stdout.flush()
    finally:
        if saved is not None:
            termios.tcsetattr(sys.stdin, termios.TCSADRAIN, saved)


def _key(sim: SimulatedBoard, ch: str) -> None:
    control = KEYBOARD.get(ch) or LONG_KEYS.get(ch)
    if ch.isdigit() and "1" <= ch <= "8":
        control = f"pos{int(ch) - 1}"
    if control is None:
        return
    try:
        key = sim.key_for(control)
    except KeyError:
        return
    hold = 0
    if ch in LONG_KEYS:
        hold = 800
    if control in ("end_combat", "reset") or (control == "menu_do" and ch.isupper()):
        hold = HOLD_MS
    sim.press(key, hold)
