"""The per-board firmware type check can fail: a pin the board lacks, a hardware class or
method the CircuitPython stubs do not have, and a wrong argument to one are mypy errors;
the installed board stub is restored afterwards."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from firmware.boards import load
from host.board.micropython_vm import ROOT
from host.lab import firmware_typecheck as ft

trellis_m4 = load("trellis_m4")  # with the defaults it does not restate


def test_a_pin_the_board_lacks_fails_the_firmware_typecheck(tmp_path: Path) -> None:
    stub = ft.board_stub()
    original = stub.read_bytes()
    fields = {k: getattr(trellis_m4, k) for k in dir(trellis_m4) if k.isupper()}
    fields["PIXEL_PIN"] = "GP28"  # a Pico pin: the NeoTrellis has none
    try:
        done = ft.check_board("bogus", tmp_path, SimpleNamespace(**fields))
    finally:
        stub.write_bytes(original)
    assert done.returncode != 0
    assert "GP28" in done.stdout


def test_the_generated_pin_module_names_every_profile_pin() -> None:
    text = ft.pins_module(trellis_m4)
    for name in ("NEOPIXEL", "ROW3", "COL7"):
        assert f"board.{name}" in text


def board_code_copy(root: Path) -> Path:
    """firmware/, shared/ and boot.py as they are now, under `root`."""
    for folder in ("firmware", "shared"):
        shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "boot.py", root / "boot.py")
    return root


def typecheck_copy(tmp_path: Path, path: str, old: str, new: str) -> str:
    """Break `old` into `new` in a copy of the board code; mypy's output for the NeoTrellis."""
    root = board_code_copy(tmp_path / "copy")
    target = root / path
    text = target.read_text()
    assert old in text, f"{old!r} is no longer in {path}: update the test"
    target.write_text(text.replace(old, new))
    stub = ft.board_stub()
    original = stub.read_bytes()
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    try:
        done = ft.check_board("trellis_m4", scratch, root=root)
    finally:
        stub.write_bytes(original)
    assert done.returncode != 0, f"mypy missed {new!r} in {path}:\n{done.stdout}"
    return done.stdout


MISSPELLINGS = [
    # A class keypad lacks, where hardware.py names the classes it builds ...
    ("firmware/hardware.py", "import KeyMatrix", "import KeyMatrixNOPE", "KeyMatrixNOPE"),
    # ... and where code.py hands them over.
    ("firmware/code.py", "keypad.KeyMatrix,", "keypad.KeyMatrixNOPE,", "KeyMatrixNOPE"),
    # A keyword KeyMatrix's constructor does not take, inside an unannotated function.
    ("firmware/hardware.py", "columns_to_anodes=", "column_to_anodes=", "column_to_anodes"),
    # A method the scanner lacks, inside boot.py's function.
    ("boot.py", "keys.deinit()", "keys.deinitNOPE()", "deinitNOPE"),
    # A method digitalio's pin (the strip's data line) does not have.
    (
        "firmware/hardware.py",
        "pin.switch_to_output()",
        "pin.switch_to_outputs()",
        "switch_to_outputs",
    ),
]


@pytest.mark.parametrize(("path", "old", "new", "reported"), MISSPELLINGS)
def test_a_misspelled_hardware_api_fails_the_firmware_typecheck(
    tmp_path: Path, path: str, old: str, new: str, reported: str
) -> None:
    out = typecheck_copy(tmp_path, path, old, new)
    assert reported in out and path in out, out


def test_the_board_code_as_it_is_passes_in_a_copy(tmp_path: Path) -> None:
    # The control for the test above: the copy itself is clean, so its errors are the edits.
    root = board_code_copy(tmp_path / "copy")
    stub = ft.board_stub()
    original = stub.read_bytes()
    try:
        done = ft.check_board("trellis_m4", tmp_path, root=root)
    finally:
        stub.write_bytes(original)
    assert done.returncode == 0, done.stdout
