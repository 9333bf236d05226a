"""One style for every command's errors: one line on stderr, `turnlight: what is wrong`."""

from __future__ import annotations

import sys

from host.core.errors import OneLineError

__all__ = ["OneLineError", "board_ok", "cannot_write", "fail"]


def fail(message: str, code: int = 2) -> int:
    """Print `turnlight: message` on stderr; returns the exit status to give (default 2)."""
    from host.core.names import printable

    print(f"turnlight: {printable(message, False)}", file=sys.stderr)
    return code


def cannot_write(path: object, err: OSError) -> int:
    """A file that could not be written: `turnlight: cannot write FILE: reason`."""
    return fail(f"cannot write {path}: {err.strerror or err}")


def board_ok(name: str) -> bool:
    """True for a board profile of firmware/boards/; else says which ones there are."""
    from firmware.boards import NAMES

    if name in NAMES:
        return True
    fail(f"unknown board {name!r} (known: {', '.join(NAMES)})")
    return False
