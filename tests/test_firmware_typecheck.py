"""The per-board firmware type check can fail: a pin the board lacks is a mypy error, and the
installed board stub is restored afterwards."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from firmware.boards import trellis_m4
from host import firmware_typecheck as ft


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
