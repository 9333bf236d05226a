"""Cards' rules (RULES.md says them in words): a running game and its actions.

Each round every fighter in the fight who is not holding its action is dealt a card from
the action deck (a group shares one); turns go from the highest card to the lowest (a
Joker above an Ace, ties by suit: spades, hearts, diamonds, clubs). Every card the rules
deal and every trait roll they make is taken through the kit's dice (`kit.Dice`): the
journal's record when replayed, the board's or the table's while the session takes the
dice from there (the action waits for it), else the engine's, from the game's seed.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from host.core import kit
from host.core.draws import JOKER, card_rank
from host.core.interface import IllegalAction, game_log
from host.core.timeline import Timeline
from shared.state import GameState
from turnlight_cards.encounter import Encounter, Spec

DECK = "action"
MOST_WOUNDS = 3  # a Wild Card with a fourth is out of the fight
JOKER_BONUS = 2  # on every trait and damage roll of a fighter dealt a Joker this round
AIM = 4  # a trait roll's target without a Parry (Spirit to recover)
RAISE = 4  # each 4 over the target is a raise
# The board's numbers of the rolls the rules want (WantedRoll.code).
DEAL, ATTACK, DAMAGE, RALLY, QUICKNESS = range(1, 6)


@dataclass
class Fighter:
    spec: Spec
    index: int  # its slot: fighters keep the order they came in
    card: str = ""  # this round's action card ("" while holding, or not yet dealt)
    holding: bool = False
    acted: bool = False  # its turn of this round is over
    attacked: bool = False
    rallied: bool = False
    shaken: bool = False
    wounds: int = 0
    out: str = ""  # why it left the fight ("" while in it)
    stats: dict[str, int] = field(
        default_factory=lambda: {"hits": 0, "wounds_dealt": 0, "shaken_dealt": 0, "outs": 0}
    )

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def in_fight(self) -> bool:
        return not self.out


class CardDice(kit.Dice):
    """The game's dice in the kit's order; `records`: the rolls of the action being applied,
    each [purpose, faces, source], its record in the journal."""

    def __init__(self) -> None:
        self.supplied = None
        self.supplied_at = 0
        self.records: list[list[Any]] = []


@dataclass
class Game:
    encounter: Encounter
    seed: int
    fighters: list[Fighter]
    deck: kit.Deck = field(default_factory=lambda: kit.Deck(DECK))
    dice: CardDice = field(default_factory=CardDice)
    round: int = 0
    order: list[int] = field(default_factory=list)  # this round's card order, by fighter
    turn: int = -1  # the fighter whose turn it is (-1: none)
    suspended: list[int] = field(default_factory=list)  # turns interrupted, latest last
    after: list[int] = field(default_factory=list)  # holders who act once this turn ends
    joker: bool = False  # a Joker was dealt this round: the deck is shuffled at its end
    # The last action's turn moments, in order (Ruleset.turn_moments: a held or interrupted
    # turn is one turn to the effects): ("start" | "end" | "suspend" | "resume" | "passed",
    # name) or ("round", n). Begun again at each action, so a replay says the same.
    moments: list[tuple[str, Any]] = field(default_factory=list)
    winner: int | None = None  # a team's index, -1 for nobody
    actions: int = 0
    joined: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    gone: dict[str, str] = field(default_factory=dict)
    log: deque[str] = field(default_factory=game_log)
    timeline: Timeline = field(default_factory=Timeline)
    state: GameState = field(default_factory=GameState)
    # While an action is applied: the record it replays, and the engine's dice (from the
    # seed and the action's number: the same every time). None between actions, so
    # checkpoints keep neither.
    replaying: list[Any] | None = None
    rng: random.Random | None = None

    @property
    def teams(self) -> tuple[str, ...]:
        return self.encounter.teams

    def fighter(self, word: str) -> Fighter:
        for f in self.fighters:
            if word.lower() in (f.name.lower(), f.spec.label.lower()):
                return f
        known = ", ".join(f.name for f in self.fighters)
        raise IllegalAction(f"no fighter {word!r} (fighters: {known})")

    def current(self) -> Fighter:
        if self.winner is not None:
            raise IllegalAction(f"the fight is over: {kit.winner_name(self.teams, self.winner)}")
        if self.turn < 0:
            raise IllegalAction("no turn runs yet: `deal` deals round 1")
        return self.fighters[self.turn]


# ------------------------------------------------------------------------------ the dice
def roll(game: Game, wanted: Any) -> kit.Rolled:
    """A roll through the kit: the record's, the one given to the waiting action, or the
    engine's (exploding dice, or a draw from the deck)."""
    rng = game.rng
    assert rng is not None, "a roll outside an action"

    def own() -> kit.Rolled:
        if wanted.deck:
            return game.deck.own(wanted.count, rng.randrange)
        return kit.exploding_own(wanted.sides, rng.randrange)

    rolled = game.dice.take_roll(wanted, game.replaying, own)
    game.dice.records.append([wanted.purpose, list(rolled.faces), rolled.source])
    return rolled


def trait(game: Game, f: Fighter, name: str, purpose: str, code: int) -> tuple[int, str]:
    """A trait roll of `f` (its Wild Die beside it for a Wild Card), its best chain with
    the Joker's bonus and its Wounds' penalty: (total, the roll in words)."""
    sides = (getattr(f.spec, name), 6) if f.spec.wild else (getattr(f.spec, name),)
    rolled = roll(game, kit.exploding(purpose, sides, f.index, code))
    best = max(kit.totals(rolled.faces, sides))
    total = best + _bonus(f) - min(f.wounds, MOST_WOUNDS)
    words = f"{name} {_chains(rolled, sides)}{kit.from_where(rolled.source)}"
    return total, words


def _bonus(f: Fighter) -> int:
    return JOKER_BONUS if f.card == JOKER else 0


def _chains(rolled: kit.Rolled, sides: tuple[int, ...]) -> str:
    from host.core.draws import chain_words

    return f"[{chain_words(rolled.faces, sides)}]"


# ------------------------------------------------------------------------------ the deal
def card_key(card: str) -> tuple[int, int]:
    """Higher first: a Joker, then by rank, then spades, hearts, diamonds, clubs."""
    rank, suit = card_rank(card)
    return (rank, 3 - suit)


def deal(game: Game) -> list[str]:
    """A new round: the deck shuffled if a Joker came up in the last, a card for every
    fighter in the fight who does not hold its action (one a group), the order by card."""
    lines = []
    if game.joker:
        game.deck.shuffle()
        lines.append("a Joker came up: the action deck is shuffled")
    game.round += 1
    game.moments.append(("round", game.round))
    game.moments += [("passed", f.name) for f in game.fighters if not f.in_fight]
    game.joker = False
    game.order = []
    game.suspended, game.after = [], []
    dealt: dict[str, str] = {}
    for f in game.fighters:
        f.acted = f.attacked = f.rallied = False
        f.card = ""
        if not f.in_fight or f.holding:
            continue
        if f.spec.group and f.spec.group in dealt:
            f.card = dealt[f.spec.group]
        else:
            if not game.deck.left:
                game.deck.shuffle()  # (every card of this round is still out)
                for other in game.fighters:
                    if other.card in game.deck.left:
                        game.deck.left.remove(other.card)
                lines.append("the action deck ran out: shuffled")
            rolled = roll(game, game.deck.wanted("deal", 1, f.index, DEAL))
            (f.card,) = game.deck.take(rolled.faces)
            if f.spec.group:
                dealt[f.spec.group] = f.card
        game.joker |= f.card == JOKER
        game.order.append(f.index)
    game.order.sort(key=lambda i: card_key(game.fighters[i].card), reverse=True)
    cards = ", ".join(f"{game.fighters[i].name} {game.fighters[i].card}" for i in game.order)
    lines.append(f"round {game.round}: {cards or 'nobody is dealt a card'}")
    holders = [f.name for f in game.fighters if f.in_fight and f.holding]
    if holders:
        lines.append(f"holding their action: {', '.join(holders)}")
    game.turn = -1
    return lines + next_turn(game)


def next_turn(game: Game) -> list[str]:
    """The turn after the one that ended: a holder that lost its interrupt, else the turn
    it interrupted, else the next card's; past the last card, a new round."""
    if game.winner is not None:
        game.turn = -1
        return []
    while game.after:
        f = game.fighters[game.after.pop(0)]
        if f.in_fight:
            held, f.holding = f.holding, False
            return _begin(game, f, "acts (it held its action)", "resume" if held else "start")
    while game.suspended:
        f = game.fighters[game.suspended.pop()]
        if f.in_fight and not f.acted:
            return _begin(game, f, "goes on with its turn", "resume")
    for i in game.order:
        f = game.fighters[i]
        if f.in_fight and not f.acted and not f.holding:
            return _begin(game, f, f"takes its turn ({f.card})")
    return deal(game)


def _begin(game: Game, f: Fighter, how: str, moment: str = "start") -> list[str]:
    """`f`'s turn: a new one ("start"), or one held or broken into going on ("resume")."""
    game.turn = f.index
    game.moments.append((moment, f.name))
    shaken = " It is Shaken: `rally` first." if f.shaken else ""
    return [f"{f.name} {how}.{shaken}"]


def end_turn(game: Game) -> list[str]:
    f = game.current()
    f.acted = True
    game.moments.append(("end", f.name))
    game.timeline.append(point(game))
    return [f"{f.name} ends its turn"] + next_turn(game)


def hold(game: Game) -> list[str]:
    f = game.current()
    if f.attacked:
        raise IllegalAction(f"{f.name} has attacked: it cannot hold now (`end`)")
    f.holding = True
    f.card = f.card if f.card == JOKER else ""
    game.moments.append(("suspend", f.name))  # its turn goes on when it acts
    return [f"{f.name} holds its action (`act {f.name}` or `interrupt {f.name}`)"] + next_turn(game)


def _may_break_in(game: Game, f: Fighter, verb: str) -> Fighter:
    now = game.current()
    if not f.in_fight:
        raise IllegalAction(f"{f.name} is out of the fight ({f.out})")
    if f is now:
        raise IllegalAction(f"it is {f.name}'s turn already")
    if f.index in game.after:
        raise IllegalAction(f"{f.name} acts when {now.name}'s turn ends: `end` to get there")
    if not f.holding and not (f.card == JOKER and not f.acted):
        raise IllegalAction(
            f"{f.name} holds no action and has no Joker: `{verb}` is for those who do"
        )
    return now


def act(game: Game, f: Fighter) -> list[str]:
    """A holder (or a Joker's fighter) takes its turn now; the turn it breaks into waits."""
    now = _may_break_in(game, f, "act")
    game.suspended.append(now.index)
    game.moments.append(("suspend", now.name))
    held, f.holding = f.holding, False
    return _begin(game, f, f"acts now, before {now.name} goes on", "resume" if held else "start")


def interrupt(game: Game, f: Fighter) -> list[str]:
    """A holder breaks into the turn running: Agility against Agility (the one breaking in
    must beat the other); if it fails it acts once that turn ends."""
    now = _may_break_in(game, f, "interrupt")
    mine, said = trait(game, f, "agility", "quickness", QUICKNESS)
    theirs, their_said = trait(game, now, "agility", "quickness", QUICKNESS)
    lines = [f"{f.name} {said} = {mine} against {now.name} {their_said} = {theirs}"]
    if mine > theirs:
        game.suspended.append(now.index)
        game.moments.append(("suspend", now.name))
        held, f.holding = f.holding, False
        return lines + _begin(game, f, f"interrupts {now.name}", "resume" if held else "start")
    game.after.append(f.index)  # (still holding until then)
    return lines + [f"{f.name} is too slow: it acts when {now.name}'s turn ends"]


# ------------------------------------------------------------------------------ a fight
def attack(game: Game, f: Fighter, target: Fighter) -> list[str]:
    now = game.current()
    if f is not now:
        raise IllegalAction(f"it is {now.name}'s turn, not {f.name}'s")
    if f.shaken:
        raise IllegalAction(f"{f.name} is Shaken: `rally {f.name}` first")
    if f.attacked:
        raise IllegalAction(f"{f.name} has attacked this turn: `end`")
    if not target.in_fight or target.spec.team == f.spec.team:
        raise IllegalAction(f"{target.name} is no foe in the fight: attack one of the other team")
    f.attacked = True
    total, said = trait(game, f, "fighting", "attack", ATTACK)
    lines = [f"{f.name} attacks {target.name}: {said} = {total} against Parry {target.spec.parry}"]
    if total < target.spec.parry:
        return lines + ["a miss"]
    f.stats["hits"] += 1
    raised = total >= target.spec.parry + RAISE
    sides = (f.spec.strength, f.spec.weapon) + ((6,) if raised else ())
    rolled = roll(game, kit.exploding("damage", sides, f.index, DAMAGE))
    damage = sum(kit.totals(rolled.faces, sides)) + _bonus(f)
    lines.append(
        f"{'a raise: ' if raised else ''}damage {_chains(rolled, sides)}"
        f"{kit.from_where(rolled.source)} = {damage} against Toughness {target.spec.toughness}"
    )
    return lines + harm(game, f, target, damage)


def harm(game: Game, by: Fighter, f: Fighter, damage: int) -> list[str]:
    """Damage against Toughness: at it Shaken (a Wound if Shaken already), each raise a
    Wound; an Extra is out with its first Wound, a Wild Card with its fourth."""
    if damage < f.spec.toughness:
        return [f"{f.name} shrugs it off"]
    wounds = (damage - f.spec.toughness) // RAISE
    if wounds == 0 and f.shaken:
        wounds = 1
    if wounds == 0:
        f.shaken = True
        by.stats["shaken_dealt"] += 1
        return [f"{f.name} is Shaken"]
    f.shaken = True
    f.wounds = min(f.wounds + wounds, MOST_WOUNDS + 1)
    by.stats["wounds_dealt"] += wounds
    said = [f"{f.name} takes {wounds} Wound{'s' if wounds > 1 else ''} ({f.wounds} in all)"]
    if not f.spec.wild or f.wounds > MOST_WOUNDS:
        by.stats["outs"] += 1
        said += leave(game, f, "out")
    return said


def rally(game: Game, f: Fighter) -> list[str]:
    now = game.current()
    if f is not now:
        raise IllegalAction(f"it is {now.name}'s turn, not {f.name}'s")
    if not f.shaken:
        raise IllegalAction(f"{f.name} is not Shaken: `attack {f.name} TARGET`, or `end`")
    if f.rallied:
        raise IllegalAction(f"{f.name} has tried to rally this turn: `end`")
    f.rallied = True
    total, said = trait(game, f, "spirit", "rally", RALLY)
    if total >= AIM:
        f.shaken = False
        return [f"{f.name} rallies: {said} = {total}; Shaken no more, it may act"]
    return [f"{f.name} stays Shaken: {said} = {total} (it needs {AIM}); `end`"]


def leave(game: Game, f: Fighter, why: str) -> list[str]:
    """`f` leaves the fight (out, or `remove`): nothing waits for it after."""
    f.out = why
    f.holding = f.shaken = False
    game.gone.setdefault(f.name, why)
    game.suspended = [i for i in game.suspended if i != f.index]
    game.after = [i for i in game.after if i != f.index]
    lines = [f"{f.name} is out of the fight ({why})"]
    standing = {g.spec.team for g in game.fighters if g.in_fight}
    if len(standing) <= 1:
        game.winner = standing.pop() if standing else -1
        game.timeline.append(point(game))
        game.turn = -1
        return lines + [f"the fight is over: {kit.winner_name(game.teams, game.winner)}"]
    if game.turn == f.index:
        f.acted = True
        game.moments.append(("end", f.name))
        lines += next_turn(game)
    return lines


def point(game: Game) -> dict:
    return {
        "turn": len(game.timeline) + 1,
        "wounds": {f.name: f.wounds for f in game.fighters},
    }
