"""`turnlight sim`: run the real firmware as a simulated board on a pseudo-terminal.

It prints the pty's path (open it with `turnlight play --port PATH` or any pyserial
program), draws the LED grid live in the terminal and takes key presses from the keyboard.
`--png FILE` writes one picture of the bare grid and exits; `--pictures DIR` writes every
page labelled, the key map and the printable legend (the README's images); `--legend FILE`
writes the printable legend alone.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from host.commands._web import add_web, web_ok
from host.core import registry
from host.screens.board_keyboard import help_line, press_letter
from host.screens.led_text import led_grid

if TYPE_CHECKING:
    from host.board.simulated_board import SimulatedBoard


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
        metavar="NAME",
        help="board profile: trellis_m4 (default), macropad or pico_matrix",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="N",
        help="seed the board's dice, so a run rolls the same dice as the last run with that "
        "seed (default: a new seed from the OS each time)",
    )
    p.add_argument(
        "--demo-state",
        action="store_true",
        help="start from the reference table (8 fighters mid-round) instead of an empty one",
    )
    p.add_argument(
        "--page", default=None, metavar="NAME", help="page to show first (initiative, dice, ...)"
    )
    p.add_argument("--png", metavar="FILE", help="write the grid as a PNG image and exit")
    p.add_argument(
        "--pictures",
        metavar="DIR",
        help="write a labelled PNG of every page, the key map and the printable legend, then exit",
    )
    p.add_argument(
        "--legend",
        metavar="FILE",
        help="write the board's printable one-page legend (its keys, and every page "
        "labelled) as a PNG, then exit",
    )
    p.add_argument(
        "--ruleset",
        default=registry.DEFAULT,
        metavar="ID",
        help="the game whose table --pictures and --legend show: its bundled encounter, a "
        "few turns in (default: korxsol)",
    )
    p.add_argument(
        "--seconds", type=float, default=0, help="stop after this many seconds (0 = until q)"
    )
    add_web(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from host.commands._errors import board_ok, cannot_write, fail

    if not board_ok(args.board):
        return 2
    from host.board.firmware_host import PAGE_NAMES

    if args.page is not None and args.page not in PAGE_NAMES:
        return fail(f"unknown page {args.page!r} (pages: {', '.join(PAGE_NAMES)})")
    from host.board.simulated_board import SimulatedBoard
    from host.screens import board_pictures

    if args.pictures or args.legend:
        try:
            registry.get(args.ruleset)
        except registry.UnknownRuleset as err:
            return fail(str(err))
    if args.pictures:
        try:
            for written in board_pictures.write_pictures(
                Path(args.pictures), args.board, args.ruleset
            ):
                print(f"wrote {written}")
        except OSError as err:
            return cannot_write(err.filename or args.pictures, err)
        return 0
    if args.legend:
        try:
            board_pictures.write_legend(Path(args.legend), args.board, args.ruleset)
        except OSError as err:
            return cannot_write(args.legend, err)
        print(f"wrote {args.legend}")
        return 0
    if args.png:
        try:
            board_pictures.write_one(
                Path(args.png), args.board, args.page or "initiative", args.seed
            )
        except OSError as err:
            return cannot_write(args.png, err)
        print(f"wrote {args.png}")
        return 0
    if not web_ok(args):
        return 2
    sim = SimulatedBoard(args.board, seed=args.seed)
    if args.demo_state:
        from shared.reference import build_reference_state

        sim.load_state(build_reference_state())
    if args.page:
        sim.set_page(args.page)
    path = sim.start()
    print(f"simulated {args.board} on {path}  (turnlight play --port {path})")
    print(help_line(sim))
    web = None
    try:
        if args.web is not None:
            from host.commands._web import start_web
            from host.web.address import WebError
            from host.web.board_source import BoardLive

            try:
                web = start_web(args.web, BoardLive(sim))
            except WebError as err:
                return fail(str(err))
        _interact(sim, args.seconds)
    finally:
        if web is not None:
            web.stop()
        sim.stop()
    return 0


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
    status = ""  # under the grid: why the last key did nothing, if it did nothing
    try:
        sys.stdout.write(led_grid(sim.grid()) + "\n\n")
        while deadline is None or time.monotonic() < deadline:
            if interactive and select.select([sys.stdin], [], [], 0.05)[0]:
                ch = sys.stdin.read(1)
                if ch == "q":
                    break
                status = press_letter(sim, ch)
            elif not interactive:
                time.sleep(0.05)
            sys.stdout.write(f"\x1b[{rows + 1}A" + led_grid(sim.grid()) + "\n\x1b[2K")
            sys.stdout.write(status + "\n")
            sys.stdout.flush()
    finally:
        if saved is not None:
            termios.tcsetattr(sys.stdin, termios.TCSADRAIN, saved)
