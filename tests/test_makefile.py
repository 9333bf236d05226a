"""The first-hour issue, item 9: `make demo` is a person's install (turnlight alone, said
in one line, then a demo at a pace a person can follow); only `make test` installs the
test tools and the tests' plugin ruleset, so a person's `turnlight rulesets` never lists
the tests' card game. Read from `make -n -B` (what make would run, nothing run) against a venv
that does not exist, so every install step shows."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _would_run(target: str, tmp_path: Path) -> str:
    done = subprocess.run(
        ["make", "-n", "-B", target, f"VENV={tmp_path / 'venv'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


def test_make_demo_installs_no_test_package(tmp_path: Path) -> None:
    steps = _would_run("demo", tmp_path)
    assert "pip install" in steps and "-e ." in steps  # turnlight itself
    assert "tests/plugin" not in steps and "[test]" not in steps


def test_make_demo_plays_at_a_pace_a_person_can_follow(tmp_path: Path) -> None:
    demo = [line for line in _would_run("demo", tmp_path).splitlines() if "turnlight demo" in line]
    assert len(demo) == 1 and "--pace" in demo[0]


def test_make_test_installs_the_test_tools_and_the_plugin(tmp_path: Path) -> None:
    steps = _would_run("test", tmp_path)
    assert "-e '.[test]'" in steps and "-e tests/plugin" in steps


def test_installs_keep_setuptools_warnings_off_a_person_s_screen(tmp_path: Path) -> None:
    installs = [line for line in _would_run("test", tmp_path).splitlines() if "pip install" in line]
    assert installs and all("PYTHONWARNINGS=ignore" in line for line in installs)
