"""Effects end exactly once (issue #29, item 4): random games of any ruleset with random
effects, fighters joining and leaving (`add`, `remove`, where the game has them), undos,
redos and resumes from the journal (from a stored checkpoint, as after a
kill -9), whose effects' ends are checked against a reference computed from the final
history alone.

`random_game(rng, ruleset_id, steps)` plays one such game and raises AssertionError where
the session's effect book (host/core/effects.py) disagrees with `reference`: a second,
plain reading of the durations that replays the journal's history from its start, with no
checkpoint, undo or resume, and looks at each effect on its own. It reads the turns as the
clock does: from the ruleset's reported turn moments where it reports them
(`Ruleset.turn_moments`: a held or interrupted turn is one turn), else from the turn
pointer. The fuzz target `effects` plays a random ruleset's game;
tests/test_effects_properties.py plays every registered ruleset's with a fixed seed on each
`make test`.
"""

from __future__ import annotations

import contextlib
import random
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.core import effects, journal_checkpoints, memory_checkpoints, registry
from host.core.effect_clock import Moment, TurnView, moments, reported, view
from host.core.history import Entry, replay_events
from host.core.interface import IllegalAction
from host.core.journal import Journal
from host.core.session import Session, resume
from host.lab.fuzz import target

EFFECT_NAMES = ("Bless", "Hex", "Marked", "Rage", "Dodge")


@contextlib.contextmanager
def close_checkpoints() -> Iterator[None]:
    """Checkpoints every few actions (memory and journal), so that a short game resumes
    from a stored one and replays across several."""
    saved = [
        (module, name, getattr(module, name))
        for module, name in (
            (journal_checkpoints, "EVERY"),
            (journal_checkpoints, "RECENT"),
            (journal_checkpoints, "TAIL"),
            (journal_checkpoints, "KEEP"),
            (memory_checkpoints, "EVERY"),
        )
    ]
    journal_checkpoints.EVERY, journal_checkpoints.RECENT = 4, 5
    journal_checkpoints.TAIL, journal_checkpoints.KEEP = 3, 2
    memory_checkpoints.EVERY = 3
    try:
        yield
    finally:
        for module, name, value in saved:
            setattr(module, name, value)


def random_game(
    rng: random.Random, ruleset_id: str, steps: int = 40, folder: Path | None = None
) -> Session:
    """One random game with effects, undos, redos and resumes, journalled in `folder` (None:
    a temporary one); AssertionError where its effects' ends differ from the reference's."""
    with contextlib.ExitStack() as stack:
        stack.enter_context(close_checkpoints())
        if folder is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        path = folder / "fuzz.sqlite"
        journal = Journal(path)
        ruleset = registry.get(ruleset_id)
        example = ruleset.example_path()
        encounter = ruleset.parse_encounter(example.read_text(encoding="utf-8"), str(example))
        session = Session(encounter, rng.randint(1, 1_000), journal)
        if ruleset.start_command:
            session.execute(ruleset.start_command)
        for _ in range(steps):
            if session.over:
                break
            session = _step(rng, session)
        assert session.journal is not None and session.game_id is not None
        check(session, session.journal, session.game_id)
        session.journal.close()
        return session


def _step(rng: random.Random, session: Session) -> Session:
    roll = rng.random()
    names = session.ruleset.fighter_names(session.game)
    with contextlib.suppress(IllegalAction):
        if roll < 0.38:
            for line in session.ruleset.plan_turn(session.game):
                session.execute(line)
        elif roll < 0.60:
            session.execute(_effect_line(rng, names))
        elif roll < 0.67:
            asking = effects.asking(session.game)
            if asking:
                e = rng.choice(asking)
                session.execute(f'effect save "{e.target}" {e.name} {rng.choice(("yes", "no"))}')
        elif roll < 0.71:
            on = effects.in_play(session.game)
            if on:
                e = rng.choice(on)
                session.execute(f'effect end "{e.target}" {e.name}')
        elif roll < 0.80:
            session.execute(f"undo {rng.randint(1, 3)}")
        elif roll < 0.86:
            session.execute(f"redo {rng.randint(1, 3)}")
        elif roll < 0.89:  # a fighter joins (where the game takes one: `add`)
            templates = session.ruleset.complete(session.game, ["add", ""])
            if templates and session.ruleset.language.knows("add"):
                joining = f"Newcomer{len(session.done)}"
                session.execute(f"add {rng.choice(templates)} as {joining}")
        elif roll < 0.92:  # one leaves (`remove`)
            if session.ruleset.language.knows("remove"):
                session.execute(f'remove "{rng.choice(names)}" fled')
        else:
            return _killed_and_resumed(session)
    return session


def _effect_line(rng: random.Random, names: list[str]) -> str:
    line = f'effect "{rng.choice(names)}" {rng.choice(EFFECT_NAMES)}'
    kind = rng.choice(("", "rounds", "start", "end", "save"))
    if kind == "rounds":
        line += f" rounds={rng.randint(1, 3)}"
        if rng.random() < 0.4:  # counted on its maker's turns (pf2-combat.txt [23])
            line += f' of="{rng.choice(names)}"'
    elif kind in ("start", "end"):
        line += f" until={kind}"
        if rng.random() < 0.6:
            line += f' of="{rng.choice(names)}"'
    elif kind == "save":
        line += " save=end"
    if rng.random() < 0.2:
        line += f" stacks={rng.randint(1, 5)}"
    return line


def _killed_and_resumed(session: Session) -> Session:
    """The session's process gone without a word (nothing released, nothing flushed but what
    the journal committed), and the game resumed from its journal by another."""
    journal, game_id = session.journal, session.game_id
    assert journal is not None and game_id is not None
    path = journal.path
    journal.close()
    with contextlib.redirect_stderr(None):  # (resume says it took the game over)
        return resume(Journal(path), game_id)


# ---------------------------------------------------------------------- the reference
@dataclass
class Put:
    """An effect as the reference reads it from its `effect` line."""

    target: str
    name: str
    kind: str
    since: int
    rounds: int = 0
    of: str = ""
    at: TurnView | None = None
    ended: int | None = None  # the action that ended it
    asked: bool = False


def reference(ruleset: Any, session: Session, done: list[Entry]) -> list[Put]:
    """Every effect put on in `done` (the final history), and the action that ended each
    (None: in play), from a replay of the history alone."""
    game = ruleset.new_game(session.encounter, session.seed)
    ruleset.project(game)
    puts: list[Put] = []
    said: list[tuple[int, Moment]] = []  # (action, moment) in order
    now = view(ruleset, game)
    first = now
    for number, entry in enumerate(done, 1):
        cmd = ruleset.language.parse(entry.text, max_length=None)
        if cmd.verb == "effect" and "effect" not in ruleset.language.verbs:
            _effect_action(ruleset, game, cmd, number, now, puts)
            continue
        ruleset.replay(game, cmd, entry.rolls)
        ruleset.project(game)
        later = view(ruleset, game)
        # A ruleset that reports its turn moments (a held or interrupted turn is one turn)
        # is timed by its report, in the clock's words; any other by the turn pointer.
        told = ruleset.turn_moments(game)
        if told is None:
            between = moments(now, later, ruleset.passed_turns(game))
        else:
            between = reported(now, later, told)
        said += [(number, m) for m in between]
        now = later
    running = {n for n in first.unit if n not in first.out} if first.round else set()
    turns = _counted_turns(said, running, first.round)
    starts = _round_starts(said, running, first.round)
    for put in puts:
        if put.ended is None:
            put.ended = _end_of(put, said, turns, running, starts)
    return puts


def _effect_action(
    ruleset: Any, game: Any, cmd: Any, number: int, now: TurnView, puts: list[Put]
) -> None:
    known = ruleset.fighter_names(game)
    words = cmd.take_name(known, "fighter").args
    sub = words[0].lower() if words[0].lower() in ("end", "save") else ""
    target, name = (words[1], words[2]) if sub else (words[0], words[1])
    target = next(n for n in known if n.lower() == target.lower())
    # The latest put on of that name: one of the same name is refused while another is on.
    on = [p for p in puts if p.target == target and p.name.lower() == name.lower()]
    if sub == "end" or (sub == "save" and words[3].lower() == "yes"):
        on[-1].ended = number
        return
    if sub:
        return
    opts = cmd.opts
    put = Put(target, name, "", number, at=now)
    if "rounds" in opts:
        put.kind, put.rounds = "rounds", int(opts["rounds"])
        if "of" in opts:
            put.of = next(n for n in known if n.lower() == opts["of"].lower())
    elif "until" in opts:
        put.kind = opts["until"]
        of = opts.get("of", target)
        put.of = next(n for n in known if n.lower() == of.lower())
    elif "save" in opts:
        put.kind = "save"
    puts.append(put)


def _counted_turns(
    said: list[tuple[int, Moment]], first: set[str], first_round: int
) -> list[tuple[int, str, str]]:
    """Each fighter's turns as they count: (action, "start" or "end", name) in order, from
    the turns running as the game began (`first`). A turn the order passed over counts once
    a round; an end counts only after its start."""
    out: list[tuple[int, str, str]] = []
    running = set(first)
    last_round = {n: first_round for n in running}
    away: set[str] = set()  # stepped out of the order (reported `leave`): no turn passes
    for number, moment in said:
        if moment[0] in ("leave", "rejoin"):
            (away.add if moment[0] == "leave" else away.discard)(moment[1])
        elif moment[0] == "start":
            running.add(moment[1])
            last_round[moment[1]] = moment[2]
            out.append((number, "start", moment[1]))
        elif moment[0] == "end" and moment[1] in running:
            running.discard(moment[1])
            out.append((number, "end", moment[1]))
        elif (
            moment[0] == "passed"
            and last_round.get(moment[1]) != moment[2]
            and moment[1] not in away
        ):
            last_round[moment[1]] = moment[2]
            running.discard(moment[1])
            out += [(number, "start", moment[1]), (number, "end", moment[1])]
    return out


Turns = list[tuple[int, str, str]]


def _end_of(
    put: Put,
    said: list[tuple[int, Moment]],
    turns: Turns,
    first: set[str],
    starts: list[tuple[int, str]],
) -> int | None:
    at = put.at
    assert at is not None
    if put.kind == "rounds" and put.of:  # the Nth start of its maker's turn after
        wanted = put.rounds
        for number, name in starts:
            if number > put.since and name == put.of:
                wanted -= 1
                if wanted == 0:
                    return number
        return None
    if put.kind == "rounds":
        due = (1 + put.rounds, 0) if at.round == 0 else (at.round + put.rounds, at.turn)
        for number, moment in said:
            if number <= put.since:
                continue
            if moment[0] == "round" and moment[1] > due[0]:
                return number
            if moment[0] == "turn" and (moment[1], moment[2]) >= due:
                return number
        return None
    if put.kind in ("start", "end"):
        running = put.of in first  # in a turn whose start counted, as it was put on?
        for number, what, name in turns:
            if number >= put.since:
                break
            if name == put.of:
                running = what == "start"
        wanted = 2 if put.kind == "end" and running else 1
        for number, what, name in turns:
            if number > put.since and what == put.kind and name == put.of:
                wanted -= 1
                if wanted == 0:
                    return number
    return None


def _round_starts(
    said: list[tuple[int, Moment]], first: set[str], first_round: int
) -> list[tuple[int, str]]:
    """Each fighter's turn starts that count a round of `rounds=N of=`: (action, name), one
    a round (a start, or a turn the order passed over while it was not away)."""
    out: list[tuple[int, str]] = []
    last_round = {n: first_round for n in first}
    away: set[str] = set()
    for number, moment in said:
        if moment[0] in ("leave", "rejoin"):
            (away.add if moment[0] == "leave" else away.discard)(moment[1])
        elif moment[0] in ("start", "passed"):
            name, rnd = moment[1], moment[2]
            if last_round.get(name) != rnd and (moment[0] == "start" or name not in away):
                out.append((number, name))
            if moment[0] == "start" or name not in away:
                last_round[name] = rnd
    return out


def check(session: Session, journal: Journal, game_id: int) -> None:
    """The session's effects against the reference's, from the journal's whole history."""
    checked = journal.checked(game_id)
    assert checked is not None and checked.problem is None
    done: list[Entry] = []
    replay_events(session.ruleset, checked.events, done, [], {}, [])
    assert len(done) == len(session.done)
    puts = reference(session.ruleset, session, done)
    book = effects.book_of(session.ruleset, session.game)
    ended = {(e.effect.target, e.effect.name, e.effect.since): e.at for e in book.ended}
    on = {(e.target, e.name, e.since) for e in book.effects}
    assert len(ended) == len(book.ended), "an effect ended twice"
    assert not on & set(ended), "an effect both ended and in play"
    expected_ended = {(p.target, p.name, p.since): p.ended for p in puts if p.ended is not None}
    expected_on = {(p.target, p.name, p.since) for p in puts if p.ended is None}
    assert ended == expected_ended, f"ended {ended}, the history ends {expected_ended}"
    assert on == expected_on, f"in play {on}, the history keeps {expected_on}"


@target("effects")
def fuzz_effects(rng: random.Random) -> None:
    random_game(rng, rng.choice(registry.ids()), rng.randint(10, 60))
