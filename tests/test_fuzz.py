"""A short budget of every fuzz target (host/lab/fuzz.py, host/lab/fuzz_host.py,
host/lab/fuzz_board.py) on each `make test`: the encounter loader, the command parser, commands
through a session, a damaged or truncated journal, odd boot_out.txt files and symlinks on a drive,
numbers typed in other scripts' digits; and the board's side: the frame decoder, the message
readers, the state codec, the events and the descriptor check. `make fuzz` runs the same
targets for minutes (docs/reliability.md has its figures).

Hypothesis drives each target's random source, so a failure shrinks to a small input."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host.lab import fuzz

# Inputs per target: each takes from under a millisecond (a command line) to about 40 ms
# (a journal written, damaged and read three ways); together a few seconds.
EXAMPLES = {
    "boot_out": 200,
    "checkpoints": 40,
    "codec": 300,
    "commandline": 400,
    "commands": 80,
    "deploy": 60,
    "descriptor": 400,
    "dice_file": 200,
    "effects": 3,
    "encounter": 150,
    "events": 60,
    "framing": 200,
    "journal": 60,
    "messages": 400,
    "numbers": 60,
    "secrets": 3,
}


def test_every_target_has_a_short_budget_here() -> None:
    assert sorted(fuzz.targets()) == sorted(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_a_fuzz_target_holds_for_a_short_budget(name: str) -> None:
    check = fuzz.targets()[name]

    @settings(
        max_examples=EXAMPLES[name],
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        database=None,
        # The same inputs on every run: `make test` must not fail on an input no earlier run
        # tried (CI lands nothing then); `make fuzz` is where new inputs are explored.
        derandomize=True,
    )
    @given(st.randoms(use_true_random=False))
    def holds(rng: random.Random) -> None:
        fuzz.run_one(check, rng)

    holds()


def test_the_runner_counts_inputs_crashes_and_hangs(monkeypatch) -> None:
    def flaky(rng: random.Random) -> None:
        roll = rng.random()
        if roll < 0.2:
            raise ValueError("a crash")
        if roll < 0.3:
            time.sleep(1)

    monkeypatch.setitem(fuzz.TARGETS, "flaky", flaky)
    # A hang sleeps twice the limit; a quick input stays well under it on a busy machine
    # (the limit is wall time: at 0.05 s, a quick input stalled by the scheduler was one).
    monkeypatch.setattr(fuzz, "HANG_SECONDS", 0.5)
    result = fuzz.run_target("flaky", seconds=2.0, seed=3)
    assert result.inputs > 10 and result.crashes > 0 and result.hangs > 0
    assert all(
        "(python -m host.lab.fuzz --target flaky --seed 3 --input " in f for f in result.failures
    )
    again = fuzz.run_target("flaky", seconds=2.0, seed=3)
    assert again.failures[:2] == result.failures[:2]  # the same seed, the same inputs


def test_a_target_is_one_registered_function(monkeypatch) -> None:
    monkeypatch.setattr(fuzz, "TARGETS", dict(fuzz.TARGETS))

    @fuzz.target("example")
    def example(rng: random.Random) -> None:
        assert rng.random() < 1

    assert fuzz.targets()["example"] is example
    with pytest.raises(ValueError, match="registered twice"):
        fuzz.target("example")(example)
