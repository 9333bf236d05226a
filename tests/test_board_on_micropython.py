"""The firmware App and shared/ run a scripted session on the real MicroPython VM with fake
hardware (host/board/vm/board_app.py), once per board profile: linking, a host snapshot, a
malformed snapshot and an unknown message, next turn, a roll, a key action whose write to
the host fails, the settings.toml checks; and the idle loop allocates nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware.boards import NAMES
from host.board.micropython_vm import (
    VM_SCRIPTS,
    board_app_paths,
    check_names,
    reported_checks,
    run,
)


@pytest.fixture(scope="module", params=NAMES)
def vm_output(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    paths = board_app_paths(tmp_path_factory.mktemp("vm"))
    done = run(VM_SCRIPTS / "board_app.py", [request.param], paths)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


# Every check board_app.py makes (its checks after the heap figures are in
# board_app_checks.py), collected from the source: a new one is asserted too.
CHECKS = check_names(VM_SCRIPTS / "board_app_checks.py")


@pytest.mark.parametrize("name", CHECKS)
def test_scripted_board_session_on_micropython(vm_output: str, name: str) -> None:
    assert reported_checks(vm_output).get(name) == "ok", vm_output


def test_the_board_script_reports_every_check_it_makes_and_no_other(vm_output: str) -> None:
    assert len(CHECKS) >= 17 and "takes_the_host_descriptor" in CHECKS
    assert sorted(reported_checks(vm_output)) == sorted(CHECKS), vm_output


def test_a_check_that_is_not_reported_is_caught(tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text('check("first", True)\ncheck(\n    "second", x == 1, "x=%d" % x)\n')
    assert check_names(script) == ["first", "second"]
    reported = reported_checks("CHECK first ok \nother line\n")
    assert [name for name in check_names(script) if reported.get(name) != "ok"] == ["second"]


def test_the_board_idle_loop_allocates_nothing_on_micropython(vm_output: str) -> None:
    found = dict(re.findall(r"(\w+)=(\d+)", vm_output))
    assert int(found["idle_alloc"]) == 0
    assert int(found["heap"]) > 0
