"""`engine_turn_us_stones` in `turnlight bench`: one whole stones turn through the generic
session with its SQLite journal (host/rulesets/stones/bench_turn.py)."""

from __future__ import annotations

import pytest

from host.lab import bench_suite
from host.rulesets.stones import bench_turn as stones_bench


def test_bench_measures_a_whole_stones_turn_through_the_session(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert stones_bench.engine_turn in bench_suite.MEASUREMENTS
    monkeypatch.setattr(stones_bench, "TURNS", 20)
    figures = stones_bench.engine_turn()
    assert list(figures) == ["engine_turn_us_stones"]
    assert 0 < figures["engine_turn_us_stones"] < 1_000_000
