"""Type-check the firmware against each board's CircuitPython stubs, one board at a time.

`circuitpython_setboard <board>` rewrites the installed `board` stub in place, so the boards
run one after another and the original stub is put back at the end, whatever happens.
For each profile, mypy checks firmware/ and boot.py plus a generated module that touches
every pin the profile names (`board.ROW0`, ...), so a pin the board lacks is an error.

Run: python -m host.firmware_typecheck  (make test runs it).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

from firmware.boards import NAMES, load
from host.micropython_vm import ROOT

BIN = Path(sys.executable).parent


def pin_names(profile: Any) -> list[str]:
    names = [profile.PIXEL_PIN]
    for field in ("ROW_PINS", "COLUMN_PINS", "KEY_PINS", "ENCODER_PINS"):
        names.extend(getattr(profile, field))
    return names


def pins_module(profile: Any) -> str:
    lines = [f'"""Every pin the {profile.NAME} profile names."""', "import board", ""]
    lines += [f"board.{name}" for name in pin_names(profile)]
    return "\n".join(lines) + "\n"


def check_board(name: str, scratch: Path, profile: Any = None) -> subprocess.CompletedProcess[str]:
    """mypy over the firmware with `name`'s stubs installed (the caller restores them)."""
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
            "--cache-dir",
            str(ROOT / ".mypy_cache" / f"firmware-{name}"),
            "firmware",
            "boot.py",
            str(pins),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


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
