"""Every roll the engine needs, from one of three sources, and the record of each.

A roll is made by the engine (the seeded xorshift32 of shared.dice), made by the board (its
faces arrive over the link) or entered by hand from physical dice. Board and hand-entered
faces wait in a queue per purpose ("hit", "power", "chance", ...) until the engine asks for a
roll of that purpose; all three are checked by shared.dice and all three are recorded, so a
journal can replay an action with exactly the dice it had.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from shared import dice
from shared.limits import MAX_DICE

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


class IllegalAction(ValueError):
    """An action the rules forbid; str() is a one-line reason. The game is left unchanged."""


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
            "kind": dice.KIND_NAMES[self.kind],
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
            dice.KIND_NAMES.index(data["kind"]),
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


class Roller:
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

    # -- setup per action ------------------------------------------------------------------
    def begin(self, number: int, replay: list[RollRecord] | None = None) -> None:
        self.rng.seed(action_seed(self.seed, number))
        self.records = []
        self.replay = list(replay) if replay is not None else None

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
        if self.replay is not None:
            if not self.replay:
                raise IllegalAction("the journal holds fewer rolls than this action needs")
            rec = self.replay.pop(0)
            if rec.purpose != purpose or len(rec.faces) != count:
                raise IllegalAction(
                    f"the journal's {rec.purpose} roll of {len(rec.faces)} dice does not match "
                    f"this {purpose} roll of {count}"
                )
            faces, source, queue_name = rec.faces, rec.source, rec.queue
            successes = dice.enter(self.state, kind, faces, who, mask=self.mask)
        else:
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
                successes = dice.enter(self.state, kind, faces, who, mask=self.mask)
            else:
                source, queue_name = "engine", ""
                successes = dice.roll(self.state, self.rng, kind, count, who, mask=self.mask)
                faces = tuple(self.state.roll.faces[:count])
        self.records.append(
            RollRecord(purpose, who, kind, tuple(faces), source, successes, queue_name)
        )
        return successes

    def initiative_rng(self):
        """A generator for shared.initiative that records (or replays) its draws."""
        replay = None
        if self.replay is not None:
            if not self.replay or self.replay[0].purpose != "initiative":
                raise IllegalAction("the journal holds no initiative roll here")
            replay = self.replay.pop(0).faces
        return _RecordingRng(self.rng, replay)

    def record_initiative(self, rec_rng: _RecordingRng) -> None:
        self.records.append(
            RollRecord("initiative", -1, dice.KIND_NONE, tuple(rec_rng.drawn), "engine", 0)
        )
