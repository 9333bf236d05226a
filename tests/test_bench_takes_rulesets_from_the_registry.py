"""`turnlight bench` takes each ruleset's own figures from the registry, as the ruleset
declares them (Ruleset.bench_module, "module:function"), not from a hand-kept list of the
rulesets' bench modules (issue #25, "The house")."""

from __future__ import annotations

from host.core import registry
from host.core.interface import Ruleset
from host.lab import bench_suite as bench


def figures_of_a_test_ruleset() -> dict[str, float | int]:
    return {"measured_turn_us": 1}


class Measured(Ruleset):
    id = "measured"
    description = "a test's ruleset with a bench figure of its own"
    board_id = None
    bench_module = f"{__name__}:figures_of_a_test_ruleset"


def test_every_measurement_a_ruleset_declares_is_in_the_bench() -> None:
    declared = {
        i: registry.get(i).bench_module
        for i, _ in registry.described()
        if registry.get(i).bench_module
    }
    assert {"stones", "forms", "flare", "advance"} <= set(declared)
    measured = {f"{m.__module__}:{m.__name__}" for m in bench.MEASUREMENTS}
    assert set(declared.values()) <= measured
    assert len(bench.ruleset_measurements()) == len(declared)  # none without a declaration


def test_a_ruleset_registered_later_brings_its_bench_figures() -> None:
    assert figures_of_a_test_ruleset not in bench.ruleset_measurements()
    registry.register(Measured())
    try:
        assert figures_of_a_test_ruleset in bench.ruleset_measurements()
    finally:
        registry.unregister(Measured.id)
