"""Output files the commands write (`export --out`): whole or not at all, and never over the
journal they were read from.

A file is written under a temporary name beside it and renamed into place, so a full disk,
a kill or an error part way leaves the old file (or none), never half a new one. A symlink
is written through: its target gets the new content and the link stays. Only a regular
file is ever replaced: a rename over a device, a FIFO or a socket (`--out /dev/null`, as
root) would put a regular file in its place, so such a target is refused (`NotAFile`).
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

# SQLite keeps a WAL journal's recent writes beside it, in these two files.
JOURNAL_SIDE_FILES = ("-wal", "-shm")


def is_the_journal(out: str | Path, journal: str | Path) -> bool:
    """Whether writing `out` would write over the journal (or its -wal/-shm files): the
    same path however spelled, through symlinks, or a hard link to the same file."""
    target = Path(out).resolve()
    base = Path(journal).resolve()
    for path in (base, *(Path(f"{base}{side}") for side in JOURNAL_SIDE_FILES)):
        if target == path:
            return True
        try:
            if os.path.samefile(target, path):
                return True
        except OSError:  # one of them does not exist: not the same file
            continue
    return False


class NotAFile(OSError):
    """An existing output that is not a regular file (a device, a FIFO, a socket):
    writing it whole by a rename would replace it. str() and strerror are one line."""


_KINDS = {
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
}


def check_target(out: str | Path) -> None:
    """Raise NotAFile when `out` (through a symlink, its target) exists and is neither a
    regular file nor a folder (the rename refuses a folder itself: "Is a directory"); a
    missing one is fine (it is created)."""
    try:
        mode = os.stat(out).st_mode
    except OSError:  # not there (or not reachable: the write says why)
        return
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        kind = _KINDS.get(stat.S_IFMT(mode), "not a regular file")
        raise NotAFile(
            0, f"it is {kind}, not a regular file: an export replaces only a regular file"
        )


@contextmanager
def replacing(out: str | Path, suffix: str = "") -> Iterator[Path]:
    """A temporary path beside `out` (through a symlink, beside its target) to write to;
    renamed over `out` when the block ends without an error, removed otherwise. `suffix`
    is the temporary's ending, for writers that look at the name (".png")."""
    target = Path(out).resolve()
    check_target(target)
    fd, name = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=f".tmp{suffix}", dir=target.parent
    )
    os.close(fd)
    temporary = Path(name)
    try:
        yield temporary
        os.chmod(temporary, _mode_for(target))
        check_target(target)  # again: it may have been made while the writer wrote
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def write_text(out: str | Path, text: str) -> None:
    """Write `text` (UTF-8, newlines as given) to `out` whole or not at all."""
    write_with(out, lambda path: path.write_text(text, encoding="utf-8", newline=""))


def write_with(out: str | Path, writer: Callable[[Path], object], suffix: str = "") -> None:
    """Let `writer` write a temporary beside `out`, then rename it into place."""
    with replacing(out, suffix) as temporary:
        writer(temporary)


def _mode_for(target: Path) -> int:
    """An existing file keeps its permissions; a new one gets what open() would give it."""
    try:
        return os.stat(target).st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
