"""`turnlight play`: the game master's interactive session with the live view."""

from __future__ import annotations

import argparse
import sys

from host.commands._korxsol_args import add_db, add_encounter, load_encounter, open_journal


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play",
        help="the game master's interactive session (live view, completion, journal)",
        description="Every command is journalled before it is shown; --resume continues a "
        "killed session exactly. Type `help` inside for the commands.",
    )
    add_encounter(p)
    add_db(p)
    p.add_argument(
        "--resume",
        nargs="?",
        const=0,
        type=int,
        metavar="GAME",
        help="continue a saved game (default: the latest)",
    )
    board = p.add_mutually_exclusive_group()
    board.add_argument("--port", metavar="PORT", help="the board's serial port (or a pyserial URL)")
    board.add_argument("--sim", action="store_true", help="start a simulated board on a pty")
    board.add_argument("--no-board", action="store_true", help="play without a board")
    p.set_defaults(run=run)


def board_note(args: argparse.Namespace) -> str:
    """Until the link (issue 3) is merged, the session runs untethered and says so."""
    if args.no_board:
        return "no board: playing on the laptop alone"
    wanted = args.port or ("a simulated board" if args.sim else "an automatically found board")
    return f"board: {wanted} is not connected (the board link is not in this build)"


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from host.korxsol.play_ui import PlayUI, make_prompt
    from host.korxsol.rolls import IllegalAction
    from host.korxsol.session import Session, resume

    journal = open_journal(args)
    if args.resume is not None:
        try:
            session = resume(journal, args.resume or None)
        except IllegalAction as err:
            print(f"turnlight: {err}", file=sys.stderr)
            return 2
    else:
        enc = load_encounter(args)
        if enc is None:
            return 2
        session = Session(enc, args.seed, journal)
    print(f"journal: {journal.path} (game {session.game_id})", file=sys.stderr)
    ui = PlayUI(session, Console(), board_note(args))
    ui.loop(make_prompt(ui))
    return 0
