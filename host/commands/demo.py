"""`turnlight demo`: a whole korxsol encounter played by a simple AI, turn by turn, with
the board's grid drawn after each turn and the score table at the end."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from host.commands._korxsol_args import add_encounter, load_encounter

MAX_TURNS = 200  # a fight that has not ended by then is called a draw


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo",
        help="play a whole korxsol encounter automatically and print each turn",
        description="A simple AI plays every side of the encounter; the same seed gives "
        "the same game.",
    )
    add_encounter(p)
    p.add_argument("--db", metavar="PATH", help="journal the demo game to this database")
    p.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto", help="truecolor grid"
    )
    p.set_defaults(run=run)


def play(enc, seed: int, out: Callable[[str], None] = print, color: bool = False, journal=None):
    """Play the encounter to its end; returns the session."""
    from host.korxsol import ai, odds, view
    from host.korxsol.rolls import IllegalAction
    from host.korxsol.session import Session

    session = Session(enc, seed, journal)
    out(f"{enc.name}: {' vs '.join(enc.teams)} (seed {seed})")
    for line in session.execute("initiative"):
        out("  " + line)
    for _ in range(MAX_TURNS):
        game = session.game
        if game.winner is not None:
            break
        for command in ai.plan_turn(game):
            out(f"> {command}")
            for line in odds.before_attack(session.game, command):
                out("  " + line)
            try:
                for line in session.execute(command):
                    out("  " + line)
            except IllegalAction as err:
                out(f"  refused: {err}")
                if command == "end":
                    raise
            if session.game.winner is not None:
                break
        out(view.render_grid(session.game.state, color))
    game = session.game
    out("")
    out(view.text_table(view.FIGHTER_HEADERS, view.fighter_rows(game)))
    out("")
    out(view.text_table(view.SCORE_HEADERS, view.score_rows(game)))
    winner = game.snapshot()["winner"]
    out(f"\nwinner: {winner} after {game.state.round} round(s)" if winner else "\ndraw: turn limit")
    return session


def run(args: argparse.Namespace) -> int:
    enc = load_encounter(args)
    if enc is None:
        return 2
    journal = None
    if args.db:
        from host.korxsol.journal import Journal

        journal = Journal(args.db)
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    play(enc, args.seed, print, color, journal)
    return 0
