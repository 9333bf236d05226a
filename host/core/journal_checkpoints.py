"""Checkpoints kept in the journal, so that `play --resume` of a long game loads the game as
it was a few actions before the end and replays only those (docs/checkpoints.md).

A row of the journal's `checkpoints` table holds, at event `seq`, the game after the first
`actions` actions of the session's history then, and that history's near end:

- `header`, JSON: the checkpoint format (FORMAT), the ruleset's id, its `rules_version` and
  `state_version` (a ruleset raises it when its game changes shape), `actions`, the seq of
  the last of them (`entry`), the event seq it was written at and the body's length;
- `history`, JSON: the number of actions done, the last RECENT of them (line, record, by,
  seq), every undone one, the rolls waiting and the action waiting for its roll: so a
  resume reads none of the events before `seq`;
- `body`: the game as plain data (host/core/plain_data.py), JSON compressed with zlib;
- `digest`: a BLAKE2b hash of the header, the history, the body and the hash of event
  `seq` in the journal's chain (which covers every event before it).

A resume takes the latest checkpoint that checks, reads and checks the chain only from its
event on, replays those events' actions and treats the actions done before its history's
near end as not read yet (`session.HOLE`): an undo or redo that reaches them reads the
whole journal then, chain and all (`Session._fill`). Refused, with one line saying why: a
checkpoint whose digest, header or body does not check, that another ruleset, rules
version or state version wrote, that belongs to a history the game no longer has (undone
since), or whose game does not have the shape today's code gives it (an attribute added
without raising `state_version`). The session then tries an older one, or replays the
whole game as before, and writes a new one.

Written every EVERY actions with the action's own event, in its transaction, and at the end
of a resume that replayed more than TAIL actions. The KEEP latest of a game are kept, and
older ones every FAR actions while they are of the game's history (an undo far back).
"""

from __future__ import annotations

import gc
import hashlib
import json
import sys
import zlib
from dataclasses import dataclass
from typing import Any

from host.core import effects, plain_data, state_check
from host.core.history import HOLE, Entry, Pending, replay_events
from host.core.journal import JournalError, _text

FORMAT = 1  # the checkpoint format: raise it when the header, history, body or digest change
EVERY = 1024  # actions between checkpoints written with an action (a multiple of 32)
KEEP = 3  # the latest checkpoints of a game kept in the journal
# Further back, the one every FAR actions is kept too while it is of the game's history: an
# undo far back after a resume replays at most FAR actions, not the whole game.
FAR = 16 * EVERY
TAIL = EVERY  # a resume that replayed more than this (no checkpoint fits) writes one
RECENT = 2 * EVERY  # the actions at the end of the history a checkpoint holds in full

# What a checkpoint may cost to read, checked before each part is built (issue #27, 3.5:
# the digest is not keyed, so whoever can write the journal can write one that checks).
# A game of 100,000 actions has a body of about 13 MB and some 3,000 values; its history
# about 2,048 short entries. Past these, a checkpoint is refused and the game replayed.
MAX_BODY = 24 * 1024 * 1024  # bytes of the body, compressed or not
MAX_HISTORY = 8 * 1024 * 1024  # characters of the history
MAX_VALUES = 250_000  # JSON values (counted by their commas and brackets) in either


# What a checkpoint row that does not read as one raises (a damaged file: SQLite's own
# errors come as JournalError): it is passed over like a refused one.
_UNREADABLE = (
    KeyError,
    TypeError,
    ValueError,
    IndexError,
    AttributeError,
    OverflowError,
    MemoryError,
    RecursionError,
    JournalError,
)


class Refused(ValueError):
    """A stored checkpoint that cannot be used; str() is one line saying why."""


class Unfit(ValueError):
    """A part of a checkpoint past what it may cost, or that does not add up; str() says
    what, and the caller which checkpoint."""


class OtherRules(Refused):
    """Written under other rules: expected after an update (and said on its own)."""


@dataclass
class Stored:
    seq: int  # the event it was written at
    actions: int  # the game after this many actions of the history then (-1: unreadable)
    entry: int  # the journal seq of the last of those actions
    header: str
    history: str
    digest: str
    problem: str = ""  # why its header does not read ("": it does)


@dataclass
class Start:
    """Where a resume starts: the game after `actions` actions, and the session's history
    as the events up to the end make it (done, undone, waiting rolls, a waiting action)."""

    actions: int
    game: Any
    done: list
    undone: list
    waiting: dict
    pending: list
    seq: int = 0  # the event the checkpoint was written at


INFLATE_PIECE = 256 * 1024  # bytes of a body inflated at a time
HEADER_CHARS = 1_000  # a header is a handful of short fields (about 150 characters)


def _header(text: object) -> dict:
    """A checkpoint's header as a dict; ValueError for one that is not (too long, not JSON,
    nested too deep for the JSON reader: a RecursionError, not a traceback)."""
    if not isinstance(text, str) or len(text) > HEADER_CHARS:
        raise ValueError(f"its header is not text of at most {HEADER_CHARS:,} characters")
    try:
        fields = json.loads(text)
    except RecursionError:
        raise ValueError("its header is nested too deep") from None
    if not isinstance(fields, dict):
        raise ValueError("its header is not a JSON object")
    return fields


def _bounded_json(text: str | bytes | bytearray, what: str, most: int) -> Any:
    """JSON read with what it may cost known first: at most `most` characters, at most
    MAX_VALUES values (each costs a Python object: "[]," three bytes of text make 64 of
    memory), nested no deeper than the reader's recursion; ValueError otherwise."""
    if len(text) > most:
        raise Unfit(f"its {what} is {len(text):,} long, more than the {most:,} it may be")
    if not isinstance(text, bytes | bytearray) or _marks(text, MAX_VALUES) > MAX_VALUES:
        marks = (",", "[", "{") if isinstance(text, str) else (b",", b"[", b"{")
        values = sum(text.count(mark) for mark in marks)  # type: ignore[arg-type, misc]
        if values > MAX_VALUES:
            raise Unfit(f"its {what} holds {values:,} values, more than {MAX_VALUES:,}")
    try:
        return json.loads(text)
    except RecursionError:
        raise Unfit(f"its {what} is nested too deep") from None


def _marks(data: bytes | bytearray, most: int) -> int:
    """The commas and opening brackets in `data`, counted up to `most` + 1: each is found
    by `find`, which skips the long runs between them (a body is mostly its timeline's
    hex), 2 ms for a 100,000-action game's 13 MB where three `count`s take 20. A body past
    `most` is counted again whole, for the notice's number."""
    found = 0
    for mark in b",[{":
        at = data.find(mark)
        while at >= 0:
            found += 1
            if found > most:
                return found
            at = data.find(mark, at + 1)
    return found


def _decompressed(body: bytes) -> bytearray:
    """The body inflated, never past MAX_BODY bytes (a small body can inflate to
    gigabytes); ValueError past it. Inflated a piece at a time into one buffer that grows:
    asked for at most MAX_BODY at once, zlib fills blocks of its own and copies them into
    the text at the end, 13 MB of fresh memory touched twice (3 ms of a resume)."""
    inflate = zlib.decompressobj()
    data = bytearray()
    left = body
    while True:
        piece = inflate.decompress(left, INFLATE_PIECE)
        data += piece
        if len(data) > MAX_BODY - 1:
            raise Unfit(f"its body inflates past {MAX_BODY:,} bytes")
        left = inflate.unconsumed_tail
        if not left and len(piece) < INFLATE_PIECE:
            return data


def _digest(header: str, history: str, body: bytes, event_hash: str | None) -> str:
    h = hashlib.blake2b(digest_size=16)
    for part in (header.encode(), history.encode(), body, (event_hash or "").encode()):
        h.update(b"%d:" % len(part) + part)
    return h.hexdigest()


def _event_hash(journal: Any, game_id: int, seq: int) -> str | None:
    rows = journal._rows("SELECT hash FROM events WHERE game = ? AND seq = ?", (game_id, seq))
    return rows[0][0] if rows and isinstance(rows[0][0], str) else None


def _entry_json(ruleset: Any, entry: Any) -> list:
    return [entry.text, ruleset.record_json(entry.rolls), entry.by, entry.seq]


def make(session: Any, seq: int) -> tuple[str, str, bytes] | None:
    """(header, history, body) of the session's game and history now, at event `seq`;
    None when its history's near end is not all read (a resumed game, undone far back).
    Raises statefile.Unsupported for a game the state format does not take."""

    ruleset, done, undone = session.ruleset, session.done, session.undone
    recent = done[-RECENT:]
    if any(e is HOLE for e in recent) or any(e is HOLE for e in undone):
        return None
    pending = session.pending
    history = {
        "done": len(done),
        "recent": [_entry_json(ruleset, e) for e in recent],
        "undone": [_entry_json(ruleset, e) for e in undone],
        "waiting": {
            purpose: [[list(faces), source] for faces, source in queue]
            for purpose, queue in ruleset.waiting(session.game).items()
        },
        "pending": None
        if pending is None
        else [pending.text, pending.by, [[p, list(f), s] for p, f, s in pending.supplied]],
    }
    data = plain_data.encode(session.game, ruleset.state_modules)
    text = json.dumps(data, separators=(",", ":")).encode("utf-8")
    if len(text) > MAX_BODY - 1:  # it would be refused when read: the game replays instead
        raise plain_data.Unsupported(f"its state is {len(text):,} bytes, past {MAX_BODY:,}")
    body = zlib.compress(text, 1)
    header = {
        "format": FORMAT,
        "ruleset": ruleset.id,
        "rules": ruleset.rules_version,
        "state": ruleset.state_version,
        "actions": len(done),
        "entry": done[-1].seq if done else 0,
        "seq": seq,
        "bytes": len(body),
    }
    compact = {"sort_keys": True, "separators": (",", ":")}
    return json.dumps(header, **compact), json.dumps(history, **compact), body  # type: ignore[arg-type]


def write(session: Any, seq: int) -> bool:
    """Store the session's game and history at event `seq` (call it inside the journal's
    transaction that wrote that event, or after it), and drop the game's others but the
    KEEP latest and the far ones (`_far`). False: not stored (see `make`)."""
    journal, game_id = session.journal, session.game_id
    made = make(session, seq)
    if made is None:
        return False
    header, history, body = made
    with journal.transaction():
        digest = _digest(header, history, body, _event_hash(journal, game_id, seq))
        journal.db.execute(
            "INSERT OR REPLACE INTO checkpoints (game, seq, header, history, body, digest)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, seq, header, history, body, digest),
        )
        gone = [found.seq for found in stored(journal, game_id)[KEEP:] if not _far(session, found)]
        journal.db.executemany(
            "DELETE FROM checkpoints WHERE game = ? AND seq = ?", [(game_id, n) for n in gone]
        )
    return True


def _far(session: Any, found: Stored) -> bool:
    """Whether an older checkpoint is kept for an undo far back: its action count is a
    multiple of FAR and its last action is the session's there (or not read yet)."""

    k = found.actions
    if k <= 0 or k % FAR or k > len(session.done):
        return False
    entry = session.done[k - 1]
    return entry is HOLE or entry.seq == found.entry


def stored(journal: Any, game_id: int) -> list[Stored]:
    """A game's stored checkpoints, the latest first, without their bodies (a row that
    cannot be read is as good as none)."""
    try:
        rows = journal._rows(
            "SELECT seq, header, history, digest FROM checkpoints WHERE game = ? ORDER BY seq DESC",
            (game_id,),
        )
    except Exception:  # noqa: BLE001 - a journal whose checkpoints cannot be read replays
        return []
    found = []
    for seq, header, history, digest in rows:
        problem = ""
        try:
            fields = _header(header)
            actions, entry = int(fields["actions"]), int(fields["entry"])
        except (TypeError, ValueError, KeyError, OverflowError) as err:
            actions, entry = -1, -1
            problem = str(err) if isinstance(err, ValueError) else "its header cannot be read"
        if isinstance(seq, int) and seq > 0:
            text = header if isinstance(header, str) else ""
            found.append(Stored(seq, actions, entry, text, str(history), str(digest), problem))
    return found


def _checked_body(journal: Any, game_id: int, ruleset: Any, found: Stored) -> bytes:
    """The checkpoint's body, once its header says it is of this ruleset, rules and state
    version and its digest checks; raises Refused."""
    try:
        fields = _header(found.header)
    except ValueError as err:
        raise Refused(f"checkpoint at event {found.seq}: {err}") from None
    want = {
        "format": FORMAT,
        "ruleset": ruleset.id,
        "rules": ruleset.rules_version,
        "state": ruleset.state_version,
    }
    for key, value in want.items():
        got = fields.get(key)
        if got != value:
            why = f"checkpoint at event {found.seq} is of {key} {got!r}, not {value!r}"
            raise (OtherRules if key == "rules" else Refused)(why)
    rows = journal._rows(
        "SELECT length(body) FROM checkpoints WHERE game = ? AND seq = ?", (game_id, found.seq)
    )
    if rows and isinstance(rows[0][0], int) and rows[0][0] > MAX_BODY:
        raise Refused(f"checkpoint at event {found.seq}: its body is more than {MAX_BODY:,} bytes")
    if len(found.history) > MAX_HISTORY:
        raise Refused(
            f"checkpoint at event {found.seq}: its history is more than {MAX_HISTORY:,} characters"
        )
    rows = journal._rows(
        "SELECT body FROM checkpoints WHERE game = ? AND seq = ?", (game_id, found.seq)
    )
    body = rows[0][0] if rows else None
    if not isinstance(body, bytes):
        raise Refused(f"checkpoint at event {found.seq}: its body is gone")
    event_hash = _event_hash(journal, game_id, found.seq)
    if _digest(found.header, found.history, body, event_hash) != found.digest:
        raise Refused(f"checkpoint at event {found.seq} does not match its digest")
    return body


def _game(ruleset: Any, found: Stored, body: bytes, fresh: Any) -> Any:
    """The game a checked body holds, of the shape `fresh` (a new game) has; raises Refused."""
    met: dict[type, set[str]] = {}
    # Hundreds of thousands of containers are made at once, none of them garbage: the
    # collector's passes over them meanwhile would find nothing (and cost more than the rest).
    collecting = gc.isenabled()
    gc.disable()
    try:
        data = _bounded_json(_decompressed(body), "body", MAX_BODY)
        game = plain_data.decode(data, ruleset.state_modules, met)
        del data
    except (plain_data.Unsupported, Unfit) as err:
        raise Refused(f"checkpoint at event {found.seq}: {err}") from None
    except (zlib.error, ValueError, OverflowError, MemoryError, RecursionError) as err:
        raise Refused(f"checkpoint at event {found.seq}: its body cannot be read ({err})") from None
    finally:
        if collecting:
            gc.enable()
    if type(game) is not type(fresh):
        raise Refused(f"checkpoint at event {found.seq} holds a {type(game).__name__}")
    effects.book_of(ruleset, game)
    now = plain_data.shapes(fresh)
    for cls, names in met.items():
        if cls is type(fresh):  # a checkpoint from before the games kept effects has none
            names = names | {effects.BOOK}
        if cls in now and now[cls] != names:
            raise Refused(
                f"checkpoint at event {found.seq}: a {cls.__name__} has other attributes"
                " than today's (its state_version was not raised?)"
            )
    wrong = state_check.problem(game, fresh, ruleset.state_schema()) or effects.problem(game)
    if wrong:
        raise Refused(f"checkpoint at event {found.seq} holds a game no event makes: {wrong}")
    return game


def _history(ruleset: Any, found: Stored) -> tuple[list, list, dict, list]:
    """The session's history a checked checkpoint holds (done with HOLEs before its near
    end, undone, waiting rolls, the action waiting for its roll)."""
    from collections import deque

    try:
        data = _bounded_json(found.history, "history", MAX_HISTORY)
    except Unfit as err:
        raise Refused(f"checkpoint at event {found.seq}: {err}") from None

    # Most actions roll nothing: what no rolls read as is learned once (a new list each).
    empty = ruleset.record_from_json([])
    no_rolls = type(empty) is list and not empty

    def entry(item: list) -> Any:
        text, rolls, by, seq = item
        rolls = [] if no_rolls and rolls == [] else ruleset.record_from_json(rolls)
        return Entry(str(text), rolls, str(by), int(seq))

    # Each action is at least one event: a history of more actions than the events up to
    # its own (10**9 claimed made a list of 10**9 before) cannot be.
    count = data["done"]
    if type(count) is not int or not 0 < count <= found.seq or count != found.actions:
        raise Refused(f"checkpoint at event {found.seq}: its history claims {count!r} actions")
    if len(data["recent"]) > min(count, RECENT) or len(data["undone"]) > found.seq:
        raise Refused(f"checkpoint at event {found.seq}: its history holds more than it claims")
    recent = [entry(item) for item in data["recent"]]
    done = [HOLE] * (count - len(recent)) + recent
    undone = [entry(item) for item in data["undone"]]
    waiting = {
        str(purpose): deque((tuple(faces), str(source)) for faces, source in queue)
        for purpose, queue in data["waiting"].items()
    }
    pending = []
    if data["pending"] is not None:
        text, by, supplied = data["pending"]
        pending.append(Pending(text, by, [(p, tuple(f), s) for p, f, s in supplied]))
    return done, undone, waiting, pending


def _agrees_with_events(
    journal: Any, game_id: int, ruleset: Any, found: Stored, entries: list
) -> None:
    """Each action the checkpoint's history holds in full (its recent and undone ones) is
    the journal's action event at its seq, line, player and rolls: a history changed by
    whoever wrote the checkpoint (a line never played, other dice) is refused. Reads those
    events by their seq, a few thousand at most."""
    wanted = {entry.seq: entry for entry in entries if entry is not HOLE}
    payloads = _action_payloads(journal, game_id, sorted(wanted))
    seqs = list(wanted)
    theirs: list = []  # the events' rolls and the history's, up to the first other line
    ours: list = []
    # Most payloads are one of a few texts (`end`, rolled nothing): each read once, and
    # no rolls written once.
    read: dict[Any, Any] = {}
    no_rolls: Any = None
    for seq, entry in wanted.items():
        try:
            payload = payloads[seq]
            event = read.get(payload) if type(payload) is bytes else None
            if event is None:
                event = _loads(_text(payload) if type(payload) is bytes else payload)
                if type(payload) is bytes:
                    read[payload] = event
            if event["text"] != entry.text or event.get("by", "laptop") != entry.by:
                break
            theirs.append(event["rolls"])
            if type(entry.rolls) is list and not entry.rolls:
                if no_rolls is None:
                    no_rolls = ruleset.record_json([])
                ours.append(no_rolls)
            else:
                ours.append(ruleset.record_json(entry.rolls))
        except (KeyError, TypeError, ValueError, RecursionError):
            break
    other = _first_other(theirs, ours)
    if other is not None or len(theirs) < len(seqs):
        raise Refused(
            f"checkpoint at event {found.seq}: its history's action at event"
            f" {seqs[len(theirs) if other is None else other]} is not the journal's"
        )


def _action_payloads(journal: Any, game_id: int, seqs: list[int]) -> dict[int, Any]:
    """The payloads of the action events at `seqs` (sorted), by seq, as bytes (each
    decoded only where it is read: `_agrees_with_events`): read as one range of events
    where they lie close together (a history's recent actions), else by their seq, 500 at
    a time."""
    if not seqs:
        return {}
    if seqs[-1] - seqs[0] < 4 * len(seqs):
        rows = journal._rows(
            "SELECT seq, CAST(payload AS BLOB) FROM events"
            " WHERE game = ? AND seq BETWEEN ? AND ? AND kind = 'action'",
            (game_id, seqs[0], seqs[-1]),
        )
        return dict(rows)
    payloads: dict[int, Any] = {}
    for at in range(0, len(seqs), 500):
        part = seqs[at : at + 500]
        rows = journal._rows(
            f"SELECT seq, CAST(payload AS BLOB) FROM events WHERE game = ? AND seq IN"
            f" ({', '.join('?' * len(part))}) AND kind = 'action'",
            (game_id, *part),
        )
        payloads.update(rows)
    return payloads


_SCAN = json.JSONDecoder().scan_once  # type: ignore[attr-defined]  # (set by its __init__)


def _loads(text: Any) -> Any:
    """json.loads(text), read straight by the decoder's scanner when the text is one
    value with no space around it (an event's payload as the journal writes it): a third
    of what json.loads costs. Anything else goes through json.loads, and its errors."""
    if isinstance(text, str):
        try:
            value, end = _SCAN(text, 0)
        except (StopIteration, ValueError):
            end = -1
        if end == len(text):
            return value
    return json.loads(text)


def _json(value: Any) -> str | None:
    try:
        return json.dumps(value, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return None


def _first_other(theirs: list, ours: list) -> int | None:
    """The index of the first pair of rolls whose JSON texts differ (or do not write);
    None: all are the same. The lists are written whole first, as one text each: equal
    texts of two arrays are equal texts item by item (2,048 pairs written one by one took
    12 ms of a resume)."""
    whole = _json(theirs)
    if whole is not None and whole == _json(ours):
        return None
    for i, (a, b) in enumerate(zip(theirs, ours, strict=True)):
        one = _json(a)
        if one is None or one != _json(b):
            return i
    return None


def begin(session: Any, candidates: list[Stored], events: list) -> Start | None:
    """The latest of `candidates` that checks and fits the history `events` (every event
    after the oldest of them) make of it; None: none does. What is refused is said in
    session.notices, except one of other rules (expected after an update, and said on its
    own)."""

    ruleset = session.ruleset
    fresh: Any = None
    for found in candidates:
        n = found.actions
        if found.problem:
            session.notices.append(
                f"checkpoint at event {found.seq}: {found.problem}: the game is replayed from"
                " an earlier point"
            )
            continue
        if n <= 0 or found.entry <= 0:
            continue
        try:
            body = _checked_body(session.journal, session.game_id, ruleset, found)
            done, undone, waiting, pending = _history(ruleset, found)
            # (done is HOLEs but for its last RECENT at most: 100,000 items walked cost 8 ms)
            _agrees_with_events(
                session.journal, session.game_id, ruleset, found, done[-RECENT:] + undone
            )
            last = done[-1]
            tail = [event for event in events if event[0] > found.seq]
            replay_events(ruleset, tail, done, undone, waiting, pending)
            if len(done) < n or done[n - 1] is not last:
                continue  # the game's history was undone past it since
            if fresh is None:
                fresh = session._new_game()
            game = _game(ruleset, found, body, fresh)
        except OtherRules:
            continue
        except Refused as err:
            session.notices.append(f"{err}: the game is replayed from an earlier point")
            continue
        except _UNREADABLE as err:
            session.notices.append(
                f"checkpoint at event {found.seq} cannot be read ({type(err).__name__}: {err}):"
                " the game is replayed from an earlier point"
            )
            continue
        return Start(n, game, done, undone, waiting, pending, found.seq)
    return None


def nearest(session: Any, end: int, below: int) -> tuple[int, Any] | None:
    """A stored checkpoint's game after k actions, for the largest k with below < k <= end
    whose history is the session's (an undo after a resume, past what was replayed)."""

    if session.journal is None or session.game_id is None or session.stored_checkpoints_off:
        return None
    done = session.done
    fresh: Any = None
    for found in stored(session.journal, session.game_id):
        k = found.actions
        if not below < k <= end or done[k - 1] is HOLE or done[k - 1].seq != found.entry:
            continue
        try:
            body = _checked_body(session.journal, session.game_id, session.ruleset, found)
            if fresh is None:
                fresh = session._new_game()
            return k, _game(session.ruleset, found, body, fresh)
        except (Refused, *_UNREADABLE):
            continue
    return None


# ---------------------------------------------------------------------- the session's side
def _writable(session: Any) -> bool:
    journal = session.journal
    return journal is not None and session.game_id is not None and journal.writable


def _store(session: Any, seq: int) -> None:
    if getattr(session, "_no_checkpoints", None):
        return
    try:
        with session.journal.transaction():  # a savepoint: a failed write leaves the action
            write(session, seq)
    except plain_data.Unsupported as err:
        # A game the state format does not take: it is replayed, as before checkpoints.
        _give_up(session, f"{session.ruleset.id}'s game cannot be checkpointed: {err}")
    except Exception as err:  # noqa: BLE001 - a checkpoint only saves time: play goes on
        _give_up(session, f"{session.ruleset.id}'s game was not checkpointed: {err}")


def _give_up(session: Any, why: str) -> None:
    """No more checkpoints for this session's game, said once: it plays on, and a resume
    or a far undo replays it instead."""
    session._no_checkpoints = why
    notice = f"{why}; play goes on, and a resume replays the game"
    session.notices.append(notice)
    print(notice, file=sys.stderr)


def due(session: Any) -> bool:
    """Whether the action just added to session.done is stored with a checkpoint (every
    EVERY actions): the session journals it and calls `store` in one transaction."""
    return _writable(session) and bool(session.done) and len(session.done) % EVERY == 0


def store(session: Any, seq: int) -> None:
    """The game after session.done, stored at event `seq` (a game the format does not take
    is left without: it replays, as before checkpoints)."""
    _store(session, seq)


def after_resume(session: Any, start: int | None) -> None:
    """A resumed game that replayed more than TAIL actions is given a checkpoint at its
    latest event, so the next resume replays little."""
    if not (_writable(session) and session.done) or len(session.done) - (start or 0) <= TAIL:
        return
    with session.journal.transaction():
        row = session.journal.db.execute(
            "SELECT MAX(seq) FROM events WHERE game = ?", (session.game_id,)
        ).fetchone()
        if row is not None and isinstance(row[0], int):
            _store(session, row[0])
