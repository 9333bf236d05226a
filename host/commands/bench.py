"""`turnlight bench`: measure sizes, memory and speed against the project's targets."""

from __future__ import annotations

import argparse
import json
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bench",
        help="measure sizes, memory and speed against the targets",
        description="Measure the engine and the board against the project's targets: the "
        "state's size, the engine's and the board app's heap on the MicroPython VM, what "
        "ending turns and an idle board allocate, one korxsol turn and one odds query, the "
        "link's frame sizes and a 10,000-event soak through a fault-injecting proxy, and the "
        "LEDs' current. Each figure is printed with its target and whether it is met; "
        "progress goes to stderr. Takes a minute or two.",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object and nothing else")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from host import bench

    figures: dict[str, float | int] = {}
    for measure in bench.MEASUREMENTS:
        print(f"bench: {measure.__name__} ...", file=sys.stderr, flush=True)
        figures.update(measure())
    if args.json:
        print(json.dumps(figures, sort_keys=True))
        return 0
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        verdict = bench.meets(key, value)
        target = bench.TARGETS.get(key)
        note = "" if target is None else f"  target {target[0]} {target[1]}: "
        note += "" if verdict is None else ("met" if verdict else "MISSED")
        print(f"{key:<{width}}  {value:>10}{note}")
    return 0
