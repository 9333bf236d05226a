"""The fuzzing harness: a registry of targets and a runner with a time budget.

A target is one function that takes a `random.Random`, builds one input from it, feeds it
to the code under test and raises if the code did something it must not (an exception
past its one-line errors, a state that silently differs, a write outside where it may
write). Registering one is one decorator:

    @target("encounter")
    def fuzz_encounter(rng: random.Random) -> None: ...

in a module named in TARGET_MODULES. The runner gives each target an equal share of the
budget and counts inputs tried, crashes (any exception) and hangs (an input that runs
longer than HANG_SECONDS). Every input is reproducible from (seed, target, number):

    python -m host.lab.fuzz --minutes 10                 # `make fuzz`
    python -m host.lab.fuzz --target journal --seconds 30
    python -m host.lab.fuzz --target journal --seed 1 --input 417   # one input, with traceback

`make test` runs a short budget of each target through hypothesis (tests/test_fuzz.py).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import random
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

Target = Callable[[random.Random], None]

# Modules whose import registers targets: the host's, and the board's (framing, messages,
# codec, events, descriptor).
TARGET_MODULES = (
    "host.lab.fuzz_host",
    "host.lab.fuzz_board",
    "host.lab.fuzz_secrets",
    "host.lab.fuzz_effects",
    "host.lab.fuzz_dice",
)
HANG_SECONDS = 10.0  # one input; every target's inputs take well under a second
TARGETS: dict[str, Target] = {}


def target(name: str) -> Callable[[Target], Target]:
    """Register a fuzz target under `name`."""

    def register(fn: Target) -> Target:
        if name in TARGETS:
            raise ValueError(f"fuzz target {name!r} is registered twice")
        TARGETS[name] = fn
        return fn

    return register


def targets() -> dict[str, Target]:
    """Every registered target, by name (importing the modules that register them)."""
    for module in TARGET_MODULES:
        importlib.import_module(module)
    return dict(TARGETS)


class Hang(Exception):
    """An input ran longer than HANG_SECONDS."""


@dataclass
class Result:
    target: str
    inputs: int = 0
    crashes: int = 0
    hangs: int = 0
    seconds: float = 0.0
    slowest: float = 0.0  # seconds, one input
    failures: list[str] = field(default_factory=list)  # the first few, one line each


def input_rng(seed: int, name: str, number: int) -> random.Random:
    """The random source of input `number` of target `name` in a run seeded `seed`."""
    return random.Random(f"{seed}:{name}:{number}")


@contextlib.contextmanager
def _time_limit(seconds: float):
    """Raise Hang in the main thread after `seconds` (where the platform has SIGALRM)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def expired(signum: int, frame: object) -> None:
        raise Hang(f"no answer in {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_one(fn: Target, rng: random.Random) -> None:
    """One input through a target, its output kept off the terminal."""
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        with _time_limit(HANG_SECONDS):
            fn(rng)


def run_target(name: str, seconds: float, seed: int = 1, first: int = 0) -> Result:
    """Inputs of target `name` (numbered from `first`) for `seconds`."""
    fn = targets()[name]
    result = Result(name)
    started = time.monotonic()
    number = first
    while time.monotonic() - started < seconds:
        began = time.monotonic()
        try:
            run_one(fn, input_rng(seed, name, number))
        except Hang as err:
            result.hangs += 1
            _note(result, seed, number, err)
        except Exception as err:  # a crash: anything the target did not expect
            result.crashes += 1
            _note(result, seed, number, err)
        result.slowest = max(result.slowest, time.monotonic() - began)
        result.inputs += 1
        number += 1
    result.seconds = time.monotonic() - started
    return result


def _note(result: Result, seed: int, number: int, err: BaseException) -> None:
    if len(result.failures) < 5:
        what = f"{type(err).__name__}: {err}".splitlines()[0][:200]
        again = f"python -m host.lab.fuzz --target {result.target} --seed {seed} --input {number}"
        result.failures.append(f"{what}  ({again})")


def main(argv: list[str] | None = None) -> int:
    known = targets()
    p = argparse.ArgumentParser(
        prog="python -m host.lab.fuzz",
        description="Fuzz turnlight's targets for a time budget, shared equally among them.",
    )
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=float, help="the whole run's budget (default 1)")
    budget.add_argument("--seconds", type=float, help="the whole run's budget, in seconds")
    p.add_argument(
        "--target", action="append", choices=sorted(known), help="only this one (repeatable)"
    )
    p.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    p.add_argument("--input", type=int, metavar="N", help="run input N alone, with traceback")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = p.parse_args(argv)
    names = args.target or sorted(known)
    if args.input is not None:
        for name in names:
            known[name](input_rng(args.seed, name, args.input))  # raises with its traceback
            print(f"{name}: input {args.input} of seed {args.seed} passes")
        return 0
    total = args.seconds if args.seconds is not None else 60 * (args.minutes or 1.0)
    results = []
    for name in names:
        result = run_target(name, total / len(names), args.seed)
        results.append(result)
        if not args.json:
            print(_line(result), flush=True)
            for failure in result.failures:
                print(f"    {failure}", flush=True)
    if args.json:
        print(json.dumps([r.__dict__ for r in results], indent=2))
    else:
        inputs = sum(r.inputs for r in results)
        bad = sum(r.crashes + r.hangs for r in results)
        print(f"{inputs:,} inputs in {sum(r.seconds for r in results):.0f} s, {bad} failures")
    return 1 if any(r.crashes or r.hangs for r in results) else 0


def _line(r: Result) -> str:
    return (
        f"{r.target:<12} {r.inputs:>8,} inputs  {r.crashes} crashes  {r.hangs} hangs"
        f"  {r.seconds:6.0f} s  slowest {r.slowest * 1000:,.0f} ms"
    )


if __name__ == "__main__":
    # Run as host.lab.fuzz, not as a second copy named __main__: the targets register there.
    from host.lab.fuzz import main as _main

    try:
        sys.exit(_main())
    except KeyboardInterrupt:
        sys.exit(130)
