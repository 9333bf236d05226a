"""The firmware App and shared/ run a scripted session on the real MicroPython VM with fake
hardware (host/vm/board_app.py), once per board profile: linking, a host snapshot, a
malformed snapshot and an unknown message, next turn, a roll, a key action whose write to
the host fails, the settings.toml checks; and the idle loop allocates nothing."""

from __future__ import annotations

import re

import pytest

from firmware.boards import NAMES
from host.micropython_vm import ROOT, VM_SCRIPTS, board_frames, library_dir, run


@pytest.fixture(scope="module", params=NAMES)
def vm_output(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    libs = library_dir(tmp_path_factory.mktemp("lib"))
    board_frames(libs)
    done = run(VM_SCRIPTS / "board_app.py", [request.param], [libs, ROOT])
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def checks(output: str) -> dict[str, str]:
    return {name: verdict for name, verdict in re.findall(r"CHECK (\w+) (ok|FAIL)", output)}


@pytest.mark.parametrize(
    "name",
    [
        "renders_a_frame_at_start",
        "links_on_the_host_hello",
        "takes_the_host_snapshot",
        "bad_snapshot_counted",
        "bad_snapshot_keeps_state",
        "unknown_message_counted",
        "next_turn_moves_the_turn",
        "next_turn_journalled",
        "active_cell_lit",
        "roll_shows_dice_page",
        "idle_loop_renders",
        "key_action_fault_counted",
        "board_goes_on_after_a_fault",
        "setting_in_range",
        "setting_clamped",
        "setting_not_a_number",
    ],
)
def test_scripted_board_session_on_micropython(vm_output: str, name: str) -> None:
    assert checks(vm_output).get(name) == "ok", vm_output


def test_the_board_idle_loop_allocates_nothing_on_micropython(vm_output: str) -> None:
    found = dict(re.findall(r"(\w+)=(\d+)", vm_output))
    assert int(found["idle_alloc"]) == 0
    assert int(found["heap"]) > 0
