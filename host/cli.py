"""The `turnlight` command: one subcommand per module in host/commands/.

Each command module has `register(subparsers)`, which adds its parser and sets `run`; heavy
imports stay inside the command's own run function so `turnlight --help` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = (
    "host.commands.demo",
    "host.commands.bench",
    "host.commands.devices",
    "host.commands.run",
    "host.commands.play",
    "host.commands.games",
    "host.commands.export",
    "host.commands.odds",
    "host.commands.deploy",
    "host.commands.sim",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="turnlight",
        description="Turnlight: a tabletop turn-order companion (board + desktop engine).",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `turnlight demo | head`: the reader left; that is not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
