"""`turnlight rulesets`: the rulesets this turnlight plays, one line each (id, rules version,
board id, what it is), then one line for
each installed ruleset that cannot be played and why."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rulesets",
        help="list the rulesets this turnlight plays",
        description="One line per ruleset: its id (what --ruleset and an encounter file's "
        "`ruleset` key name), its rules version, its board id (1..15: the number the board "
        "knows it by; a new ruleset declares None and is given a free one) and what it is; "
        "the default is marked. "
        "Rulesets are found through the installed packages' `turnlight.rulesets` entry "
        "points; one that cannot be played is listed after them with why.",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from host.commands._errors import fail
    from host.core import registry

    playable = registry.described()
    unavailable = registry.unavailable()
    if not playable and not unavailable:
        return fail("no rulesets found: install turnlight (e.g. `make`) to declare its own")
    width = max(len(i) for i in registry.ids())
    for ruleset_id, description in playable:
        ruleset = registry.get(ruleset_id)
        default = " (default)" if ruleset_id == registry.DEFAULT else ""
        board = f"board {ruleset.board_id:<2}"
        print(f"{ruleset_id:<{width}}  v{ruleset.rules_version}  {board}  {description}{default}")
    for ruleset_id, why in unavailable:
        print(f"{ruleset_id}: {why}")
    return 0
