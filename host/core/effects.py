"""Effects of any name on any fighter, with durations that end exactly once, for every
ruleset and every turn unit: the effect book and the generic verb `effect`
(docs/effects.md says what each duration means and every choice made).

    effect Kaelen Bless rounds=2 stacks=1 note="from the cleric"
    effect Orrin Bless rounds=1 of=Kaelen (counted on Kaelen's turns: made by a reaction)
    effect Vex Dodge until=end            (the end of Vex's next turn)
    effect Orrin Marked until=start of=Kaelen
    effect Vex Hex save=end               (asked at the end of each of Vex's turns)
    effect save Vex Hex yes|no            (the game master's answer)
    effect end Kaelen Bless               (taken off)

The book is part of the game: the session keeps it on the game object as the attribute
BOOK (host/core/session.py), so it is copied with the game into every checkpoint (memory
and journal) and rebuilt with it by replay. An effect is put on or taken off by an action
(an `effect` line, journalled like any other); it ends on its own only inside `tick`,
which the session runs after each of the rules' actions, applied or replayed. The book is
therefore a pure function of the history: undo, redo and resume rebuild it, and can
neither end an effect twice, revive one, nor skip one. The line saying an effect ended is
among the lines of the action that ended it, and of nothing else.

Fighters are named by `Ruleset.fighter_names`, never by slot (fighters join mid-fight).
The moments a book ticks at (turn start, turn end, round start) come from
host/core/effect_clock.py: derived from the board's projection, or reported by a ruleset
whose turns stop and come back (`Ruleset.turn_moments`: a held action, an interrupt, a
readied action, pf2's Delay), with a turn's suspend and resume and a fighter leaving and
rejoining the order. Every duration kind (KINDS) is timed by those moments alone.
Every line it says is an audience `Line` about the fighters it names, so an effect on a
hidden fighter never reaches the players.

A ruleset may use the book from its own rules (`add`, `take_off`): what it does inside
an action is replayed with the action. After each `effect` line the ruleset is told
(`Ruleset.effects_changed`), so a condition its rules know takes hold at once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from host.core import names as name_rules
from host.core.audience import Line
from host.core.commandline import Command, whole_number
from host.core.effect_clock import Moment, TurnView, moments, reported, view
from host.core.errors import IllegalAction
from host.core.interface import EFFECT_BOOK, Fighter, LiveRow, LiveTable
from host.core.plurals import plural

BOOK = EFFECT_BOOK  # the attribute of a game object that holds its effect book
VERB = "effect"
# The duration kinds, each timed by the turn moments (host/core/effect_clock.py) alone:
# ""        until taken off (no moment ends it);
# "rounds"  as a turn starts at or past the point (round, position) N rounds on, or as a
#           round past it begins; a resumed turn is no start. With `of` (its maker): as
#           `of`'s Nth turn after it was put on starts (or the order passes it over), each
#           start of `of`'s counting one down (one a round: a second in the round, back
#           from a Delay, is none), so one made off its maker's turn (by a reaction)
#           counts on the maker's turns all the same (pf2-combat.txt [23]);
# "start"   as `of`'s next turn starts (or the order passes it over): a resume is none;
# "end"     as `of`'s next turn ends: a suspend (held, interrupted, delaying) is none;
# "save"    asked as each real turn of the target ends: likewise.
KINDS = ("", "rounds", "start", "end", "save")
MOST_ROUNDS = 10_000
MOST_STACKS = 999
MOST_NAME = 40  # characters of an effect's name
MOST_NOTE = 120  # characters of its note
# The options of `effect`, for the grammar (host/core/commandline.py) and completion.
OPTION_KEYS = ("rounds", "until", "of", "save", "stacks", "note")


@dataclass
class Duration:
    """How long an effect lasts: `kind` one of KINDS; `rounds` for "rounds"; `of` for
    "start" and "end": whose turn ("" for the target's); for "rounds", whose turns count
    them ("": the rounds of the whole order, from the turn it is put on)."""

    kind: str = ""
    rounds: int = 0
    of: str = ""


@dataclass
class Effect:
    """An effect in play. `since`: the action that put it on (1: the game's first action).
    "rounds": it ends as the turn at or past `due` (round, position) begins, or with `of`
    as `of`'s turn starts with `count` (the rounds left) at 1, a start a round; "start" and
    "end": as `of`'s turn starts (ends) for the `count`-th time in the book's count;
    "save": the game master is asked at the end of each of the target's turns, and
    `asking` is set until the answer."""

    target: str
    name: str
    kind: str = ""
    rounds: int = 0
    of: str = ""
    stacks: int = 0
    note: str = ""
    since: int = 0
    due_round: int = 0
    due_turn: int = 0
    count: int = 0
    asking: bool = False

    def key(self) -> tuple[str, str]:
        return (name_rules.plain(self.target), name_rules.plain(self.name))


@dataclass
class Ended:
    """An effect that ended: at which action (`at`, counted as `Effect.since`), and why."""

    effect: Effect
    at: int
    why: str


@dataclass
class EffectBook:
    """A game's effects: those in play, those that ended, each fighter's turns started and
    ended so far (by name; a turn the order passed over counts, as if it came), the
    actions applied, and the turn as the last action left it."""

    effects: list[Effect] = field(default_factory=list)
    ended: list[Ended] = field(default_factory=list)
    starts: dict[str, int] = field(default_factory=dict)
    ends: dict[str, int] = field(default_factory=dict)
    rounds: dict[str, int] = field(default_factory=dict)  # the round of each one's last turn
    actions: int = 0
    seen: TurnView | None = None
    # From a ruleset's reported moments: whose turn is stopped (held, interrupted), and
    # who stepped out of the order (delaying), by name.
    held: list[str] = field(default_factory=list)
    away: list[str] = field(default_factory=list)

    def shown_on(self, name: str) -> list[str]:
        """The effects on fighter `name`, each in a few words (`Fighter.effects`)."""
        return [shown(e, self.seen, self) for e in self.effects if e.target == name]

    def rounds_left(self, effect: Effect) -> int:
        """The rounds a "rounds" effect has left: the starts of its maker's turn still to
        come before it ends (`of`), else the rounds to its due round (0: this round)."""
        if effect.of:
            return max(0, effect.count)
        current = self.seen.round if self.seen is not None and self.seen.round else 1
        return max(0, effect.due_round - current)


# ---------------------------------------------------------------------- the book of a game
def book_of(ruleset: Any, game: Any) -> EffectBook:
    """The game's book, made (empty, at the game's turn now) if it has none yet."""
    book = getattr(game, BOOK, None)
    if not isinstance(book, EffectBook):
        now = view(ruleset, game)
        book = EffectBook(seen=now)
        for name in now.unit if now.round else ():  # a game made in its first turn
            if name not in now.out:
                book.starts[name] = 1
                book.rounds[name] = now.round
        setattr(game, BOOK, book)
    return book


def of_game(game: Any) -> EffectBook | None:
    """The game's book, None if it has none yet."""
    book = getattr(game, BOOK, None)
    return book if isinstance(book, EffectBook) else None


def in_play(game: Any) -> list[Effect]:
    """The effects in play, in the order they were put on."""
    book = getattr(game, BOOK, None)
    return list(book.effects) if isinstance(book, EffectBook) else []


def ended(game: Any) -> list[Ended]:
    """The effects that ended, in the order they ended."""
    book = getattr(game, BOOK, None)
    return list(book.ended) if isinstance(book, EffectBook) else []


def is_effect(ruleset: Any, cmd: Command) -> bool:
    """Whether `cmd` is the generic verb (a game with a verb `effect` of its own keeps it)."""
    return cmd.verb == VERB and VERB not in ruleset.language.verbs


# ---------------------------------------------------------------------- the verb
def command(ruleset: Any, game: Any, cmd: Command) -> list[str]:
    """Apply one `effect` line to the game's book; IllegalAction (one line, nothing
    changed) for a line it refuses."""
    known = list(ruleset.fighter_names(game))
    sub = cmd.args[0].lower() if cmd.args and cmd.args[0].lower() in ("end", "save") else ""
    if sub and cmd.first == 0:  # (a command made in code)
        cmd = dataclasses.replace(cmd, first=1)
    labels = _labels(ruleset, game, known)
    at = cmd.first
    if at < len(cmd.args) and name_rules.plain(cmd.args[at]) in labels:
        args = list(cmd.args)
        args[at] = labels[name_rules.plain(args[at])]  # a board label, typed as it shows
        cmd = dataclasses.replace(cmd, args=args)
    if "of" in cmd.opts and name_rules.plain(cmd.opts["of"]) in labels:
        cmd = dataclasses.replace(
            cmd, opts={**cmd.opts, "of": labels[name_rules.plain(cmd.opts["of"])]}
        )
    cmd = cmd.take_name(known, "fighter")
    words = cmd.args[cmd.first :]
    target = _fighter(cmd, words, known, "TARGET")
    name = cmd.arg(cmd.first + 1, "NAME")
    if sub == "end":
        _no_options(cmd, "effect end")
        lines = take_off(ruleset, game, target, name)
    elif sub == "save":
        _no_options(cmd, "effect save")
        answer = cmd.arg(cmd.first + 2, "yes|no").lower()
        if answer not in ("yes", "no"):
            raise IllegalAction(f"effect save: the answer is yes or no, not {answer!r}")
        lines = answer_save(ruleset, game, target, name, answer == "yes")
    else:
        duration = _duration(cmd, known)
        stacks = 0
        if "stacks" in cmd.opts:
            stacks = whole_number(cmd.opts["stacks"], 1, MOST_STACKS, "stacks=")
        lines = add(ruleset, game, target, name, duration, stacks, cmd.opts.get("note", ""))
    book_of(ruleset, game).actions += 1  # (an action of its own, counted as the rules' are)
    return lines + ruleset.effects_changed(game)


def _labels(ruleset: Any, game: Any, known: list[str]) -> dict[str, str]:
    """Each fighter's board label (as `plain` reads it) to its name, where the label is not
    itself someone's name: the screens show labels, so a game master may type them."""
    plain_names = {name_rules.plain(name) for name in known}
    labels: dict[str, str] = {}
    for f in [*ruleset.fighters(game), *ruleset.off_board(game)]:
        label = name_rules.plain(f.label) if f.label else ""
        if label and label not in plain_names and f.name in known:
            labels.setdefault(label, f.name)
    return labels


def _no_options(cmd: Command, verb: str) -> None:
    if cmd.opts:
        raise IllegalAction(f"{verb}: takes no options, not {next(iter(cmd.opts))}=")


def _fighter(cmd: Command, words: list[str], known: list[str], what: str) -> str:
    if not words:
        raise IllegalAction(f"{cmd.verb}: the fighter ({what}) is missing (usage: {cmd.usage})")
    return fighter_named(words[0], known)


def fighter_named(word: str, known: list[str]) -> str:
    """The known fighter `word` names (case and spaces aside); IllegalAction otherwise."""
    for name in known:
        if name_rules.plain(name) == name_rules.plain(word):
            return name
    name_rules.suggest("fighter", word, known)
    raise IllegalAction(f"no fighter {word!r} (fighters: {', '.join(known)})")


def _duration(cmd: Command, known: list[str]) -> Duration:
    opts = cmd.opts
    given = [k for k in ("rounds", "until", "save") if k in opts]
    if len(given) > 1:
        raise IllegalAction(
            f"effect: one duration at most, not {' and '.join(k + '=' for k in given)}"
        )
    if "of" in opts and "until" not in opts and "rounds" not in opts:
        raise IllegalAction(
            "effect: of= says whose turns until= or rounds= count: give until=end,"
            " until=start or rounds=N"
        )
    if "rounds" in opts:
        rounds = whole_number(opts["rounds"], 1, MOST_ROUNDS, "rounds=")
        return Duration("rounds", rounds, fighter_named(opts["of"], known) if "of" in opts else "")
    if "until" in opts:
        if opts["until"] not in ("end", "start"):
            raise IllegalAction(f"effect: until= takes end or start, not {opts['until']!r}")
        of = fighter_named(opts["of"], known) if "of" in opts else ""
        return Duration(opts["until"], 0, of)
    if "save" in opts:
        if opts["save"] != "end":
            raise IllegalAction(f"effect: save= takes end, not {opts['save']!r}")
        return Duration("save")
    return Duration()


# ---------------------------------------------------------------------- put on, take off
def add(
    ruleset: Any,
    game: Any,
    target: str,
    name: str,
    duration: Duration | None = None,
    stacks: int = 0,
    note: str = "",
) -> list[str]:
    """Put effect `name` on fighter `target` (a full name of `Ruleset.fighter_names`) for
    `duration` (None: until taken off); the lines saying so. IllegalAction, nothing
    changed, for a name already on that fighter, a duration that cannot end or text that
    cannot be shown."""
    duration = duration or Duration()
    known = list(ruleset.fighter_names(game))
    if target not in known:
        raise IllegalAction(f"no fighter {target!r} (fighters: {', '.join(known)})")
    _check_text(name, "the effect's name", MOST_NAME, empty=False)
    _check_text(note, "note=", MOST_NOTE)
    if duration.kind not in KINDS:
        raise IllegalAction(f"no duration {duration.kind!r} ({', '.join(k for k in KINDS if k)})")
    book = book_of(ruleset, game)
    now = book.seen if book.seen is not None else view(ruleset, game)
    effect = Effect(target, name, duration.kind, duration.rounds, "", stacks, note)
    for other in book.effects:
        if other.key() == effect.key():
            raise IllegalAction(
                f"{target} already has {other.name} ({shown(other, now, book)}): take it off first"
                f" (`effect end {_quoted(target)} {_quoted(other.name)}`)"
            )
    if duration.kind in ("start", "end", "save") or _on_turns(duration):
        whose = duration.of or target
        if whose not in known:
            raise IllegalAction(f"no fighter {whose!r} (fighters: {', '.join(known)})")
        # The start of a turn that would have come ends an effect though its fighter is
        # out of the fight; the end of a turn, or a save at it, would never come. One who
        # left (`remove`) may keep its place in the projected order: the ruleset says so.
        left = whose in ruleset.gone(game)
        said = {"save": "save=end", "rounds": f"rounds={duration.rounds} of={whose}"}.get(
            duration.kind, f"until={duration.kind} of={whose}"
        )
        # One stepped out of the order (delaying: `Ruleset.turn_moments`) has turns to come.
        placed = whose in now.order or whose in book.away
        if not placed and not left:
            # The clock counts turns on the board's order: one past its slots has none there.
            raise IllegalAction(
                f"effect: {said} cannot be timed: {whose} plays past the board's slots, where"
                " no turn of its is counted (rounds=N or no duration can)"
            )
        out = whose in now.out and whose not in book.away
        if left or not placed or (out and duration.kind not in ("start", "rounds")):
            raise IllegalAction(f"effect: {said} cannot end: {whose} has left the fight")
        effect.of = whose
    if _on_turns(effect):
        # Each start of its maker's turn counts one down (`count`: the rounds left): it
        # ends at the Nth after now (the maker's own turn running now is not one of them).
        effect.count = duration.rounds
    elif duration.kind == "rounds":
        if now.round == 0:  # before the first round: N whole rounds from the first
            effect.due_round, effect.due_turn = 1 + duration.rounds, 0
        else:
            effect.due_round, effect.due_turn = now.round + duration.rounds, now.turn
    elif duration.kind == "start":
        effect.count = book.starts.get(effect.of, 0) + 1
    elif duration.kind == "end":
        # "The end of its next turn", said during that fighter's own turn, is the end of the
        # one after. Its own turn: one the book saw start and not end (a fighter who joined
        # this turn and takes part from the next is not in one).
        effect.count = book.ends.get(effect.of, 0) + (2 if _in_turn(book, effect.of) else 1)
    effect.since = book.actions + 1  # (the action under way)
    book.effects.append(effect)
    return [_line(f"{effect.name} on {target}: {_lasts(effect, now)}", effect)]


def take_off(ruleset: Any, game: Any, target: str, name: str) -> list[str]:
    """Take effect `name` off `target` (`effect end`); IllegalAction if it has none."""
    book = book_of(ruleset, game)
    effect = _find(book, target, name)
    return _end(book, effect, "taken off")


def answer_save(ruleset: Any, game: Any, target: str, name: str, ends: bool) -> list[str]:
    """The game master's answer to a save=end effect's question: it ends, or it stays
    (and is asked again at the end of the target's next turn)."""
    book = book_of(ruleset, game)
    effect = _find(book, target, name)
    if effect.kind != "save":
        raise IllegalAction(f"{effect.name} on {target} has no save: `effect end` takes it off")
    if not effect.asking:
        raise IllegalAction(
            f"{effect.name} on {target} is not asking: it asks at the end of {target}'s turns"
        )
    effect.asking = False
    if ends:
        return _end(book, effect, "saved")
    again = f"asked again as {target}'s next turn ends"
    return [_line(f"{effect.name} on {target} stays ({again})", effect)]


def _find(book: EffectBook, target: str, name: str) -> Effect:
    key = (name_rules.plain(target), name_rules.plain(name))
    for effect in book.effects:
        if effect.key() == key:
            return effect
    on = [e.name for e in book.effects if e.target == target]
    has = f"it has {', '.join(on)}" if on else "it has none"
    raise IllegalAction(f"{target} has no effect {name!r} ({has})")


def _end(book: EffectBook, effect: Effect, why: str) -> list[str]:
    book.effects.remove(effect)
    book.ended.append(Ended(effect, book.actions + 1, why))
    return [_line(f"{effect.name} on {effect.target} ends: {why}", effect)]


# ---------------------------------------------------------------------- the clock
def tick(ruleset: Any, game: Any) -> list[str]:
    """After one of the rules' actions (applied or replayed): end what its turn boundaries
    end, ask what they ask, and say so. The session calls it, after `Ruleset.project`."""
    ending, beginning = tick_around(ruleset, game)
    return ending + beginning


def after_action(
    ruleset: Any, game: Any, lines: list[str], say: Callable[[list[str]], list[str]] = list
) -> list[str]:
    """The rules' `lines` of one action with what its turn boundaries ended or asked put
    where it happened, where the ruleset places them (`Ruleset.book_places`; by default
    what ends with the turns that ended before the line where its new turn begins,
    `Ruleset.turn_begins`, the rest after it all). `say` makes the clock's lines the
    session's (told); `lines` itself when none came."""
    ending, beginning = tick_around(ruleset, game)
    if not ending and not beginning:
        return lines
    ending, beginning = (say(part) if part else part for part in (ending, beginning))
    end_at, start_at = ruleset.book_places(game, lines)
    end_at = len(lines) if end_at is None else end_at
    start_at = len(lines) if start_at is None else max(start_at, end_at)
    return lines[:end_at] + ending + lines[end_at:start_at] + beginning + lines[start_at:]


def tick_around(ruleset: Any, game: Any) -> tuple[list[str], list[str]]:
    """`tick`'s lines in two: those of the turns that ended (and were passed over), and
    those of the turn that began (as it begins, and what the order lost)."""
    book = book_of(ruleset, game)
    now = view(ruleset, game)
    before = book.seen if book.seen is not None else now
    passed = ruleset.passed_turns(game)
    book.seen = now
    said = ruleset.turn_moments(game)
    if said is not None:
        ticks = reported(before, now, said)
    elif not book.effects:
        # Nothing to end or ask (most actions of most games): the turns are counted alone.
        _counted(book, before, now, passed)
        book.actions += 1
        return [], []
    else:
        ticks = moments(before, now, passed)
    ending: list[str] = []
    lines: list[str] = []
    for moment in ticks:
        if moment[0] == "turn":  # the new turn: what follows is its beginning
            ending, lines = ending + lines, []
        lines += _at(book, moment)
    if before.point() != now.point():
        # A fighter gone from the order: its turn will never come, so what waits for it ends.
        for effect in list(book.effects):
            waits = effect.kind in ("start", "end") or _on_turns(effect)
            if waits and effect.of not in now.order + tuple(book.away):
                lines += _end(book, effect, f"{effect.of} has left the fight")
    book.actions += 1
    return ending, lines


def _counted(
    book: EffectBook, before: TurnView, now: TurnView, passed: list[tuple[int, int]]
) -> None:
    """What `_at` does with the moments from `before` to `now` where the book holds no
    effect: each fighter's turns counted, as it counts them."""
    starts, ends, rounds = book.starts, book.ends, book.rounds
    if not (before.out or now.out or passed) and 0 < before.round <= now.round <= before.round + 1:
        if before.point() != now.point():
            # One unit's turn to the next, nobody out of play (most turns): the moments
            # are the ends of the one and the starts of the other (effect_clock._step).
            for name in before.unit:
                if starts.get(name, 0) > ends.get(name, 0):
                    ends[name] = ends.get(name, 0) + 1
            for name in now.unit:
                rounds[name] = now.round
                starts[name] = starts.get(name, 0) + 1
        return
    for moment in moments(before, now, passed):
        what = moment[0]
        if what == "start":
            name = moment[1]
            rounds[name] = moment[2]
            starts[name] = starts.get(name, 0) + 1
        elif what == "end":
            name = moment[1]
            if starts.get(name, 0) > ends.get(name, 0):
                ends[name] = ends.get(name, 0) + 1
        elif what == "passed" and rounds.get(moment[1]) != moment[2]:
            name = moment[1]
            rounds[name] = moment[2]
            starts[name] = starts.get(name, 0) + 1
            ends[name] = ends.get(name, 0) + 1


def _at(book: EffectBook, moment: Moment) -> list[str]:
    what = moment[0]
    if what in ("suspend", "resume", "leave", "rejoin"):
        name = moment[1]
        _mark(book.held, name, what in ("suspend", "leave"))
        if what in ("leave", "rejoin"):
            _mark(book.away, name, what == "leave")
        return []
    if what in ("start", "end") and moment[1] in book.held:
        book.held.remove(moment[1])
    if what == "start":
        _, name, rnd = moment
        # A second start in one round (back from pf2's Delay [22], whose start-of-turn
        # effects came as its turn first began) counts no round of `rounds=N of=`.
        again = book.rounds.get(name) == rnd
        book.rounds[name] = rnd
        return _count(book, name, "start", True, again)
    if what == "end":
        _, name, real = moment
        if book.starts.get(name, 0) <= book.ends.get(name, 0):
            return []  # (the end of a turn it never saw start)
        return _count(book, name, "end", real)
    if what == "passed":
        _, name, rnd = moment
        if book.rounds.get(name) == rnd or name in book.away:
            return []  # its turn of this round is counted already (or it waits, away)
        book.rounds[name] = rnd
        return _count(book, name, "start", False) + _count(book, name, "end", False)
    lines: list[str] = []
    if what == "round":
        for effect in list(book.effects):
            if effect.kind == "rounds" and not effect.of and effect.due_round < moment[1]:
                lines += _end(book, effect, _rounds_up(effect.rounds))
    elif what == "turn":
        point = (moment[1], moment[2])
        for effect in list(book.effects):
            if (
                effect.kind == "rounds"
                and not effect.of
                and point >= (effect.due_round, effect.due_turn)
            ):
                lines += _end(book, effect, _rounds_up(effect.rounds))
    return lines


def _mark(names: list[str], name: str, on: bool) -> None:
    if on and name not in names:
        names.append(name)
    elif not on and name in names:
        names.remove(name)


def _count(book: EffectBook, name: str, what: str, real: bool, again: bool = False) -> list[str]:
    """One more turn start (or end) of `name`: what waits for it ends, and at a real end
    of its turn each save=end effect on it asks. A start of its turn in a round it began
    one already (`again`) counts no `rounds=N of=` down."""
    counts = book.starts if what == "start" else book.ends
    counts[name] = counts.get(name, 0) + 1
    if not book.effects:
        return []  # (most turns: nothing waits on them, nothing to say)
    lines: list[str] = []
    # A turn the order passed over (its fighter out of the fight, or left) is not said to
    # start or end: nobody took it.
    why = f"{name}'s turn {what}s" if real else f"{name}'s turn is passed over"
    for effect in list(book.effects):
        if _on_turns(effect):
            if what == "start" and effect.of == name and not again:
                effect.count -= 1  # (the rounds it has left)
                if effect.count <= 0:
                    lines += _end(book, effect, f"{_rounds_up(effect.rounds)}, {why}")
        elif effect.kind == what and effect.of == name and counts[name] >= effect.count:
            lines += _end(book, effect, why)
        elif what == "end" and real and effect.kind == "save" and effect.target == name:
            if not effect.asking:
                effect.asking = True
                lines.append(_asking(effect))
    return lines


def _on_turns(effect: Effect | Duration) -> bool:
    """Whether a "rounds" duration counts on its maker's turns (`of`), not the order's."""
    return effect.kind == "rounds" and bool(effect.of)


def _rounds_up(rounds: int) -> str:
    return f"{plural(rounds, 'round')} {'is' if rounds == 1 else 'are'} up"


def _asking(effect: Effect) -> Line:
    t, n = _quoted(effect.target), _quoted(effect.name)
    return _line(
        f"{effect.name} on {effect.target}: does it end? (`effect save {t} {n} yes` or `no`)",
        effect,
    )


# ---------------------------------------------------------------------- what shows
def shown(effect: Effect, now: TurnView | None = None, book: EffectBook | None = None) -> str:
    """An effect in a few words: `Bless 2 rounds`, `Hex (save)`, `Poison x3`, `Bless 1
    round (Aria's turns)` (counted on its maker's turns: `book` counts them)."""
    text = effect.name + (f" x{effect.stacks}" if effect.stacks else "")
    if _on_turns(effect):
        left = book.rounds_left(effect) if book is not None else effect.rounds
        return f"{text} {plural(left, 'round')} ({effect.of}'s turns)"
    if effect.kind == "rounds":
        current = now.round if now is not None and now.round else 1
        left = effect.due_round - current
        return f"{text} {plural(left, 'round')}" if left > 0 else f"{text} (this round)"
    if effect.kind in ("start", "end"):
        return f"{text} (to {effect.of}'s turn {effect.kind})"
    if effect.kind == "save":
        return f"{text} (save: asking)" if effect.asking else f"{text} (save)"
    return text


def fighters(ruleset: Any, game: Any) -> list[Fighter]:
    """`ruleset.fighters(game)` with each fighter's effects filled from the game's book,
    in the book's words with their durations (`Bless 2 rounds`). The host fills them after
    any ruleset's `fighters`, here and nowhere else, so no ruleset can leave them out or
    show them twice: a ruleset names only its own statuses (issue #37 item 9)."""
    book = getattr(game, BOOK, None)
    found = ruleset.fighters(game)
    for f in found:
        f.effects = book.shown_on(f.name) if isinstance(book, EffectBook) else []
    return found


def on_fighter(game: Any, name: str) -> list[str]:
    """The effects on fighter `name`, each in a few words (`Fighter.effects`)."""
    book = getattr(game, BOOK, None)
    return book.shown_on(name) if isinstance(book, EffectBook) else []


def fighter_lines(ruleset: Any, game: Any) -> list[str]:
    """A line for each fighter that bears effects, in the slots' order, for a terminal:
    `Kaelen: Bless 2 rounds, Hex (save: asking)`."""
    book = getattr(game, BOOK, None)
    if not isinstance(book, EffectBook) or not book.effects:
        return []
    lines = []
    for name in ruleset.fighter_names(game):
        shown_now = book.shown_on(name)
        if shown_now:
            lines.append(f"{name}: {', '.join(shown_now)}")
    return lines


def with_effects(table: LiveTable, ruleset: Any, game: Any) -> LiveTable:
    """The live view's table with each fighter's effects added to its row's note: the row
    whose cells hold the fighter's name or board label (a turn marker before it aside)."""
    book = getattr(game, BOOK, None)
    if not isinstance(book, EffectBook) or not book.effects:
        return table
    state = ruleset.state(game)
    names = list(ruleset.fighter_names(game))
    words = {}
    for i, name in enumerate(names):
        words[name_rules.plain(name)] = name
        if i < state.count and state.slots[i].label:
            words.setdefault(name_rules.plain(state.slots[i].label), name)
    rows = []
    for row in table.rows:
        cells = (name_rules.plain(cell.lstrip(">*- ")) for cell in row.cells)
        who = next((words[c] for c in cells if c in words), None)
        shown_now = book.shown_on(who) if who is not None else []
        if shown_now:
            extra = "effects: " + ", ".join(shown_now)
            said = row.note.strip() not in ("", "-")  # (a lone dash says nothing)
            row = LiveRow(row.cells, f"{row.note}; {extra}" if said else extra, row.current)
        rows.append(row)
    return LiveTable(table.headers, rows)


def asking(game: Any) -> list[Effect]:
    """The save=end effects waiting for the game master's answer."""
    return [e for e in in_play(game) if e.kind == "save" and e.asking]


def _lasts(effect: Effect, now: TurnView) -> str:
    extra = f", {plural(effect.stacks, 'stack')}" if effect.stacks else ""
    extra += f" ({effect.note})" if effect.note else ""
    if _on_turns(effect):
        return f"{plural(effect.rounds, 'round')}, counted on {effect.of}'s turns{extra}"
    if effect.kind == "rounds":
        return f"{plural(effect.rounds, 'round')}{extra}"
    if effect.kind == "start":
        return f"until the start of {effect.of}'s next turn{extra}"
    if effect.kind == "end":
        return f"until the end of {effect.of}'s next turn{extra}"
    if effect.kind == "save":
        return f"until a save at the end of {effect.target}'s turn{extra}"
    return f"until taken off{extra}"


def _line(text: str, effect: Effect) -> Line:
    about = {effect.target} | ({effect.of} if effect.of else set())
    return Line(text, about)


def _quoted(text: str) -> str:
    return f'"{text}"' if " " in text else text


def _check_text(text: str, what: str, most: int, empty: bool = True) -> None:
    if not empty and not text.strip():
        raise IllegalAction(f"effect: {what} is empty")
    if len(text) > most:
        raise IllegalAction(f"effect: {what} is {len(text)} characters long; at most {most}")
    bad = name_rules.control_character(text)
    if bad is not None:
        raise IllegalAction(f"effect: {what} holds a control character ({bad})")


# ---------------------------------------------------------------------- a stored book
def problem(game: Any) -> str | None:
    """What in a game's book (read back from a stored checkpoint) no history makes, in one
    line; None when it fits (host/core/journal_checkpoints.py refuses a game that does not)."""
    book = getattr(game, BOOK, None)
    if book is None:
        return None
    if not isinstance(book, EffectBook):
        return f"its effect book is a {type(book).__name__}"
    if not (isinstance(book.effects, list) and isinstance(book.ended, list)):
        return "its effect book's lists are not lists"
    if not isinstance(book.actions, int) or book.actions < 0:
        return "its effect book counts no actions"
    for names in (book.held, book.away):
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            return "its effect book's held and away fighters are not names"
    for counts in (book.starts, book.ends, book.rounds):
        if not isinstance(counts, dict) or not all(
            isinstance(k, str) and type(v) is int and v >= 0 for k, v in counts.items()
        ):
            return "its effect book's turn counts are not counts"
    every = list(book.effects) + [e.effect if isinstance(e, Ended) else e for e in book.ended]
    for effect in every:
        wrong = _effect_problem(effect, book.actions)
        if wrong:
            return wrong
    if book.seen is not None and not isinstance(book.seen, TurnView):
        return "its effect book's turn is not a turn"
    return None


def _effect_problem(effect: Any, actions: int) -> str | None:
    if not isinstance(effect, Effect):
        return f"an effect is a {type(effect).__name__}"
    texts = (effect.target, effect.name, effect.of, effect.note)
    if not all(isinstance(t, str) for t in texts) or effect.kind not in KINDS:
        return f"effect {str(effect.name)[:40]!r} is not of a kind the verb makes"
    numbers = (effect.rounds, effect.stacks, effect.since, effect.due_round, effect.due_turn)
    if not all(type(n) is int and n >= 0 for n in (*numbers, effect.count)):
        return f"effect {effect.name[:40]!r} has a number below 0 or not whole"
    if effect.since > actions or effect.stacks > MOST_STACKS or effect.rounds > MOST_ROUNDS:
        return f"effect {effect.name[:40]!r} has numbers no action gives"
    return None


# ---------------------------------------------------------------------- completion
OPTIONS_OFFERED = ("rounds=", "until=end", "until=start", "of=", "save=end", "stacks=", "note=")


def complete(ruleset: Any, game: Any, words: list[str]) -> list[str] | None:
    """Completions for the last word (maybe "") of an `effect` line: fighters' names, the
    effects on a fighter where one is named, option keys, `of=` a fighter's name, yes or
    no; None for a line of another verb (the ruleset's `complete` then offers its own)."""
    if not words or words[0].lower() != VERB or VERB in ruleset.language.verbs:
        return None
    fighters = [f'"{n}"' if " " in n else n for n in ruleset.fighter_names(game)]
    at = len(words) - 1
    sub = words[1].lower() if len(words) > 2 and words[1].lower() in ("end", "save") else ""
    if at == 1:
        return fighters + ["end", "save"]
    if sub:
        if at == 2:
            return fighters
        if at == 3:
            target = words[2].strip('"')
            key = name_rules.plain(target)
            return [_quoted(e.name) for e in in_play(game) if name_rules.plain(e.target) == key]
        return ["yes", "no"] if sub == "save" and at == 4 else []
    if at == 2:
        seen = {e.name for e in in_play(game)} | {e.effect.name for e in ended(game)}
        return sorted(_quoted(n) for n in seen)
    last = words[-1]
    if last.lower().startswith("of="):
        return [f"of={n}" for n in fighters]
    given = {w.split("=", 1)[0].lower() for w in words[3:-1] if "=" in w}
    return [o for o in OPTIONS_OFFERED if o.split("=", 1)[0] not in given]


# ---------------------------------------------------------------------- the board
MOST_ON_THE_BOARD = 15  # a slot's count of effects on the board: 0..15


def set_board_counts(ruleset: Any, game: Any, state: Any, hidden: Any = ()) -> None:
    """Each slot of a board state (shared.state.GameState) given the count of effects on
    its fighter (`Slot.effects`, 0..15) and whether one of them ends as this turn ends
    (`Slot.effect_ends`: an until=end effect whose fighter's running turn is the one it
    waits for). No effect's name reaches the board. Fighters in `hidden` show none."""
    book = getattr(game, BOOK, None)
    on = book.effects if isinstance(book, EffectBook) else []
    names = list(ruleset.fighter_names(game))
    for i in range(state.count):
        slot = state.slots[i]
        name = names[i] if i < len(names) else None
        mine = [e for e in on if e.target == name] if name not in hidden else []
        slot.effects = min(MOST_ON_THE_BOARD, len(mine))
        slot.effect_ends = any(_ends_this_turn(book, e) for e in mine)


def _ends_this_turn(book: Any, effect: Effect) -> bool:
    if _on_turns(effect):  # it ends as its maker's next turn begins: is that turn next?
        seen = book.seen
        if seen is None or seen.round == 0 or not seen.order or effect.of in book.away:
            return False
        after = seen.unit_end if seen.unit_end < len(seen.order) else 0
        return bool(seen.order[after] == effect.of and effect.count <= 1)
    if effect.kind == "rounds":  # it ends as the next turn begins: its point is due then
        seen = book.seen
        if seen is None or seen.round == 0:
            return False
        after = (seen.round, seen.unit_end)
        if seen.unit_end >= len(seen.order):
            after = (seen.round + 1, 0)
        return after >= (effect.due_round, effect.due_turn)
    if effect.kind != "end" or not _in_turn(book, effect.of):
        return False
    if effect.of in book.held:
        return False  # (its turn is stopped: it does not end with the one running)
    return bool(book.ends.get(effect.of, 0) + 1 >= effect.count)


def _in_turn(book: EffectBook, name: str) -> bool:
    """Whether `name` is in a turn the book counted the start of and not yet the end."""
    return book.starts.get(name, 0) > book.ends.get(name, 0)


# ---------------------------------------------------------------------- exports
EXPORT_FIELDS = (
    "target",
    "name",
    "duration",
    "rounds",
    "of",
    "stacks",
    "note",
    "put_on",
    "ended_at",
    "why",
    "asking",
)


def export_rows(game: Any) -> list[dict[str, Any]]:
    """Every effect put on in the game, in the order put on, as plain data (EXPORT_FIELDS):
    `put_on` and `ended_at` count the game's actions (1: its first), `ended_at` and `why`
    None for one in play."""
    book = getattr(game, BOOK, None)
    if not isinstance(book, EffectBook):
        return []
    rows: list[tuple[Effect, int | None, str | None]] = [
        (e.effect, e.at, e.why) for e in book.ended
    ]
    rows += [(e, None, None) for e in book.effects]
    rows.sort(key=lambda row: row[0].since)
    return [
        {
            "target": e.target,
            "name": e.name,
            "duration": {"": "until taken off", "start": "until start", "end": "until end"}.get(
                e.kind, e.kind
            ),
            "rounds": e.rounds or None,
            "of": e.of or None,
            "stacks": e.stacks or None,
            "note": e.note or None,
            "put_on": e.since,
            "ended_at": at,
            "why": why,
            "asking": e.asking,
        }
        for e, at, why in rows
    ]
