"""The paired smart dice, kept in the user's data directory beside the journal
($XDG_DATA_HOME/turnlight/dice.json, host/core/journal.py's convention): each die by its
own id (never its address, which a die may change), with its make, kind, name, last
address, and a GoDice's shell, which the die cannot report."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from host.core.journal import default_path


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


class SettingsError(Exception):
    """The settings file cannot be read (one line: the path and what is wrong)."""


def settings_path() -> Path:
    return default_path().parent / "dice.json"


def load(path: Path | None = None) -> list[PairedDie]:
    """The paired dice (none when the file does not exist yet)."""
    path = path or settings_path()
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return [PairedDie(**{k: str(v) for k, v in d.items()}) for d in data["dice"]]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise SettingsError(f"{path}: not a paired-dice file ({err})") from None


def accepts_unstable(path: Path | None = None) -> bool:
    """Whether the game master counts a GoDice's fake, tilt and move stable rests as rolls
    (`turnlight dice unstable yes`; no by default)."""
    path = path or settings_path()
    if not path.is_file():
        return False
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("accept_unstable") is True
    except (OSError, ValueError, AttributeError) as err:
        raise SettingsError(f"{path}: not a paired-dice file ({err})") from None


def save(
    dice: list[PairedDie], path: Path | None = None, accept_unstable: bool | None = None
) -> Path:
    """Write the paired dice (atomically: a new file renamed over the old); the unstable
    rests' setting is kept unless given."""
    path = path or settings_path()
    if accept_unstable is None:
        accept_unstable = accepts_unstable(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    new = path.with_suffix(".tmp")
    data = {"dice": [asdict(d) for d in dice], "accept_unstable": accept_unstable}
    new.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    os.replace(new, path)
    return path


def paired_with(dice: list[PairedDie], die: PairedDie) -> list[PairedDie]:
    """`dice` with `die` added, or replacing the one of the same id."""
    return [d for d in dice if d.die_id != die.die_id] + [die]
