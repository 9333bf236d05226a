"""The `turnlight` command: one subcommand per module in host/commands/, the bench's from
the lab, and those an installed package adds under the `turnlight.commands` entry-point
group (korxsol's `odds`).

Each command module has `register(subparsers)`, which adds its parser and sets `run`; heavy
imports stay inside the command's own run function so `turnlight --help` starts fast.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import sys

COMMANDS = (
    "host.commands.demo",
    "host.lab.bench_command",
    "host.commands.devices",
    "host.commands.run",
    "host.commands.play",
    "host.commands.games",
    "host.commands.export",
    "host.commands.encounter",
    "host.commands.rulesets",
    "host.commands.deploy",
    "host.commands.sim",
    "host.commands.dice",
)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("turnlight")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="turnlight",
        description="Turnlight: a tabletop turn-order companion (board + desktop engine).",
    )
    parser.add_argument("--version", action="version", version=f"turnlight {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS + added_commands():
        importlib.import_module(name).register(sub)
    return parser


def added_commands() -> tuple[str, ...]:
    """The modules of the subcommands installed packages add (group `turnlight.commands`:
    `name = "package.module"`, a module with `register(subparsers)` as in host/commands/)."""
    from importlib.metadata import entry_points

    found = sorted(entry_points(group="turnlight.commands"), key=lambda e: e.name)
    return tuple(e.value for e in found if e.value not in COMMANDS)


def parse(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """Parse the command line; an unknown option is reported by the subcommand's parser (its
    usage, not the top-level one), with the option it was probably meant to be."""
    args, extra = parser.parse_known_args(argv)
    if extra:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        command = sub.choices[args.command]
        options = [o for a in command._actions for o in a.option_strings if o.startswith("--")]
        hints = []
        for word in extra:
            if word.startswith("-"):
                close = difflib.get_close_matches(word.split("=", 1)[0], options, n=1)
                if close:
                    hints.append(f"{word.split('=', 1)[0]}: did you mean {close[0]}?")
        message = f"unrecognized arguments: {' '.join(extra)}"
        command.error(message + ("; " + "; ".join(hints) if hints else ""))
    return args


def main(argv: list[str] | None = None) -> int:
    from host.commands._errors import OneLineError, fail

    args = parse(build_parser(), argv)
    try:
        return int(args.run(args) or 0)
    except OneLineError as err:  # a journal that cannot be read or written, ...
        return fail(str(err))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `turnlight demo | head`: the reader left; that is not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
