"""A game master's session of any ruleset: the running game, its journal, undo and redo,
and the rolls waiting to be used.

Undo and redo rebuild the game by replaying the journalled actions with their records
(the dice each one used), so every duration comes back exactly and nothing fires twice.
The rules are the ruleset's (host/core/interface.py, picked by the encounter); the session only
keeps the history. `apply_board_event` is the seam the link's host bridge calls: it
returns only once the event is committed, so the board is acknowledged after the journal
has it.

The journal's events: `action` (the line and its record; `by: "board"` for a board
press, so the board's undo key knows its own presses after a resume), `undo` and `redo` (steps),
`dice` (a roll waiting for a purpose), `dice-clear`, `roll-shown` (a board roll the
rules had no use for: kept, never replayed) and `dice-from` (`dice from SOURCE`: read back
by a resume, never replayed).

Where the dice come from (`dice_from`, `play --dice`): "engine" (the default: the engine
rolls, and board or entered rolls wait in the ruleset's queues as above), "board" or
"entered". With "board" or "entered", and a ruleset that asks for rolls
(`Ruleset.asks_for_rolls`), an action is declared and *waits* (`pending`): the engine
does not roll, the session asks for the roll the action needs (`WantedRoll`: purpose,
count, kind, who), and the board's roll key, entered dice (`dice FACES`) or the engine
(`roll`) give it; the action is then tried again with every roll given so far, and either
waits for its next roll or is applied and journalled as any action (its record holds every
roll). `cancel` (or `undo`) drops it. The journal holds `want` (the action declared),
`want-dice` (a roll given to it) and `want-drop`, so a resumed session waits for the same
roll again.

Effects (host/core/effects.py, docs/effects.md): an `effect` line is an action like any
other, journalled and replayed, applied to the game's effect book rather than through the
rules; after each of the rules' actions, applied or replayed, the book ticks at the turn
boundaries it passed. The book lives on the game, so every copy, checkpoint and rebuild
carries it.

What the game master keeps from the players (`secrets`: hidden fighters, how health shows,
host/core/audience.py) is journalled whole at each change as a `secrets` event, never
replayed as an action: a resume takes the latest (Journal.last_event), and the next game
of the session starts with the same.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import sys
import uuid
from collections import deque
from typing import Any

from host.core import draws, effects, journal_checkpoints, memory_checkpoints, registry, scores
from host.core.audience import Secrets, cast_of, tell
from host.core.commandline import Command
from host.core.history import HOLE, Entry, Pending
from host.core.history import replay_events as _replay_events
from host.core.interface import (
    Applied,
    EncounterError,
    IllegalAction,
    RollWanted,
    Waiting,
    WantedRoll,
)
from host.core.interface import Encounter as EncounterLike
from host.core.journal import Journal
from host.core.numbers import whole_or_none
from host.core.plurals import plural
from shared import dice
from shared.limits import MAX_DICE, MAX_KINDS
from shared.words import KIND_NAMES

# Where an action's dice come from (see above); "smart": Bluetooth dice, host/dice/source.py.
DICE_FROM = ("board", "engine", "entered", "smart")
# The rolls no rule uses (`note_roll`) journalled in one turn: past them, a stuck roll key
# (300 in 1.7 s) would grow the journal without bound (docs/reliability.md).
UNUSED_ROLLS_A_TURN = 20


def dice_words(sides: tuple[int, ...]) -> str:
    """Plain dice by their faces, in order: `1d20`, `2d20` (a d20 with advantage),
    `2d6+1d8`."""
    runs: list[list[int]] = []
    for n in sides:
        if runs and runs[-1][1] == n:
            runs[-1][0] += 1
        else:
            runs.append([1, n])
    return "+".join(f"{count}d{n}" for count, n in runs)


def wanted_problem(wanted: WantedRoll) -> str:
    """Why a ruleset's wanted roll is not one the board and the table can make ("" if it
    is): plain dice name each die's faces (2..100), in at most MAX_KINDS kinds; a draw is
    of 1..MAX_KINDS cards of those left, and explodes no die."""
    if (wanted.explode or wanted.deck) and wanted.kind != dice.KIND_DN:
        return f"{wanted.purpose} roll: only plain dice explode or draw cards"
    if wanted.kind != dice.KIND_DN:
        return ""
    sides = wanted.sides
    if wanted.deck:
        left = len(wanted.cards)
        if wanted.explode or not 1 <= wanted.count <= min(MAX_KINDS, left):
            return (
                f"{wanted.purpose} draw: 1..{MAX_KINDS} cards at a time, of the {left} left"
                f" in the {wanted.deck} deck, none exploding"
            )
        if sides != draws.draw_sides(left, wanted.count):
            return f"{wanted.purpose} draw: its dice are not the cards left (Deck.wanted)"
    if len(sides) != wanted.count or not 1 <= wanted.count <= MAX_DICE:
        return f"{wanted.purpose} roll: {wanted.count} dice, and faces for {len(sides)}"
    if not all(2 <= n <= dice.MAX_SIDES for n in sides):
        return f"{wanted.purpose} roll: a die has 2..{dice.MAX_SIDES} faces, not {sides}"
    if dice_words(sides).count("+") >= MAX_KINDS:
        return f"{wanted.purpose} roll: {dice_words(sides)} is more than {MAX_KINDS} kinds of die"
    return ""


def roll_words(wanted: WantedRoll) -> str:
    """`Vex's hit roll (4 D3)`, `the chance roll (2 flips)`, `Kaelen's crit roll (a d100:
    two D10, tens then units)`, `Ria's attack roll (2d20)`, `the damage roll (2d6+1d8)`."""
    whose = f"{wanted.who_name}'s" if wanted.who_name else "the"
    if wanted.kind == dice.KIND_CHANCE:
        what = plural(wanted.count, "flip")
    elif wanted.kind == dice.KIND_D100:
        what = "a d100: two D10, tens then units"
    elif wanted.deck:
        what = f"{plural(wanted.count, 'card')} from the {wanted.deck} deck"
        return f"{whose} {wanted.purpose} draw ({what})"
    elif wanted.kind == dice.KIND_DN:
        what = dice_words(wanted.sides) + (", exploding" if wanted.explode else "")
    else:
        what = f"{wanted.count} {KIND_NAMES[wanted.kind].upper()}"
    return f"{whose} {wanted.purpose} roll ({what})"


def faces_words(wanted: WantedRoll, faces: tuple[int, ...]) -> str:
    """A roll given, as people say it: the cards a draw took, an exploding roll's chains
    with their totals, else the faces."""
    if wanted.deck:
        return " ".join(draws.take(wanted.cards, faces))
    if wanted.explode:
        return draws.chain_words(faces, wanted.sides)
    return " ".join(map(str, faces))


class Session:
    def __init__(
        self,
        encounter: Any,
        seed: int = 1,
        journal: Journal | None = None,
        session_id: str | None = None,
        game_id: int | None = None,
        dice_from: str = "engine",
    ):
        if dice_from not in DICE_FROM:
            raise IllegalAction(f"dice come from {', '.join(DICE_FROM)}, not {dice_from!r}")
        self.dice_from = dice_from
        self.pending: Pending | None = None  # the action waiting for a roll
        self.encounter: EncounterLike = encounter
        self.ruleset = registry.get(encounter.ruleset)
        self.seed = seed
        self.journal = journal
        self.session_id = session_id or uuid.uuid4().hex[:12]
        self.done: list[Entry] = []
        self._checkpoints = memory_checkpoints.Checkpoints()  # copies of the game along `done`
        self.undone: list[Entry] = []
        self.notices: list[str] = []  # one-line notes for the game master (resume)
        # Set when a stored checkpoint's game did not replay: none is read again.
        self.stored_checkpoints_off = False
        self.pressed = False  # a board press is being applied (the tether sets it)
        # The turn (round, turn, phase) the rolls no rule used were counted in, and how
        # many came in it (`note_roll`)
        self._unused_turn: tuple[int, int, int] | None = None
        self.unused_rolls = 0
        self.secrets = Secrets()  # what the players must not see (set_secrets)
        # The last roll given to a waiting action: the action, and the entry it made if the
        # roll resolved it (the board's undo of its own roll: `take_back_roll`).
        self._given: tuple[Pending, Entry | None] | None = None
        self.game: Any = self._new_game()
        self.game_id = game_id
        if journal is not None and game_id is None:
            self.game_id = journal.new_game(
                self.session_id,
                encounter.name,
                encounter.path,
                encounter.source,
                seed,
                self.ruleset.rules_version,
                self.ruleset.id,
            )

    @property
    def over(self) -> bool:
        return self.ruleset.winner(self.game) is not None

    # ------------------------------------------------------------------ the game itself
    # Every change the session makes to a game ends with the board's view of it brought in
    # step (Ruleset.project): here, not in each ruleset's apply and replay.
    def _new_game(self) -> Any:
        game = self.ruleset.new_game(self.encounter, self.seed)
        self.ruleset.project(game)
        effects.book_of(self.ruleset, game)  # the game's effects, kept on it
        return game

    def _replay(self, game: Any, entry: Entry) -> list[str]:
        cmd = _journalled(self.ruleset.language, entry.text)
        if effects.is_effect(self.ruleset, cmd):
            return self.told(effects.command(self.ruleset, game, cmd))
        effects.book_of(self.ruleset, game)  # (a game from before effects: its book now)
        lines = self.ruleset.replay(game, cmd, entry.rolls)
        self.ruleset.project(game)
        # (most actions end no effect: no cast is made to tell the clock's lines)
        return effects.after_action(self.ruleset, game, lines, self.told)

    def _play(self, game: Any, cmd: Command) -> Applied:
        """Apply one action to `game`: an `effect` line to its effect book, any other
        through the rules, whose turn boundaries then tick the effects (host/core/effects.py).
        An effect action's record is an empty list: it uses no dice."""
        if effects.is_effect(self.ruleset, cmd):
            return Applied(effects.command(self.ruleset, game, cmd), [])
        effects.book_of(self.ruleset, game)
        applied = self.ruleset.apply(game, cmd)
        self.ruleset.project(game)
        return Applied(effects.after_action(self.ruleset, game, applied.lines), applied.record)

    # ------------------------------------------------------------------ commands
    def execute(self, line: str) -> list[str]:
        """Run one line of the ruleset's command language; returns what to show. Raises
        IllegalAction (one line, nothing changed) for anything the rules or the syntax
        refuse."""
        cmd = self.ruleset.language.parse(line)
        if cmd is None:
            return []
        return self.told(self._execute(cmd))

    def told(self, lines: list[str], audience: str = "all") -> list[str]:
        """`lines` written for the log with what they reveal (host/core/audience.py)."""
        cast = cast_of(self.ruleset, self.game)
        return tell(lines, cast, audience, self.ruleset.health_words)

    def set_secrets(self, secrets: Secrets) -> None:
        """What the players must not see from now on, journalled whole."""
        if secrets.to_json() != self.secrets.to_json():
            self._journal("secrets", secrets.to_json())
        self.secrets = secrets

    def _execute(self, cmd: Command) -> list[str]:
        if cmd.verb == "undo":
            return self.undo(cmd.int_arg(0, 1, 1, 10_000, "steps"))
        if cmd.verb == "redo":
            if self.pending is not None:
                raise IllegalAction(self._waits_line())
            return self.redo(cmd.int_arg(0, 1, 1, 10_000, "steps"))
        if cmd.verb == "roll" and self.ruleset.asks_for_rolls and self._roll_is_ours(cmd):
            return self.roll_wanted()
        if cmd.verb == "cancel" and self.ruleset.asks_for_rolls:
            return self.drop_wanted()
        if cmd.verb == "dice" and cmd.args[:1] == ["from"] and self.ruleset.asks_for_rolls:
            return self.set_dice_from(cmd.arg(1, "board, engine or entered"))
        waits = self.asks or self.pending is not None  # (a resumed one, with the engine's dice)
        if cmd.verb == "dice" and waits and cmd.args[:1] != ["clear"]:
            return self._entered(cmd)
        if cmd.verb == "draw" and "draw" not in self.ruleset.language.verbs:
            if waits:
                return self._entered(cmd)
            raise IllegalAction(
                "no action waits for a draw: the engine draws the cards"
                " (`dice from entered`, and the next draw waits for `draw CARD`)"
            )
        if effects.is_effect(self.ruleset, cmd):
            return self.act(cmd)  # an action on the game's effects, journalled as any
        if cmd.verb == "new":
            raise IllegalAction("`new` starts the next game; use it in `turnlight play`")
        if cmd.verb in self.ruleset.language.session_verbs:
            return self.ruleset.session_command(self, cmd)
        return self.act(cmd)

    def _roll_is_ours(self, cmd: Command) -> bool:
        """`roll` is the session's (the engine rolls the wanted roll) unless the game has a
        verb `roll` of its own: then it is the session's only as a bare `roll` while an
        action waits, and the game's otherwise."""
        if "roll" not in self.ruleset.language.verbs:
            return True
        return self.pending is not None and not cmd.args

    @property
    def asks(self) -> bool:
        """An action's dice come from the board or the table: it waits for them."""
        return self.ruleset.asks_for_rolls and self.dice_from != "engine"

    def act(self, cmd: Command) -> list[str]:
        """Apply one action through the rules and journal it with its record. Where the dice
        come from the board or the table, the action may wait for its roll instead."""
        if self.pending is not None:
            raise IllegalAction(self._waits_line())
        if self.asks and not effects.is_effect(self.ruleset, cmd):
            return self._attempt(Pending(cmd.text, "board" if self.pressed else "laptop"), cmd)
        return self._apply(cmd, "board" if self.pressed else "laptop")

    def _apply(self, cmd: Command, by: str, pending: Pending | None = None) -> list[str]:
        saved = _copy(self.ruleset.waiting(self.game))
        was_over = self.over
        if pending is not None:
            self.ruleset.supply_rolls(self.game, list(pending.supplied))
        try:
            applied = self._play(self.game, cmd)
        except (IllegalAction, RollWanted):
            self._rebuild()
            self.ruleset.set_waiting(self.game, saved)
            raise
        finally:
            if pending is not None:
                self.ruleset.supply_rolls(self.game, None)
        entry = Entry(cmd.text, applied.record, by)
        undone = list(self.undone)
        self._checkpoints.forget_after(len(self.done))  # what was undone is gone for good
        self.done.append(entry)
        self.undone.clear()
        payload = {"text": entry.text, "rolls": self.ruleset.record_json(entry.rolls)}
        if entry.by == "board":
            payload["by"] = "board"
        waited = self.pending
        self.pending = None  # applied: a checkpoint stored with it must not see it waiting
        try:
            if journal_checkpoints.due(self):
                assert self.journal is not None
                with self.journal.transaction():  # the action and its checkpoint together
                    entry.seq = self._journal("action", payload)
                    journal_checkpoints.store(self, entry.seq)
            else:
                entry.seq = self._journal("action", payload)
        except BaseException:
            # Not journalled, so not done: the game goes back to what the journal holds
            # (else a later event would be journalled on top of an action it lacks).
            self.done.pop()
            self.undone[:] = undone
            self.pending = waited
            self._rebuild()
            self.ruleset.set_waiting(self.game, saved)
            raise
        self._keep_checkpoint()
        if not was_over and self.over:
            self._record_finish()
        return applied.lines

    # ------------------------------------------------------------------ wanted rolls
    def _attempt(self, pending: Pending, cmd: Command, declare: bool = True) -> list[str]:
        """Try a waiting action with the rolls it was given: it is applied, or it waits for
        its next roll (journalled as `want` the first time)."""
        try:
            return self._apply(cmd, pending.by, pending)
        except RollWanted as raised:
            if pending.wanted is None and declare:
                self._journal("want", {"text": pending.text, "by": pending.by})
            problem = wanted_problem(raised.wanted)
            if problem:  # the ruleset's own mistake: said, and nothing waits
                raise IllegalAction(f"{pending.action}: {problem}") from None
            pending.wanted = self._named(raised.wanted)
            self.pending = pending
            return [f"{pending.action}: waits for {roll_words(pending.wanted)}"]

    def _named(self, wanted: WantedRoll) -> WantedRoll:
        """The wanted roll with the name of who rolls it (its slot's, Ruleset.fighter_names)."""
        names = self.ruleset.fighter_names(self.game)
        if wanted.who_name or not 0 <= wanted.who < len(names):
            return wanted
        return dataclasses.replace(wanted, who_name=names[wanted.who])

    def supply(self, faces: tuple[int, ...], source: str) -> list[str]:
        """The roll the waiting action wants, from `source` (board, entered, engine): checked,
        journalled, and the action tried again."""
        pending = self.pending
        if pending is None or pending.wanted is None:
            raise IllegalAction("no action waits for a roll")
        wanted = pending.wanted
        sides = draws.faces_sides(wanted, faces)
        if sides is None and wanted.explode:
            raise IllegalAction(
                f"{roll_words(wanted)} takes {wanted.count} dice, each rolled again on its"
                f" highest face: a chain a die, as `dice {self._example(wanted)}`"
            )
        if sides is None:
            raise IllegalAction(f"{roll_words(wanted)} takes {wanted.count} dice, not {len(faces)}")
        for i, n in enumerate(sides if wanted.kind == dice.KIND_DN else ()):
            if not 1 <= faces[i] <= n:  # the die named, as the table holds it
                raise IllegalAction(
                    f"{roll_words(wanted)}: die {i + 1} is a d{n}, and {faces[i]} is not"
                    f" one of its faces (1..{n})"
                )
        try:
            dice.check_faces(wanted.kind, faces, sides or 0)
        except dice.DiceError as err:
            raise IllegalAction(f"{wanted.purpose} roll: {err}") from None
        self._journal(
            "want-dice", {"purpose": wanted.purpose, "faces": list(faces), "source": source}
        )
        pending.supplied.append((wanted.purpose, tuple(faces), source))
        said = f"{source} {wanted.purpose} {'draw' if wanted.deck else 'roll'}"
        if wanted.who_name:
            said += f" for {wanted.who_name}"
        said += ": " + faces_words(wanted, faces)
        try:
            lines = [said] + self._attempt(pending, self._parse(pending.text))
        except IllegalAction as err:
            self.drop_wanted()
            raise IllegalAction(f"`{pending.action}` is dropped: {err}") from None
        self._given = (pending, None if self.pending is pending else self.done[-1])
        return lines

    def take_back_roll(self, faces: tuple[int, ...], source: str = "board") -> list[str]:
        """Take back the roll just given to a waiting action from `source` (the board's undo
        of its own roll): the action waits for that roll again, with the rolls it had before
        (an action the roll resolved is undone first). Journalled as the events resume
        reads: `undo` for a resolved action, then `want` and a `want-dice` for each roll it
        keeps. IllegalAction when the last roll given is not that one, or things moved since."""
        given = self._given
        if given is None:
            raise IllegalAction("no roll was given to an action")
        pending, entry = given
        last = pending.supplied[-1] if pending.supplied else None
        if last is None or (last[1], last[2]) != (tuple(faces), source):
            raise IllegalAction(f"the last roll given was not this {source} roll")
        if entry is None:
            if self.pending is not pending:
                raise IllegalAction("the action that took the roll waits no more")
        elif self.pending is not None or not self.done or self.done[-1] is not entry:
            raise IllegalAction("the action the roll resolved is no longer the last one")
        lines = self.undo(1) if entry is not None else []
        kept = Pending(pending.text, pending.by, pending.supplied[:-1])
        self._journal("want", {"text": kept.text, "by": kept.by})
        for purpose, rolled, from_ in kept.supplied:
            self._journal("want-dice", {"purpose": purpose, "faces": list(rolled), "source": from_})
        self.pending = None
        self._given = None
        shown = " ".join(map(str, faces))
        return (
            lines
            + [f"{source} roll taken back: {shown}"]
            + self._attempt(kept, self._parse(kept.text), declare=False)
        )

    def roll_wanted(self) -> list[str]:
        """The engine rolls the roll the waiting action wants (from the game's seed, the
        actions done and the rolls given: the same every time)."""
        pending = self.pending
        if pending is None or pending.wanted is None:
            raise IllegalAction("no action waits for a roll: the engine rolls as actions need")
        wanted = pending.wanted
        x = (self.seed * 0x9E3779B1 + len(self.done) * 0x85EBCA77) & 0xFFFFFFFF
        rng = dice.XorShift32((x ^ (len(pending.supplied) * 0x27D4EB2F) & 0xFFFFFFFF) or 1)
        if wanted.explode:
            return self.supply(tuple(draws.roll_chains(wanted.sides, rng.below)), "engine")
        faces = bytearray(wanted.count)
        dice.roll_faces(rng, wanted.kind, wanted.count, faces, wanted.sides or 0)
        return self.supply(tuple(faces), "engine")

    def drop_wanted(self) -> list[str]:
        """Take back the waiting action (`cancel`, or `undo` while it waits)."""
        pending = self.pending
        if pending is None:
            raise IllegalAction("no action waits for a roll")
        self._journal("want-drop", {})
        self.pending = None
        wanted = f" (it waited for {roll_words(pending.wanted)})" if pending.wanted else ""
        return [f"dropped: {pending.action}{wanted}"]

    def _entered(self, cmd: Command) -> list[str]:
        """`dice FACE ...` (or `dice PURPOSE FACE ...`, `dice KIND FACE ...`) gives the waiting
        action its roll: an exploding die's chain written `6+6+3`, a draw's cards by their
        words (`dice KS`, or `draw KS`)."""
        pending = self.pending
        if pending is None or pending.wanted is None:
            raise IllegalAction(
                "no action waits for a roll: declare the action, and its roll is asked for"
            )
        args = list(cmd.args)
        wanted = pending.wanted
        if cmd.verb == "draw" and not wanted.deck:
            raise IllegalAction(
                f"{roll_words(wanted)} is wanted, not a draw: `dice {self._example(wanted)}`"
            )
        if args and args[0] in (
            wanted.purpose,
            KIND_NAMES[wanted.kind],
            dice_words(wanted.sides) if wanted.sides else "",
            wanted.deck,
        ):
            args = args[1:]  # `dice hit 3 1 2`, `dice d100 4 2`, `dice 2d20 17 4`
        if wanted.deck:
            return self.supply(self._drawn(wanted, args), "entered")
        words = [part for a in args for part in a.split("+")] if wanted.explode else args
        faces = [whole_or_none(a) for a in words]
        if not args or None in faces:
            raise IllegalAction(
                f"{roll_words(pending.wanted)} is wanted: enter its faces,"
                f" `dice {self._example(wanted)}`"
            )
        return self.supply(tuple(f for f in faces if f is not None), "entered")

    def _drawn(self, wanted: WantedRoll, words: list[str]) -> tuple[int, ...]:
        """A draw's faces from the cards typed (`KS 10H`): their places among those left."""
        cards = [draws.card_word(w) for w in words]
        if len(cards) != wanted.count or None in cards:
            raise IllegalAction(
                f"{roll_words(wanted)} is wanted: name {plural(wanted.count, 'card')} as"
                f" the deck writes them, `draw {self._example(wanted)}`"
            )
        found = draws.places(wanted.cards, [c for c in cards if c is not None])
        if found is None:
            raise IllegalAction(
                f"{' '.join(words)}: not all left in the {wanted.deck} deck (each card is"
                f" drawn once until the deck is shuffled): `draw {self._example(wanted)}`"
            )
        return tuple(found)

    @staticmethod
    def _example(wanted: WantedRoll) -> str:
        """What a waiting roll is typed as: `N N`, `6+6+3 N` for exploding d6s, `KS` for
        a draw (its first cards left)."""
        if wanted.deck:
            return " ".join(wanted.cards[: wanted.count])
        if wanted.explode:
            top = wanted.sides[0]
            return " ".join([f"{top}+{top}+{max(1, top // 2)}"] + ["N"] * (wanted.count - 1))
        return " ".join(["N"] * wanted.count)

    def set_dice_from(self, source: str) -> list[str]:
        """`dice from board|engine|entered`: where the next actions' dice come from (an
        action already waiting keeps waiting: `roll` or `dice` still give its roll)."""
        if source not in DICE_FROM:
            raise IllegalAction(f"dice come from {', '.join(DICE_FROM)}, not {source!r}")
        if source != self.dice_from:  # journalled: a resume keeps it (`resume`)
            self._journal("dice-from", {"source": source})
        self.dice_from = source
        said = {
            "board": "the board's roll key",
            "engine": "the engine",
            "entered": "`dice`",
            "smart": "the paired smart dice",
        }
        return [f"dice from {source}: the next actions' rolls come from {said[source]}"]

    def _waits_line(self) -> str:
        pending = self.pending
        assert pending is not None and pending.wanted is not None
        return f"`{pending.action}` waits for {roll_words(pending.wanted)}: " + self.how_to_roll()

    def how_to_roll(self) -> str:
        """How the waiting action's roll can be given, its usual way first."""
        pending = self.pending
        assert pending is not None and pending.wanted is not None
        wanted = pending.wanted
        typed = (
            f"`draw {self._example(wanted)}` (cards dealt at the table)"
            if wanted.deck
            else f"`dice {self._example(wanted)}` (entered dice)"
        )
        ways = [f"`roll` (the engine {'draws' if wanted.deck else 'rolls'})", typed, "`cancel`"]
        if self.dice_from == "board":
            ways.insert(0, "press the board's roll key")
        elif self.dice_from == "smart":
            ways.insert(0, "throw the blinking smart dice")
        return "; ".join(ways)

    def wanted_lines(self) -> list[str]:
        """What the play UI says while an action waits: which roll, from whom, and how."""
        pending = self.pending
        if pending is None or pending.wanted is None:
            return []
        wanted = pending.wanted
        where = {
            "board": "from the board",
            "entered": "from the table",
            "smart": "from the smart dice",
        }.get(self.dice_from, "")
        return [
            f"waiting for {roll_words(wanted)}{' ' + where if where else ''}: `{pending.action}`",
            "  " + self.how_to_roll(),
        ]

    def queue_roll(self, purpose: str, faces: tuple[int, ...], source: str) -> list[str]:
        """Faces from the board or the table, waiting for the rules' next roll of
        `purpose` (checked by the ruleset, then journalled)."""
        saved = _copy(self.ruleset.waiting(self.game))
        self.ruleset.queue_roll(self.game, purpose, faces, source)
        try:
            self._journal("dice", {"purpose": purpose, "faces": list(faces), "source": source})
        except BaseException:
            self.ruleset.set_waiting(self.game, saved)  # not journalled: not waiting
            raise
        return [f"{source} {purpose} roll waiting: {' '.join(map(str, faces))}"]

    def clear_rolls(self) -> list[str]:
        self._journal("dice-clear", {})
        self.ruleset.set_waiting(self.game, {})
        return ["entered dice cleared"]

    def withdraw_roll(self, purpose: str) -> list[str]:
        """Take back the roll that came last into `purpose`'s waiting queue (the board's
        undo of its own roll), journalled."""
        waiting = _copy(self.ruleset.waiting(self.game))
        queue = waiting.get(purpose)
        if not queue:
            raise IllegalAction(f"no {purpose} roll is waiting")
        self._journal("dice-withdraw", {"purpose": purpose})
        faces, source = queue.pop()
        self.ruleset.set_waiting(self.game, waiting)
        return [f"{source} {purpose} roll withdrawn: {' '.join(map(str, faces))}"]

    def note_roll(self, kind: str, faces: tuple[int, ...], source: str) -> bool:
        """Journal a roll the rules do not use (a board's d100): kept, never replayed. At
        most UNUSED_ROLLS_A_TURN in a turn: the rest (a stuck key) are counted in
        `unused_rolls` and not journalled until the turn moves on; False for those."""
        state = self.ruleset.state(self.game)
        turn = (state.round, state.turn, state.phase)
        if turn != self._unused_turn:
            self._unused_turn, self.unused_rolls = turn, 0
        self.unused_rolls += 1
        if self.unused_rolls > UNUSED_ROLLS_A_TURN:
            return False
        self._journal("roll-shown", {"kind": kind, "faces": list(faces), "source": source})
        return True

    def apply_board_event(self, event: dict) -> list[str]:
        """The link's event applier. `{"type": "roll", "purpose": ..., "faces": [...]}` queues
        a board roll; `{"type": "command", "text": ...}` runs a command. Returns after the
        journal commit, so the caller may acknowledge the board."""
        if event.get("type") == "roll":
            return self.queue_roll(str(event["purpose"]), tuple(event["faces"]), "board")
        if event.get("type") == "command":
            return self.execute(str(event["text"]))
        raise IllegalAction(f"unknown board event {event.get('type')!r}")

    def checkpoint(self) -> tuple[list[Entry], list[Entry], Waiting, Pending | None]:
        """What the session holds now, for `restore` (a transaction that may not commit)."""
        pending = self.pending.copy() if self.pending is not None else None
        return list(self.done), list(self.undone), _copy(self.ruleset.waiting(self.game)), pending

    def restore(self, kept: tuple[list[Entry], list[Entry], Waiting, Pending | None]) -> None:
        """Back to a checkpoint, if anything moved since (the game rebuilt by replay)."""
        done, undone, waiting, pending = kept
        if not (_same(done, self.done) and _same(undone, self.undone)):
            self.done[:], self.undone[:] = done, undone
            self._checkpoints.forget_after(len(done))
            self._rebuild()
        self.ruleset.set_waiting(self.game, waiting)
        self.pending = pending

    # ------------------------------------------------------------------ undo / redo
    def undo(self, steps: int = 1) -> list[str]:
        if self.pending is not None:
            # The waiting action is the last thing done: undo takes it back first.
            lines = self.drop_wanted()
            return lines + (self.undo(steps - 1) if steps > 1 else [])
        if steps > len(self.done):
            raise IllegalAction(_too_many("undo", len(self.done)))
        if any(e is HOLE for e in self.done[len(self.done) - steps :]):
            self._fill()
        was_over = self.over
        self._journal("undo", {"steps": steps})  # journalled first: a failure changes nothing
        moved = [self.done.pop() for _ in range(steps)]
        self.undone.extend(moved)
        self._rebuild()
        if was_over and not self.over and self.journal and self.game_id:
            self.journal.unfinish(self.game_id)
        return [f"undone: {e.text}" for e in moved]

    def redo(self, steps: int = 1) -> list[str]:
        if steps > len(self.undone):
            raise IllegalAction(_too_many("redo", len(self.undone)))
        if any(e is HOLE for e in self.undone[len(self.undone) - steps :]):
            self._fill()
        lines = []
        was_over = self.over
        self._journal("redo", {"steps": steps})  # journalled first: a failure changes nothing
        for _ in range(steps):
            entry = self.undone.pop()
            lines += ["redone: " + entry.text] + self._replay(self.game, entry)
            self.done.append(entry)
            self._keep_checkpoint()
        if not was_over and self.over:
            self._record_finish()
        return lines

    def _parse(self, text: str) -> Command:
        # A line the journal holds was accepted once: replay it whatever today's limit.
        cmd = self.ruleset.language.parse(text, max_length=None)
        assert cmd is not None, f"a journalled action is a command: {text!r}"
        return cmd

    def _keep_checkpoint(self) -> None:
        if self._checkpoints.due(len(self.done)):
            self._checkpoints.keep(len(self.done), self.game)

    def _rebuild(self) -> None:
        """The game again from its actions: from the nearest checkpoint, replaying only
        what came after it, and keeping checkpoints on the way (host/core/memory_checkpoints.py).
        A checkpoint's game was kept as its last action left it, projected already."""
        waiting = self.ruleset.waiting(self.game)
        end = len(self.done)
        nearest = self._checkpoints.nearest(end)
        start, game = nearest if nearest else (0, None)
        for _ in range(2):  # (again once the actions a resume left unread are read)
            if self.journal is not None and end - start > memory_checkpoints.EVERY:
                stored = journal_checkpoints.nearest(self, end, start)  # one in the journal
                if stored is not None:
                    start, game = stored
                    self._checkpoints.keep(start, game)
            if not any(e is HOLE for e in self.done[start:end]):
                break
            self._fill()
        if game is None:
            game = self._new_game()
        for n in range(start, end):
            self._replay(game, self.done[n])
            # Checkpoints near the end, and the far ones (a resume makes few copies).
            near_end = end - n <= memory_checkpoints.RECENT * memory_checkpoints.EVERY
            if self._checkpoints.due(n + 1) and ((n + 1) % memory_checkpoints.FAR == 0 or near_end):
                self._checkpoints.keep(n + 1, game)
        self.ruleset.set_waiting(game, waiting)
        self.game = game

    def _fill(self) -> None:
        """Read the actions a resume left unread (HOLE) from the whole journal, its chain
        checked from the start (an undo or redo reaching back past the checkpoint)."""
        journal, game_id = self.journal, self.game_id
        assert journal is not None and game_id is not None
        checked = journal.checked(game_id)
        problem = "it is gone" if checked is None else checked.problem
        done: list[Entry] = []
        undone: list[Entry] = []
        if checked is not None and problem is None:
            _replay_events(self.ruleset, checked.events, done, undone, {}, [])
            if len(done) != len(self.done) or len(undone) != len(self.undone):
                problem = "its events do not make the history this session holds"
        if problem is not None:
            raise IllegalAction(
                f"{journal.path}: game {game_id}'s earlier actions cannot be read: {problem}"
            )
        self.done[:] = [
            new if old is HOLE else old for old, new in zip(self.done, done, strict=True)
        ]
        self.undone[:] = [
            new if old is HOLE else old for old, new in zip(self.undone, undone, strict=True)
        ]

    # ------------------------------------------------------------------ journal
    def _journal(self, kind: str, payload: dict) -> int:
        """Journal one event; its seq (0 without a journal)."""
        if self.journal is not None and self.game_id is not None:
            return self.journal.append(self.game_id, kind, payload)
        return 0

    def _record_finish(self) -> None:
        if self.journal is None or self.game_id is None:
            return
        winner = self.ruleset.winner(self.game)
        assert winner is not None
        self.journal.finish(self.game_id, winner, self.ruleset.summary(self.game))

    def discard_if_empty(self) -> bool:
        """Remove this game from the journal if nothing was ever journalled in it."""
        if self.journal is None or self.game_id is None:
            return False
        return self.journal.discard_if_empty(self.game_id)

    def next_game(self) -> Session:
        """The next game of this session: same encounter, the next seed, a new journal row.
        This game is let go: another session may resume it."""
        if self.journal is not None and self.game_id is not None:
            self.journal.release(self.game_id)
        following = Session(
            self.encounter, self.seed + 1, self.journal, self.session_id, dice_from=self.dice_from
        )
        if self.secrets.to_json() != Secrets().to_json():
            following.set_secrets(Secrets.from_json(self.secrets.to_json()))
        return following

    def session_table(self) -> list[dict]:
        """Wins and totals per team across the games of this session so far."""
        if self.journal is None:
            games = [{"winner": self.ruleset.winner(self.game), "summary": None}]
        else:
            games = self.journal.session_games(self.session_id)
        return scores.session_table(self.encounter.teams, self.ruleset.session_totals, games)


def _same(a: list[Entry], b: list[Entry]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


@functools.lru_cache(maxsize=1024)
def _read_once(language: Any, text: str) -> Command:
    # A line the journal holds was accepted once: replay it whatever today's limit.
    cmd = language.parse(text, max_length=None)
    assert cmd is not None, f"a journalled action is a command: {text!r}"
    return cmd


def _journalled(language: Any, text: str) -> Command:
    """A replayed line's Command, read once per text (a replay reads the same few lines
    again and again: `end` at every turn), each replay given its own words and options."""
    cmd = _read_once(language, text)
    return dataclasses.replace(cmd, args=list(cmd.args), opts=dict(cmd.opts))


def _copy(waiting: Waiting) -> Waiting:
    return {purpose: deque(queue) for purpose, queue in waiting.items()}


def resume(journal: Journal, game_id: int | None = None, dice_from: str | None = None) -> Session:
    """Rebuild a journalled game exactly, under the ruleset its row names: its actions,
    undos, redos and waiting rolls. Its dice come from `dice_from`, else where the game's
    last `dice from` said (its `dice-from` event), else the engine."""
    if game_id is None:
        game_id = journal.latest_game()
        if game_id is None:
            raise IllegalAction(f"no saved game in {journal.path}")
    row = journal.game(game_id)
    if row is None:
        raise IllegalAction(f"{journal.path}: no game {game_id}")
    # The checkpoints stored in the journal: only the events after the latest are read (and
    # their chain checked) unless it will not do (host/core/journal_checkpoints.py).
    candidates = journal_checkpoints.stored(journal, game_id)
    events = _events_after(journal, game_id, candidates[0].seq) if candidates else None
    if events is None:  # (a checkpoint row naming an event that is not there is ignored)
        candidates, events = [], _checked_events(journal, game_id)
    if dice_from is None:
        said = (journal.last_event(game_id, "dice-from") or {}).get("source")
        dice_from = said if said in DICE_FROM else "engine"
    taken_over = journal.hold(game_id, str(row["session"])) if journal.writable else None
    try:
        return _resume_held(journal, game_id, row, events, taken_over, dice_from, candidates)
    except BaseException:
        journal.release(game_id)  # a game that did not resume is not kept from others
        raise


def _events_after(
    journal: Journal, game_id: int, after: int
) -> list[tuple[int, str, dict, str]] | None:
    """The events after a stored checkpoint's, their chain checked from its event's hash;
    None if they do not check (the full walk then says what is wrong, if anything is)."""
    checked = journal.checked(game_id, after)
    return checked.events if checked is not None and checked.problem is None else None


def _checked_events(
    journal: Journal, game_id: int, after: int = 0
) -> list[tuple[int, str, dict, str]]:
    """A game's events after seq `after`, their chain checked; IllegalAction if one fails."""
    checked = journal.checked(game_id, after)
    if checked is None or checked.problem is not None:
        problem = checked.problem if checked else "it is gone"
        raise IllegalAction(
            f"{journal.path}: game {game_id} cannot be resumed: {problem};"
            f" `turnlight export {game_id}` writes the events that check"
        )
    return checked.events


def _resume_held(
    journal: Journal,
    game_id: int,
    row: dict,
    events: list[tuple[int, str, dict, str]],
    taken_over: str | None,
    dice_from: str = "engine",
    candidates: list[journal_checkpoints.Stored] | None = None,
) -> Session:
    """resume(), once this process holds the game (`events`: those after the latest of the
    stored checkpoints `candidates`, latest first; all of them if there are none)."""
    export = f"`turnlight export {game_id} --format json` (or csv) still writes its events"
    try:
        ruleset = registry.get(row["ruleset"])
    except registry.UnknownRuleset as err:
        raise IllegalAction(
            f"{journal.path}: game {game_id} cannot be resumed: its ruleset is not here"
            f" ({err}); {export}"
        ) from err
    try:
        enc = ruleset.parse_encounter(row["encounter_toml"], row["encounter_path"] or "<journal>")
    except EncounterError as err:  # a check added since it was played
        raise IllegalAction(
            f"{journal.path}: game {game_id} cannot be resumed: its encounter is refused now"
            f" ({err}); {export}"
        ) from err
    session = Session(enc, row["seed"], journal, row["session"], game_id, dice_from)
    session.secrets = Secrets.from_json(journal.last_event(game_id, "secrets"))
    done: list[Entry] = []
    undone: list[Entry] = []
    waiting: Waiting = {}
    pending: list[Pending] = []
    # From the latest checkpoint in the journal that checks and fits, replaying only what
    # came after it (none: the whole game, and the journal is given a checkpoint).
    candidates = candidates or []
    begun = journal_checkpoints.begin(session, candidates[:1], events) if candidates else None
    for i in range(1, len(candidates)):  # else the next older one, with the events after it
        if begun is not None:
            break
        older = _events_after(journal, game_id, candidates[i].seq)
        if older is not None:
            begun = journal_checkpoints.begin(session, candidates[i : i + 1], older)
    if begun is not None:
        done, undone, waiting, pending = begun.done, begun.undone, begun.waiting, begun.pending
        session._checkpoints.keep(begun.actions, begun.game)
    else:
        if candidates:  # the events before the checkpoints are needed after all
            events = _checked_events(journal, game_id)
        try:
            _replay_events(ruleset, events, done, undone, waiting, pending)
        except (KeyError, TypeError, ValueError, IndexError) as err:  # of another shape
            raise IllegalAction(
                f"{journal.path}: game {game_id} cannot be resumed: an event is not one this"
                f" turnlight reads ({type(err).__name__}: {err}); {export}"
            ) from None
    session.done = done
    session.undone = undone
    rules, now = row["rules"], ruleset.rules_version
    rebuilt = False
    if begun is not None:
        try:
            session._rebuild()
            rebuilt = True
        except Exception as err:  # noqa: BLE001 - a checkpoint only saves time
            # A stored game that passed every check and still does not take the actions
            # after it (another program wrote it: docs/reliability.md): this session reads
            # no stored checkpoint again, and replays the whole game.
            session.notices.append(
                f"checkpoint at event {begun.seq}: its game does not take the actions after"
                f" it ({type(err).__name__}: {err}): the game is replayed from its start"
            )
            session.stored_checkpoints_off = True
            session._checkpoints.clear()
            done, undone, waiting, pending = [], [], {}, []
            events = _checked_events(journal, game_id)
            _replay_events(ruleset, events, done, undone, waiting, pending)
            session.done, session.undone, begun = done, undone, None
    try:
        if not rebuilt:
            session._rebuild()
    except IllegalAction as err:
        why = (
            f"it was played under {ruleset.id} rules v{rules}, this turnlight plays v{now}"
            if rules != now
            else "its journal does not replay"
        )
        raise IllegalAction(
            f"{journal.path}: game {game_id} cannot be resumed: {why} ({err}); {export}"
        ) from err
    ruleset.set_waiting(session.game, waiting)
    if pending:
        _wait_again(session, pending[0])
    if taken_over:
        session.notices.append(taken_over)
        print(taken_over, file=sys.stderr)
    if rules != now:
        if not _ends_as_recorded(session, row):
            raise IllegalAction(
                f"{journal.path}: game {game_id} cannot be resumed: it was played under"
                f" {ruleset.id} rules v{rules}, this turnlight plays v{now} and its replay no"
                f" longer ends as it did (winner or statistics); {export}"
            )
        # It replays under these rules: it goes on under them, and the journal says so.
        if journal.writable:
            journal.set_rules(game_id, now)
        notice = (
            f"game {game_id} was played under rules v{rules}; it replays the same under"
            f" v{now} and continues under v{now}"
        )
        session.notices.append(notice)
        ruleset.note(session.game, notice)
        print(notice, file=sys.stderr)
    journal_checkpoints.after_resume(session, begun.actions if begun else None)
    return session


def _too_many(verb: str, held: int) -> str:
    """The refusal of `undo N` or `redo N` past what there is."""
    if held == 0:
        return f"nothing to {verb}" + (": no action yet" if verb == "undo" else "")
    return f"only {plural(held, 'action')} can be {verb}ne"


def _wait_again(session: Session, pending: Pending) -> None:
    """A resumed action that waited for a roll waits for it again (tried with the rolls it
    was given); one the rules no longer take is dropped, and the journal and the game
    master are told."""
    if not session.ruleset.asks_for_rolls:
        return
    try:
        session._attempt(pending, session._parse(pending.text), declare=False)
    except IllegalAction as err:
        session.pending = pending
        notice = f"`{pending.action}` waited for a roll and is dropped: {err}"
        if session.journal is not None and session.journal.writable:
            session.drop_wanted()
        session.pending = None
        session.notices.append(notice)
        print(notice, file=sys.stderr)


def _ends_as_recorded(session: Session, row: dict) -> bool:
    """A finished game's replay must end with the winner and statistics it recorded (an
    unfinished one has nothing recorded to compare)."""
    if not row["finished"]:
        return True
    summary = session.ruleset.summary(session.game)
    try:
        stored = json.loads(row["summary"] or "{}")
    except (TypeError, ValueError):
        return False
    if not isinstance(stored, dict):
        return False
    return (
        session.ruleset.winner(session.game) == row["winner"]
        and stored.get("teams") == summary["teams"]
        and stored.get("players") == summary["players"]
    )
