"""Every roll the engine needs, from one of three sources, and the record of each.

A roll is made by the engine (the seeded xorshift32 of shared.dice), made by the board (its
faces arrive over the link) or entered by hand from physical dice. Board and hand-entered
faces wait in a queue per purpose ("hit", "power", "chance", ...) until the engine asks for a
roll of that purpose; all three are checked by shared.dice and all three are recorded, so a
journal can replay an action with exactly the dice it had. The order a roll is taken in is
the kit's (host/core/kit.py): the record's, the roll given to the waiting action, then a
queue's or the engine's.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from host.core import kit
from host.core.interface import IllegalAction, Supplied, WantedRoll
from host.core.plurals import plural
from shared import dice
from shared.limits import MAX_DICE
from shared.words import KIND_NAMES

NEXT = "next"  # board or entered faces for the next action-dice roll, whatever it is for
PURPOSES = (
    NEXT,
    "hit",
    "dodge",
    "power",
    "resist",
    "armor",
    "chance",
    "agility",
    "initiative",
)
SOURCES = ("engine", "board", "entered")
WANTED = kit.WANTED  # the `queue` of a roll supplied to a waiting action (no queue of its own)


@dataclass(frozen=True)
class RollRecord:
    purpose: str
    who: int
    kind: int  # shared.dice.KIND_*
    faces: tuple[int, ...]
    source: str
    successes: int
    queue: str = ""  # the queue board or entered faces came from ("" for engine dice)

    def as_json(self) -> dict:
        return {
            "purpose": self.purpose,
            "who": self.who,
            "kind": KIND_NAMES[self.kind],
            "faces": list(self.faces),
            "source": self.source,
            "successes": self.successes,
            "queue": self.queue,
        }

    @staticmethod
    def from_json(data: dict) -> RollRecord:
        return RollRecord(
            data["purpose"],
            data["who"],
            KIND_NAMES.index(data["kind"]),
            tuple(data["faces"]),
            data["source"],
            data["successes"],
            data.get("queue", data["purpose"] if data["source"] != "engine" else ""),
        )


class _RecordingRng:
    """Passes `below` through to a generator and keeps every answer (for initiative)."""

    def __init__(self, rng, replay: tuple[int, ...] | None):
        self.rng = rng
        self.replay = list(replay) if replay is not None else None
        self.drawn: list[int] = []

    def below(self, n: int) -> int:
        if self.replay is not None:
            if not self.replay:
                raise IllegalAction("the journal's initiative roll ran short")
            value = self.replay.pop(0)
        else:
            value = self.rng.below(n)
        self.drawn.append(value)
        return value


def _wanted(purpose: str, count: int, kind: int, who: int) -> WantedRoll:
    """A roll as the waiting action asks for it (its code: the purpose's place in PURPOSES)."""
    code = PURPOSES.index(purpose) if purpose in PURPOSES else 0
    return WantedRoll(purpose, count, kind, who, code=code)


def action_seed(seed: int, number: int) -> int:
    """The engine's dice for action `number` of a game: the same seed and number always give
    the same dice, so an undone action tried again rolls what it rolled before."""
    x = (seed * 0x9E3779B1 + number * 0x85EBCA77 + 0x27D4EB2F) & 0xFFFFFFFF
    # murmur3's finalizer: neighbouring seeds must not give xorshift neighbouring streams
    x ^= x >> 16
    x = (x * 0x85EBCA6B) & 0xFFFFFFFF
    x ^= x >> 13
    x = (x * 0xC2B2AE35) & 0xFFFFFFFF
    x ^= x >> 16
    return x or 1


class Roller(kit.Dice):
    """Rolls for one game: engine dice from the seed, or queued board and entered faces."""

    def __init__(self, state, kind: int, mask: int, seed: int):
        self.state = state
        self.kind = kind
        self.mask = mask
        self.seed = seed
        self.rng = dice.XorShift32(seed)
        self.queued: dict[str, deque[tuple[tuple[int, ...], str]]] = {}
        self.records: list[RollRecord] = []
        self.replay: list[RollRecord] | None = None
        self.supplied: list[Supplied] | None = None
        self.supplied_at = 0

    # -- setup per action ------------------------------------------------------------------
    def begin(self, number: int, replay: list[RollRecord] | None = None) -> None:
        self.rng.seed(action_seed(self.seed, number))
        self.records = []
        self.replay = list(replay) if replay is not None else None
        self.new_action()

    def queue(self, purpose: str, faces: tuple[int, ...], source: str) -> None:
        """Hold faces from the board or the table for the next roll of `purpose`."""
        if purpose not in PURPOSES:
            raise IllegalAction(f"unknown roll purpose {purpose!r} (known: {', '.join(PURPOSES)})")
        kind = dice.KIND_CHANCE if purpose == "chance" else self.kind
        try:
            dice.check_faces(kind, faces)
        except dice.DiceError as err:
            raise IllegalAction(f"{purpose} roll: {err}") from None
        self.queued.setdefault(purpose, deque()).append((tuple(faces), source))

    def pending(self) -> dict[str, int]:
        return {p: len(q) for p, q in self.queued.items() if q}

    # -- rolling -----------------------------------------------------------------------------
    def roll(self, purpose: str, who: int, count: int) -> int:
        """Roll `count` dice for `purpose` (chance flips for "chance"); returns successes."""
        kind = dice.KIND_CHANCE if purpose == "chance" else self.kind
        if count <= 0:
            return 0
        if count > MAX_DICE:
            raise IllegalAction(
                f"a {purpose} roll of {count} dice is beyond the {MAX_DICE}-die limit"
            )
        rolled = self.take_roll(
            _wanted(purpose, count, kind, who), self.replay, lambda: self._own(purpose, count, kind)
        )
        successes = dice.enter(self.state, kind, rolled.faces, who, mask=self.mask)
        self.records.append(
            RollRecord(purpose, who, kind, rolled.faces, rolled.source, successes, rolled.queue)
        )
        return successes

    def _own(self, purpose: str, count: int, kind: int) -> kit.Rolled:
        """The faces waiting in `purpose`'s queue (else the `next` queue's, but for chance),
        else the engine's."""
        queue_name = purpose
        queue = self.queued.get(purpose)
        if not queue and purpose != "chance":
            queue_name = NEXT
            queue = self.queued.get(NEXT)
        if queue:
            faces, source = queue[0]
            if len(faces) != count:
                queue.popleft()
                raise IllegalAction(
                    f"the {source} {queue_name} roll has {len(faces)} dice; "
                    f"this {purpose} roll takes {count}"
                )
            queue.popleft()
            return kit.Rolled(tuple(faces), source, queue_name)
        rolled = bytearray(count)
        dice.roll_faces(self.rng, kind, count, rolled)
        return kit.Rolled(tuple(rolled), "engine")

    def read_record(self, entry: RollRecord) -> kit.Rolled:
        return kit.Rolled(entry.faces, entry.source, entry.queue, entry.purpose, entry.who)

    def take(self, purpose: str) -> tuple[tuple[int, ...], str, str] | None:
        """The next waiting board or entered roll for `purpose` (else the `next` queue):
        (faces, source, queue), removed from its queue; None when nothing waits."""
        for name in (purpose, NEXT):
            queue = self.queued.get(name)
            if queue:
                faces, source = queue.popleft()
                return faces, source, name
        return None

    def initiative_dice(
        self, state, names: list[str], extra: dict[int, int] | None = None
    ) -> InitiativeDice | _RecordingRng:
        """The dice for shared.initiative: an InitiativeDice (`extra`: more dice on a
        slot's first roll, from SOL), or for a journal written before initiative rolls were
        recorded one per fighter, the recorded generator draws."""
        if self.replay is not None:
            if not self.replay or self.replay[0].purpose != "initiative":
                raise IllegalAction("the journal holds no initiative roll here")
            if self.replay[0].who == -1:  # one record of raw generator draws
                return _RecordingRng(self.rng, self.replay.pop(0).faces)
        return InitiativeDice(self, state, names, extra or {})

    def record_initiative(self, rec_rng: _RecordingRng) -> None:
        self.records.append(
            RollRecord("initiative", -1, dice.KIND_NONE, tuple(rec_rng.drawn), "engine", 0)
        )


class _Roll:
    def __init__(self, who: int, reroll: bool, entered, source: str, queue: str):
        self.who = who
        self.reroll = reroll
        self.entered = entered  # the faces to serve, or None for the engine's dice
        self.source = source
        self.queue = queue
        self.faces: list[int] = []


class InitiativeDice:
    """The dice of one initiative roll, for shared.initiative, from any of the three sources.

    shared.initiative rolls each slot in play for its Agility (a tie's rerolls at least one
    die) and asks a generator for one face at a time. It reads a slot's Agility, its dice
    count, just before rolling for it, so `view` (the slots as shared sees them) marks where
    each fighter's roll starts. A slot with `extra` dice (SOL) shows them in its Agility
    until its first roll is made: shared rolls them, and its tie-breaks and rerolls read
    the base Agility. Each roll takes the next waiting `initiative` roll (then
    `next`), which must hold exactly the dice that roll needs, or else the engine's dice; a
    journal replays the rolls it recorded. Every roll is recorded with its source.
    """

    def __init__(self, roller: Roller, state, names: list[str], extra: dict[int, int]):
        self.roller = roller
        self.state = state
        self.names = names
        self.extra = extra
        self.low, high = dice.face_range(roller.kind)
        self.span = high - self.low + 1
        self.view = _InitiativeView(state, self)
        self.rolled: set[int] = set()
        self.reading = -1  # the slot whose Agility shared read last
        self.current: _Roll | None = None
        self.lines: list[str] = []
        self.entered = False  # some roll came from the board or the table

    # called by the view when shared reads a slot's Agility
    def read(self, index: int) -> None:
        self._close()
        self.reading = index

    # the generator shared draws from
    def below(self, n: int) -> int:
        if n != self.span:
            raise IllegalAction(f"initiative asked for a die of {n} faces")
        if self.current is None:
            self._open()
        roll = self.current
        assert roll is not None
        if roll.entered is None:
            value = self.roller.rng.below(n)
        else:
            if len(roll.faces) >= len(roll.entered):
                raise IllegalAction(
                    f"{self.names[roll.who]}'s initiative roll takes more than the "
                    f"{len(roll.entered)} {roll.source} dice"
                )
            value = roll.entered[len(roll.faces)] - self.low
        roll.faces.append(self.low + value)
        return value

    def finish(self) -> None:
        self._close()

    def agility(self, index: int) -> int:
        """The dice of the slot's next roll: its Agility, with its extra dice on the first."""
        base = self.state.slots[index].order_key
        return base if index in self.rolled else base + self.extra.get(index, 0)

    def _open(self) -> None:
        who = self.reading
        agility = self.agility(who)
        reroll = who in self.rolled or agility == 0
        count = max(1, agility) if reroll else agility
        self.rolled.add(who)
        what = f"{self.names[who]}'s initiative {'reroll' if reroll else 'roll'}"
        roller = self.roller
        rolled = roller.take_roll(
            _wanted("initiative", count, roller.kind, who),
            roller.replay,
            lambda: self._waiting(what, count),
        )
        if rolled.source != "engine":
            self.entered = True
        # No faces: the engine's, drawn one at a time as shared asks for them (`below`).
        self.current = _Roll(who, reroll, rolled.faces or None, rolled.source, rolled.queue)

    def _waiting(self, what: str, count: int) -> kit.Rolled:
        """The next waiting initiative roll (else the `next` queue's), which must be `count`
        dice; else the engine's, drawn as shared asks."""
        taken = self.roller.take("initiative")
        if taken is None:
            return kit.Rolled((), "engine")
        faces, source, queue = taken
        if len(faces) != count:
            raise IllegalAction(
                f"the {source} {queue} roll has {len(faces)} dice; {what} takes {count}"
            )
        return kit.Rolled(tuple(faces), source, queue)

    def _close(self) -> None:
        roll = self.current
        if roll is None:
            return
        self.current = None
        if roll.entered is not None and len(roll.faces) != len(roll.entered):
            raise IllegalAction(
                f"{self.names[roll.who]}'s initiative roll took {len(roll.faces)} of the "
                f"{len(roll.entered)} {roll.source} dice"
            )
        kind, mask = self.roller.kind, self.roller.mask
        faces = tuple(roll.faces)
        successes = dice.count_successes(kind, faces, len(faces), mask)
        self.roller.records.append(
            RollRecord("initiative", roll.who, kind, faces, roll.source, successes, roll.queue)
        )
        shown = " ".join(map(str, faces))
        how = roll.source
        if roll.source == "engine" and self.entered:
            how = "engine: no entered dice left"
        verb = "rerolls to break a tie" if roll.reroll else "rolls for initiative"
        said = f"{shown} ({how}), {plural(successes, 'success')}"
        self.lines.append(f"{self.names[roll.who]} {verb}: {said}")


class _WatchedSlot:
    """A slot as shared.initiative sees it: reading its Agility tells the dice who rolls."""

    def __init__(self, slot, index: int, dice_: InitiativeDice):
        self._slot = slot
        self._index = index
        self._dice = dice_

    @property
    def order_key(self) -> int:  # the slot's Agility
        self._dice.read(self._index)
        return self._dice.agility(self._index)

    def in_play(self) -> bool:
        return self._slot.in_play()


class _InitiativeView:
    """What shared.initiative reads and writes: the slots (watched) and the turn order, which
    the engine then sets on the real state."""

    def __init__(self, state, dice_: InitiativeDice):
        self.count = state.count
        self.slots = [_WatchedSlot(s, i, dice_) for i, s in enumerate(state.slots)]
        self.order = bytearray(state.order)
        self.order_reason = bytearray(state.order_reason)
        self.active = state.active  # before the first round: no turn is running
        self.turn = state.turn

    def touch(self) -> None:
        pass
