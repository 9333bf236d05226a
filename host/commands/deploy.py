"""`turnlight deploy`: copy the board's files onto a mounted CIRCUITPY drive."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    from host.board.circuitpy_drive import DEFAULT_BOARD, PYSTACK_BYTES

    p = sub.add_parser(
        "deploy",
        help="copy the firmware, the shared engine and its libraries onto a CIRCUITPY drive",
        description="Copy boot.py, code.py, firmware/, shared/ and the libraries the board "
        "needs (adafruit_ticks, from the installed Python package) onto a mounted "
        "CIRCUITPY drive, and set TURNLIGHT_BOARD in its settings.toml (and "
        f"CIRCUITPY_PYSTACK_SIZE to at least {PYSTACK_BYTES}, the Python stack the board's "
        "deepest path needs with room to spare, or to the board's CircuitPython's own default "
        "if larger: 2048 on 10.x; a larger value there stays). Each file is written "
        "under a temporary name and then renamed, code.py last; files already identical are "
        "left alone, and modules the project no longer has are removed. The drive's "
        "boot_out.txt must say CircuitPython 9 or later on the board --board is for "
        "(--force skips that check).",
    )
    p.add_argument(
        "--drive",
        type=Path,
        required=True,
        metavar="PATH",
        help="where the CIRCUITPY drive is mounted (it must hold boot_out.txt), "
        "e.g. /media/$USER/CIRCUITPY or E:\\",
    )
    p.add_argument(
        "--board",
        default=DEFAULT_BOARD,
        metavar="NAME",
        help=f"board profile to select, a file in firmware/boards/ (default {DEFAULT_BOARD})",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="deploy even when boot_out.txt names another board than --board's, or a "
        "CircuitPython older than 9 (it must still be CircuitPython's boot_out.txt)",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="print what would be copied, kept and removed, and write nothing",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from host.board import circuitpy_drive
    from host.commands._errors import fail

    try:
        plan = circuitpy_drive.make_plan(
            args.drive, args.board, root=circuitpy_drive.ROOT, force=args.force
        )
        if args.dry_run:
            circuitpy_drive.describe_plan(plan, out=_say)
        else:
            circuitpy_drive.apply_plan(plan, out=_say)
    except circuitpy_drive.DeployError as err:
        return fail(str(err), err.exit_code)
    except OSError as err:  # e.g. the drive went away while its files were being read
        return fail(f"{err.filename or args.drive}: {err.strerror}", 1)
    print(circuitpy_drive.summary(plan, dry_run=args.dry_run))
    return 0


def _say(line: str) -> None:
    print(line, flush=True)
