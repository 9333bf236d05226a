"""`turnlight devices` and the link's figures in `turnlight bench --json`."""

from __future__ import annotations

import argparse
import json

import pytest

from host.commands import devices
from host.lab import bench_command as bench
from host.lab import bench_link


def test_devices_lists_nothing_here_and_says_where_it_looked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = argparse.Namespace(all=False, json=False, probe=0.0)
    assert devices.run(args) == 0
    err = capsys.readouterr().err
    assert "239a" in err and "2e8a" in err


def test_devices_json_is_a_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert devices.run(argparse.Namespace(all=True, json=True, probe=0.0)) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_bench_json_prints_the_link_figures(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench_link, "SOAK_EVENTS", 200)  # the full soak is the bench's job
    # Only the link's measurements: the whole bench (minutes) is `turnlight bench`'s run.
    only = ",".join(measure.__name__ for measure in bench_link.MEASUREMENTS)
    assert bench.run(argparse.Namespace(json=True, only=only)) == 0
    captured = capsys.readouterr()
    figures = json.loads(captured.out)
    for key in (
        "snapshot_bytes",
        "snapshot_json_bytes",
        "event_bytes",
        "wire_ms_115200",
        "soak_events",
        "soak_lost",
        "soak_duplicated",
        "soak_digest_mismatches",
        "soak_out_of_order",
        "soak_timed_out",
        "soak_seconds",
    ):
        assert key in figures, key
    assert figures["soak_events"] == 200
    assert figures["soak_lost"] == figures["soak_duplicated"] == figures["soak_out_of_order"] == 0
    assert figures["soak_timed_out"] == 0
    assert figures["snapshot_bytes"] <= 128 and figures["event_bytes"] <= 24
    assert figures["wire_ms_115200"] == round(figures["snapshot_bytes"] * 10_000 / 115200, 2)
    assert "soak:" in captured.err  # the progress line


N = b"\x01\xff\x00\x00"  # next turn: many presses in the soak are byte-identical
R1 = b"\x03\xff\x02\x01\x01"
R2 = b"\x03\xff\x02\x01\x02"


def test_the_soak_compares_the_applied_events_in_order() -> None:
    compare = bench_link.compare_in_order
    assert compare([N, R1, N, R2], [N, R1, N, R2]) == (0, 0, 0)
    assert compare([N, R1, N, R2], [N, R1, R2]) == (1, 0, 0)  # a next turn lost
    assert compare([N, R1, R2], [N, R1, R1, R2]) == (0, 1, 0)  # a roll applied twice
    assert compare([N] * 10, [N] * 6) == (4, 0, 0)  # the soak timed out
    # One next turn lost early and another applied twice later: counted without order,
    # the two cancel out (the bench used to report 0 lost, 0 duplicated).
    played = [N, R1, N, R2, N, R1]
    applied = [N, R1, R2, N, N, R1]
    assert compare(played, applied) == (0, 0, 1)
    assert compare([R1, N, R2], [R2, N, R1]) == (0, 0, 2)


def test_the_soak_figures_and_their_targets() -> None:
    for key in ("soak_out_of_order", "soak_timed_out", "soak_lost", "soak_duplicated"):
        assert bench_link.TARGETS[key] == ("<=", 0), key
    assert bench_link.TARGETS["soak_events"] == (">=", 10_000)
    assert bench_link.SOAK_EVENTS >= 10_000
