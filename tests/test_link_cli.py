"""`turnlight devices` and the link's figures in `turnlight bench --json`."""

from __future__ import annotations

import argparse
import json

import pytest

from host import bench_link
from host.commands import bench, devices


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
    assert bench.run(argparse.Namespace(json=True)) == 0
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
        "soak_seconds",
    ):
        assert key in figures, key
    assert figures["soak_events"] == 200
    assert figures["snapshot_bytes"] <= 128 and figures["event_bytes"] <= 24
    assert figures["wire_ms_115200"] == round(figures["snapshot_bytes"] * 10_000 / 115200, 2)
    assert "soak:" in captured.err  # the progress line
