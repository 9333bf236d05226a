"""The `turnlight` command: one subcommand per module in host/commands/, the bench's from
the lab, and those an installed package adds under the `turnlight.commands` entry-point
group (korxsol's `odds`).

Each command module has `register(subparsers)`, which adds its parser and sets `run`; heavy
imports stay inside the command's own run function so `turnlight --help` starts fast.

A number option is declared as argparse has it (`type=int`, `type=float`); `build_parser`
gives every one, an installed package's too, host/core/numbers.py's reader in their place,
so `--seed ²` or `--pace nan` is a usage error, not a traceback nor a number no one typed.
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
    "host.commands.bestiary",
    "host.commands.rulesets",
    "host.commands.deploy",
    "host.commands.sim",
    "host.commands.dice",
    "host.commands.campaign",
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
    _read_numbers_plainly(parser)
    return parser


def whole_option(text: str) -> int:
    """A whole-number option's value (`--seed 7`, `--resume 2`; a sign allowed)."""
    from host.core import numbers

    try:
        return numbers.whole(text, signed=True)
    except numbers.NotANumber as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def seconds_option(text: str) -> float:
    """A time option's value in seconds (`--pace 0.5`): 0 to MOST_SECONDS. Every float
    option is a time, and no command has a use for a negative one."""
    from host.core import numbers

    try:
        value = numbers.decimal(text, "", None, MOST_SECONDS, signed=True)
    except numbers.NotANumber as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a time must be 0 or more seconds, not {text}")
    return value


MOST_SECONDS = 1_000_000  # 11 days; time.sleep and a lock's wait refuse much more


def _read_numbers_plainly(parser: argparse.ArgumentParser) -> None:
    """Every `type=int` option of `parser` and its subcommands read by whole_option, every
    `type=float` one by seconds_option (each is a time)."""
    for action in parser._actions:
        if action.type is int:
            action.type = whole_option
        elif action.type is float:
            action.type = seconds_option
        elif isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                _read_numbers_plainly(command)


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
