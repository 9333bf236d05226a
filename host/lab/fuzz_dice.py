"""The paired-dice file's fuzz target, `dice_file` (host/lab/fuzz.py runs it; issue #37,
item 4; docs/reliability.md, "Fuzzing").

One input is a folder holding `dice.json` as a person, a damaged disk or someone else on
the machine could leave it: a good file (ids and names with control characters, as any
die in radio range may advertise), that file with a value swapped for another of any
kind, a key dropped or added, a die twice, its bytes cut, flipped or not UTF-8, nested
deep, padded past the size limit; or no file at all but a FIFO, a folder, a symlink to
either or to a file outside the folder, with the temporary name an older turnlight used
(`dice.tmp`) planted as a symlink to a file outside. Then it is read, listed by
`turnlight dice list` and written (`dice unstable`, or a die paired), and:

- a read gives dice that are each whole (a known make and kind, a GoDice's shell that
  makes its kind) or one line naming the file;
- the listing prints no control character (the die's own words are spelt out);
- a write replaces only a regular file (through a symlink, its target) and reads back
  as written, or is one line and leaves everything as it was; nothing else is written.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import stat
import tempfile
from pathlib import Path
from typing import Any

from host.dice import godice, settings
from host.dice.model import GODICE, KINDS, PIXELS
from host.lab.fuzz import target

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # what a listing must not print
_ODD_TEXT = ("", "Red", "GoDice_E5DA53_K_v04", "\x1b]0;pwned\x07\x1b[2J", "\u202eevil", "\x9b31m")


class Broken(AssertionError):
    """What the paired-dice file's reader or writer did that it must not, in one line."""


def _text(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return rng.choice(_ODD_TEXT)
    return "".join(chr(rng.choice((rng.randrange(32), rng.randrange(0x250)))) for _ in range(8))


def _good_die(rng: random.Random, n: int) -> dict[str, str]:
    if rng.random() < 0.5:
        shell = rng.choice(sorted(godice.SHELLS))
        name = "GoDice_" + _text(rng) + str(n)
        return {
            "die_id": name,
            "make": GODICE,
            "kind": godice.SHELLS[shell],
            "name": name,
            "address": _text(rng),
            "shell": shell,
        }
    return {
        "die_id": f"{rng.randrange(1 << 32):08X}{n}",
        "make": PIXELS,
        "kind": rng.choice(KINDS),
        "name": _text(rng),
        "address": _text(rng),
        "shell": "",
    }


def _any_value(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(9 if depth < 3 else 6)
    if pick == 0:
        return None
    if pick == 1:
        return rng.random() < 0.5
    if pick == 2:
        return rng.choice((0, -1, 1, 2**64, 1.5))
    if pick == 3:
        return _text(rng)
    if pick == 4:
        return rng.choice(KINDS + ("d7", "D20", "pixels", "godice", "d10x"))
    if pick == 5:
        return "x" * rng.choice((1, 1000, 30_000))
    if pick == 6:
        return [_any_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if pick == 7:
        return {_text(rng): _any_value(rng, depth + 1) for _ in range(rng.randrange(4))}
    return {"dice": [_any_value(rng, depth + 1)]}


def _damaged(rng: random.Random, top: dict[str, Any]) -> Any:
    """`top` with one thing wrong (or, now and then, nothing)."""
    dice = top["dice"]
    pick = rng.randrange(8)
    if pick == 0 and dice:
        die = rng.choice(dice)
        die[rng.choice(sorted(die))] = _any_value(rng)
    elif pick == 1 and dice:
        rng.choice(dice).pop(rng.choice(("die_id", "make", "kind", "name", "shell")), None)
    elif pick == 2 and dice:
        rng.choice(dice)[_text(rng)] = _any_value(rng)
    elif pick == 3 and dice:
        dice.append(dict(rng.choice(dice)))  # a die paired twice
    elif pick == 4:
        top[rng.choice(("dice", "accept_unstable", _text(rng)))] = _any_value(rng)
    elif pick == 5 and dice:
        dice[rng.randrange(len(dice))] = _any_value(rng)
    elif pick == 6:
        return _any_value(rng)
    return top


def _file_bytes(rng: random.Random) -> bytes:
    top = {
        "dice": [_good_die(rng, n) for n in range(rng.randrange(5))],
        "accept_unstable": rng.random() < 0.5,
    }
    data = json.dumps(_damaged(rng, top) if rng.random() < 0.7 else top).encode()
    pick = rng.randrange(10)
    if pick == 0 and data:  # cut short
        return data[: rng.randrange(len(data))]
    if pick == 1 and data:  # a byte changed (not UTF-8, a bracket lost, ...)
        at = rng.randrange(len(data))
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
    if pick == 2:  # nested deep, from a few levels to past Python's recursion limit
        deep = rng.choice((5, settings.MAX_DEPTH, settings.MAX_DEPTH + 1, 3_000, 30_000))
        opener = rng.choice(("[", '{"dice":'))
        return (opener * deep + "1" + ("]" if opener == "[" else "}") * deep).encode()
    if pick == 3:  # padded to about the size limit, either side of it
        size = settings.MAX_BYTES + rng.choice((-1, 0, 1, 1000))
        return data + b" " * max(0, size - len(data))
    return data


def _place(rng: random.Random, home: Path, outside: Path) -> Path:
    """Put something at `home/dice.json` (or nothing); the path to read and write."""
    path = home / "dice.json"
    pick = rng.randrange(12)
    if pick == 0:
        return path  # no file yet
    if pick == 1:
        os.mkfifo(path)
    elif pick == 2:
        path.mkdir()
    elif pick == 3:
        fifo = outside / "fifo"
        os.mkfifo(fifo)
        path.symlink_to(fifo)
    elif pick == 4:
        real = outside / "real.json"
        real.write_bytes(_file_bytes(rng))
        path.symlink_to(real)
    elif pick == 5:
        path.symlink_to(outside / "nowhere.json")
    else:
        path.write_bytes(_file_bytes(rng))
    if rng.random() < 0.3:  # an older turnlight's temporary name, planted as a symlink
        (home / "dice.tmp").symlink_to(outside / "sentinel")
    return path


def _tree(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every entry under `folder`: its type, and a regular file's bytes."""
    seen = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            entry = Path(root) / name
            mode = os.lstat(entry).st_mode
            body = entry.read_bytes() if stat.S_ISREG(mode) else b""
            seen[str(entry.relative_to(folder))] = (stat.S_IFMT(mode), body)
    return seen


def _one_line(err: Exception, path: Path) -> None:
    text = str(err)
    if "\n" in text or str(path) not in text:
        raise Broken(f"not one line naming the file: {text[:200]!r}")


def _whole(dice: list[settings.PairedDie]) -> None:
    for die in dice:
        if not die.die_id or die.make not in (PIXELS, GODICE) or die.kind not in KINDS:
            raise Broken(f"a die read that is not whole: {die!r}"[:200])
        if die.make == GODICE and godice.SHELLS.get(die.shell) != die.kind:
            raise Broken(f"a GoDice read whose shell does not make its kind: {die!r}"[:200])
        if die.make == PIXELS and die.shell:
            raise Broken(f"a Pixels die read with a shell: {die!r}"[:200])


def _listed(path: Path) -> str:
    from host.commands import dice

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        dice.run(argparse.Namespace(verb="list", file=str(path)))
    return out.getvalue() + err.getvalue()


@target("dice_file")
def fuzz_dice_file(rng: random.Random) -> None:
    with tempfile.TemporaryDirectory(prefix="turnlight-fuzz-dice-") as tmp:
        top = Path(tmp)
        home, outside = top / "home", top / "outside"
        home.mkdir()
        outside.mkdir()
        (outside / "sentinel").write_bytes(b"not yours")
        path = _place(rng, home, outside)
        read: settings.Settings | None = None
        try:
            read = settings.read(path)
        except settings.SettingsError as err:
            _one_line(err, path)
        else:
            _whole(read.dice)
        shown = _listed(path)
        bad = _CONTROL.search(shown)
        if bad:
            raise Broken(f"`dice list` printed the control character U+{ord(bad.group()):04X}")
        dice = read.dice if read is not None else []
        if rng.random() < 0.5:
            dice = settings.paired_with(dice, settings.PairedDie(**_good_die(rng, 9)))
        unstable = rng.choice((None, True, False))
        before = _tree(top)
        try:
            settings.save(dice, path, unstable)
        except settings.SettingsError as err:
            _one_line(err, path)
            if _tree(top) != before:
                raise Broken("a refused write changed the folder") from None
            return
        if read is None and unstable is None:
            raise Broken("a file that cannot be read was written over (its setting unknown)")
        if (outside / "sentinel").read_bytes() != b"not yours":
            raise Broken("the write went through a planted symlink")
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise Broken("the write left no regular file")
        again = settings.read(path)
        want = unstable if unstable is not None else (read.accept_unstable if read else False)
        if again.dice != dice or again.accept_unstable != want:
            raise Broken("the file read back is not what was written")
        changed = {k for k, v in _tree(top).items() if before.get(k) != v}
        allowed = {str(path.relative_to(top))}
        if path.is_symlink():
            allowed = {str(path.resolve().relative_to(top.resolve()))}
        if not changed <= allowed:
            raise Broken(f"the write changed {sorted(changed - allowed)}")
