"""`turnlight bestiary [WORDS]`: the monsters of a ruleset's book (d20's: the SRD 5.1's)
whose name or kind holds every word, with their kind, challenge rating and XP; a
misspelt name is answered with the closest."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bestiary",
        help="list the monsters of a ruleset's book (type, CR, XP)",
        description="List the monsters whose name, type or subtype holds every WORD "
        "(all of them with none): `turnlight bestiary dragon red`. Each is a name `add`, an "
        'encounter file\'s `from = "..."` and --monsters take. A name matching none is '
        "answered with the closest.",
    )
    p.add_argument("words", nargs="*", metavar="WORDS", help="words of the monster's name or kind")
    p.add_argument(
        "--ruleset",
        metavar="ID",
        help="whose book (default: the one ruleset with a book; `turnlight rulesets` lists them)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from host.commands._errors import fail
    from host.core import registry
    from host.core.interface import IllegalAction
    from host.core.names import printable
    from host.screens import text_tables

    with_book = [i for i in registry.ids() if registry.get(i).has_bestiary]
    if args.ruleset is None:
        if len(with_book) != 1:
            return fail(
                f"which ruleset's book? --ruleset {' or '.join(with_book) or 'ID'}"
                " (`turnlight rulesets` lists them)"
            )
        args.ruleset = with_book[0]
    try:
        ruleset = registry.get(args.ruleset)
    except registry.UnknownRuleset as err:
        return fail(str(err))
    try:
        table = ruleset.bestiary(args.words)
    except IllegalAction as err:
        return fail(str(err))
    print(printable(text_tables.table_text(table)))
    print(f"{len(table.rows)} of {ruleset.id}'s book")
    return 0
