"""`turnlight demo`: a whole encounter played by its ruleset's simple AI, turn by turn,
through a simulated board on a real pseudo-terminal: the board's next-turn key starts the
game and ends each turn, the laptop sends the AI's actions, the board's LEDs are drawn
after each turn (with --pace, after each action, in place: host/screens/paced_screen.py), and the
score table closes it."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from host.commands._game_args import add_encounter, game_seed, load_encounter
from host.commands._web import add_web, web_ok
from host.core.audience import Line
from host.core.newcomers import MOST_FIGHTERS
from host.screens import text_tables
from host.screens.paced_screen import PacedScreen

if TYPE_CHECKING:
    from host.web.sources import DemoLive

MAX_TURNS = 200  # a fight that has not ended by then is called a draw
TURNS_A_FIGHTER = 25  # ... or, in a bigger fight, by this many turns for each fighter
# Rolls one action may wait for: initiative's, a roll for each fighter with its rerolls.
MAX_WANTED_ROLLS = 8 * MOST_FIGHTERS


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
    p.add_argument(
        "--pace",
        type=float,
        default=0,
        metavar="SECONDS",
        help="wait this long after each action, the grid redrawn in place on a terminal, so "
        "a person can follow the game (default 0: as fast as it goes)",
    )
    add_web(p)
    p.set_defaults(run=run)


def play(
    enc,
    seed: int,
    out: Callable[[str], None] = print,
    color: bool = False,
    journal=None,
    board: str | None = None,
    pace: PacedScreen | None = None,
    web: str | None = None,
):
    """Play the encounter to its end; returns the session. With `board`, through a
    simulated board of that profile on a pty; with `pace`, at its speed, its frames drawn
    after each action (the closing tables still go to `out`); with `web` (an address), the
    web pages show it live (host/web/) and stay up after the end until Ctrl-C."""
    from host.core.session import Session

    session = Session(enc, seed, journal)
    try:
        _play_on(session, out, color, board, pace, web)
    finally:
        session.discard_if_empty()  # a demo that never got going leaves no empty game
    return session


def _play_on(
    session,
    end: Callable[[str], None],
    color: bool,
    board: str | None,
    pace: PacedScreen | None,
    web: str | None = None,
) -> None:
    import threading

    ruleset = session.ruleset
    out = end if pace is None else pace.say
    lock = threading.RLock()  # the web view reads the game between the demo's actions
    if board is None:
        out(ruleset.grid_legend)

        def grid() -> str:
            return ruleset.device_grid(session.game, color)

        def execute(command: str) -> list[str]:
            with lock:
                return session.execute(command)

        with _web(web, session, lock, None, out) as say:
            _play(session, say, execute, grid, end, pace)
        return
    from host.board.tethered_sim import SHADE_LEGEND, BoardDidNotFollow, TetheredSim
    from host.screens.led_text import titled_grid
    from shared import dice

    with TetheredSim(session, board) as table:
        out(f"simulated {board} board on {table.path}")
        if not color:
            out(SHADE_LEGEND)
        if ruleset.asks_for_rolls and table.has_key("roll"):
            session.dice_from = "board"  # a ruleset that asks for its rolls gets the board's

        def rolled(lines: list[str]) -> list[str]:
            """While an action waits for its dice, the board's roll key rolls them (what
            the board cannot roll, more than 3 chance flips, say, the engine does)."""
            for _ in range(MAX_WANTED_ROLLS):
                pending = session.pending
                if pending is None:
                    break
                given = len(pending.supplied)
                wanted = pending.wanted
                table.settle()  # the board shows what is wanted before its key is pressed
                if wanted is None or (wanted.kind == dice.KIND_CHANCE and wanted.count > 3):
                    lines += table.execute("roll")  # more flips than the board's key makes
                    continue
                try:
                    lines += table.press("roll")  # it rolls exactly what is wanted
                except BoardDidNotFollow:
                    pass
                if session.pending is pending and len(pending.supplied) == given:
                    lines += table.execute("roll")  # the board's roll did not fit: the engine's
            return lines

        def act(command: str) -> list[str]:
            # The board's own keys roll the dice a command will use, start the game and end
            # each turn; the rest is typed.
            lines: list[str] = []
            presses, typed = ruleset.demo_presses(session.game, command)
            if all(table.has_key(control) for control in presses):
                for control in presses:
                    lines += table.press(control)
            else:
                typed = True  # a board without those keys (the Pico's menu): typed alone
            if not typed:
                return rolled(lines)
            # (the turn of a fighter with no board slot is ended where it shows: typed)
            off = any(f.current for f in ruleset.off_board(session.game))
            if command in ruleset.next_turn_commands and table.has_key("next_turn") and not off:
                return rolled(lines + table.press("next_turn"))
            lines += table.execute(command)
            table.settle()
            return rolled(lines)

        def board_grid() -> str:
            # In colour, drawn as the other screens draw it (dim LEDs brightened).
            return titled_grid(table.sim) if color else table.grid(False)

        assert table.tether is not None
        with _web(web, session, table.tether.lock, table.sim, out, table.tether) as say:
            _play(session, say, act, board_grid, end, pace)


def to_pages(live: DemoLive, out: Callable[[str], None]) -> Callable[[str], None]:
    """Each line to the pages' log (a Line as it is: its players' wording stands) and to
    `out`."""

    def say(line: str) -> None:
        live.say(line if isinstance(line, Line) else line.strip())
        out(line)

    return say


@contextmanager
def _web(
    address: str | None, session, lock, sim, out: Callable[[str], None], tether=None
) -> Iterator[Callable[[str], None]]:
    """Serve the web pages beside the demo (when an address is given): its lines go to
    the pages' log as well as to `out`. After the game they stay up until Ctrl-C."""
    if address is None:
        yield out
        return
    from host.commands._web import start_web
    from host.web.sources import DemoLive

    # The board follows a change of what is hidden at once (the tether's next snapshot).
    follow = (lambda: tether.guard(list)) if tether is not None else list
    live = DemoLive(session, lock, lambda: sim, follow)
    server = start_web(address, live)

    try:
        yield to_pages(live, out)
        try:  # a Ctrl-C right after the line below is inside, too
            print("the demo is over; the web pages stay up until Ctrl-C", file=sys.stderr)
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    finally:
        server.stop()


def _play(
    session,
    out: Callable[[str], None],
    act: Callable[[str], list[str]],
    grid: Callable[[], str],
    end: Callable[[str], None],
    pace: PacedScreen | None,
) -> None:
    """The game, turn by turn, through `out`; the grid after each turn (or, paced, after
    each action); then the closing tables through `end`."""
    from host.core.interface import IllegalAction
    from host.core.plurals import plural

    ruleset = session.ruleset
    enc = session.encounter
    # The seed is the game master's: the engine's dice follow from it (the players' page
    # reads the line without it).
    heading = f"{enc.name}: {' vs '.join(enc.teams)}"
    out(Line(f"{heading} (seed {session.seed})", players=heading))
    if pace is not None:
        pace.keep_on_top()
    for line in act(ruleset.start_command):
        out("  " + line)
    if pace is not None:
        pace.frame(grid())
    most = max(MAX_TURNS, TURNS_A_FIGHTER * len(ruleset.fighter_names(session.game)))
    for _ in range(most):
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
            if pace is not None:
                pace.frame(grid())
            if session.over:
                break
        if pace is None:
            out(grid())
    if pace is not None:
        pace.done()
    out = end
    game = session.game
    out("")
    out(text_tables.table_text(ruleset.roster(game)))
    out("")
    out(text_tables.table_text(ruleset.score_table(game)))
    winner = ruleset.winner(game)
    rounds = plural(ruleset.state(game).round, "round")
    out(f"\nwinner: {winner} after {rounds}" if winner else "\ndraw: turn limit")


def run(args: argparse.Namespace) -> int:
    from host.commands._errors import board_ok, fail

    if not args.no_board and not board_ok(args.board):
        return 2
    if not web_ok(args):
        return 2
    enc = load_encounter(args)
    if enc is None:
        return 2
    journal = None
    if args.db:
        from host.core.journal import Journal

        journal = Journal(args.db)
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    pace = None
    if args.pace:
        pace = PacedScreen(args.pace, _write, in_place=sys.stdout.isatty())
    board = None if args.no_board else args.board
    from host.web.address import WebError

    try:
        play(enc, game_seed(args), print, color, journal, board, pace, args.web)
    except WebError as err:
        return fail(str(err))
    return 0


def _write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
