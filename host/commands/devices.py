"""`turnlight devices`: list the boards plugged in, and which serial port the link uses."""

from __future__ import annotations

import argparse
import json
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "devices",
        help="list candidate boards (Adafruit and Raspberry Pi USB serial ports)",
        description="List USB serial ports of Adafruit (239a) and Raspberry Pi (2e8a) "
        "boards and mark each one as the data channel the link uses or the REPL console.",
    )
    p.add_argument(
        "--all", action="store_true", help="also list console ports, not only data channels"
    )
    p.add_argument("--json", action="store_true", help="print a JSON list instead of a table")
    p.add_argument(
        "--probe",
        type=float,
        metavar="SECONDS",
        default=0.0,
        help="open each data port and wait up to SECONDS for the board's HELLO",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from host.board import discovery
    from host.core.names import printable

    found = [c for c in discovery.candidates() if args.all or c.role != "console"]
    rows = []
    for c in found:
        row = {
            "port": c.device,
            "role": c.role,
            "vendor": c.vendor,
            "vid_pid": f"{c.vid:04x}:{c.pid:04x}",
            "product": c.product,
            "serial": c.serial_number,
            "interface": c.interface,
        }
        if args.probe > 0 and c.role != "console":
            row["hello"] = probe(c.device, args.probe)
        rows.append(row)
    if args.json:
        print(json.dumps(rows))
        return 0
    if not rows:
        print(
            "no boards found (looked for USB vendor ids 239a Adafruit and 2e8a Raspberry Pi); "
            "is the board plugged in, with usb_cdc data enabled in boot.py?",
            file=sys.stderr,
        )
        return 0
    keys = ["port", "role", "vendor", "vid_pid", "product", "serial"]
    if args.probe > 0:
        keys.append("hello")
    # A device's product name and serial number are its own (any USB gadget sets them), and
    # a board's HELLO its firmware's: printed as `play`'s view prints text, control
    # characters spelt out (host/core/names.py). JSON escapes them itself.
    shown = [{k: printable(str(r.get(k, "")), lines=False) for k in keys} for r in rows]
    widths = {k: max(len(k), *(len(s[k]) for s in shown)) for k in keys}
    print("  ".join(k.upper().ljust(widths[k]) for k in keys).rstrip())
    for s in shown:
        print("  ".join(s[k].ljust(widths[k]) for k in keys).rstrip())
    return 0


def probe(url: str, seconds: float) -> str:
    """What the board on `url` says in its HELLO, or why it says nothing."""
    from host.board.bridge import BoardLink, LinkError

    link = BoardLink(url).start()
    try:
        link.wait_linked(seconds)
        hello = link.session.board
        assert hello is not None
        return (
            f"firmware {hello.fw_major}.{hello.fw_minor}, {hello.profile_name()}, "
            f"{hello.grid_w}x{hello.grid_h}, {hello.journalled} journalled, "
            f"board id {hello.id_text()}"
        )
    except LinkError as err:
        return str(err)
    finally:
        link.stop()
