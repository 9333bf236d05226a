"""Reading the text files a person hands turnlight (scripts, encounters): UTF-8 only, each
line (and the file) no longer than a real one needs, and every refusal one line,
`FILE:LINE: what is wrong`.

Lines are read one at a time with a bound, so a file of one endless line costs no more
than the bound to refuse, and the time to read a file grows with its size, not faster.
"""

from __future__ import annotations

from pathlib import Path


class TextFileError(ValueError):
    """A file that cannot be read as the text it should be; the message is one line."""


def decode(data: bytes, filename: str, first_line: int = 1) -> str:
    """`data` as UTF-8; refuses other bytes with the line they are on."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = first_line + data.count(b"\n", 0, err.start)
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise TextFileError(
            f"{filename}:{line}: not UTF-8 text (byte 0x{data[err.start]:02x} at column"
            f" {column}); save the file as UTF-8"
        ) from None


def read_lines(path: str | Path, max_line: int) -> list[str]:
    """The lines of a UTF-8 file (split as str.splitlines does), each at most `max_line`
    characters; a longer line is refused with its number and the limit."""
    lines: list[str] = []
    number = 0
    most = 4 * max_line + 2  # bytes: a UTF-8 character is at most 4, and "\r\n"
    with open(path, "rb") as fh:
        while True:
            raw = fh.readline(most)
            if not raw:
                return lines
            number += 1
            cut = len(raw) == most and raw[-1:] != b"\n"
            parts = [] if cut else decode(raw, str(path), number).splitlines()
            if cut or any(len(part) > max_line for part in parts):
                raise TextFileError(
                    f"{path}:{number}: the line is longer than {max_line:,} characters,"
                    " the most a line may be"
                )
            lines.extend(parts)
