"""The board's own entry points, boot.py and code.py (and firmware/hardware.py, which both
call), run unchanged on the MicroPython VM with stubs of the modules CircuitPython builds
in (host/board/vm/stubs/, on their own small fake hardware, stubrig.py): `board` has exactly the
profile's pins, the clock is supervisor.ticks_ms reached through adafruit_ticks as on a
board, and code.py plays a linked session (host/board/vm/code_session.py) until the scenario ends
it."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.boards import NAMES, load
from host.board.micropython_vm import VM_SCRIPTS, EntryPoints, check_names, reported_checks

# What code_session.py checks, collected from its source (a new check is asserted too); the
# run without a data channel makes its own few.
BOTH_CHECKS = ("lets_go_of_the_start_up_modules", "no_faults")
ALONE_CHECKS = ("plays_without_the_data_channel", "renders_without_the_data_channel", *BOTH_CHECKS)
LINKED_CHECKS = [
    name
    for name in check_names(VM_SCRIPTS / "code_session.py")
    if name in BOTH_CHECKS or name not in ALONE_CHECKS
]


@pytest.fixture(scope="module")
def entry_points(tmp_path_factory: pytest.TempPathFactory) -> EntryPoints:
    return EntryPoints(Path(tmp_path_factory.mktemp("vm")))


def stub_lines(output: str) -> list[str]:
    return [line[5:] for line in output.splitlines() if line.startswith("STUB ")]


@pytest.mark.parametrize("board", NAMES)
def test_code_py_plays_a_linked_session_on_micropython(
    entry_points: EntryPoints, board: str
) -> None:
    done = entry_points.run("code.py", board)
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(LINKED_CHECKS) >= 14
    assert reported_checks(done.stdout) == {name: "ok" for name in LINKED_CHECKS}, done.stdout
    assert "steps=1000" in done.stdout and "step failed" not in done.stdout


@pytest.mark.parametrize("board", NAMES)
def test_code_py_wires_the_profile_pins_through_hardware_py(
    entry_points: EntryPoints, board: str
) -> None:
    profile = load(board)
    made = stub_lines(entry_points.run("code.py", board).stdout)
    pixels = profile.WIDTH * profile.HEIGHT
    # the real neopixel library drives the strip's pin (only neopixel_write is a stub)
    assert f"neopixel_write pin={profile.PIXEL_PIN} n={pixels}" in made
    if profile.KEY_SCAN == "matrix":
        rows, columns = ",".join(profile.ROW_PINS), ",".join(profile.COLUMN_PINS)
        keys = f"keypad.KeyMatrix rows={rows} columns={columns} columns_to_anodes=False"
    else:
        keys = f"keypad.Keys pins={','.join(profile.KEY_PINS)} value_when_pressed=False pull=True"
    assert keys in made
    encoders = [line for line in made if line.startswith("rotaryio.")]
    if profile.ENCODER_PINS:
        assert encoders == ["rotaryio.IncrementalEncoder " + ",".join(profile.ENCODER_PINS)]
    else:
        assert encoders == []


def test_code_py_plays_alone_when_boot_py_left_the_data_channel_off(
    entry_points: EntryPoints,
) -> None:
    done = entry_points.run("code.py", "trellis_m4", env={"TURNLIGHT_VM_NO_DATA": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert reported_checks(done.stdout) == {name: "ok" for name in ALONE_CHECKS}, done.stdout


def test_code_py_says_which_setting_it_replaced(entry_points: EntryPoints) -> None:
    done = entry_points.run(
        "code.py", "macropad", env={"TURNLIGHT_LED_BUDGET_MA": "9000", "TURNLIGHT_BRIGHTNESS": "x"}
    )
    assert done.returncode == 0, done.stdout + done.stderr
    said = [line for line in done.stdout.splitlines() if line.startswith("code.py: ")]
    assert len(said) == 2 and "TURNLIGHT_LED_BUDGET_MA" in said[0] and "2000" in said[0]
    assert "TURNLIGHT_BRIGHTNESS" in said[1]
    assert set(reported_checks(done.stdout).values()) == {"ok"}


@pytest.mark.parametrize("board", NAMES)
def test_boot_py_turns_off_hid_and_midi_and_enables_the_data_channel(
    entry_points: EntryPoints, board: str
) -> None:
    done = entry_points.run("boot.py", board)
    assert done.returncode == 0, done.stdout + done.stderr
    made = stub_lines(done.stdout)
    assert made[0].startswith("keypad.")  # the skip key is looked for on the profile's keys
    assert made[1:] == [
        "keypad.deinit",
        "usb_hid.disable",
        "usb_midi.disable",
        "usb_cdc.enable console=True data=True",
    ]


@pytest.mark.parametrize("board", NAMES)
def test_boot_py_with_the_skip_key_held_leaves_usb_as_it_is(
    entry_points: EntryPoints, board: str
) -> None:
    held = str(load(board).BOOT_SKIP_KEY)
    done = entry_points.run("boot.py", board, env={"TURNLIGHT_VM_HELD": held})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "boot.py: skip key held, USB data channel left off" in done.stdout
    made = stub_lines(done.stdout)
    assert made[1:] == ["keypad.deinit"]  # the keys are let go for code.py; USB untouched


def test_boot_py_with_another_key_held_enables_the_data_channel(
    entry_points: EntryPoints,
) -> None:
    done = entry_points.run("boot.py", "trellis_m4", env={"TURNLIGHT_VM_HELD": "5"})
    assert "usb_cdc.enable console=True data=True" in stub_lines(done.stdout)


def test_boot_py_with_an_unknown_board_enables_the_data_channel_anyway(
    entry_points: EntryPoints,
) -> None:
    done = entry_points.run("boot.py", "no_such_board")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "boot.py: unknown board 'no_such_board'" in done.stdout
    assert stub_lines(done.stdout)[-1] == "usb_cdc.enable console=True data=True"
