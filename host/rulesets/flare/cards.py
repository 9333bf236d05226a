"""Flare's cards as data: creature and legendary cards (a pattern of squares and the
effects resolved after the summon) and Flare cards (two criteria with their amounts and
effects). A deck is a TOML file (host/rulesets/flare/decks/) or the same tables in an encounter.

A pattern is rows of equal length, one character per square:

    *   the marked square: the summoned token goes here (exactly one per pattern)
    .   any square, not looked at
    _   an empty square
    o   one of your tokens, any rank
    c h l   your common, heroic or legendary token
    u   your upgraded token (heroic or legendary)
    x   an enemy token, any rank

An effect is `KIND` or `KIND:RANK` (RANK: the highest rank its target may have).
"""

from __future__ import annotations

from dataclasses import dataclass

COMMON, HEROIC, LEGENDARY = 0, 1, 2
RANKS = ("common", "heroic", "legendary")
CELLS = set("*._ochlux")
# Effects that name a target in the command (square, or FROM-TO for the movements), and
# those that just happen.
MOVES = ("move", "combat_move", "jump", "combat_jump")
TARGETED = MOVES + ("upgrade", "downgrade", "destroy", "convert")
AUTOMATIC = ("extra_action", "extra_draw")
EFFECT_KINDS = TARGETED + AUTOMATIC


@dataclass(frozen=True)
class Effect:
    kind: str
    most: int = LEGENDARY  # the highest rank its target may have

    @property
    def targeted(self) -> bool:
        return self.kind in TARGETED

    def text(self) -> str:
        return self.kind if self.most == LEGENDARY else f"{self.kind}:{RANKS[self.most]}"


@dataclass(frozen=True)
class Creature:
    id: str
    name: str
    rank: int  # the rank of the token it summons
    legendary: bool  # from the legendary deck
    cells: tuple[tuple[int, int, str], ...]  # (row, column, what) relative to the mark
    effects: tuple[Effect, ...]
    pattern: tuple[str, ...]


@dataclass(frozen=True)
class Flare:
    id: str
    name: str
    top: int | None  # opponents' upgraded tokens over yours needed; None: no top half
    top_effects: tuple[Effect, ...]
    bottom: int | None  # opponents' tokens over yours needed; None: no bottom half
    bottom_effects: tuple[Effect, ...]


# What a task asks of the player claiming it as their turn ends (the advanced game): at
# least `amount` upgraded tokens, tokens or legendary tokens of theirs on the grid, enemy
# tokens destroyed this turn, or their tokens in one unbroken row or column.
NEEDS = ("upgraded", "tokens", "legendary", "destroyed", "line")


@dataclass(frozen=True)
class Task:
    id: str
    name: str
    need: str  # one of NEEDS
    amount: int
    points: int


@dataclass(frozen=True)
class Deck:
    creatures: tuple[Creature, ...]  # one entry per copy
    legendaries: tuple[Creature, ...]
    flares: tuple[Flare, ...]
    tasks: tuple[Task, ...] = ()

    def card(self, card_id: str) -> Creature | Flare | None:
        for card in self.creatures + self.legendaries + self.flares:
            if card.id == card_id:
                return card
        return None

    def task(self, task_id: str) -> Task | None:
        return next((t for t in self.tasks if t.id == task_id), None)


class DeckError(ValueError):
    """A bad card: str() names the table and what is wrong (the caller adds file:line)."""


def rank_of(word: object) -> int:
    if word not in RANKS:
        raise DeckError(f"rank must be one of {', '.join(RANKS)}, not {word!r}")
    return RANKS.index(str(word))


def parse_effect(text: object) -> Effect:
    if not isinstance(text, str):
        raise DeckError(f"an effect is a string, not {text!r}")
    kind, _, most = text.partition(":")
    if kind not in EFFECT_KINDS:
        raise DeckError(f"unknown effect {kind!r} (known: {', '.join(EFFECT_KINDS)})")
    if not most:
        return Effect(kind)
    if kind in MOVES or kind in AUTOMATIC:
        raise DeckError(f"effect {kind!r} takes no rank")
    return Effect(kind, rank_of(most))


def parse_pattern(rows: object) -> tuple[tuple[int, int, str], ...]:
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise DeckError("pattern must be a list of strings, one per row")
    if len({len(r) for r in rows}) != 1 or not rows[0]:
        raise DeckError("every row of a pattern must be as long as the first")
    marked = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "*"]
    if len(marked) != 1:
        raise DeckError("a pattern marks exactly one square with *")
    bad = {ch for row in rows for ch in row} - CELLS
    if bad:
        raise DeckError(f"a pattern may use only {''.join(sorted(CELLS))}, not {''.join(bad)}")
    mr, mc = marked[0]
    return tuple(
        (r - mr, c - mc, ch)
        for r, row in enumerate(rows)
        for c, ch in enumerate(row)
        if ch not in ".*"
    )


# The eight ways a pattern may lie: turned 0..3 quarter turns, then mirrored or not
# (a flip is a mirror after a half turn, so the eight hold every flip as well).
def orient(cells: tuple[tuple[int, int, str], ...], way: int) -> list[tuple[int, int, str]]:
    out = []
    for r, c, what in cells:
        for _ in range(way % 4):
            r, c = c, -r
        if way >= 4:
            c = -c
        out.append((r, c, what))
    return out


WAYS = tuple(range(8))
