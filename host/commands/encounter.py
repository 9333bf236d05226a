"""`turnlight encounter`: start an encounter file from a ruleset's commented template
(`new`, its foes from the ruleset's book with --monsters), and check one, showing its
fighters as `play` will and what the ruleset says of the whole fight (`check`)."""

from __future__ import annotations

import argparse
import sys

from host.commands._game_args import add_monsters, add_ruleset, ruleset_ok
from host.core import registry


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "encounter",
        help="write a new encounter file from a template, or check one",
        description="`new` writes a ruleset's commented template to start an encounter "
        "from; `check FILE` reads a file as `play --encounter FILE` would and shows its "
        "fighters as the live view does, or says in one line what is wrong, and where.",
    )
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    new = actions.add_parser(
        "new",
        help="write a commented encounter template",
        description="Write a commented encounter template for a ruleset: change its names "
        "and numbers, then `turnlight encounter check FILE`.",
    )
    add_ruleset(new)
    add_monsters(new)
    new.add_argument(
        "--out", metavar="FILE", help="write it here (default stdout); an existing file is kept"
    )
    new.set_defaults(run=run_new)
    check = actions.add_parser(
        "check",
        help="check an encounter file and show its fighters",
        description="Read an encounter file with the ruleset it names (or --ruleset, which "
        "must be that one) and show its fighters as `turnlight play` will.",
    )
    check.add_argument("file", metavar="FILE", help="the encounter file (TOML)")
    add_ruleset(check)
    check.set_defaults(run=run_check)


def run_new(args: argparse.Namespace) -> int:
    from pathlib import Path

    from host.commands._errors import cannot_write, fail
    from host.core.interface import EncounterError, IllegalAction

    if not ruleset_ok(args):
        return 2
    ruleset = registry.get(args.ruleset or registry.DEFAULT)
    try:
        text = ruleset.template()
        if args.monsters is not None:
            text = ruleset.with_monsters(text, args.monsters)
            ruleset.parse_encounter(text, "--monsters")  # (the board's slots, say)
    except IllegalAction as err:
        return fail(("--monsters: " if args.monsters is not None else "") + str(err))
    except EncounterError as err:
        return fail("--monsters: " + str(err).split(": ", 1)[-1])
    if args.out is None:
        sys.stdout.write(text)
        return 0
    out = Path(args.out)
    try:
        with out.open("x", encoding="utf-8") as fh:  # never over an encounter already there
            fh.write(text)
    except FileExistsError:
        return fail(f"{out} already exists: it is kept (write the template to another FILE)")
    except OSError as err:
        return cannot_write(args.out, err)
    print(f"wrote {out}: change it, then `turnlight encounter check {out}`", file=sys.stderr)
    return 0


def run_check(args: argparse.Namespace) -> int:
    from host.core import encounter_files
    from host.core.interface import EncounterError
    from host.core.names import printable
    from host.screens import text_tables

    if not ruleset_ok(args):
        return 2
    try:
        enc = encounter_files.load(args.file, args.ruleset)
    except EncounterError as err:
        print(f"turnlight: {err}", file=sys.stderr)
        return 2
    ruleset = registry.get(enc.ruleset)
    game = ruleset.new_game(enc, 1)
    ruleset.project(game)  # as a session does: the board's view in step
    said = f"{enc.name}: {' vs '.join(enc.teams)}, a good {ruleset.id} encounter ({args.file})"
    print(printable("\n".join(text_tables.wrapped(said, text_tables.TABLE_WIDTH))))
    for line, _ in text_tables.live_lines(ruleset.live_roster(game), text_tables.TABLE_WIDTH):
        print(printable(line))
    for line in ruleset.encounter_notes(game):
        print(printable("\n".join(text_tables.wrapped(line, text_tables.TABLE_WIDTH))))
    return 0
