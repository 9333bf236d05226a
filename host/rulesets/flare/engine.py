"""Flare's rules: the token grid, the turn's actions, summoning, card effects, Flares,
scoring and the end of the game. A `Game` is a pure function of its encounter, its seed
(the decks' shuffles) and the commands applied to it; every refusal raises IllegalAction
with one line. The rules text is flare-summoning-turn.txt; docs/rulesets/flare.md says
what is implemented and each choice made where the text is silent.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from host.core import numbers
from host.core.interface import IllegalAction, game_log
from host.core.plurals import plural
from host.core.timeline import Timeline
from host.rulesets.flare import cards
from host.rulesets.flare.cards import COMMON, HEROIC, LEGENDARY, RANKS, Creature, Effect, Flare
from host.rulesets.flare.encounter_schema import Encounter

RULES_VERSION = 1
COLUMNS = "abcdefghi"
# Orthogonal neighbours: "adjacent" in the text (flare.md: diagonals are not adjacent).
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
DECK_NAMES = ("creature", "legendary", "flare")
KINDS = ("creature", "legendary", "Flare")  # the kind of card each deck holds, as said


# What each letter of a card's pattern asks of its square (`_fits`), as a refusal says it.
CELLS = {
    "*": "the marked square",
    ".": "any",
    "_": "empty",
    "o": "your token",
    "c": "your common",
    "h": "your heroic",
    "l": "your legendary",
    "u": "your heroic or legendary",
    "x": "an enemy's token",
}


@dataclass
class Token:
    owner: int
    rank: int


@dataclass
class Hand:
    creatures: list[str] = field(default_factory=list)
    legendaries: list[str] = field(default_factory=list)
    flares: list[str] = field(default_factory=list)

    def all(self) -> list[str]:
        return self.creatures + self.legendaries + self.flares


@dataclass
class Stats:
    placed: int = 0
    summoned: int = 0
    legendaries: int = 0  # legendary creatures summoned (a Duel point each)
    flares: int = 0
    destroyed: int = 0  # enemy tokens destroyed
    points_destroyed: int = 0
    points_legendary: int = 0
    points_flares: int = 0  # points given to this player by the opponent's Flares
    tasks: int = 0  # tasks claimed (the advanced game)
    points_tasks: int = 0


class Game:
    def __init__(self, enc: Encounter, seed: int) -> None:
        self.enc = enc
        self.seed = seed
        self.rng = random.Random(seed)
        n = len(enc.players)
        self.grid: list[Token | None] = [None] * (enc.columns * enc.rows)
        self.supply = [enc.tokens] * n  # common/heroic tokens (one token, two sides)
        self.legends = [enc.legendary_tokens] * n
        # The draw piles (top is the end of the list) and discard piles, by DECK_NAMES.
        self.piles: list[list[str]] = [
            [c.id for c in enc.deck.creatures],
            [c.id for c in enc.deck.legendaries],
            [c.id for c in enc.deck.flares],
        ]
        self.discards: list[list[str]] = [[], [], []]
        for pile in self.piles:
            if enc.shuffle:
                self.rng.shuffle(pile)
            else:
                pile.reverse()  # dealt in the file's order: its first card on top
        self.hands = [Hand() for _ in range(n)]
        self.scores = [0] * n
        self.stats = [Stats() for _ in range(n)]
        self.odd_common = [0] * n  # a destroyed common waiting for its pair (flare.md)
        self.current = 0
        self.controller = 0  # who acts: the current player, or their teammate (team play)
        self.round = 1
        self.turns = 0  # turns ended
        self.actions_left = enc.first_turn_actions
        self.actions_max = enc.first_turn_actions
        self.acted = False  # an action was taken this turn (a Flare must come first)
        self.discarded = False  # discard and draw, once a turn
        self.flare_called = False
        self.extra_draws = 0
        self.beside: list[int] = []  # ranks of enemy tokens destroyed this turn
        self.beside_owners: list[int] = []  # and whose they were
        # Battle: the enemy colours each player has borrowed a token of (once a game each)
        self.borrowed: list[list[int]] = [[] for _ in range(n)]
        self.lent: tuple[int, int] | None = None  # the square borrowed for this summon
        self.winner: str | None = None
        self.timeline = Timeline()
        self.log = game_log()
        self.board: Any = None  # its board state (host/rulesets/flare/device.py keeps it in step)
        # The advanced game's tasks: a pile, and the row face up (shuffled after the decks,
        # so a game without tasks deals as it always did).
        self.task_pile = [t.id for t in enc.deck.tasks] if enc.advanced else []
        if enc.shuffle:
            self.rng.shuffle(self.task_pile)
        else:
            self.task_pile.reverse()
        self.tasks_shown: list[str] = []
        while len(self.tasks_shown) < enc.tasks_shown and self.task_pile:
            self.tasks_shown.append(self.task_pile.pop())
        for row, col, p, rank in enc.start:
            self.put(row, col, Token(p, rank))
            self._take(p, rank)
        for p in range(n):
            self.draw_up(p, 0)

    @property
    def teams(self) -> tuple[str, ...]:  # (interface.Game)
        return self.enc.teams

    # -- the grid -----------------------------------------------------------------------------
    def at(self, row: int, col: int) -> Token | None:
        return self.grid[row * self.enc.columns + col]

    def on_grid(self, row: int, col: int) -> bool:
        return 0 <= row < self.enc.rows and 0 <= col < self.enc.columns

    def name_of(self, row: int, col: int) -> str:
        return f"{COLUMNS[col]}{row + 1}"

    def square(self, text: str) -> tuple[int, int]:
        """`c4` (column letter, row number) to (row, column); refused off the grid."""
        t = text.strip().lower()
        number = numbers.whole_or_none(t[1:]) if len(t) >= 2 and t[0] in COLUMNS else None
        if number is not None:
            row, col = number - 1, COLUMNS.index(t[0])
            if self.on_grid(row, col):
                return row, col
        last = self.name_of(self.enc.rows - 1, self.enc.columns - 1)
        raise IllegalAction(f"{text!r} is not a square of the grid (a1..{last})")

    def put(self, row: int, col: int, token: Token | None) -> None:
        self.grid[row * self.enc.columns + col] = token

    def counts(self, p: int) -> tuple[int, int]:
        """(upgraded tokens, tokens) player p has on the grid."""
        mine = [t for t in self.grid if t is not None and t.owner == p]
        return sum(1 for t in mine if t.rank > COMMON), len(mine)

    @property
    def duel(self) -> bool:
        return self.enc.mode == "duel"

    def opponents(self) -> list[int]:
        """The players of the other sides, in turn order after the current one."""
        n = len(self.enc.players)
        turn = [(self.current + k) % n for k in range(1, n)]
        return [p for p in turn if self.enemy(p)]

    def enemy(self, owner: int) -> bool:
        """Whether player `owner` is on another side than the current player."""
        return self.enc.team_of[owner] != self.enc.team_of[self.current]

    def teammate(self) -> int | None:
        mates = [p for p in range(len(self.enc.players)) if p != self.current]
        mates = [p for p in mates if not self.enemy(p)]
        return mates[0] if mates else None

    def _owner_acts(self, what: str) -> None:
        if self.controller != self.current:
            raise IllegalAction(
                f"{self.enc.players[self.controller]} holds control: the teammate only places"
                f" commons, and may not {what}"
            )

    def player_named(self, name: str) -> int:
        for p, known in enumerate(self.enc.players):
            if known.lower() == name.lower():
                return p
        raise IllegalAction(f"no player {name!r} (players: {', '.join(self.enc.players)})")

    @property
    def player(self) -> str:
        return self.enc.players[self.current]

    # -- cards ----------------------------------------------------------------------------------
    def card(self, card_id: str) -> Creature | Flare:
        found = self.enc.deck.card(card_id.lower())
        if found is None:
            hand = self.hands[self.current]
            held = ", ".join([*hand.creatures, *hand.legendaries, *hand.flares]) or "none"
            raise IllegalAction(f"no card {card_id!r} in this deck ({self.player} holds: {held})")
        return found

    def draw(self, p: int, deck: int) -> str | None:
        pile = self.piles[deck]
        if not pile and self.discards[deck]:
            pile.extend(self.discards[deck])  # the discards, shuffled by the engine's seed
            self.discards[deck].clear()
            self.rng.shuffle(pile)
        if not pile:
            return None
        card_id = pile.pop()
        hand = self.hands[p]
        (hand.creatures, hand.legendaries, hand.flares)[deck].append(card_id)
        return card_id

    def draw_up(self, p: int, extra: int) -> int:
        """Draw up to the hand sizes (creature cards `extra` over theirs); returns the count."""
        hand = self.hands[p]
        drawn = 0
        for deck, have, size in (
            (0, hand.creatures, self.enc.creature_hand + extra),
            (1, hand.legendaries, self.enc.legendary_hand),
            (2, hand.flares, self.enc.flare_hand),
        ):
            while len(have) < size and self.draw(p, deck) is not None:
                drawn += 1
        return drawn

    def _deck_of(self, card: Creature | Flare) -> int:
        if isinstance(card, Flare):
            return 2
        return 1 if card.legendary else 0

    def _take_from_hand(self, card: Creature | Flare) -> None:
        hand = self.hands[self.current]
        (hand.creatures, hand.legendaries, hand.flares)[self._deck_of(card)].remove(card.id)

    def _in_hand(self, card_id: str, kinds: tuple[int, ...]) -> Creature | Flare:
        """The card, once it is of one of the `kinds` (decks) and in the player's hand."""
        card = self.card(card_id)
        deck = self._deck_of(card)
        if deck not in kinds:
            wanted = " or ".join(KINDS[k] for k in kinds)
            raise IllegalAction(f"{card.id!r} is a {KINDS[deck]} card, not a {wanted} card")
        hand = self.hands[self.current]
        piles = (hand.creatures, hand.legendaries, hand.flares)
        if card.id not in piles[deck]:
            held = ", ".join(c for k in kinds for c in piles[k]) or "none"
            raise IllegalAction(f"{self.player} holds no {card.id!r} (holds: {held})")
        return card

    # -- turn bookkeeping ---------------------------------------------------------------------
    def _check_open(self) -> None:
        if self.winner is not None:
            raise IllegalAction(f"the game is over: {self.winner} won")

    def _spend_action(self) -> None:
        self._check_open()
        if self.actions_left <= 0:
            raise IllegalAction(f"{self.player} has no actions left: end the turn")
        self.actions_left -= 1
        self.acted = True

    def _destroy(self, row: int, col: int) -> str:
        """Take the token off the grid: an enemy's goes beside the board to be scored at the
        turn's end; the player's own goes back to their supply."""
        token = self.at(row, col)
        assert token is not None
        self.put(row, col, None)
        if not self.enemy(token.owner):
            self._return(token)
            return (
                f"{self.enc.players[token.owner]}'s own {RANKS[token.rank]} on"
                f" {self.name_of(row, col)} is destroyed"
            )
        self.beside.append(token.rank)
        self.beside_owners.append(token.owner)
        self.stats[self.current].destroyed += 1
        return (
            f"{self.enc.players[token.owner]}'s {RANKS[token.rank]} on"
            f" {self.name_of(row, col)} is destroyed"
        )

    def _return(self, token: Token) -> None:
        if token.rank == LEGENDARY:
            self.legends[token.owner] += 1
        else:
            self.supply[token.owner] += 1

    def _take(self, p: int, rank: int) -> bool:
        """A token of `rank` from player p's supply; False when there is none."""
        stock = self.legends if rank == LEGENDARY else self.supply
        if stock[p] <= 0:
            return False
        stock[p] -= 1
        return True

    # -- placing ---------------------------------------------------------------------------------
    def place(self, where: str, source: str | None) -> list[str]:
        row, col = self.square(where)
        who = self.controller
        name = self.enc.players[who]
        if self.at(row, col) is not None:
            raise IllegalAction(f"{self.name_of(row, col)} is not empty")
        lines = []
        if self.supply[who] > 0:
            if source is not None:
                raise IllegalAction(
                    f"{name} still has tokens to place: from= is for when none are left"
                )
            self._spend_action()
            self.supply[who] -= 1
        else:
            if source is None:
                raise IllegalAction(
                    f"{name} has no tokens left: say from=SQUARE, one of their common"
                    " or heroic tokens on the grid to place again"
                )
            frow, fcol = self.square(source)
            token = self.at(frow, fcol)
            if token is None or token.owner != who or token.rank == LEGENDARY:
                raise IllegalAction(
                    f"{self.name_of(frow, fcol)} holds no common or heroic token of {name}'s"
                )
            self._spend_action()
            self.put(frow, fcol, None)
            lines.append(f"{name} picks up the token on {self.name_of(frow, fcol)}")
        self.put(row, col, Token(who, COMMON))
        self.stats[who].placed += 1
        lines.append(f"{name} places a common on {self.name_of(row, col)}")
        return lines

    # -- summoning -------------------------------------------------------------------------------
    def matches(self, card: Creature, row: int, col: int) -> list[list[tuple[int, int]]]:
        """The squares each matching way of lying covers (the pattern rotated, mirrored or
        flipped around the marked square at row, col), one list per way that matches."""
        found = []
        seen: set[frozenset[tuple[int, int, str]]] = set()
        for way in cards.WAYS:
            squares = []
            for dr, dc, what in cards.orient(card.cells, way):
                r, c = row + dr, col + dc
                if not self.on_grid(r, c) or not self._fits(self.at(r, c), what, (r, c)):
                    break
                squares.append((r, c))
            else:
                key = frozenset(
                    (r, c, w) for (r, c), (_, _, w) in zip(squares, card.cells, strict=True)
                )
                if key not in seen:
                    seen.add(key)
                    found.append(squares)
        return found

    def _fits(self, token: Token | None, what: str, square: tuple[int, int]) -> bool:
        if what == "_":
            return token is None
        if token is None:
            return False
        mine = token.owner == self.current or square == self.lent  # improvised summoning
        if what == "x":
            return not mine and self.enemy(token.owner)
        if not mine:
            return False
        return {
            "o": True,
            "c": token.rank == COMMON,
            "h": token.rank == HEROIC,
            "l": token.rank == LEGENDARY,
            "u": token.rank > COMMON,
        }[what]

    def summon_refusal(self, card: Creature, row: int, col: int) -> str | None:
        """Why the card cannot be summoned with its mark on row, col (None: it can)."""
        there = self.at(row, col)
        if there is not None and there.rank > card.rank:
            return (
                f"{self.name_of(row, col)} holds a {RANKS[there.rank]}, higher than"
                f" {card.id}'s {RANKS[card.rank]}: it cannot be summoned there"
            )
        ways = self.matches(card, row, col)
        if not ways:
            letters = dict.fromkeys(c for line in card.pattern for c in line if c in CELLS)
            legend = ", ".join(f"{c} {CELLS[c]}" for c in letters)
            return (
                f"{card.id}'s pattern does not match around {self.name_of(row, col)}"
                f" (turned, mirrored or flipped): {'/'.join(card.pattern)} ({legend})"
            )
        stock = self.legends if card.rank == LEGENDARY else self.supply
        if stock[self.current] == 0 and self._spare(card, row, col, ways[0]) is None:
            if not (
                there is not None
                and there.owner == self.current
                and _kind(there.rank) == _kind(card.rank)
            ):
                return (
                    f"{self.player} has no {_kind_name(card.rank)} token to summon {card.id} with"
                )
        return None

    def _spare(
        self, card: Creature, row: int, col: int, covered: list[tuple[int, int]]
    ) -> tuple[int, int] | None:
        """The first of the player's tokens of the card's kind outside the pattern."""
        for r in range(self.enc.rows):
            for c in range(self.enc.columns):
                t = self.at(r, c)
                if (
                    t is not None
                    and t.owner == self.current
                    and _kind(t.rank) == _kind(card.rank)
                    and (r, c) not in covered
                    and (r, c) != (row, col)
                ):
                    return r, c
        return None

    def _lend(self, borrow: str, row: int, col: int) -> str:
        """Improvised summoning (Battle): an enemy's token on `borrow` counts as the
        player's for this summon's pattern, once per enemy colour a game."""
        if self.duel:
            raise IllegalAction("improvised summoning (borrow=) is for Battle, not a Duel")
        brow, bcol = self.square(borrow)
        token = self.at(brow, bcol)
        if token is None or not self.enemy(token.owner):
            raise IllegalAction(f"borrow: {self.name_of(brow, bcol)} holds no enemy token")
        owner = self.enc.players[token.owner]
        if token.owner in self.borrowed[self.current]:
            raise IllegalAction(f"{self.player} has already borrowed a token of {owner}'s")
        if (brow, bcol) == (row, col):
            raise IllegalAction("borrow: the borrowed token is one of the pattern's, not its mark")
        self.lent = (brow, bcol)
        return f"{self.player} borrows {owner}'s token on {self.name_of(brow, bcol)} (improvised)"

    def summon(
        self,
        card_id: str,
        where: str,
        targets: list[str],
        source: str | None,
        borrow: str | None = None,
    ) -> list[str]:
        self._check_open()
        self._owner_acts("summon")
        card = self._in_hand(card_id, (0, 1))
        assert isinstance(card, Creature)
        row, col = self.square(where)
        lent_line = self._lend(borrow, row, col) if borrow is not None else ""
        lent = self.lent
        try:
            why = self.summon_refusal(card, row, col)
            if why:
                raise IllegalAction(why)
            covered = self.matches(card, row, col)[0]
        finally:
            self.lent = None  # the borrowing lasts for the pattern only
        if lent is not None and lent not in covered:
            raise IllegalAction(f"{card.id}'s pattern does not use the borrowed token on {borrow}")
        self._check_targets(card.effects, targets, card.id)
        self._spend_action()
        if lent is not None:
            lender = self.at(*lent)
            assert lender is not None
            self.borrowed[self.current].append(lender.owner)
        lines = [f"{self.player} summons {card.name} on {self.name_of(row, col)}"]
        if lent_line:
            lines.insert(0, lent_line)
        if self.at(row, col) is not None:
            lines.append(self._destroy(row, col))
        if not self._take(self.current, card.rank):
            if source is not None:
                srow, scol = self.square(source)
                t = self.at(srow, scol)
                if (
                    t is None
                    or t.owner != self.current
                    or _kind(t.rank) != _kind(card.rank)
                    or (srow, scol) in covered
                ):
                    raise IllegalAction(
                        f"from= must name one of {self.player}'s {_kind_name(card.rank)} tokens"
                        " outside the pattern"
                    )
                spare: tuple[int, int] | None = (srow, scol)
            else:
                spare = self._spare(card, row, col, covered)
            if spare is None:  # summon_refusal has seen to this
                raise IllegalAction(f"{self.player} has no token to summon {card.id} with")
            self.put(spare[0], spare[1], None)
            lines.append(f"{self.player} takes the token on {self.name_of(*spare)} for it")
        elif source is not None:
            raise IllegalAction(
                f"{self.player} still has a {_kind_name(card.rank)} token: from= is for when"
                " none is left"
            )
        self.put(row, col, Token(self.current, card.rank))
        st = self.stats[self.current]
        st.summoned += 1
        if card.rank == LEGENDARY:
            st.legendaries += 1
            if self.duel:
                st.points_legendary += 1
                self.scores[self.current] += 1
                lines.append(f"{self.player} scores 1 for a legendary summoned")
        lines += self._resolve(card.effects, targets)
        self._take_from_hand(card)
        self.discards[self._deck_of(card)].append(card.id)
        return lines

    # -- effects ----------------------------------------------------------------------------------
    def _check_targets(self, effects: tuple[Effect, ...], targets: list[str], what: str) -> None:
        wanted = [e.text() for e in effects if e.targeted]
        if len(targets) != len(wanted):
            listed = ", ".join(wanted) or "none"
            raise IllegalAction(
                f"{what} needs {len(wanted)} target(s) in order ({listed}), given"
                f" {len(targets)}; '-' skips one"
            )

    def _resolve(self, effects: tuple[Effect, ...], targets: list[str]) -> list[str]:
        lines = []
        queue = list(targets)
        for effect in effects:
            if not effect.targeted:
                if effect.kind == "extra_action":
                    self.actions_left += 1
                    self.actions_max += 1
                    lines.append(f"{self.player} gains an extra action")
                else:
                    self.extra_draws += 1
                    lines.append(f"{self.player} will draw an extra card at the turn's end")
                continue
            target = queue.pop(0)
            if target == "-":
                lines.append(f"{effect.kind} skipped")
                continue
            lines += self._effect(effect, target)
        return lines

    def _effect(self, effect: Effect, target: str) -> list[str]:
        kind = effect.kind
        if kind in cards.MOVES:
            start, sep, end = target.partition("-")
            if not sep:
                raise IllegalAction(f"{kind} takes FROM-TO (c3-c4), not {target!r}")
            fr, fc = self.square(start)
            tr, tc = self.square(end)
            mover = self.at(fr, fc)
            if mover is None or mover.owner != self.current:
                raise IllegalAction(
                    f"{kind}: {self.name_of(fr, fc)} holds no token of {self.player}'s"
                )
            if (fr, fc) == (tr, tc):
                raise IllegalAction(f"{kind}: a token moves to another square")
            if "jump" not in kind and (abs(fr - tr) + abs(fc - tc)) != 1:
                raise IllegalAction(
                    f"{kind}: {self.name_of(tr, tc)} is not next to {self.name_of(fr, fc)}"
                    " (movement goes to an adjacent square; jumps need not)"
                )
            there = self.at(tr, tc)
            combat = kind.startswith("combat")
            if there is not None and (
                there.rank > mover.rank or (there.rank == mover.rank and not combat)
            ):
                allowed = "an equal or lower" if combat else "a lower"
                raise IllegalAction(
                    f"{kind}: {self.name_of(tr, tc)} holds a {RANKS[there.rank]}; a"
                    f" {RANKS[mover.rank]} may enter only an empty square or {allowed} rank"
                )
            lines = []
            if there is not None:
                lines.append(self._destroy(tr, tc))
            self.put(fr, fc, None)
            self.put(tr, tc, mover)
            lines.insert(0, f"{kind}: {self.name_of(fr, fc)} to {self.name_of(tr, tc)}")
            return lines
        row, col = self.square(target)
        token = self.at(row, col)
        sq = self.name_of(row, col)
        own = kind == "upgrade"
        if token is None or not (token.owner == self.current if own else self.enemy(token.owner)):
            whose = f"token of {self.player}'s" if own else "enemy token"
            raise IllegalAction(f"{kind}: {sq} holds no {whose}")
        if token.rank > effect.most:
            raise IllegalAction(
                f"{kind}: {sq} holds a {RANKS[token.rank]}; this one reaches"
                f" {RANKS[effect.most]} at most"
            )
        if kind == "upgrade":
            if token.rank == LEGENDARY:
                raise IllegalAction(f"upgrade: {sq} is already legendary")
            if token.rank == HEROIC:
                if not self._take(self.current, LEGENDARY):
                    raise IllegalAction(f"upgrade: {self.player} has no legendary token left")
                self.supply[self.current] += 1
            token.rank += 1
            return [f"upgrade: {sq} becomes {RANKS[token.rank]}"]
        if kind == "downgrade":
            if token.rank == COMMON:
                raise IllegalAction(f"downgrade: {sq} is already common")
            if token.rank == LEGENDARY:
                if not self._take(token.owner, HEROIC):
                    raise IllegalAction(
                        f"downgrade: {self.enc.players[token.owner]} has no token to turn heroic"
                    )
                self.legends[token.owner] += 1
            token.rank -= 1
            return [f"downgrade: {sq} becomes {RANKS[token.rank]}"]
        if kind == "destroy":
            return [self._destroy(row, col)]
        # convert
        if not self._take(self.current, token.rank):
            raise IllegalAction(
                f"convert: {self.player} has no {_kind_name(token.rank)} token to put there"
            )
        self._return(token)
        self.put(row, col, Token(self.current, token.rank))
        return [f"convert: {sq} becomes {self.player}'s {RANKS[token.rank]}"]

    # -- discard and draw -------------------------------------------------------------------------
    def discardable(self) -> tuple[int, ...]:
        """The decks whose cards discard and draw may discard: creature cards, and legendary
        ones unless the encounter says `discard_legendary = false` (flare.md)."""
        return (0, 1) if self.enc.discard_legendary else (0,)

    def discard(self, card_id: str, returned: list[str]) -> list[str]:
        self._check_open()
        self._owner_acts("discard and draw")
        if self.discarded:
            raise IllegalAction(f"{self.player} has discarded and drawn once this turn")
        card = self._in_hand(card_id, self.discardable())
        back = []
        for other in returned:
            back.append(self._in_hand(other, (0, 1, 2)))
        ids = [card.id] + [c.id for c in back]
        hand_list = self.hands[self.current].all()
        for named in set(ids):
            if ids.count(named) > hand_list.count(named):
                raise IllegalAction(f"{self.player} holds only {hand_list.count(named)} {named!r}")
        self._spend_action()
        self.discarded = True
        self._take_from_hand(card)
        self.discards[self._deck_of(card)].append(card.id)
        for c in back:
            self._take_from_hand(c)
            self.piles[self._deck_of(c)].insert(0, c.id)
        drawn = [self.draw(self.current, self._deck_of(c)) for c in [card] + back]
        got = ", ".join(d for d in drawn if d) or "nothing"
        lines = [f"{self.player} discards {card.id}"]
        if back:
            lines.append(f"{self.player} returns {', '.join(ids[1:])} to the bottom")
        lines.append(f"{self.player} draws {got}")
        return lines

    # -- Flares ----------------------------------------------------------------------------------
    def flare_met(self, card: Flare, opp: int) -> tuple[bool, bool]:
        """(top met, bottom met) against opponent `opp`: their upgraded tokens over the
        caller's by the top amount, and their tokens over the caller's by the bottom
        amount."""
        mine_up, mine = self.counts(self.current)
        theirs_up, theirs = self.counts(opp)
        top = card.top is not None and theirs_up - mine_up >= card.top
        bottom = card.bottom is not None and theirs - mine >= card.bottom
        return top, bottom

    def flare_refusal(self) -> str | None:
        if self.flare_called:
            return f"{self.player} has called a Flare this turn"
        if self.enc.flare_timing == "before_each_action":
            if self.actions_left <= 0:
                return f"a Flare is called before an action, and {self.player} has none left"
        elif self.acted:
            return "a Flare is called before any action of the turn"
        return None

    def flare_against(self, card: Flare, vs: str | None) -> int:
        """The opponent a Flare compares against: `vs` (Battle), else the first in turn order
        against whom a half is met, else the next player."""
        if vs is not None:
            opp = self.player_named(vs)
            if opp == self.current:
                raise IllegalAction(f"{self.player} compares against an opponent, not themself")
            if not self.enemy(opp):
                raise IllegalAction(f"{self.enc.players[opp]} is {self.player}'s teammate")
            return opp
        met = [o for o in self.opponents() if any(self.flare_met(card, o))]
        return met[0] if met else self.opponents()[0]

    def flare(
        self, card_id: str | None, top: list[str], bottom: list[str], vs: str | None = None
    ) -> list[str]:
        self._check_open()
        self._owner_acts("call a Flare")
        why = self.flare_refusal()
        if why:
            raise IllegalAction(why)
        held = self.hands[self.current].flares
        if card_id is None:
            if not held:
                raise IllegalAction(f"{self.player} holds no Flare")
            card_id = held[0]
        card = self._in_hand(card_id, (2,))
        assert isinstance(card, Flare)
        opp = self.flare_against(card, vs)
        top_met, bottom_met = self.flare_met(card, opp)
        if not (top_met or bottom_met):
            mine_up, mine = self.counts(self.current)
            theirs_up, theirs = self.counts(opp)
            raise IllegalAction(
                f"{card.id}'s criteria are not met: upgraded {theirs_up} to {mine_up} (top"
                f" needs {_need(card.top)}), tokens {theirs} to {mine} (bottom needs"
                f" {_need(card.bottom)})"
            )
        if not top_met and top:
            raise IllegalAction(f"{card.id}'s top criterion is not met: top= has no use")
        if not bottom_met and bottom:
            raise IllegalAction(f"{card.id}'s bottom criterion is not met: bottom= has no use")
        if top_met:
            self._check_targets(card.top_effects, top, f"{card.id}'s top")
        if bottom_met:
            self._check_targets(card.bottom_effects, bottom, f"{card.id}'s bottom")
        self.flare_called = True
        self.stats[self.current].flares += 1
        halves = "top and bottom" if top_met and bottom_met else "top" if top_met else "bottom"
        lines = [f"{self.player} calls the Flare {card.name} ({halves})"]
        if self.duel:
            self.scores[opp] += 1
            self.stats[opp].points_flares += 1
            lines[0] += f"; {self.enc.players[opp]} scores 1"
        else:
            lines[0] += f" against {self.enc.players[opp]}"
        if top_met:
            lines += self._resolve(card.top_effects, top)
        if bottom_met:
            lines += self._resolve(card.bottom_effects, bottom)
        self._take_from_hand(card)
        self.discards[2].append(card.id)
        return lines

    # -- tasks (the advanced game) ---------------------------------------------------------
    def task_done(self, task_id: str) -> bool:
        """Whether the current player has completed the task now."""
        task = self.enc.deck.task(task_id)
        assert task is not None
        me = self.current
        mine = [t for t in self.grid if t is not None and t.owner == me]
        have = {
            "upgraded": sum(1 for t in mine if t.rank > COMMON),
            "tokens": len(mine),
            "legendary": sum(1 for t in mine if t.rank == LEGENDARY),
            "destroyed": len(self.beside),
            "line": self._longest_line(me),
        }[task.need]
        return have >= task.amount

    def _longest_line(self, p: int) -> int:
        best = 0
        for dr, dc in ((0, 1), (1, 0)):
            for r in range(self.enc.rows):
                for c in range(self.enc.columns):
                    run = 0
                    while self.on_grid(r + run * dr, c + run * dc):
                        t = self.at(r + run * dr, c + run * dc)
                        if t is None or t.owner != p:
                            break
                        run += 1
                    best = max(best, run)
        return best

    def completed_tasks(self) -> list[str]:
        return [t for t in self.tasks_shown if self.task_done(t)]

    def _claim(self, claim: str | None) -> list[str]:
        """Claim exactly one completed task (the one named, else the first completed in the
        row) and turn up the next in its place."""
        if not self.enc.advanced:
            if claim is not None:
                raise IllegalAction("tasks are claimed in the advanced game (advanced = true)")
            return []
        done = self.completed_tasks()
        if claim is not None:
            if claim not in self.tasks_shown:
                shown = ", ".join(self.tasks_shown) or "none"
                raise IllegalAction(f"no task {claim!r} is face up (face up: {shown})")
            if claim not in done:
                raise IllegalAction(f"{self.player} has not completed the task {claim!r}")
        elif not done:
            return []
        chosen = claim or done[0]
        task = self.enc.deck.task(chosen)
        assert task is not None
        at = self.tasks_shown.index(chosen)
        if self.task_pile:
            self.tasks_shown[at] = self.task_pile.pop()
        else:
            del self.tasks_shown[at]
        self.scores[self.current] += task.points
        self.stats[self.current].tasks += 1
        self.stats[self.current].points_tasks += task.points
        return [f"{self.player} claims the task {task.name} and scores {task.points}"]

    # -- team play --------------------------------------------------------------------------
    def pass_control(self, given: list[str]) -> list[str]:
        """Hand legendary cards to the teammate, who takes control: they place commons with
        the actions left; scoring and drawing stay the turn's owner's."""
        self._check_open()
        mate = self.teammate()
        if mate is None:
            raise IllegalAction("control passes to a teammate: only in team play")
        if self.controller != self.current:
            raise IllegalAction(f"{self.enc.players[self.controller]} holds control already")
        if self.actions_left <= 0:
            raise IllegalAction(f"{self.player} has no actions left to hand over")
        if not given:
            raise IllegalAction("control passes by handing over legendary cards: name one or more")
        cards = [self._in_hand(c, (1,)) for c in given]
        held = self.hands[self.current].legendaries
        for c in set(given):
            if given.count(c) > held.count(c):
                raise IllegalAction(f"{self.player} holds only {held.count(c)} {c!r}")
        for card in cards:
            self._take_from_hand(card)
            self.hands[mate].legendaries.append(card.id)
        self.controller = mate
        self.acted = True
        mate_name = self.enc.players[mate]
        return [
            f"{self.player} hands {', '.join(given)} to {mate_name}",
            f"{mate_name} takes control: {self.actions_left} action(s) left, commons only",
        ]

    # -- the end of a turn ----------------------------------------------------------------------
    def stuck(self) -> bool:
        """No action is possible: no common to place, no summon, no discard (flare.md: only
        then may a turn end with actions left)."""
        me = self.controller
        if any(t is None for t in self.grid) and (
            self.supply[me] > 0
            or any(t is not None and t.owner == me and t.rank != LEGENDARY for t in self.grid)
        ):
            return False
        if self.controller != self.current:
            return True  # the teammate only places commons
        hand = self.hands[self.current]
        if not self.discarded and any(
            (hand.creatures, hand.legendaries)[k] for k in self.discardable()
        ):
            return False
        return not self.any_summon()

    def any_summon(self) -> bool:
        hand = self.hands[self.current]
        for card_id in set(hand.creatures + hand.legendaries):
            card = self.card(card_id)
            assert isinstance(card, Creature)
            for r in range(self.enc.rows):
                for c in range(self.enc.columns):
                    if self.summon_refusal(card, r, c) is None:
                        return True
        return False

    def end(self, claim: str | None = None) -> list[str]:
        self._check_open()
        if self.actions_left > 0 and not self.stuck():
            raise IllegalAction(
                f"{self.player} has {plural(self.actions_left, 'action')} left: every action"
                " must be used before the turn ends (`place`, `summon`, `flare` or `discard`)"
            )
        p = self.current
        lines = [f"{self.player} ends the turn"]
        if self.controller != p:
            lines.append(f"control comes back to {self.player} for scoring and drawing")
        if self.actions_left > 0:
            lines.append(f"{self.player} can do nothing more: {self.actions_left} action(s) lapse")
        legendary = self.beside.count(LEGENDARY)
        heroic = self.beside.count(HEROIC)
        commons = self.beside.count(COMMON) + self.odd_common[p]
        points = 2 * legendary + heroic + commons // 2
        self.odd_common[p] = commons % 2
        if self.beside:
            self.scores[p] += points
            self.stats[p].points_destroyed += points
            for owner, rank in zip(self.beside_owners, self.beside, strict=True):
                self._return(Token(owner, rank))
            lines.append(
                f"{self.player} scores {points} for the destroyed"
                f" ({legendary} legendary, {heroic} heroic, {commons} common"
                f"{', one waiting for its pair' if commons % 2 else ''})"
            )
        lines += self._claim(claim)
        drawn = self.draw_up(p, self.extra_draws)
        lines.append(f"{self.player} draws {drawn} card(s)")
        self.turns += 1
        self.timeline.append(self._point())
        self.beside = []
        self.beside_owners = []
        self.extra_draws = 0
        self.acted = self.discarded = self.flare_called = False
        self.current = self.controller = (p + 1) % len(self.enc.players)
        if self.current == 0:
            self.round += 1
        self._decide()
        if self.winner is not None:
            lines.append(f"{self.winner} wins" if self.winner != "nobody" else "a draw")
        else:
            self.actions_left = self.actions_max = self.enc.actions
            lines.append(f"{self.player}'s turn: {self.actions_left} actions")
        return lines

    def team_scores(self) -> list[int]:
        """Each side's points: a player's own, or a team's players' added up."""
        totals = [0] * len(self.enc.teams)
        for p, score in enumerate(self.scores):
            totals[self.enc.team_of[p]] += score
        return totals

    def _decide(self) -> None:
        totals = self.team_scores()
        best = max(totals)
        leaders = [i for i, s in enumerate(totals) if s == best]
        if best >= self.enc.target and len(leaders) == 1:
            self.winner = self.enc.teams[leaders[0]]
        elif self.round > self.enc.rounds:
            self.winner = self.enc.teams[leaders[0]] if len(leaders) == 1 else "nobody"
        if self.winner is not None:
            self.actions_left = 0

    def _point(self) -> dict:
        return {
            "turn": self.turns,
            "score": dict(zip(self.enc.players, self.scores, strict=True)),
            "tokens": {n: self.counts(i)[1] for i, n in enumerate(self.enc.players)},
        }


def _kind(rank: int) -> int:
    """The physical token: legendary tokens, or the two-sided common/heroic ones."""
    return 1 if rank == LEGENDARY else 0


def _kind_name(rank: int) -> str:
    return "legendary" if rank == LEGENDARY else "common/heroic"


def _need(amount: int | None) -> str:
    return "nothing: it has no such half" if amount is None else f"{amount} more"
