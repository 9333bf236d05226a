"""`turnlight games`: list the games saved in the journal."""

from __future__ import annotations

import argparse
import sys

from host.commands._game_args import add_db, saved_journal
from host.core.journal import default_path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "games",
        help="list the saved games in the journal",
        description="List the games in the journal: id, session, when it started, its "
        "ruleset, the encounter, the seed, how many events it holds and who won ('-' while "
        "it goes on). The id is what `turnlight export GAME` and `turnlight play --resume "
        "GAME` take. A game with no events is left out (and counted).",
    )
    add_db(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from host.core.names import printable
    from host.core.plurals import plural
    from host.screens import text_tables

    if not args.db and not default_path().is_file():  # a first run: no mistake
        print(f"no saved games: no journal at {default_path()} yet")
        return 0
    journal = saved_journal(args)
    if journal is None:
        return 2
    listed = journal.games()
    # A game with no events (a `play` still waiting for its first command, or one left by
    # an older turnlight whose start failed) has nothing to show, resume or export.
    games = [g for g in listed if g["events"]]
    empty = len(listed) - len(games)
    note = f"({plural(empty, 'game')} with no events not listed)" if empty else ""
    if not games:
        print(f"no saved games in {journal.path}" + (f" {note}" if note else ""))
        return 0
    # Printable: a journal row is anyone's text (an old journal's, a forger's), never an
    # escape code sent to the terminal.
    rows = [
        [
            printable(str(value), lines=False)
            for value in (
                g["id"],
                g["session"],
                str(g["created"])[:16].replace("T", " "),
                g["ruleset"],
                g["encounter"],
                g["seed"],
                g["events"],
                g["winner"] or ("-" if g["finished"] is None else "nobody"),
            )
        ]
        for g in games
    ]
    headers = ["id", "session", "started (UTC)", "ruleset", "encounter", "seed", "events", "winner"]
    print(text_tables.text_table(headers, rows, wrap=(4,), width=text_tables.TABLE_WIDTH))
    if note:
        print(note)
    # Each game's chain is checked: a damaged one is named with its first bad event.
    damaged = 0
    for g in games:
        checked = journal.checked(g["id"])
        if checked is not None and checked.problem is not None:
            damaged += 1
            problem = printable(checked.problem, lines=False)
            print(f"turnlight: game {g['id']} is damaged: {problem}", file=sys.stderr)
    return 1 if damaged else 0
