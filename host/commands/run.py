"""`turnlight run`: play a script of commands against an encounter, then print the state."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from host.commands._game_args import add_encounter, game_seed, load_encounter
from host.core.plurals import plural

if TYPE_CHECKING:
    from host.core.journal import Journal
    from host.core.session import Session


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run",
        help="run a script of game commands without interaction and print the final state",
        description="Run the commands of docs/commands.md from a file and print the final "
        "state. A rejected command stops the run with FILE:LINE: reason (exit status 2).",
    )
    add_encounter(p)
    p.add_argument("--script", required=True, metavar="FILE", help="commands, one per line")
    p.add_argument("--json", action="store_true", help="print the final state as one JSON object")
    p.add_argument(
        "--keep-going", action="store_true", help="report rejected commands and carry on"
    )
    p.add_argument("--db", metavar="PATH", help="also journal the game to this database")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from host.core import textfile
    from host.core.commandline import MAX_LINE
    from host.core.interface import IllegalAction
    from host.core.journal import Journal
    from host.core.names import printable
    from host.core.session import Session
    from host.screens import text_tables

    enc = load_encounter(args)
    if enc is None:
        return 2
    try:
        script = textfile.read_lines(args.script, MAX_LINE)
    except OSError as err:
        print(f"turnlight: {args.script}: {err.strerror}", file=sys.stderr)
        return 2
    except textfile.TextFileError as err:  # not UTF-8, or a line longer than a command
        print(f"turnlight: {err}", file=sys.stderr)
        return 2
    journal = Journal(args.db) if args.db else None
    session = Session(enc, game_seed(args), journal)
    print(f"seed {session.seed}", file=sys.stderr)  # `--seed` with it plays the same dice
    log: list[str] = []
    errors: list[str] = []
    status = 0
    try:
        for number, line in enumerate(script, start=1):
            try:
                log.extend(session.execute(line))
            except IllegalAction as err:
                message = f"{args.script}:{number}: {err}"
                errors.append(message)
                print(f"turnlight: {printable(message, False)}", file=sys.stderr)
                if not args.keep_going:
                    status = 2
                    break
    finally:
        if journal is not None:
            _say_what_was_journalled(session, journal, status != 0, bool(errors))
    game, ruleset = session.game, session.ruleset
    if args.json:
        state = ruleset.snapshot(game)
        state["log"] = log
        state["errors"] = errors
        print(json.dumps(state, indent=2, sort_keys=True))
    else:
        print(printable("\n".join(log)))
        print()
        print(printable(text_tables.table_text(ruleset.roster(game))))
        print()
        print(printable(text_tables.table_text(ruleset.score_table(game))))
        winner = ruleset.winner(game)
        print(printable(f"\nwinner: {winner}" if winner else "\nthe game goes on"))
    return status


def _say_what_was_journalled(
    session: Session, journal: Journal, stopped: bool, refused: bool
) -> None:
    """A run that journalled nothing leaves no game behind; one that stopped part way (or
    had lines refused) says which game it left in the journal."""
    if session.discard_if_empty():
        if refused:
            print(
                f"turnlight: nothing was journalled: game {session.game_id} removed from "
                f"{journal.path}",
                file=sys.stderr,
            )
        return
    if refused:
        events = len(journal.events(session.game_id or 0))
        held = "the lines before the refused one" if stopped else "every line not refused"
        print(
            f"turnlight: game {session.game_id} is left in {journal.path} with "
            f"{plural(events, 'event')} ({held}): "
            f"`turnlight play --db {journal.path} --resume {session.game_id}` continues it",
            file=sys.stderr,
        )
