"""`turnlight play`: the game master's interactive session with the live view."""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from host.commands._game_args import (
    add_db,
    add_encounter,
    add_monsters,
    game_seed,
    load_encounter,
    open_journal,
    ruleset_ok,
)
from host.commands._web import DEFAULT as DEFAULT_WEB
from host.commands._web import add_web, web_ok

if TYPE_CHECKING:
    from host.board.simulated_board import SimulatedBoard
    from host.board.tether import Tether
    from host.core.session import Session

BOARD_UNDO = ("own", "all", "off")  # host/board/tether.py's, without importing the link here
DICE_FROM = ("board", "engine", "entered", "smart")  # host/core/session.py's, the same way


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play",
        help="the game master's interactive session (live view, completion, journal)",
        description="Every command is journalled before it is shown; --resume continues a "
        "killed session exactly. Type `help` inside for the commands.",
    )
    add_encounter(p)
    add_monsters(p)
    add_db(p)
    p.add_argument(
        "--campaign",
        metavar="NAME",
        help="play the campaign's next fight: its party as it last stood against --monsters"
        " (the book's) or --encounter's other side (`turnlight campaign`, docs/campaign.md)",
    )
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
    board.add_argument(
        "--sim", action="store_true", help="start a simulated board on a pty and play with it"
    )
    board.add_argument("--no-board", action="store_true", help="play without a board")
    p.add_argument(
        "--board",
        default=None,
        metavar="NAME",
        help="with --sim: the simulated board's profile (trellis_m4 (default), macropad, "
        "pico_matrix); a real board says its own",
    )
    p.add_argument(
        "--board-undo",
        choices=BOARD_UNDO,
        default="own",
        help="what the board's undo key may take back: own (default: only what was pressed "
        "on the board, never a typed command), all (whatever was last) or off",
    )
    p.add_argument(
        "--dice",
        choices=DICE_FROM,
        default=None,
        help="where an action's dice come from: engine (the default: the engine rolls, and "
        "a roll pressed on the board waits for the next action that wants it), board (the "
        "action waits for the board's roll key), entered (the action waits for `dice "
        "FACES`) or smart (the paired Bluetooth dice, `turnlight dice pair`; needs the "
        "`dice` extra, said in one line when missing); for a ruleset that asks for its "
        "rolls (korxsol), else the engine rolls. `dice from SOURCE` changes it in play; a "
        "resumed game keeps the last one",
    )
    p.add_argument(
        "--screen",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="with --sim on a terminal: one full-screen app with the board's grid live beside "
        "the view and the prompt, its keys pressed from the keyboard (default); --no-screen "
        "keeps the line prompt",
    )
    p.add_argument(
        "--link-timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="how long to wait for the board's HELLO (default 5)",
    )
    add_web(p)
    p.set_defaults(run=run)


def connect_board(
    args: argparse.Namespace, session: Session
) -> tuple[Tether | None, str, Callable[[], None], SimulatedBoard | None]:
    """The tether to the board the options ask for (None without one), a note for the
    view, what to call at the end, and the simulated board (with --sim). An explicit --port
    that cannot be reached is an error; a board not found automatically is not (play goes
    on without one)."""
    from host.board.bridge import LinkError
    from host.board.discovery import data_ports
    from host.board.tether import Tether

    if args.no_board:
        return None, "no board: playing on the laptop alone", _nothing, None
    if args.sim:
        from host.board.tethered_sim import TetheredSim

        table = TetheredSim(session, args.board, args.board_undo).start(args.link_timeout)
        print(f"simulated {args.board} board on {table.path}", file=sys.stderr)
        return table.tether, "", table.stop, table.sim
    url = args.port
    if url is None:
        ports = data_ports()
        if not ports:
            note = "no board found: playing on the laptop alone (use --port or --sim)"
            return None, note, _nothing, None
        url = ports[0]
    tether = Tether(session, url, args.board_undo)
    try:
        tether.start(args.link_timeout)
    except LinkError as err:
        if args.port is not None:
            raise
        note = f"board {url} did not link ({err}): playing on the laptop alone"
        return None, note, _nothing, None
    return tether, "", tether.stop, None


def _nothing() -> None:
    pass


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from host.board.bridge import LinkError
    from host.commands._errors import board_ok, fail
    from host.core.interface import IllegalAction
    from host.core.session import Session, resume
    from host.screens.play_ui import PlayUI, make_prompt, resumed_line

    if args.board is not None and not args.sim:
        why = "it picks the simulated board's profile (a real board says its own)"
        if args.no_board or args.port:
            other = "--no-board" if args.no_board else "--port"
            return fail(f"--board {args.board} and {other} conflict: {why}")
        return fail(f"--board {args.board} goes with --sim: {why}")
    args.board = args.board or "trellis_m4"
    if args.sim and not board_ok(args.board):
        return 2
    if not ruleset_ok(args):
        return 2
    if args.resume is not None and args.monsters is not None:
        return fail("--monsters starts a new fight; a resumed game keeps its own (drop one)")
    if not web_ok(args):
        return 2
    if args.dice == "smart":
        from host.dice.play_hook import bleak_missing

        if bleak_missing():
            return fail(bleak_missing())
    journal = open_journal(args)
    from host.commands.campaign import Refused, campaign_fight, hold_campaign

    try:
        held = hold_campaign(args, journal)  # (a campaign's fight: one session at a time)
        fight = campaign_fight(args, journal) if args.campaign is not None else None
    except Refused as err:
        return fail(str(err))
    if fight is not None:
        session = fight
    elif args.resume is not None:
        game_id = args.resume or journal.latest_game()
        played = (journal.game(game_id) or {}).get("ruleset") if game_id else None
        if args.ruleset is not None and played is not None and played != args.ruleset:
            return fail(
                f"--ruleset {args.ruleset}: game {game_id} is played under {played}"
                " (resume it without --ruleset)"
            )
        try:
            session = resume(journal, args.resume or None)
            if args.dice is not None:
                session.set_dice_from(args.dice)  # journalled: the next resume keeps it
        except IllegalAction as err:
            return fail(str(err))
    else:
        enc = load_encounter(args)
        if enc is None:
            return 2
        session = Session(enc, game_seed(args), journal)
    started = f"journal: {journal.path} (game {session.game_id}), seed {session.seed}"
    print(started, file=sys.stderr)
    ui: PlayUI | None = None
    try:
        try:
            tether, note, disconnect, sim = connect_board(args, session)
        except LinkError as err:  # it may quote a board's words: fail() spells them out
            return fail(str(err))
        if args.dice is not None and args.resume is None:
            session.dice_from = args.dice  # (not journalled: a game with no events is removed)
        web = None
        smart_dice = None
        try:
            ui = PlayUI(session, Console(), note, tether=tether)
            ui.about.append(started)
            if args.resume is not None:  # (the log would start empty: say where it is)
                ui.messages.append(resumed_line(session))
            if sim is not None and tether is not None:
                ui.about.append(f"simulated {args.board} board on {tether.link.url}")
            from host.dice.play_hook import SmartDiceForPlay

            smart_dice = SmartDiceForPlay(ui).start()  # once the dice come from "smart"
            if args.web is not None:
                from host.commands._web import phones_line, start_web
                from host.web.address import WebError
                from host.web.sources import PlayLive

                try:
                    web = start_web(args.web, PlayLive(ui, sim))
                except WebError as err:
                    print(f"turnlight: {err}", file=sys.stderr)
                    ui = None  # the error stays the last line
                    return 2
                ui.messages.append(f"web: players {web.player_url}, console {web.gm_url}")
                ui.about += [f"players' page: {web.player_url}", f"console: {web.gm_url}"]
                ui.console_url = web.gm_url
                ui.phones_line = phones_line(web)
            if sim is not None and args.screen and sys.stdin.isatty() and sys.stdout.isatty():
                from host.screens.play_screen import PlayScreen

                PlayScreen(ui, sim).run()
            else:
                ui.loop(make_prompt(ui))
        finally:
            if smart_dice is not None:
                smart_dice.stop()
            if web is not None:
                web.stop()
            disconnect()
    finally:
        # Whatever ended the session (quit, an error, a port that never opened), a game
        # with nothing in it is not left behind for `--resume` and `export` to find.
        # Said only after a session that ran: after an error, the error stays the last line.
        kept = None
        for game in {id(s): s for s in (session, ui.session if ui else session)}.values():
            if game.discard_if_empty():
                if ui is not None:
                    print(f"journal: game {game.game_id} had no events: removed", file=sys.stderr)
            else:
                kept = game
        if held is not None:
            held.release()
    if kept is not None and ui is not None:
        setup = same_setup(args, kept.dice_from)
        again = " ".join(["turnlight play --resume", str(kept.game_id), *setup])
        print(f"game {kept.game_id} saved; resume with: {again}", file=sys.stderr)
    return 0


def same_setup(args: argparse.Namespace, dice_from: str) -> list[str]:
    """The options that play the game again as it was set up: its journal, its board (and
    the simulated board's profile), where its dice come from now, what the board's undo
    takes back, the web pages and the screen."""
    words = [f"--db {shlex.quote(args.db)}"] if args.db else []
    if args.sim:
        words.append("--sim")
        if args.board not in (None, "trellis_m4"):
            words.append(f"--board {args.board}")
    elif args.port:
        words.append(f"--port {shlex.quote(args.port)}")
    elif args.no_board:
        words.append("--no-board")
    if dice_from != "engine":
        words.append(f"--dice {dice_from}")
    if args.board_undo != "own":
        words.append(f"--board-undo {args.board_undo}")
    if args.web is not None:
        words.append("--web" if args.web == DEFAULT_WEB else f"--web {shlex.quote(args.web)}")
    if not args.screen:
        words.append("--no-screen")
    return words
