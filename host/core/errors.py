"""The errors the host's layers share, at the bottom of them so any may raise them: an
action the rules refuse, a bad encounter file, and an error whose message says it all.

Each str() is one line. Nothing here imports anything of the host's."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules forbid; str() is a one-line reason. The game is left unchanged."""


class EncounterError(ValueError):
    """A bad encounter file; str() is the one-line `file:line: what` message."""


class OneLineError(Exception):
    """An error whose message says it all, in one line: `turnlight` prints it as
    `turnlight: message` and exits with status 2, wherever in a command it was raised
    (host/cli.py). Its modules raise subclasses: the journal's (host/core/journal.py)."""
