"""The paired smart dice, kept in the user's data directory beside the journal
($XDG_DATA_HOME/turnlight/dice.json, host/core/journal.py's convention): each die by its
own id (never its address, which a die may change), with its make, kind, name, last
address, and a GoDice's shell, which the die cannot report.

The file is a person's to edit and anyone's to drop in place, so it is read as hostile:
only a regular file (a FIFO would block the read, a device never end it), at most
`MAX_BYTES` (its size is read before a byte of it), JSON at most `MAX_DEPTH` deep (the
shape below is 3), and every value checked; whatever is wrong is one line naming the file
and the value (`SettingsError`). It is written whole or not at all (host/core/outfile.py:
a temporary made with O_EXCL beside it, so no link is followed, renamed into place), and
only over a regular file (a rename over `/dev/null` or a FIFO would replace it)."""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from host.core import outfile
from host.core.errors import OneLineError
from host.core.journal import default_path
from host.core.textfile import TextFileError, decode
from host.dice import godice
from host.dice.model import GODICE, KINDS, PIXELS

# A paired die takes about 200 bytes (id, make, kind, name, address, shell), so 64 KB
# holds some 300 dice, ten times any table's; a file past it is no paired-dice file, and
# refusing it costs one stat (a 200 MB one took 31 s and 1.5 GB to parse).
MAX_BYTES = 64 * 1024
# The shape is 3 deep ({"dice": [{...}]}); json's reader recurses once a level.
MAX_DEPTH = 8
_FIELDS = ("die_id", "make", "kind", "name", "address", "shell")
_REQUIRED = ("die_id", "make", "kind")
_TOP_KEYS = ("dice", "accept_unstable")


@dataclass(frozen=True)
class PairedDie:
    die_id: str
    make: str  # host.dice.model.PIXELS or GODICE
    kind: str  # d4 .. d20, d00 (a GoDice: its shell's kind)
    name: str = ""
    address: str = ""  # the last address seen: tried first, then the die is scanned for
    shell: str = ""  # a GoDice's shell (d6, d20, d10, d10x, d4, d8, d12)

    @property
    def label(self) -> str:
        return f"smart:{self.die_id}"


class SettingsError(OneLineError):
    """The settings file cannot be read or written (one line: the path and what is wrong)."""


@dataclass(frozen=True)
class Settings:
    dice: list[PairedDie]
    accept_unstable: bool = False


def settings_path() -> Path:
    return default_path().parent / "dice.json"


def load(path: Path | None = None) -> list[PairedDie]:
    """The paired dice (none when the file does not exist yet)."""
    return read(path).dice


def accepts_unstable(path: Path | None = None) -> bool:
    """Whether the game master counts a GoDice's fake, tilt and move stable rests as rolls
    (`turnlight dice unstable yes`; no by default)."""
    return read(path).accept_unstable


def read(path: Path | None = None) -> Settings:
    """The whole file, checked (no dice when it does not exist yet)."""
    path = path or settings_path()
    data = _read_bytes(path)
    if data is None:
        return Settings([])
    try:
        text = decode(data, str(path))
    except TextFileError as err:
        raise SettingsError(str(err)) from None
    _bad = _problem_reporter(path)
    depth = _depth(text)
    if depth > MAX_DEPTH:
        raise _bad(f"JSON nested {depth} deep; a paired-dice file is {MAX_DEPTH} at most")
    try:
        top = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise _bad(f"not JSON ({str(err).splitlines()[0]})") from None
    if not isinstance(top, dict):
        raise _bad(f'the file is {_kind(top)}, not an object with a "dice" list')
    unknown = [k for k in top if k not in _TOP_KEYS]
    if unknown:
        raise _bad(f"unknown key {_shown(unknown[0])} (known: {', '.join(_TOP_KEYS)})")
    if "dice" not in top:
        raise _bad('no "dice" list')
    if not isinstance(top["dice"], list):
        raise _bad(f'"dice" is {_kind(top["dice"])}, not a list')
    unstable = top.get("accept_unstable", False)
    if not isinstance(unstable, bool):
        raise _bad(f'"accept_unstable" is {_kind(unstable)}, not true or false')
    dice: list[PairedDie] = []
    ids: set[str] = set()
    for n, entry in enumerate(top["dice"]):
        die = _die(entry, f"dice[{n}]", _bad)
        if die.die_id in ids:
            raise _bad(f"dice[{n}]: die {_shown(die.die_id)} is paired twice")
        ids.add(die.die_id)
        dice.append(die)
    return Settings(dice, unstable)


def save(
    dice: list[PairedDie], path: Path | None = None, accept_unstable: bool | None = None
) -> Path:
    """Write the paired dice whole (a temporary beside the file renamed over it); the
    unstable rests' setting is kept unless given. Only a regular file is replaced."""
    path = path or settings_path()
    if accept_unstable is None:
        accept_unstable = accepts_unstable(path)
    _check_target(path)
    data = {"dice": [asdict(d) for d in dice], "accept_unstable": accept_unstable}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        outfile.write_text(path, json.dumps(data, indent=2) + "\n")
    except outfile.NotAFile:
        _check_target(path)  # made while this wrote: say so in this file's words
        raise SettingsError(f"{path}: cannot write: it is not a regular file") from None
    except OSError as err:
        raise SettingsError(f"{path}: cannot write: {err.strerror or err}") from None
    return path


def paired_with(dice: list[PairedDie], die: PairedDie) -> list[PairedDie]:
    """`dice` with `die` added, or replacing the one of the same id."""
    return [d for d in dice if d.die_id != die.die_id] + [die]


# -- reading -----------------------------------------------------------------------------------
def _read_bytes(path: Path) -> bytes | None:
    """The file's bytes, or None when there is none; refuses what is not a regular file
    and what is longer than MAX_BYTES before reading it."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer (the fstat refuses it).
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise SettingsError(f"{path}: {_not_a_file('a folder')}") from None
    except OSError as err:
        raise SettingsError(f"{path}: cannot read: {err.strerror or err}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SettingsError(f"{path}: {_not_a_file(_what_is(info.st_mode))}")
        if info.st_size > MAX_BYTES:
            raise SettingsError(_too_long(path, info.st_size))
        chunks, size = [], 0
        while size <= MAX_BYTES:  # a file may grow as it is read, or lie about its size
            chunk = os.read(fd, MAX_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_BYTES:
            raise SettingsError(_too_long(path, size))
        return b"".join(chunks)
    except OSError as err:
        raise SettingsError(f"{path}: cannot read: {err.strerror or err}") from None
    finally:
        os.close(fd)


def _too_long(path: Path, size: int) -> str:
    return f"{path}: {size:,} bytes; a paired-dice file is {MAX_BYTES:,} bytes at most"


def _not_a_file(what: str) -> str:
    return f"it is {what}, not a regular file: a paired-dice file is only a regular file"


def _what_is(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    return {
        stat.S_IFCHR: "a character device",
        stat.S_IFBLK: "a block device",
        stat.S_IFIFO: "a FIFO",
        stat.S_IFSOCK: "a socket",
    }.get(stat.S_IFMT(mode), "not a file")


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)


def _depth(text: str) -> int:
    """How deep the JSON's arrays and objects nest (brackets inside strings not counted)."""
    depth = deepest = 0
    for ch in _STRINGS.sub("", text):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _problem_reporter(path: Path):
    def bad(what: str) -> SettingsError:
        return SettingsError(f"{path}: not a paired-dice file: {what}")

    return bad


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return {
        dict: "an object",
        list: "a list",
        str: "a string",
        int: "a number",
        float: "a number",
    }.get(type(value), type(value).__name__)


def _shown(value: str, most: int = 40) -> str:
    """A value quoted for a message (a long one cut: the message stays one short line)."""
    return repr(value if len(value) <= most else value[:most] + "...")


def _die(entry: Any, where: str, bad) -> PairedDie:
    if not isinstance(entry, dict):
        raise bad(f"{where} is {_kind(entry)}, not an object")
    for key, value in entry.items():
        if key not in _FIELDS:
            raise bad(f"{where}: unknown key {_shown(key)} (known: {', '.join(_FIELDS)})")
        if not isinstance(value, str):
            raise bad(f"{where}.{key} is {_kind(value)}, not a string")
    for key in _REQUIRED:
        if not entry.get(key):
            raise bad(f"{where}: no {key}")
    die = PairedDie(**entry)
    if die.make not in (PIXELS, GODICE):
        raise bad(f"{where}.make is {_shown(die.make)}, not {PIXELS!r} or {GODICE!r}")
    if die.kind not in KINDS:
        raise bad(f"{where}.kind is {_shown(die.kind)}, not one of {', '.join(KINDS)}")
    if die.make == GODICE:
        if godice.SHELLS.get(die.shell) != die.kind:
            shells = [s for s, k in godice.SHELLS.items() if k == die.kind]
            raise bad(
                f"{where}.shell is {_shown(die.shell)}: a GoDice paired as a {die.kind} wears"
                f" the {' or '.join(shells)} shell"
            )
    elif die.shell:
        raise bad(f"{where}.shell is {_shown(die.shell)}: a Pixels die wears no shell")
    return die


# -- writing -----------------------------------------------------------------------------------
def _check_target(path: Path) -> None:
    """Refuse to write over anything but a regular file (through a symlink, its target):
    a rename would put a regular file in a FIFO's or a device's place."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as err:
        raise SettingsError(f"{path}: cannot write: {err.strerror or err}") from None
    if not stat.S_ISREG(mode):
        raise SettingsError(f"{path}: cannot write: {_not_a_file(_what_is(mode))}")
