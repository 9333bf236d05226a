"""`turnlight rulesets`: the rulesets this turnlight plays, one line each."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rulesets",
        help="list the rulesets this turnlight plays",
        description="One line per ruleset: its id (what --ruleset and an encounter file's "
        "`ruleset` key name), its rules version and what it is; the default is marked.",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from host.core import registry

    width = max(len(i) for i in registry.ids())
    for ruleset_id, description in registry.described():
        version = registry.get(ruleset_id).rules_version
        default = " (default)" if ruleset_id == registry.DEFAULT else ""
        print(f"{ruleset_id:<{width}}  v{version}  {description}{default}")
    return 0
