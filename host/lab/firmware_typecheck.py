"""Type-check the firmware against each board's CircuitPython stubs, one board at a time.

`circuitpython_setboard <board>` rewrites the installed `board` stub in place, so the boards
run one after another and the original stub is put back at the end, whatever happens.
For each profile, mypy checks firmware/ (code.py included) and boot.py plus a generated
module that touches every pin the profile names (`board.ROW0`, ...), so a pin the board
lacks is an error. The board code's function bodies are checked too (check_untyped_defs for
firmware/ and boot.py in pyproject.toml), and firmware/hardware.py's annotations name the
keypad, digitalio and rotaryio classes, so a constructor or method the stubs lack is an error.

Run: python -m host.lab.firmware_typecheck  (make test runs it).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

from firmware.boards import NAMES, load
from host.board.micropython_vm import ROOT

BIN = Path(sys.executable).parent
BOARD_LIBRARIES: tuple[str, ...] = ()


def pin_names(profile: Any) -> list[str]:
    names = [profile.PIXEL_PIN]
    for field in ("ROW_PINS", "COLUMN_PINS", "KEY_PINS", "ENCODER_PINS"):
        names.extend(getattr(profile, field))
    return names


def pins_module(profile: Any) -> str:
    lines = [f'"""Every pin the {profile.NAME} profile names."""', "import board", ""]
    lines += [f"board.{name}" for name in pin_names(profile)]
    return "\n".join(lines) + "\n"


def check_board(
    name: str, scratch: Path, profile: Any = None, root: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    """mypy over the firmware under `root` (firmware/, boot.py) with `name`'s stubs installed
    (the caller restores them). The project's mypy settings apply wherever `root` is: they
    check the bodies of the board code's unannotated functions."""
    if profile is None:
        profile = load(name)
    subprocess.run(
        [str(BIN / "circuitpython_setboard"), profile.STUB_BOARD],
        check=True,
        capture_output=True,
        text=True,
    )
    pins = scratch / f"pins_{name}.py"
    pins.write_text(pins_module(profile))
    return subprocess.run(
        [
            str(BIN / "mypy"),
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(root / ".mypy_cache" / f"firmware-{name}"),
            "firmware",
            "boot.py",
            str(pins),
        ],
        cwd=root,
        env={**os.environ, "MYPYPATH": str(board_libraries(scratch))},
        capture_output=True,
        text=True,
        check=False,
    )


def board_libraries(scratch: Path) -> Path:
    """A folder holding the libraries deploy copies to the board that ship without type
    information (none now: the neopixel library was one, before firmware/strip.py): on
    MYPYPATH, mypy reads them and checks the firmware's calls into them."""
    libs = scratch / "libs"
    libs.mkdir(exist_ok=True)
    for module in BOARD_LIBRARIES:
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:
            raise SystemExit(f"firmware typecheck: the {module} library is not installed")
        shutil.copy(spec.origin, libs / f"{module}.py")
    return libs


def board_stub() -> Path:
    return Path(str(resources.files("board-stubs").joinpath("__init__.pyi")))


def main(boards: list[str] | None = None) -> int:
    stub = board_stub()
    original = stub.read_bytes()
    failed = 0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for name in boards or list(NAMES):
                done = check_board(name, Path(tmp))
                verdict = "ok" if done.returncode == 0 else "FAILED"
                print(f"firmware typecheck {name}: {verdict}")
                if done.returncode:
                    failed += 1
                    print(done.stdout + done.stderr)
    finally:
        stub.write_bytes(original)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or None))
