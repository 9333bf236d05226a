"""What a wanted roll's faces mean when they are more than one face a die: dice that
explode (each die rolls again on its highest face and adds) and cards drawn from a deck.

Both travel as plain dice do (`Supplied`: purpose, faces, source), so the journal, the
board's roll key and a resume need nothing new:

- An exploding roll's faces are every die's chain in turn: a chain goes on while its last
  face is the die's highest (`chains` splits them; a d6 and a d8: 6 6 3 5 is 6+6+3 and 5).
  A roll holds at most MAX_DICE faces, the board's buffer: a chain cut there ends.
- A draw of N cards from a deck of R cards left is N plain dice of R, R-1, ... faces: each
  face is the place of a card among those still left (1 is the first, in the deck's own
  order), the card taken out before the next. Any face is as likely as any other, so a
  draw is a shuffled deck's draw, and the board's roll key draws without knowing a card.

The standard deck of 54 (`STANDARD_54`: 2S .. AS, the hearts, diamonds and clubs, then two
Jokers) is built in; a card is written `KS`, `10H`, `AC` or `Joker` (`card_word` reads
them, in any case), and shown on the board as a fighter's order value (`order_key`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from host.core.interface import WantedRoll
from shared.descriptor_pack import card_key
from shared.limits import MAX_DICE

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")  # spades, hearts, diamonds, clubs
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
JOKER = "Joker"
STANDARD_54: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + (JOKER, JOKER)


def card_word(word: str) -> str | None:
    """A card as the deck writes it (`KS`, `10H`, `Joker`) from a word typed in any case
    (`ks`, `10h`, `joker`, `T` for ten too), or None when the word is no card."""
    w = word.strip().upper()
    if w == JOKER.upper():
        return JOKER
    rank, suit = w[:-1], w[-1:]
    rank = "10" if rank == "T" else rank
    if rank in RANKS and suit in SUITS:
        return rank + suit
    return None


def card_rank(card: str) -> tuple[int, int]:
    """(rank, suit) of a standard card as numbers: rank 2..14 (an Ace 14, a Joker 15),
    suit 0..3 in SUITS' order (spades 0; a Joker 0)."""
    if card == JOKER:
        return 15, 0
    return RANKS.index(card[:-1]) + 2, SUITS.index(card[-1])


def order_key(card: str | None) -> int:
    """A card as a fighter's order value on the board (a descriptor packed with
    `order=ORDER_CARD`: `shared.descriptor_pack.card_key`, suits in bridge order, so the
    keys order as SUITS' ties do); 0 for no card."""
    if not card:
        return 0
    rank, suit = card_rank(card)
    return card_key(rank, len(SUITS) - 1 - suit)


def draw_sides(left: int, count: int) -> tuple[int, ...]:
    """The faces of each die a draw of `count` cards from `left` is rolled as."""
    return tuple(left - i for i in range(count))


def take(cards: Sequence[str], places: Sequence[int]) -> list[str]:
    """The cards that `places` (a draw's faces) name among `cards` (those left, in order),
    each taken out before the next place is read."""
    left = list(cards)
    return [left.pop(p - 1) for p in places]


def places(cards: Sequence[str], drawn: Sequence[str]) -> list[int] | None:
    """The faces that draw `drawn` from `cards` (`take`'s inverse), or None when a card of
    `drawn` is not left to draw."""
    left = list(cards)
    found = []
    for card in drawn:
        if card not in left:
            return None
        found.append(left.index(card) + 1)
        left.remove(card)
    return found


def chains(faces: Sequence[int], sides: Sequence[int]) -> list[tuple[int, ...]] | None:
    """An exploding roll's faces split into each die's chain (`sides`: each die's faces,
    in order), or None when they are not exactly one finished chain a die (a chain that
    stops on the die's highest face, a face past the last die's chain, a die missing)."""
    out: list[tuple[int, ...]] = []
    at = 0
    for d, n in enumerate(sides):
        chain: list[int] = []
        while True:
            if at >= len(faces):
                return None
            chain.append(faces[at])
            at += 1
            if chain_ends(faces[at - 1], n, at, len(sides) - d - 1):
                break
        out.append(tuple(chain))
    return out if at == len(faces) else None


def chain_ends(face: int, sides: int, rolled: int, dice_after: int) -> bool:
    """Whether a chain ends on `face` (of a die of `sides`), `rolled` faces into the roll
    with `dice_after` dice still to roll: on any face but the highest, or where the roll's
    MAX_DICE faces leave room only for one face of each die after."""
    return face != sides or rolled >= MAX_DICE - dice_after


def roll_chains(sides: Sequence[int], below: Callable[[int], int]) -> list[int]:
    """An exploding roll's faces, each die rolled (`below(n)`: 0..n-1) until its chain
    ends."""
    faces: list[int] = []
    for d, n in enumerate(sides):
        while True:
            faces.append(1 + below(n))
            if chain_ends(faces[-1], n, len(faces), len(sides) - d - 1):
                break
    return faces


def chain_sides(faces: Sequence[int], sides: Sequence[int]) -> tuple[int, ...] | None:
    """Each face's die (its faces) in an exploding roll, or None where `chains` is."""
    split = chains(faces, sides)
    if split is None:
        return None
    return tuple(n for chain, n in zip(split, sides, strict=True) for _ in chain)


def chain_words(faces: Sequence[int], sides: Sequence[int]) -> str:
    """An exploding roll as people write it: `6+6+3 = 15, 5` (a chain of more than one
    die with its total)."""
    split = chains(faces, sides) or [tuple(faces)]
    return ", ".join("+".join(map(str, c)) + (f" = {sum(c)}" if len(c) > 1 else "") for c in split)


def faces_sides(wanted: WantedRoll, faces: tuple[int, ...]) -> tuple[int, ...] | None:
    """Each face's die (its faces) when `faces` fit `wanted`'s count (an exploding roll:
    one finished chain a die), else None. () for dice other than plain ones."""
    if wanted.explode:
        return chain_sides(faces, wanted.sides)
    if len(faces) != wanted.count:
        return None
    return tuple(wanted.sides)
