"""Lets the CPython-only tests reuse the helpers that the engine tests share with the VM,
and makes every Hypothesis property test run the same inputs on every `make test`: a run
must not fail on an input no earlier run tried (CI would land nothing); `make fuzz` is where
new inputs are explored. Also gives the host's waits for a simulated board the tests'
generous bound (tests/waiting.py)."""

import sys
from pathlib import Path

import pytest
from hypothesis import settings
from waiting import WAIT

settings.register_profile("make-test", derandomize=True, database=None)
settings.load_profile("make-test")

sys.path.insert(0, str(Path(__file__).resolve().parent / "engine"))


@pytest.fixture(autouse=True)
def waits_of_the_simulated_table_bound_a_hang_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The host's waits for a board (linking, the board following the host, the dice's
    link) give a person 5-10 s before they say so; on this busy 2-core machine the tests'
    boards can take longer, and these waits only bound a hang: WAIT (tests/waiting.py)."""
    from host.board import bridge, tether, tethered_sim
    from host.dice import runner

    monkeypatch.setattr(tethered_sim, "SETTLE_SECONDS", WAIT)
    for function in (
        tethered_sim.TetheredSim.start,
        tethered_sim.TetheredSim.settle,
        tether.Tether.start,
        bridge.BoardLink.wait_linked,
        bridge.Bridge.wait_linked,
        runner.SmartDiceRunner.start,
        runner.SmartDiceRunner.call,
    ):
        monkeypatch.setattr(function, "__defaults__", (WAIT,))
