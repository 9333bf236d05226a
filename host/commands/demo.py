"""`turnlight demo`: a whole encounter played by its ruleset's simple AI, turn by turn,
through a simulated board on a real pseudo-terminal: the board's next-turn key starts the
game and ends each turn, the laptop sends the AI's actions, the board's LEDs are drawn
after each turn, and the score table closes it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from host import view
from host.commands._game_args import add_encounter, game_seed, load_encounter

MAX_TURNS = 200  # a fight that has not ended by then is called a draw


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo",
        help="play a whole encounter automatically and print each turn",
        description="The ruleset's simple AI plays every side of the encounter; the same "
        "seed gives the same game.",
    )
    add_encounter(p)
    p.add_argument("--db", metavar="PATH", help="journal the demo game to this database")
    p.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto", help="truecolor grid"
    )
    p.add_argument(
        "--board",
        default="trellis_m4",
        metavar="NAME",
        help="the simulated board's profile (trellis_m4, macropad, pico_matrix)",
    )
    p.add_argument(
        "--no-board",
        action="store_true",
        help="play on the laptop alone and draw the device view instead of the board",
    )
    p.set_defaults(run=run)


def play(
    enc,
    seed: int,
    out: Callable[[str], None] = print,
    color: bool = False,
    journal=None,
    board: str | None = None,
):
    """Play the encounter to its end; returns the session. With `board`, through a
    simulated board of that profile on a pty."""
    from host.session import Session

    session = Session(enc, seed, journal)
    try:
        _play_on(session, out, color, board)
    finally:
        session.discard_if_empty()  # a demo that never got going leaves no empty game
    return session


def _play_on(session, out: Callable[[str], None], color: bool, board: str | None) -> None:
    ruleset = session.ruleset
    if board is None:
        out(ruleset.grid_legend)
        _play(session, out, session.execute, lambda: ruleset.device_grid(session.game, color))
        return
    from host.tethered_sim import SHADE_LEGEND, TetheredSim

    with TetheredSim(session, board) as table:
        out(f"simulated {board} board on {table.path}")
        if not color:
            out(SHADE_LEGEND)

        def act(command: str) -> list[str]:
            # The board's own key starts the game and ends each turn; the rest is typed.
            if command in ruleset.next_turn_commands and table.has_key("next_turn"):
                return table.press("next_turn")
            lines = table.execute(command)
            table.settle()
            return lines

        _play(session, out, act, lambda: table.grid(color))


def _play(session, out, act: Callable[[str], list[str]], grid: Callable[[], str]) -> None:
    from host.ruleset import IllegalAction
    from host.words import plural

    ruleset = session.ruleset
    enc = session.encounter
    out(f"{enc.name}: {' vs '.join(enc.teams)} (seed {session.seed})")
    for line in act(ruleset.start_command):
        out("  " + line)
    for _ in range(MAX_TURNS):
        if session.over:
            break
        for command in ruleset.plan_turn(session.game):
            out(f"> {command}")
            for line in ruleset.before(session.game, command):
                out("  " + line)
            try:
                for line in act(command):
                    out("  " + line)
            except IllegalAction as err:
                out(f"  refused: {err}")
                if command in ruleset.next_turn_commands:
                    raise
            if session.over:
                break
        out(grid())
    game = session.game
    out("")
    out(view.table_text(ruleset.roster(game)))
    out("")
    out(view.table_text(ruleset.score_table(game)))
    winner = ruleset.winner(game)
    rounds = plural(ruleset.state(game).round, "round")
    out(f"\nwinner: {winner} after {rounds}" if winner else "\ndraw: turn limit")


def run(args: argparse.Namespace) -> int:
    from host.commands._errors import board_ok

    if not args.no_board and not board_ok(args.board):
        return 2
    enc = load_encounter(args)
    if enc is None:
        return 2
    journal = None
    if args.db:
        from host.journal import Journal

        journal = Journal(args.db)
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    play(enc, game_seed(args), print, color, journal, None if args.no_board else args.board)
    return 0
