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
        "state's size, the engine's and the board app's heap on the MicroPython VM, the "
        "Python stack the board's deepest call path needs on a 32-bit board, what "
        "ending turns and an idle board allocate, one korxsol turn and one odds query, the "
        "link's frame sizes, a 10,000-event soak through a fault-injecting proxy and a "
        "2,000-event one on ports that echo, and the "
        "LEDs' current. Each figure is printed in a table with its goal and whether it is met; "
        "progress goes to stderr. Takes a minute or two.",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object and nothing else")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from host.lab import bench_suite as bench

    figures: dict[str, float | int] = {}
    for measure in bench.MEASUREMENTS:
        print(f"bench: {measure.__name__} ...", file=sys.stderr, flush=True)
        figures.update(measure())
    if args.json:
        print(json.dumps(figures, sort_keys=True))
        return 0
    print(table(figures))
    return 0


def _number(value: float | int) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.3g}" if abs(value) < 100 else f"{value:,.0f}"
    return f"{int(value):,}"


def table(figures: dict[str, float | int]) -> str:
    """The figures as a table (figure, value, its goal, whether it is met), then how many
    goals are met."""
    from host.lab import bench_suite as bench
    from host.screens import text_tables

    rows = []
    met = goals = 0
    for key, value in figures.items():
        goal = bench.TARGETS.get(key)
        verdict = bench.meets(key, value)
        if verdict is not None:
            goals += 1
            met += verdict
        rows.append(
            [
                key,
                _number(value),
                "" if goal is None else f"{goal[0]} {_number(goal[1])}",
                "" if verdict is None else ("yes" if verdict else "NO"),
            ]
        )
    text = text_tables.text_table(["figure", "value", "goal", "met?"], rows, align_right=(1,))
    return f"{text}\n\n{met} of {goals} goals met"
