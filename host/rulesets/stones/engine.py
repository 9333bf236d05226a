"""The stones game: turns alternating between teams, Speaking Stone cards drawn and paid,
character activations (Fuse, Move, Standard Attack or Ability), keywords resolved in the
order written with a new d100 for each chance, statuses, incapacitation and the end.

A game is a pure function of its encounter, its seed and its actions with their records
(the d100s each used): the deck is shuffled from the seed, and every d100 comes in the
kit's order (host/core/kit.py): from the record when replaying, else, while the session
takes the dice from the board or the table, from the roll given to the waiting action,
else from the engine's generator seeded by the game's seed and the action's number.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

from host.core import kit
from host.core.commandline import Command
from host.core.interface import IllegalAction, Supplied, WantedRoll, game_log
from host.core.names import plain
from host.core.plurals import plural
from host.core.timeline import Timeline
from host.rulesets.stones import comings
from host.rulesets.stones.encounter_schema import (
    INFINITE,
    Ability,
    Character,
    Encounter,
    Status,
    card_element,
    card_stars,
)
from shared import dice
from shared.host_only import d100_value
from shared.limits import NO_SLOT
from shared.state import GameState

# 2: a player whose last character leaves (`remove`) in its own turn passes the turn at once
RULES_VERSION = 2
ACTIONS = ("fuse", "move", "act")  # an activation's three actions, each at most once
STAT_KEYS = ("damage_dealt", "damage_taken", "attacks", "crits", "abilities", "kos")


@dataclass
class Fused:
    ability: Ability
    cards: list[str]

    @property
    def name(self) -> str:
        return self.ability.name


@dataclass
class Game(kit.Dice):
    """A game, and the dice of its actions (kit.Dice: their order; its record is [tens,
    units, source] a d100)."""

    enc: Encounter
    seed: int
    state: GameState
    hp: list[int]
    statuses: list[dict[str, int]]  # per character: status name -> its owner's turn ends left
    fused: list[list[Fused]]
    hands: list[list[str]]
    deck: list[str]
    discard: list[str] = field(default_factory=list)
    player: int = 0  # whose turn
    round: int = 1
    played: list[int] = field(default_factory=list)  # players who had their turn this round
    activated: list[int] = field(default_factory=list)  # characters, in order, this turn
    active: int | None = None  # the character being activated
    done: list[str] = field(default_factory=list)  # its actions taken
    moved: int = 0
    act_kind: str = ""  # "a Standard Attack" or the ability's name
    end_step: bool = False  # break or discard has begun the turn's end
    actions: int = 0
    turns: int = 0
    reshuffles: int = 0
    winner: int | None = None  # the winning team
    supplied: list[Supplied] | None = None
    supplied_at: int = 0
    used: list[list] = field(default_factory=list)  # this action's d100s: [tens, units, source]
    replayed: list[list] | None = None
    roll_lines: list[str] = field(default_factory=list)
    log: deque[str] = field(default_factory=game_log)
    timeline: Timeline = field(default_factory=Timeline)
    stats: list[dict[str, int]] = field(default_factory=list)
    # Characters who joined under way ((table, fields) each: host/core/newcomers.py) and
    # those who left, by name, with why.
    joined: list[tuple[str, dict]] = field(default_factory=list)
    gone: dict[str, str] = field(default_factory=dict)

    @property
    def teams(self) -> tuple[str, ...]:  # (interface.Game)
        return self.enc.teams

    def read_record(self, entry: list) -> kit.Rolled:
        tens, units, source = entry
        return kit.Rolled((tens, units), source)

    # -- who is who ---------------------------------------------------------------------
    def ch(self, i: int) -> Character:
        return self.enc.characters[i]

    def standing(self, i: int) -> bool:
        return self.hp[i] > 0 and self.enc.characters[i].name not in self.gone

    def player_standing(self, p: int) -> bool:
        return any(self.standing(i) for i, c in enumerate(self.enc.characters) if c.player == p)

    def chars_of(self, p: int) -> list[int]:
        return [i for i, c in enumerate(self.enc.characters) if c.player == p]

    @property
    def player_name(self) -> str:
        return self.enc.players[self.player].name

    # -- hands --------------------------------------------------------------------------
    def draw_size(self, p: int) -> int:
        """1 card for the player and 2 per character, counting the incapacitated ones."""
        return self.enc.hand_base + self.enc.hand_per_character * len(self.chars_of(p))

    def hand_size(self, p: int) -> int:
        """The most cards the player may hold (fused ones counted): the draw, plus what
        fused [Hand +N] abilities add."""
        return self.draw_size(p) + sum(self.passive(i, "hand") for i in self.chars_of(p))

    def held(self, p: int) -> int:
        return len(self.hands[p]) + sum(
            len(f.cards) for i in self.chars_of(p) for f in self.fused[i]
        )

    def passive(self, i: int, kind: str) -> int:
        """What character i's fused abilities add to `kind` (armor, spirit_armor, hand)."""
        total = 0
        for f in self.fused[i]:
            total += sum(s.amount for s in f.ability.steps if s.kind == kind)
        return total

    def armor(self, i: int, damage_type: str) -> int:
        c = self.ch(i)
        extra = self.passive(i, "armor" if damage_type == "physical" else "spirit_armor")
        return c.armor_against(damage_type) + extra

    def ability_of(self, i: int, name: str) -> Ability:
        for a in self.ch(i).abilities:
            if _norm(a.name) == _norm(name):
                return a
        known = ", ".join(a.name for a in self.ch(i).abilities) or "none"
        raise IllegalAction(f"{self.ch(i).name} has no ability {name!r} (known: {known})")

    def char(self, word: str) -> int:
        for i, c in enumerate(self.enc.characters):
            if _norm(word) in (_norm(c.name), _norm(c.label)):
                return i
        known = ", ".join(c.name for c in self.enc.characters)
        raise IllegalAction(f"unknown character {word!r} (known: {known})")


def _norm(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def new_game(enc: Encounter, seed: int, state: GameState) -> Game:
    n = len(enc.characters)
    deck = list(enc.deck)
    random.Random(seed * 7_919 + 1).shuffle(deck)
    game = Game(
        enc,
        seed,
        state,
        [c.hp for c in enc.characters],
        [{} for _ in range(n)],
        [[] for _ in range(n)],
        [[] for _ in enc.players],
        deck,
        stats=[dict.fromkeys(STAT_KEYS, 0) for _ in range(n)],
    )
    game.log += _start_turn(game)
    return game


# -- one action --------------------------------------------------------------------------


def act(game: Game, cmd: Command, replayed: list[list] | None) -> list[str]:
    if game.winner is not None:
        raise IllegalAction(f"the game is over: {game.enc.teams[game.winner]} won")
    game.used = []
    game.new_action()
    game.roll_lines = []
    game.replayed = None if replayed is None else [list(r) for r in replayed]
    handler = VERBS[cmd.verb]
    lines = handler(game, cmd)
    if game.winner is not None and cmd.verb != "end":
        game.timeline.append(point(game))  # the last point: the blow that won
    game.actions += 1
    game.log += lines
    return lines


def _own_standing(game: Game, i: int) -> Character:
    """Character i, if it is the turn's player's and standing; else IllegalAction."""
    c = game.ch(i)
    if c.player != game.player:
        owner = game.enc.players[c.player].name
        raise IllegalAction(f"{c.name} is {owner}'s, and it is {game.player_name}'s turn")
    if not game.standing(i):
        raise IllegalAction(f"{c.name} is incapacitated (HP 0)")
    return c


def _may(game: Game, i: int, action: str) -> None:
    """Raise IllegalAction unless character i may take `action` (fuse, move, act) now: it
    must be the player's, standing, not stunned, and not done with that action; another
    character than the one being activated must not have been activated this turn."""
    c = _own_standing(game, i)
    if game.end_step:
        raise IllegalAction(
            f"{game.player_name} has begun ending the turn (break, discard):"
            " only break, discard and end are left"
        )
    stun = next((s for s in game.statuses[i] if _status(game, s).stun), None)
    if stun is not None:
        raise IllegalAction(f"{c.name} is stunned ({stun}) and cannot be activated")
    if game.active != i:
        if i in game.activated:
            raise IllegalAction(
                f"{c.name}'s activation is over this turn: each character is activated once"
            )
        return
    if action in game.done:
        if action == "move":
            raise IllegalAction(
                f"{c.name}'s move has ended ({game.moved} of {c.move} spaces): a move cannot"
                " be taken up again"
            )
        if action == "act":
            raise IllegalAction(
                f"{c.name} has made {game.act_kind} this activation: one Standard Attack or"
                " one Ability, not both"
            )
        raise IllegalAction(f"{c.name} has fused an ability this activation (one Fuse each)")


def _begin(game: Game, i: int, action: str) -> list[str]:
    """Character i takes `action` in its activation (checked by _may); naming another
    character than the one being activated ends that activation for good."""
    _may(game, i, action)
    lines = []
    if game.active != i:
        if game.active is not None:
            lines.append(f"{game.ch(game.active).name}'s activation ends")
        game.active = i
        game.activated.append(i)
        game.done = []
        game.moved = 0
        game.act_kind = ""
        lines.append(f"{game.ch(i).name} is activated")
    return lines


def to_act(game: Game) -> list[int]:
    """The turn's player's characters still to act: standing, not stunned, and either not
    yet activated this turn or being activated with an action left; none once break or
    discard has begun the turn's end."""
    if game.end_step or game.winner is not None:
        return []
    return [
        i
        for i in game.chars_of(game.player)
        if game.standing(i)
        and not any(_status(game, s).stun for s in game.statuses[i])
        and (i not in game.activated or (i == game.active and len(game.done) < len(ACTIONS)))
    ]


def _status(game: Game, name: str) -> Status:
    status = game.enc.status(name)
    assert status is not None
    return status


def _payment(game: Game, ability: Ability, cmd: Command) -> tuple[list[str], str]:
    """The cards that pay for `ability` (pay=CARD,CARD or the cheapest that covers it),
    and a note of the stars lost. Refused unless they are in the hand, of the ability's
    element, and cover its cost (an infinite card covers any)."""
    hand = game.hands[game.player]
    who = game.player_name
    if "pay" in cmd.opts:
        cards = cmd.list_opt("pay")
        if not cards:
            raise IllegalAction("pay= names the cards: pay=fire3,fire1")
        cards = _from_hand(hand, cards, who, "pay=")
        wrong = [c for c in cards if card_element(c) != ability.element]
        if wrong:
            raise IllegalAction(
                f"{ability.name} takes {ability.element} stones, not {', '.join(wrong)}"
            )
    else:
        found = _cheapest(hand, ability.element, ability.cost)
        if found is None:
            own = [c for c in hand if card_element(c) == ability.element]
            raise IllegalAction(
                f"{who} cannot pay {ability.name}: it costs {ability.cost} {ability.element},"
                f" the hand holds {_cards(own) or 'none'}"
            )
        cards = found
    infinite = any(card_stars(c) is None for c in cards)
    stars = sum(card_stars(c) or 0 for c in cards)
    if not infinite and stars < ability.cost:
        raise IllegalAction(
            f"{_cards(cards)} is {plural(stars, 'star')}; {ability.name} costs {ability.cost}"
        )
    if infinite:
        note = f"paid with {_cards(cards)} (an infinite card pays this one ability)"
    elif stars > ability.cost:
        note = f"paid with {_cards(cards)}, {plural(stars - ability.cost, 'star')} lost"
    else:
        note = f"paid with {_cards(cards)}"
    return cards, note


def _from_hand(hand: list[str], typed: list[str], who: str, named_by: str) -> list[str]:
    """The cards of `hand` that `typed` names, one card each, matched as names are
    (host/core/names.py: `FIRE3` is fire3). Refused where a card is not held, or is named
    more often than it is held."""
    left = list(hand)
    out = []
    for word in typed:
        card = next((c for c in left if plain(c) == plain(word)), None)
        if card is None:
            held = [c for c in hand if plain(c) == plain(word)]
            if not held:
                raise IllegalAction(f"{who} holds no {word} (hand: {_cards(hand)})")
            times = sum(1 for w in typed if plain(w) == plain(word))
            raise IllegalAction(
                f"{named_by} names {held[0]} {plural(times, 'time')}, and {who} holds"
                f" {len(held)} (hand: {_cards(hand)})"
            )
        left.remove(card)
        out.append(card)
    return out


def _take(game: Game, cards: list[str]) -> None:
    for card in cards:
        game.hands[game.player].remove(card)


def _cheapest(hand: list[str], element: str, cost: int) -> list[str] | None:
    """The cards of `element` that cover `cost` with the fewest stars (then fewest cards),
    an infinite card only when no set of starred cards covers it."""
    starred = sorted((c for c in hand if card_element(c) == element and card_stars(c)), key=_key)
    best: tuple[int, int, list[str]] | None = None
    for mask in range(1, 1 << min(len(starred), 12)):
        chosen = [starred[k] for k in range(len(starred)) if mask >> k & 1]
        stars = sum(card_stars(c) or 0 for c in chosen)
        if stars >= cost and (best is None or (stars, len(chosen)) < best[:2]):
            best = (stars, len(chosen), chosen)
    if best is not None:
        return best[2]
    infinite = f"{element}{INFINITE}"
    return [infinite] if infinite in hand else None


def _key(card: str) -> tuple[str, int]:
    stars = card_stars(card)
    return card_element(card), 99 if stars is None else stars


def _cards(cards: list[str]) -> str:
    return " ".join(sorted(cards, key=_key))


# What each d100 is for: the wanted roll's purpose and its number on the board (0..15).
PURPOSES = {"crit": 1, "chance": 2}


def _d100(game: Game, who: int, label: str, purpose: str = "crit") -> int:
    """One d100 (two D10: tens, units; 0 and 0 read 100), in the kit's order."""

    def own() -> kit.Rolled:
        rng = random.Random((game.seed * 1_000_003 + game.actions) * 131 + len(game.used))
        return kit.Rolled((rng.randrange(10), rng.randrange(10)), "engine")

    wanted = WantedRoll(purpose, 2, dice.KIND_D100, who, code=PURPOSES[purpose])
    rolled = game.take_roll(wanted, game.replayed, own)
    (tens, units), source = rolled.faces, rolled.source
    game.used.append([tens, units, source])
    # (a character who joined past the board's slots rolls with no slot of its own)
    on_board = who if who < game.state.count else NO_SLOT
    dice.enter(game.state, dice.KIND_D100, (tens, units), on_board, mask=0)
    value = d100_value(tens, units)
    game.roll_lines.append(f"{label}: d100 {tens} {units} -> {value}{kit.from_where(source)}")
    return value


def _target(game: Game, i: int, word: str, hostile: bool) -> int:
    t = game.char(word)
    c, tc = game.ch(i), game.ch(t)
    if hostile and tc.team == c.team:
        raise IllegalAction(f"{tc.name} is on {game.enc.teams[c.team]}, {c.name}'s own team")
    if not hostile and tc.team != c.team:
        raise IllegalAction(f"{tc.name} is an opponent: this ability is for {c.name}'s side")
    if not game.standing(t):
        raise IllegalAction(f"{tc.name} is incapacitated (HP 0)")
    return t


def _in_range(game: Game, i: int, cmd: Command, reach: int | None) -> None:
    """The players count the spaces (orthogonally) and report them with range=N."""
    if "range" not in cmd.opts or reach == -1:
        return
    spaces = cmd.int_opt("range", 1, 999)
    limit = game.ch(i).rng if reach is None else reach
    if spaces > limit:
        raise IllegalAction(
            f"{game.ch(i).name} reaches {plural(limit, 'space')}, the target is {spaces} away"
        )


# -- the verbs -----------------------------------------------------------------------------


def _fuse(game: Game, cmd: Command) -> list[str]:
    i = game.char(cmd.arg(0, "a character"))
    ability = game.ability_of(i, cmd.arg(1, "an ability"))
    c = game.ch(i)
    if not ability.fuse:
        raise IllegalAction(f"{ability.name} is not a [Fuse] ability: use it with `ability`")
    if any(f.ability == ability for f in game.fused[i]):
        raise IllegalAction(f"{ability.name} is already fused to {c.name}")
    _may(game, i, "fuse")
    cards, note = _payment(game, ability, cmd)
    lines = _begin(game, i, "fuse")
    _take(game, cards)
    game.fused[i].append(Fused(ability, cards))
    game.done.append("fuse")
    return lines + [f"{c.name} fuses {ability.name}: {note}; passive while fused"]


def _move(game: Game, cmd: Command) -> list[str]:
    i = game.char(cmd.arg(0, "a character"))
    c = game.ch(i)
    spaces = cmd.int_arg(1, 1, 0, 999, "spaces")
    if spaces > c.move:
        raise IllegalAction(f"{c.name} moves at most {plural(c.move, 'space')}, not {spaces}")
    lines = _begin(game, i, "move")
    game.done.append("move")
    game.moved = spaces
    return lines + [f"{c.name} moves {plural(spaces, 'space')} (of {c.move}); its move is over"]


def _attack(game: Game, cmd: Command) -> list[str]:
    i = game.char(cmd.arg(0, "a character"))
    t = _target(game, i, cmd.arg(1, "a target"), True)
    _in_range(game, i, cmd, None)
    lines = _begin(game, i, "act")
    game.done.append("act")
    game.act_kind = "a Standard Attack"
    game.stats[i]["attacks"] += 1
    return lines + _strike(game, i, t)


def _ability(game: Game, cmd: Command) -> list[str]:
    i = game.char(cmd.arg(0, "a character"))
    ability = game.ability_of(i, cmd.arg(1, "an ability"))
    c = game.ch(i)
    if ability.fuse:
        raise IllegalAction(f"{ability.name} is a [Fuse] ability: `fuse` it to make it passive")
    if ability.hostile:
        t = _target(game, i, cmd.arg(2, "a target"), True)
    else:
        t = _target(game, i, cmd.args[2], False) if len(cmd.args) > 2 else i
    _in_range(game, i, cmd, ability.reach)
    _may(game, i, "act")
    cards, note = _payment(game, ability, cmd)
    lines = _begin(game, i, "act")
    _take(game, cards)
    game.discard.extend(cards)
    game.done.append("act")
    game.act_kind = ability.name
    game.stats[i]["abilities"] += 1
    on = f" on {game.ch(t).name}" if t != i else ""
    lines.append(f"{c.name} uses {ability.name}{on}: {note}, to the discard pile")
    for step in ability.steps:
        if game.winner is not None:
            break
        aimed = i if step.kind == "heal" and ability.hostile else t
        if not game.standing(aimed):
            lines.append(f"  {step.kind} skipped: {game.ch(aimed).name} is incapacitated")
            continue
        if step.chance:
            value = _d100(game, i, f"{ability.name} [On {step.lo}-{step.hi}]", "chance")
            hit = step.lo <= value <= step.hi
            lines.append(f"  [On {step.lo}-{step.hi}]: d100 {value}, {'yes' if hit else 'no'}")
            if not hit:
                continue
        if step.kind == "attack":
            game.stats[i]["attacks"] += 1
            lines += ["  " + line for line in _strike(game, i, aimed)]
        elif step.kind == "damage":
            armor = game.armor(aimed, c.damage_type)
            dealt = max(0, step.amount - armor)
            lines.append(
                f"  {step.amount} {c.damage_type} - {armor} armor = {dealt} damage to"
                f" {game.ch(aimed).name}"
            )
            lines += ["  " + line for line in _hurt(game, i, aimed, dealt)]
        elif step.kind == "heal":
            before = game.hp[aimed]
            game.hp[aimed] = min(game.ch(aimed).hp, before + step.amount)
            lines.append(
                f"  {game.ch(aimed).name} heals {game.hp[aimed] - before}"
                f" ({game.hp[aimed]}/{game.ch(aimed).hp} HP)"
            )
        elif step.kind == "status":
            status = _status(game, step.status)
            game.statuses[aimed][status.name] = status.turns
            lines.append(f"  {game.ch(aimed).name} gets [{status.name}]")
    return lines


def _strike(game: Game, i: int, t: int) -> list[str]:
    """A Standard Attack: the crit d100 (at or under CRT doubles ATK), then ATK of the
    class's damage type against the defender's armor of that type."""
    c, tc = game.ch(i), game.ch(t)
    value = _d100(game, i, f"{c.name}'s crit")
    crit = value <= c.crt
    atk = c.atk * 2 if crit else c.atk
    armor = game.armor(t, c.damage_type)
    dealt = max(0, atk - armor)
    if crit:
        game.stats[i]["crits"] += 1
    how = f"critical (d100 {value} <= CRT {c.crt}), ATK {atk}" if crit else f"d100 {value}"
    line = (
        f"{c.name} strikes {tc.name}: {how}; {atk} {c.damage_type} - {armor} armor = {dealt} damage"
    )
    return [line] + _hurt(game, i, t, dealt)


def _hurt(game: Game, by: int | None, t: int, amount: int) -> list[str]:
    tc = game.ch(t)
    amount = min(amount, game.hp[t])
    game.hp[t] -= amount
    game.stats[t]["damage_taken"] += amount
    if by is not None:
        game.stats[by]["damage_dealt"] += amount
    lines = [f"{tc.name}: {game.hp[t]}/{tc.hp} HP"]
    if game.hp[t] == 0 and amount > 0:
        if by is not None:
            game.stats[by]["kos"] += 1
        lines.append(f"{tc.name} is incapacitated")
        lines += out_of_the_fight(game, t)
    return lines


def out_of_the_fight(game: Game, t: int) -> list[str]:
    """Character t is out (incapacitated, or gone: `remove`): its statuses end, its fused
    abilities break, its player is eliminated with its last character, and the game ends
    with a team's last. The lines that say so."""
    tc = game.ch(t)
    lines: list[str] = []
    game.statuses[t].clear()
    for f in game.fused[t]:
        game.discard.extend(f.cards)
        lines.append(f"{tc.name}'s fused {f.name} breaks: {_cards(f.cards)} discarded")
    game.fused[t] = []
    if not game.player_standing(tc.player):
        p = game.enc.players[tc.player]
        game.discard.extend(game.hands[tc.player])
        game.hands[tc.player] = []
        lines.append(f"{p.name} is eliminated: the hand goes to the discard pile")
    for team in range(2):
        if not any(game.standing(k) for k, x in enumerate(game.enc.characters) if x.team == team):
            game.winner = 1 - team
            lines.append(
                f"every character of {game.enc.teams[team]} is incapacitated:"
                f" {game.enc.teams[1 - team]} wins"
            )
            break
    return lines


def _break(game: Game, cmd: Command) -> list[str]:
    i = game.char(cmd.arg(0, "a character"))
    c = game.ch(i)
    if c.player != game.player:
        raise IllegalAction(f"{c.name} is not {game.player_name}'s: only one's own fuses break")
    ability = game.ability_of(i, cmd.arg(1, "an ability"))
    found = next((f for f in game.fused[i] if f.ability == ability), None)
    if found is None:
        raise IllegalAction(f"{ability.name} is not fused to {c.name}")
    game.fused[i].remove(found)
    game.discard.extend(found.cards)
    lines = _end_step(game)
    return lines + [f"{c.name}'s {ability.name} is broken: {_cards(found.cards)} discarded"]


def _discard(game: Game, cmd: Command) -> list[str]:
    if not cmd.args:
        raise IllegalAction(f"discard: a card is missing (usage: {cmd.usage})")
    cards = _from_hand(game.hands[game.player], cmd.args, game.player_name, "discard")
    _take(game, cards)
    game.discard.extend(cards)
    lines = _end_step(game)
    held, size = game.held(game.player), game.hand_size(game.player)
    return lines + [
        f"{game.player_name} discards {_cards(cards)}: {held} held of a hand size of {size}"
    ]


def _done(game: Game, cmd: Command) -> list[str]:
    """The character is done for this turn: its activation ends (speaking-stones-turn-
    order.txt:21, another may be activated), or, not yet activated, it passes this turn's
    activation. Once none of the player's characters is left to act, their activations are
    over and the turn is in its end step (:57), as after break or discard."""
    i = game.char(cmd.arg(0, "a character"))
    c = _own_standing(game, i)
    if game.end_step:
        raise IllegalAction(
            f"{game.player_name} has begun ending the turn (break, discard):"
            " every activation is over"
        )
    if i in game.activated and i != game.active:
        raise IllegalAction(f"{c.name}'s activation is over this turn already")
    stun = next((s for s in game.statuses[i] if _status(game, s).stun), None)
    if stun is not None and i not in game.activated:
        raise IllegalAction(f"{c.name} is stunned ({stun}): it is not activated this turn anyway")
    if i == game.active:
        lines = [f"{c.name}'s activation ends"]
        game.active = None
    else:
        game.activated.append(i)
        lines = [f"{c.name} is done this turn without being activated"]
    if not to_act(game):
        lines += _end_step(game)
    return lines


def _end_step(game: Game) -> list[str]:
    if game.end_step:
        return []
    game.end_step = True
    lines = []
    if game.active is not None:
        lines.append(f"{game.ch(game.active).name}'s activation ends")
    game.active = None
    return lines + [f"{game.player_name}'s activations are over: the turn is ending"]


def _end(game: Game, cmd: Command) -> list[str]:
    p = game.player
    held, size = game.held(p), game.hand_size(p)
    if held > size:
        fused = held - len(game.hands[p])
        raise IllegalAction(
            f"{game.player_name} holds {held} cards ({len(game.hands[p])} in hand, {fused}"
            f" fused) over a hand size of {size}: discard {held - size} first"
        )
    lines = [f"{game.player_name} ends the turn"]
    for i in game.chars_of(p):
        for name in list(game.statuses[i]):
            status = _status(game, name)
            if status.damage and game.standing(i):
                lines.append(f"[{name}] deals {game.ch(i).name} {status.damage} damage")
                lines += _hurt(game, None, i, status.damage)
            if name in game.statuses[i]:
                game.statuses[i][name] -= 1
                if game.statuses[i][name] <= 0:
                    del game.statuses[i][name]
                    lines.append(f"{game.ch(i).name}'s [{name}] ends")
    game.turns += 1
    if game.winner is None:
        lines += _pass_turn(game)
    game.timeline.append(point(game))
    return lines


def turn_passes(game: Game) -> list[str]:
    """The turn's player has no character left in its own turn (its last one left the
    fight, `remove`): nothing is left for it to do, so the turn passes at once, as `end`
    passes it (its hand is discarded already, no status of it is left to tick)."""
    lines = [f"{game.player_name} has no character left: the turn passes"]
    game.turns += 1
    lines += _pass_turn(game)
    game.timeline.append(point(game))
    return lines


def _pass_turn(game: Game) -> list[str]:
    """The next player: a standing one of the other team who has not had this round's
    turn, else one of the same team; when none is left the round ends and the first
    player (the first standing one in the encounter's order) begins the next."""
    players = game.enc.players
    game.played.append(game.player)
    team = players[game.player].team

    def waiting_on(t: int) -> list[int]:
        return [
            p
            for p, pl in enumerate(players)
            if pl.team == t and p not in game.played and game.player_standing(p)
        ]

    lines = []
    following = waiting_on(1 - team) or waiting_on(team)
    if following:
        game.player = following[0]
    else:
        game.round += 1
        game.played = []
        game.player = next(p for p in range(len(players)) if game.player_standing(p))
        lines.append(f"round {game.round} begins")
    return lines + _start_turn(game)


def round_order(game: Game) -> list[int]:
    """The players' turns this round: those played, the current one, then the rest as the
    alternation will take them (no one else falling)."""
    players = game.enc.players
    order = [*game.played, game.player]
    team = players[game.player].team
    while True:
        left = [p for p in range(len(players)) if p not in order and game.player_standing(p)]
        following = [p for p in left if players[p].team != team] or left
        if not following:
            return order
        order.append(following[0])
        team = players[following[0]].team


def _start_turn(game: Game) -> list[str]:
    game.activated = []
    game.active = None
    game.done = []
    game.moved = 0
    game.act_kind = ""
    game.end_step = False
    p = game.player
    want = game.draw_size(p)
    got: list[str] = []
    lines = []
    while len(got) < want:
        if not game.deck:
            if game.enc.deck_out == "reshuffle" and game.discard:
                game.reshuffles += 1
                game.deck = list(game.discard)
                game.discard = []
                random.Random(game.seed * 7_919 + 1 + game.reshuffles).shuffle(game.deck)
                lines.append(
                    f"the deck is out: the discard pile ({len(game.deck)} cards) is shuffled"
                    " into a new deck"
                )
                continue
            lines.append(f"the deck is out: {game.enc.players[p].name} draws no more")
            break
        got.append(game.deck.pop(0))
    game.hands[p].extend(got)
    team = game.enc.teams[game.enc.players[p].team]
    return [
        f"{game.enc.players[p].name}'s turn ({team}): draws {len(got)},"
        f" hand {_cards(game.hands[p])}"
    ] + lines


VERBS = {
    "fuse": _fuse,
    "move": _move,
    "attack": _attack,
    "ability": _ability,
    "break": _break,
    "discard": _discard,
    "done": _done,
    "end": _end,
    "add": lambda game, cmd: comings.add(game, cmd, STAT_KEYS),
    "remove": lambda game, cmd: comings.remove(game, cmd, out_of_the_fight, turn_passes),
}


def point(game: Game) -> dict:
    teams = {t: 0 for t in game.enc.teams}
    for i, c in enumerate(game.enc.characters):
        teams[game.enc.teams[c.team]] += game.stats[i]["damage_dealt"]
    hp = {c.name: game.hp[i] for i, c in enumerate(game.enc.characters)}
    return {"turn": game.turns, "round": game.round, "hp": hp, "score": teams}
