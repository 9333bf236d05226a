"""`turnlight bench` without --json prints a table a person reads: figure, value, goal and
whether it is met (issue #15); --json stays one object (tests/test_cli.py)."""

from __future__ import annotations

import pytest

from host import cli
from host.lab import bench_suite


def fake_measurements() -> dict[str, float | int]:
    return {"state_bytes": 61, "engine_turn_us": 1234.5, "soak_seconds": 31.25, "extra": 7}


def test_bench_prints_each_figure_with_its_value_goal_and_verdict(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(bench_suite, "MEASUREMENTS", (fake_measurements,))
    assert cli.main(["bench"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["figure", "value", "goal", "met?"]
    assert set(lines[1]) == {"-", " "}
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:6]}
    goal = bench_suite.TARGETS["state_bytes"][1]  # (104 since the board's 24 slots)
    assert rows["state_bytes"] == ["61", "<=", f"{goal:,}", "yes"]
    assert rows["engine_turn_us"] == ["1,234", "<=", "1,000", "NO"]  # a missed goal stands out
    assert rows["soak_seconds"] == ["31.2", "<=", "60", "yes"]
    assert rows["extra"] == ["7"]  # a figure without a goal
    assert lines[-1] == "2 of 3 goals met"
    assert all(len(line) <= 80 for line in lines)


def test_bench_values_line_up_on_the_right(monkeypatch, capsys) -> None:
    monkeypatch.setattr(bench_suite, "MEASUREMENTS", (fake_measurements,))
    assert cli.main(["bench"]) == 0
    lines = capsys.readouterr().out.splitlines()
    end = lines[0].index("value") + len("value")
    assert all(line[end - 1].isdigit() for line in lines[2:6])
