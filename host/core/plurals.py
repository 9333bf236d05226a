"""Small helpers for the words the commands print."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 success`, `2 successes`, `0 spaces`: the count and the word that goes with it."""
    if count == 1:
        return f"{count} {word}"
    if many is None:
        many = word + ("es" if word.endswith(("s", "sh", "ch", "x")) else "s")
    return f"{count} {many}"
