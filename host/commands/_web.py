"""The `--web [HOST:PORT]` option, defined once for `play` and `demo`, and starting the
web pages (host/web/) beside a session."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from host.web.serving import WebServer
    from host.web.sources import Source

DEFAULT = "127.0.0.1:8765"


def add_web(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--web",
        nargs="?",
        const=DEFAULT,
        default=None,
        metavar="HOST:PORT",
        help=f"serve the live players' page (/) and the game master's console (/gm, with a "
        f"token printed here, kept in the game's journal so --resume keeps it) in a browser "
        f"(default {DEFAULT}; another address than this machine's own prints a warning; "
        "0.0.0.0 serves every address, and the URLs and QR code name this machine's "
        "address on its network, for a phone)",
    )


def web_ok(args: argparse.Namespace) -> bool:
    """False (said in one line) for a --web address that cannot be read: checked before
    a journal, a board or a game is set up."""
    if getattr(args, "web", None) is None:
        return True
    from host.web.address import WebError, parse_address

    try:
        parse_address(args.web)
    except WebError as err:
        print(f"turnlight: {err}", file=sys.stderr)
        return False
    return True


def phones_line(server: WebServer) -> str | None:
    """None when a phone on the network can open the pages; else the one line that says how
    to let phones in (served on this machine's own address only)."""
    from host.web.address import is_loopback

    if not is_loopback(server.host):
        return None  # bound to the network (if it has no address, start_web warns)
    return (
        f"phones cannot open {server.shown_host}: to let them in, serve on the network"
        f" with --web 0.0.0.0:{server.port}"
    )


def start_web(address: str, source: Source, qr: bool = True) -> WebServer:
    """Start serving; say where on stderr (the console's URL with its token, and as a QR
    code). Raises host.web.address.WebError in one line."""
    from host.web.address import is_loopback, parse_address
    from host.web.serving import WebServer

    host, port = parse_address(address)
    server = WebServer(source, host, port).start()
    if not is_loopback(host):
        print(
            f"warning: --web {host}:{server.port} serves the players' page to anyone who can"
            " reach this machine (the console still needs its token)",
            file=sys.stderr,
        )
    if not is_loopback(host) and is_loopback(server.shown_host):
        print(
            "warning: this machine has no network address a phone could reach: the pages"
            " below are for this machine only",
            file=sys.stderr,
        )
    print(f"players' page: {server.player_url}", file=sys.stderr)
    print(f"game master's console: {server.gm_url}", file=sys.stderr)
    hint = phones_line(server)
    if hint is not None:
        print(hint, file=sys.stderr)
    # A QR code only for an address a phone can open: one of 127.0.0.1 takes a phone to
    # itself.
    if qr and not is_loopback(server.shown_host):
        try:
            import segno

            code = segno.make(server.gm_url, error="l")
            code.terminal(out=sys.stderr, compact=True, border=2)
        except ImportError:
            pass
    return server
