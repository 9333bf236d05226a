"""`turnlight games`: list the games saved in the journal."""

from __future__ import annotations

import argparse

from host.commands._korxsol_args import add_db, open_journal


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("games", help="list the saved games in the journal")
    add_db(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from host.korxsol import view
    from host.korxsol.words import plural

    journal = open_journal(args)
    listed = journal.games()
    # A game with no events (a `play` still waiting for its first command, or one left by
    # an older turnlight whose start failed) has nothing to show, resume or export.
    games = [g for g in listed if g["events"]]
    empty = len(listed) - len(games)
    note = f"({plural(empty, 'game')} with no events not listed)" if empty else ""
    if not games:
        print(f"no saved games in {journal.path}" + (f" {note}" if note else ""))
        return 0
    rows = [
        [
            str(g["id"]),
            g["session"],
            g["created"][:19],
            g["encounter"],
            str(g["seed"]),
            str(g["events"]),
            g["winner"] or ("-" if g["finished"] is None else "nobody"),
        ]
        for g in games
    ]
    headers = ["id", "session", "started (UTC)", "encounter", "seed", "events", "winner"]
    print(view.text_table(headers, rows))
    if note:
        print(note)
    return 0
