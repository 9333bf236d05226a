"""The host's fuzz targets (host/lab/fuzz.py runs them): the encounter loader, the command
parser, commands played through a session, the journal's corruption and truncation, the
checkpoints a forger stores in it, deploy's symlinks and odd boot_out.txt files, and numbers
typed in other scripts' digits, odd signs and spaces (at every verb and number option).

Each target builds one input from its random source and checks what the code promises
for any input: an answer or one line saying what is wrong (never an exception past
that), the state unchanged when a command is refused, no silently different game from a
damaged journal, nothing read, written or deleted off the drive.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import io
import json
import os
import random
import shlex
import shutil
import sqlite3
import tempfile
import time
import zlib
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from host import cli
from host.board import circuitpy_drive
from host.core import encounter_files, journal_checkpoints, names, numbers, registry
from host.core.interface import EncounterError, IllegalAction
from host.core.journal import Journal, JournalError
from host.core.session import HOLE, Session, resume
from host.lab import forged
from host.lab.fuzz import target
from host.rulesets.korxsol import encounter_schema
from shared import codec


@lru_cache(maxsize=1)
def _scratch() -> Path:
    """The fuzzers' scratch folder, made when a fuzzer first needs it (not on import),
    removed at exit."""
    folder = Path(tempfile.mkdtemp(prefix="turnlight-fuzz-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _fresh(name: str) -> Path:
    """An empty scratch folder for one input."""
    folder = _scratch() / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def _cli(argv: list[str]) -> tuple[int, str, str]:
    """The real command line, in process: its exit status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except SystemExit as exit_:  # argparse's own usage errors
            status = exit_.code if isinstance(exit_.code, int) else 2
    return status, out.getvalue(), err.getvalue()


def _said_one_line(status: int, err: str) -> None:
    """A refusal ends with one line, `turnlight: ...`."""
    if status != 0:
        lines = err.splitlines()
        assert lines and lines[-1].startswith("turnlight: "), f"status {status}: {err[-300:]!r}"


def mutate(
    rng: random.Random, data: bytes, tokens: tuple[bytes, ...] = (), edits: int = 6
) -> bytes:
    """`data` with a few random edits: bits flipped, bytes replaced, inserted, deleted or
    repeated, a token put in, the end cut off."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, edits)):
        op = rng.randrange(8 if tokens else 7)
        at = rng.randrange(len(buf) + 1)
        if op == 0 and buf:
            buf[at % len(buf)] ^= 1 << rng.randrange(8)
        elif op == 1 and buf:
            buf[at % len(buf)] = rng.randrange(256)
        elif op == 2:
            buf[at:at] = rng.randbytes(rng.randint(1, 8))
        elif op == 3:
            del buf[at : at + rng.randint(1, 64)]
        elif op == 4:
            chunk = bytes(buf[at : at + rng.randint(1, 200)])
            buf[at:at] = chunk * rng.randint(1, 3)
        elif op == 5:
            del buf[at:]
        elif op == 6 and buf:
            buf[at % len(buf)] = rng.choice(b"\x00\n\r\"'[]{}=#\\\xff\x80")
        elif op == 7:
            buf[at:at] = rng.choice(tokens)
    return bytes(buf)


# ---------------------------------------------------------------------------- encounters
ENCOUNTER_TOKENS = (
    b"[",
    b"]",
    b"{",
    b"}",
    b"[" * 40,
    b"[" * 3000,
    b"{a=" * 100,
    b"9" * 5000,
    b"0x" + b"f" * 5000,
    b'\n[[solighter]]\nname = "Orrin"\nteam = "Dusk"\nkor = 9\n',
    b'\n[[move]]\nname = "Rally Cry"\ntype = "buff"\n',
    b'\n[[team]]\nname = "Dawn"\n',
    b'ruleset = "tiny"\n',
    b'ruleset = "nosuch"\n',
    b'"""',
    b"'''",
    b"= 1e999\n",
    b"= nan\n",
    b"= -9223372036854775809\n",
    b"= 1979-05-27T07:32:00Z\n",
    b'= "\\ud800"\n',
    b"x" * 5000,
    '= "\u202e\u0301\U0001f600"\n'.encode(),
    b"\nx" + b".x" * 1200 + b" = 1\n",  # nested by dots, not brackets
    b"\n[" + b"t." * 40 + b"u]\n",
    b"\n[[" + b"t." * 40 + b"u]]\n",
    b'= "Kae\\u001b]0;pwned\\u0007\\u001b[2J"\n',  # escape codes a terminal obeys
    b'= "\\u0000\\b\\u009b"\n',
)
VALUES = (
    "0",
    "-1",
    "1",
    "7",
    "8",
    "99",
    "99999999999999999999",
    "1.5",
    "true",
    '""',
    '" "',
    '"x"',
    '"Orrin"',
    '"Kae"',
    '"Dawn"',
    '"Dusk"',
    '"Tonic"',
    "[]",
    "[1, 2]",
    "[3, 3, 3]",
    '["Strike"]',
    '["Tonic", "Tonic"]',
    '["fire", "ice", "mineral"]',
    '["Rally Cry"]',
    "{}",
    "{ power = 9 }",
    '"' + "x" * 300 + '"',
)


@lru_cache(maxsize=1)
def _examples() -> tuple[bytes, ...]:
    """Every ruleset's bundled encounter: the fuzzer starts from one of them."""
    return tuple(registry.get(i).example_path().read_bytes() for i in registry.ids())


def _mutate_lines(rng: random.Random, text: str) -> str:
    """Edits a person could make: a value changed, a line repeated, dropped or moved."""
    lines = text.splitlines()
    for _ in range(rng.randint(1, 5)):
        i = rng.randrange(len(lines)) if lines else 0
        op = rng.randrange(4)
        if op == 0 and lines and " = " in lines[i]:
            key = lines[i].split(" = ", 1)[0]
            lines[i] = f"{key} = {rng.choice(VALUES)}"
        elif op == 1 and lines:
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
        elif op == 2 and lines:
            del lines[i]
        elif op == 3 and lines:
            lines.insert(rng.randrange(len(lines) + 1), lines.pop(i))
    return "\n".join(lines) + "\n"


@target("encounter")
def fuzz_encounter(rng: random.Random) -> None:
    """Any encounter file loads (and then plays: a game starts and shows on the board, and
    no text it shows holds a control character) or is refused in one line naming the
    file."""
    data = rng.choice(_examples())
    if rng.random() < 0.5:
        data = _mutate_lines(rng, data.decode()).encode()
    if rng.random() < 0.7:
        data = mutate(rng, data, ENCOUNTER_TOKENS, edits=3)
    path = _fresh("encounter") / "duel.toml"
    path.write_bytes(data)
    try:
        enc = encounter_files.load(path, rng.choice((None, None, *registry.ids(), "nope")))
    except EncounterError as err:
        message = str(err)
        assert "\n" not in message and message.startswith(f"{path}"), message
        return
    ruleset = registry.get(enc.ruleset)
    game = ruleset.new_game(enc, rng.randrange(1000))
    ruleset.project(game)  # as a session does: the state encoded is the board's view
    codec.encode(ruleset.state(game))
    roster = ruleset.roster(game)
    for text in (enc.name, *enc.teams, *roster.headers, *(c for row in roster.rows for c in row)):
        assert names.control_character(text) is None, f"{text!r} is shown"


# ---------------------------------------------------------------------------- commands
def _words() -> list[str]:
    from host.rulesets.korxsol import language

    enc = encounter_schema.load(encounter_schema.example_path())
    words = list(language.VERBS) + [v.split()[0] for v in language.SESSION_VERBS]
    for s in enc.solighters:
        words += [s.name, s.label, s.name.lower()]
        words += [f'"{m.name}"' for m in s.moves + s.items + s.artifacts]
    words += ["sol=power", "sol=hit", "sol=Kae,Vex", "cornered=Orn", "fall=1:2", "fulldraw"]
    words += ["reroll", "frost", "burn", "fear", "kor", "armor", "ap", "+1", "-1", "+99"]
    words += ["hit", "dodge", "power", "resist", "chance", "next", "clear", "1", "2", "3", "0"]
    words += ["7", "-3", "99999999999999999999", "#", '"', "'", "\\", "x=", "=", "\x00", "é"]
    return words


@lru_cache(maxsize=1)
def _vocabulary() -> tuple[str, ...]:
    return tuple(_words())


@lru_cache(maxsize=1)
def _fighters() -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
    """Each bundled fighter's label, its moves and its items (quoted as a line wants)."""
    enc = encounter_schema.load(encounter_schema.example_path())
    return tuple(
        (s.label, tuple(f'"{m.name}"' for m in s.moves), tuple(f'"{i.name}"' for i in s.items))
        for s in enc.solighters
    )


def _action(rng: random.Random, active: str | None = None) -> str:
    """A line the rules could take: a fighter's own move or item at someone (mostly the
    fighter whose turn it is, when that is given)."""
    fighters = _fighters()
    mine = [f for f in fighters if f[0] == active]
    label, moves, items = mine[0] if mine and rng.random() < 0.7 else rng.choice(fighters)
    other = rng.choice([f[0] for f in fighters if f[0] != label] or [label])
    verb, pool = rng.choice((("attack", moves), ("item", items), ("move", ("1", "2"))))
    extra = rng.choice(("", "", " sol=power", " sol=hit", " fulldraw", " reroll", " fall=1:2"))
    what = rng.choice(pool) if pool else ""
    return f"{verb} {label} {what} {other}{extra}".replace("  ", " ")


def random_line(rng: random.Random, active: str | None = None) -> str:
    """A command line: mostly words of the language, sometimes junk, sometimes long."""
    if rng.random() < 0.4:
        return _action(rng, active)
    words = [rng.choice(_vocabulary()) for _ in range(rng.randint(0, 7))]
    line = " ".join(words)
    roll = rng.random()
    if roll < 0.1:
        line += " " + "x" * rng.choice((10, 999, 1001, 5000, 100_000))
    elif roll < 0.2:
        line = line.replace(" ", rng.choice(("\t", "  ", " # ", '" "', "\\ ")))
    elif roll < 0.3:
        line = mutate(rng, line.encode(), edits=3).decode("utf-8", "replace")
    return line


@target("commandline")
def fuzz_commandline(rng: random.Random) -> None:
    """Any line parses or is refused in one line, in time that grows with its length no
    faster than linearly (a line is at most MAX_LINE characters)."""
    from host.rulesets.korxsol import language

    line = random_line(rng)
    started = time.perf_counter()
    try:
        cmd = language.parse(line)
    except IllegalAction as err:
        assert "\n" not in str(err), str(err)
    else:
        assert cmd is None or (cmd.verb and cmd.text == line.strip())
    assert time.perf_counter() - started < 0.5, f"{len(line)} characters took too long"


def fingerprint(session: Session, with_done: bool = True) -> tuple:
    """What a game is: its history (lines, rolls used, undone lines), its waiting rolls
    and the board's view of it. Notes for the person (the log) are not."""
    ruleset = session.ruleset
    done = session.done if with_done else []
    return (
        [(e.text, json.dumps(ruleset.record_json(e.rolls), sort_keys=True)) for e in done],
        [e.text for e in session.undone],
        sorted((k, list(v)) for k, v in ruleset.waiting(session.game).items()),
        codec.encode(ruleset.state(session.game)),
    )


def fingerprint_of_the_rest(session: Session) -> tuple:
    """`fingerprint` but for the done actions (a resumed session has not read them all)."""
    return fingerprint(session, with_done=False)[1:]


@target("commands")
def fuzz_commands(rng: random.Random) -> None:
    """Random lines through a korxsol session: each is applied or refused in one line with
    the game unchanged; and the journal resumes the game exactly."""
    folder = _fresh("commands")
    journal = Journal(folder / "j.sqlite") if rng.random() < 0.3 else None
    enc = encounter_schema.load(encounter_schema.example_path())
    session = Session(enc, rng.randrange(100), journal)
    for _ in range(rng.randint(1, 25)):
        line = rng.choice(("initiative", "end", "undo", "redo")) if rng.random() < 0.3 else ""
        active = getattr(session.game, "active", None)
        line = line or random_line(rng, active.spec.label if active is not None else None)
        before = fingerprint(session)
        try:
            shown = session.execute(line)
        except IllegalAction as err:
            assert "\n" not in str(err), str(err)
            assert fingerprint(session) == before, f"{line!r} was refused but changed the game"
        else:
            assert all(isinstance(x, str) for x in shown)
    if journal is not None:
        assert session.game_id is not None
        again = resume(Journal(folder / "j.sqlite"), session.game_id)
        assert fingerprint(again) == fingerprint(session), "the journal resumed another game"
        journal.close()


# ---------------------------------------------------------------------------- the journal
FIGHT = (
    "order Kae Orn Vex Brm",
    'attack Kae "Flame Slash" Brm',
    "end",
    'attack Orn "Sundering Blow" Vex',
    "end",
    "dice power 3 3",
    "adjust Vex frost +1",
    'attack Vex "Frost Arrow" Brm',
    "end",
    "undo",
    "redo",
    "end",
    "dice hit 3 1",
)


@lru_cache(maxsize=1)
def _journal_template() -> tuple[bytes, dict[int, tuple]]:
    """A real journal of two games, and each game's fingerprint."""
    path = _fresh("journal-template") / "j.sqlite"
    journal = Journal(path)
    session = Session(encounter_schema.load(encounter_schema.example_path()), 7, journal)
    games = {}
    for lines in (FIGHT, FIGHT[:5]):
        for line in lines:
            with contextlib.suppress(IllegalAction):
                session.execute(line)
        assert session.game_id is not None
        games[session.game_id] = fingerprint(session)
        session = session.next_game()
    journal.discard_if_empty(session.game_id or 0)
    journal.close()  # the last connection: SQLite folds the WAL into the file
    return path.read_bytes(), games


def corrupt(rng: random.Random, data: bytes) -> bytes:
    """A damaged copy of a database file: bytes flipped here and there, a run of random
    bytes, a page zeroed or lost, or the file cut short."""
    page = 4096
    buf = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(5)
        if not buf:
            break
        if op == 0:
            for _ in range(rng.randint(1, 20)):
                at = rng.randrange(len(buf))
                buf[at] ^= 1 << rng.randrange(8)
        elif op == 1:
            at = rng.randrange(len(buf))
            buf[at : at + rng.randint(1, 64)] = rng.randbytes(rng.randint(1, 64))
        elif op == 2:
            at = rng.randrange(max(1, len(buf) // page)) * page
            buf[at : at + page] = bytes(min(page, len(buf) - at))
        elif op == 3:
            at = rng.randrange(max(1, len(buf) // page)) * page
            del buf[at : at + page]
        else:
            cut = rng.choice((rng.randrange(len(buf) + 1), (len(buf) // page - 1) * page))
            del buf[max(0, cut) :]
    return bytes(buf)


@target("journal")
def fuzz_journal(rng: random.Random) -> None:
    """A damaged or truncated journal: `games`, `export` and `play --resume` each give the
    game as it was, the part that checks (marked partial), or one line; never a
    traceback, never a different game."""
    data, games = _journal_template()
    path = _fresh("journal") / "j.sqlite"
    path.write_bytes(corrupt(rng, data))
    game = rng.choice(sorted(games))

    status, _, err = _cli(["games", "--db", str(path)])
    assert status in (0, 1, 2), status
    _said_one_line(status, err)

    status, out, err = _cli(["export", str(game), "--db", str(path)])
    assert status in (0, 1, 2), status
    _said_one_line(status, err)
    if status in (0, 1):
        doc = json.loads(out)
        written = [(e["kind"], e["payload"]) for e in doc["events"]]
        whole = _events_of(data, game)
        if status == 0:
            assert written == whole and doc["partial"] is None, "export gave another game"
        else:
            assert doc["partial"] and written == whole[: len(written)], "a partial export differs"

    try:
        journal = Journal(path)
    except JournalError as err_:
        assert "\n" not in str(err_)
        return
    try:
        session = resume(journal, game)
    except (IllegalAction, JournalError) as err_:
        assert "\n" not in str(err_)
    else:
        assert fingerprint(session) == games[game], "resumed into another game"
    finally:
        journal.close()


@lru_cache(maxsize=4)
def _events_of_cached(data: bytes, game: int) -> tuple:
    path = _fresh("journal-events") / "j.sqlite"
    path.write_bytes(data)
    journal = Journal(path, write=False)
    events = tuple((kind, payload) for _, kind, payload, _ in journal.events(game))
    journal.close()
    return events


def _events_of(data: bytes, game: int) -> list[tuple[str, Any]]:
    return list(_events_of_cached(data, game))


# ---------------------------------------------------------------------------- checkpoints
def _small_checkpoints() -> contextlib.ExitStack:
    """Checkpoints every few actions (the journal's are 1,024 apart), for a short game."""
    stack = contextlib.ExitStack()
    for name, value in (("EVERY", 4), ("RECENT", 5), ("TAIL", 3), ("KEEP", 2)):
        old = getattr(journal_checkpoints, name)
        setattr(journal_checkpoints, name, value)
        stack.callback(setattr, journal_checkpoints, name, old)
    return stack


@lru_cache(maxsize=1)
def _checkpointed_template() -> tuple[bytes, int, tuple]:
    """A journal of one korxsol game of 30 actions with stored checkpoints, its id and its
    fingerprint."""
    path = _fresh("checkpoint-template") / "j.sqlite"
    with _small_checkpoints():
        session = Session(encounter_schema.load(encounter_schema.example_path()), 5, Journal(path))
        session.execute("initiative")
        while len(session.done) < 30:
            session.execute("end")
    assert session.journal is not None and session.game_id is not None
    session.journal.close()
    return path.read_bytes(), session.game_id, fingerprint(session)


def _forged_node(rng: random.Random) -> Any:
    """A value a forger might put anywhere in a checkpoint's JSON."""
    return rng.choice(
        (
            -1,
            999,
            10**30,
            1e308,
            "lots",
            None,
            True,
            [],
            {},
            ["R", 10**9],
            ["O", "subprocess:Popen", {}],
            ["O", "host.rulesets.korxsol.model:Move", {}],
            ["S", [k * (2**61 - 1) for k in range(5000)]],
            ["Q", 10**30, []],
            ["A", "zz"],
            ["L", [["L", []]] * 20000],
            "x" * 100_000,
        )
    )


def _replace_somewhere(rng: random.Random, data: Any) -> Any:
    """`data` (JSON) with one node, picked by walking down at random, replaced."""
    if not isinstance(data, list | dict) or not data or rng.random() < 0.2:
        return _forged_node(rng)
    key = rng.choice(list(data)) if isinstance(data, dict) else rng.randrange(len(data))
    data[key] = _replace_somewhere(rng, data[key])
    return data


def _forge(rng: random.Random, header: str, history: str, body: bytes) -> tuple:
    """One checkpoint row's parts changed as a forger could (the digest is made after)."""
    part = rng.randrange(4)
    if part == 0:
        fields = _replace_somewhere(rng, json.loads(header))
        header = json.dumps(fields) if rng.random() < 0.9 else "[" * 2000 + "]" * 2000
    elif part == 1:
        data = _replace_somewhere(rng, json.loads(history))
        if isinstance(data, dict) and rng.random() < 0.3:
            data["done"] = rng.choice((10**9, -1, 0, 10**6))
        history = json.dumps(data)
    elif part == 2:
        data = _replace_somewhere(rng, json.loads(zlib.decompress(body)))
        body = zlib.compress(json.dumps(data).encode(), 1)
    elif rng.random() < 0.5:
        body = zlib.compress(mutate(rng, zlib.decompress(body), (b"[" * 2000, b" " * 4000)))
    else:
        pack = zlib.compressobj(9)  # a body that inflates to hundreds of megabytes
        body = pack.compress(b"[" + b" " * 2**26) + pack.compress(b"]") + pack.flush()
    return header, history, body


@target("checkpoints")
def fuzz_checkpoints(rng: random.Random) -> None:
    """A checkpoint forged with a digest that matches (header, history or body changed to
    any JSON, a body that inflates to hundreds of megabytes): `play --resume` gives the
    game as it was, each refusal said in one line; never a traceback, never another game."""
    data, game, played = _checkpointed_template()
    path = _fresh("checkpoints") / "j.sqlite"
    path.write_bytes(data)
    con = sqlite3.connect(path)
    rows = con.execute("SELECT seq, header, history, body FROM checkpoints").fetchall()
    for seq, header, history, body in rng.sample(rows, rng.randint(1, len(rows))):
        forged.store(con, game, seq, *_forge(rng, header, history, body))
    con.commit()
    con.close()
    with _small_checkpoints():
        session = resume(Journal(path), game)
    assert session.journal is not None
    session.journal.close()
    assert all("\n" not in notice for notice in session.notices), session.notices
    history, undone, waiting, state = played
    assert len(session.done) == len(history), "resumed into another game"
    # A resume leaves what comes before its checkpoint's recent actions unread (HOLE).
    read = [(n, entry) for n, entry in enumerate(session.done) if entry is not HOLE]
    mine = session.ruleset.record_json
    for n, entry in read:
        assert (entry.text, json.dumps(mine(entry.rolls), sort_keys=True)) == history[n]
    assert fingerprint_of_the_rest(session) == (undone, waiting, state), "another game"


# ---------------------------------------------------------------------------- deploy
BOOT_OUT = "Adafruit CircuitPython 9.2.1 on 2024-11-20; Adafruit Trellis M4 Express with samd51g19"
BOOT_TOKENS = (
    b"CircuitPython ",
    b"Adafruit CircuitPython 8.2.0 on 2023-01-01; Raspberry Pi Pico with rp2040",
    b"Adafruit CircuitPython 10.0.0-beta.2 on 2025-05-01; Adafruit MacroPad RP2040 with rp2040",
    b"; ",
    b" with ",
    b" on ",
    b"9" * 400,
    b"; " * 300,
    b" " * 5000,
    b"\r\n",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
)


def boot_out_text(rng: random.Random) -> bytes:
    """A boot_out.txt: CircuitPython's first line, changed a little or a lot."""
    data = (BOOT_OUT + "\nBoard ID:trellis_m4_express\nUID:0123456789AB\n").encode()
    roll = rng.random()
    if roll < 0.05:
        return b""
    if roll < 0.1:
        return rng.randbytes(rng.randint(1, 10_000))
    if roll < 0.15:
        return b"CircuitPython 9.0 " + b"x" * rng.choice((4000, 40_000, 1_000_000))
    return mutate(rng, data, BOOT_TOKENS, edits=4)


@target("boot_out")
def fuzz_boot_out(rng: random.Random) -> None:
    """Any boot_out.txt is read in a bounded time: a board and version, or one line."""
    drive = _fresh("boot_out")
    (drive / "boot_out.txt").write_bytes(boot_out_text(rng))
    board = rng.choice(circuitpy_drive.KNOWN_BOARDS)
    started = time.perf_counter()
    try:
        found = circuitpy_drive.check_boot_out(drive, board, force=rng.random() < 0.3)
    except circuitpy_drive.DeployError as err:
        assert "\n" not in str(err), str(err)
    else:
        assert found.version is None or all(isinstance(n, int) for n in found.version)
    assert time.perf_counter() - started < 0.5, "boot_out.txt took too long"


# Where a deploy's symlinks may be: what it reads, writes and walks on the drive.
LINK_SPOTS = (
    "boot_out.txt",
    "settings.toml",
    "boot.py",
    "code.py",
    "lib",
    "firmware",
    "shared",
    "lib/neopixel.py",
    "firmware/app.py",
    "firmware/precious.py",
    "shared/link",
    "code.py" + circuitpy_drive.TEMP_SUFFIX,
)


def _tree(folder: Path) -> dict[str, Any]:
    """Every path under `folder` with its bytes (or where a link points)."""
    seen: dict[str, Any] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            key = str(path.relative_to(folder))
            if path.is_symlink():
                seen[key] = ("link", os.readlink(path))
            elif path.is_file():
                seen[key] = path.read_bytes()
            else:
                seen[key] = "folder"
    return seen


def _makes_folder(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:  # where a link to a file already stands
        return False
    return folder.is_dir()


@target("deploy")
def fuzz_deploy(rng: random.Random) -> None:
    """A drive with symlinks in odd places and an odd boot_out.txt and settings.toml:
    the deploy goes ahead, or is refused in one line; nothing off the drive is read into
    it, written or deleted, and a symlink it would use is always refused."""
    case = _fresh("deploy")
    drive, outside = case / "CIRCUITPY", case / "outside"
    for folder in (drive, outside / "firmware", outside / "lib"):
        folder.mkdir(parents=True)
    (outside / "precious.py").write_text("# not the board's\n")
    (outside / "firmware" / "precious.py").write_text("# not the board's either\n")
    (outside / "settings.toml").write_text('SECRET = "do not copy"\n')
    boot = boot_out_text(rng) if rng.random() < 0.3 else (BOOT_OUT + "\n").encode()
    (drive / "boot_out.txt").write_bytes(boot)
    if rng.random() < 0.5:
        (drive / "settings.toml").write_bytes(
            mutate(rng, b'CIRCUITPY_WIFI_SSID = "home"\nTURNLIGHT_BOARD = "macropad"\n')
        )
    if rng.random() < 0.3:
        (drive / "firmware").mkdir()
        (drive / "firmware" / "old_module.py").write_text("# stale\n")
    linked = []
    for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
        spot = rng.choice(LINK_SPOTS)
        link = drive / spot
        if link.exists() or link.is_symlink() or not _makes_folder(link.parent):
            continue
        to = rng.choice(
            (
                outside / "precious.py",
                outside / "firmware",
                outside / "lib",
                outside / "settings.toml",
                drive / "boot_out.txt",
                case / "nothing-there",
            )
        )
        link.symlink_to(to)
        linked.append(spot)
    where = drive
    if rng.random() < 0.2:  # the drive's own path may be a symlink
        where = case / "mounted"
        where.symlink_to(drive)
    before = _tree(outside)
    argv = ["deploy", "--drive", str(where), "--board", rng.choice(circuitpy_drive.KNOWN_BOARDS)]
    argv += [flag for flag in ("--force", "--dry-run") if rng.random() < 0.4]
    status, _, err = _cli(argv)
    assert status in (0, 1, 2), status
    _said_one_line(status, err)
    assert _tree(outside) == before, "the deploy changed files off the drive"
    if linked:
        assert status != 0, f"deployed through a symlink at {linked}"


# ---------------------------------------------------------------------------- numbers
# Digits of other scripts (superscript, full-width, Arabic-Indic, Devanagari, ...), signs a
# keyboard or a word processor types for + and -, and spaces that are not a plain space:
# str.isdigit() says yes to '²', int() reads '١٢', float() reads 'nan' (issue 37).
ODD_DIGITS = "0123456789²³¹⁷⁰٣١٢١２３۴०৭߃๓"
ODD_SIGNS = "+-\u2212\uff0b\uff0d"
ODD_SPACES = "\u00a0\u2003\t "
ODD_WORDS = ("nan", "inf", "1_000", "1e3", "0x1f", "1.5", "", "9" * 40, "9" * 4_400)


def odd_number(rng: random.Random) -> str:
    """A number as a person might type it in another script, with odd signs and spaces."""
    if rng.random() < 0.1:
        return rng.choice(ODD_WORDS)
    text = "".join(rng.choice(ODD_DIGITS) for _ in range(rng.randint(1, 4)))
    if rng.random() < 0.4:
        text = rng.choice(ODD_SIGNS) + text
    if rng.random() < 0.2:
        at = rng.randrange(len(text) + 1)
        text = text[:at] + rng.choice(ODD_SPACES) + text[at:]
    return text


@cache
def _encounter_of(ruleset_id: str) -> Any:
    ruleset = registry.get(ruleset_id)
    path = ruleset.example_path()
    return ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path))


@lru_cache(maxsize=1)
def _number_options() -> tuple[argparse.ArgumentParser, tuple[tuple[tuple[str, ...], str], ...]]:
    """The real command line's parser, and every number option of every command: (the
    command's words, the option; "" for a number written alone, `export GAME`)."""
    parser = cli.build_parser()
    found: list[tuple[tuple[str, ...], str]] = []

    def walk(p: argparse.ArgumentParser, argv: tuple[str, ...]) -> None:
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, command in action.choices.items():
                    walk(command, (*argv, name))
            elif action.type in (cli.whole_option, cli.seconds_option):
                found.append((argv, action.option_strings[0] if action.option_strings else ""))

    walk(parser, ())
    return parser, tuple(found)


@target("numbers")
def fuzz_numbers(rng: random.Random) -> None:
    """Numbers typed in other scripts' digits, odd signs and spaces: the one reader
    (host/core/numbers.py) gives int() of ASCII digits or one line; any verb of any
    ruleset given them is applied or refused in one line with the game unchanged; any
    number option of any command is a usage error in one line."""
    text = odd_number(rng)
    try:
        value = numbers.whole(text, signed=True)
    except numbers.NotANumber as err:
        assert "\n" not in str(err)
    else:
        assert text.lstrip("+-").isascii() and value == int(text), text
    ruleset_id = rng.choice(registry.ids())
    language = registry.get(ruleset_id).language
    dice_from = "entered" if language.knows("dice from") and rng.random() < 0.5 else "engine"
    session = Session(_encounter_of(ruleset_id), rng.randrange(100), None, dice_from=dice_from)
    if language.knows("initiative") and rng.random() < 0.7:
        session.execute("initiative")
    names = session.ruleset.fighter_names(session.game) or ["x"]
    for _ in range(rng.randint(1, 6)):
        verb = rng.choice(sorted(language.grammar))
        grammar = language.grammar[verb]
        words = verb.split()
        for _slot in grammar.slots:
            pick = rng.random()
            if pick < 0.4:
                words.append(odd_number(rng))
            elif pick < 0.7:
                words.append(rng.choice(names))
            else:  # a square, a kind of dice or a stat with an odd number in it (`a²`)
                words.append(rng.choice("abcdk") + odd_number(rng))
        for option in grammar.options:
            if not option.flag and rng.random() < 0.3:
                words.append(f"{option.key}={odd_number(rng)}")
        line = " ".join(shlex.quote(w) for w in words)
        before = fingerprint(session)
        try:
            session.execute(line)
        except IllegalAction as err:
            assert "\n" not in str(err), str(err)
            assert fingerprint(session) == before, f"{line!r} was refused but changed the game"
    parser, options = _number_options()
    argv, flag = rng.choice(options)
    given = odd_number(rng)
    with contextlib.suppress(numbers.NotANumber):
        numbers.decimal(given, signed=True)
        return  # (a number some option reads: the command would run)
    said_err = io.StringIO()
    with contextlib.redirect_stderr(said_err):
        try:
            cli.parse(parser, [*argv, *([flag] if flag else []), given])
        except SystemExit as exit_:
            assert exit_.code == 2, exit_.code
        else:
            raise AssertionError(f"{argv} {flag} {given!r} was read as a number")
    said = said_err.getvalue().splitlines()
    assert said and " error: " in said[-1] and "Traceback" not in said_err.getvalue(), said
