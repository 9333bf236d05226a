"""Cards as a turnlight Ruleset (`RULESET`), written against the host's interface
(host/core/interface.py) and its kit (host/core/kit.py) alone, as any installed package's
ruleset is; docs/writing-a-ruleset.md goes through it hook by hook.

On the board it is a ruleset of its own (board id 9): a slot a fighter, the Wounds it may
still take as its health bar, its Wounds as a counter, Shaken and holding as marks; the
order is the round's cards, high to low, then those who hold or have no card, and each
slot's order value is its card (the descriptor's ORDER_CARD: the board's initiative page
shows its rank and suit, or the Joker). Its next-turn key is `end`; its
roll key draws the card a deal waits for and rolls the trait dice an action waits for.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from host.core import kit, newcomers
from host.core.commandline import Command, Language, Verb
from host.core.draws import JOKER, card_rank, order_key
from host.core.interface import (
    Applied,
    EncounterError,
    IllegalAction,
    LiveRow,
    LiveTable,
    Ruleset,
    Supplied,
    Table,
)
from shared import dice
from shared.descriptor_pack import ORDER_CARD, counter, mark, pack
from shared.initiative import R_OUT, R_SUCCESSES
from shared.limits import MAX_SLOTS
from shared.roster import add_slot
from shared.state import F_ACTED, F_ACTIVE, F_OUT, GameState, mark_bit
from turnlight_cards import encounter as schema
from turnlight_cards import game as rules
from turnlight_cards.game import Fighter, Game

if TYPE_CHECKING:
    from host.core.interface import SessionAPI

ID = schema.ID
WOUNDS = 0  # its counter
SHAKEN, HOLDING = range(2)  # its marks

VERBS = {
    "deal": Verb("", "deal the action cards of round 1 (each later round deals itself)"),
    "attack": Verb("NAME TARGET", "NAME attacks TARGET: Fighting against Parry, then damage"),
    "rally": Verb("NAME", "NAME, Shaken, tries to recover: Spirit, 4 or more"),
    "hold": Verb("", "the fighter whose turn it is holds its action for later"),
    "act": Verb("NAME", "NAME, holding (or dealt a Joker), takes its turn now"),
    "interrupt": Verb("NAME", "NAME, holding, breaks into this turn: Agility against Agility"),
    "end": Verb("", "end the turn: the next card acts"),
    "add": newcomers.add_verb(schema.ROSTER, ": it is dealt a card from the next round"),
    "remove": newcomers.REMOVE_VERB,
}


class Cards(Ruleset):
    id = ID
    description = (
        "a test plugin's game: action cards dealt each round, high to low; Jokers, holding,"
        " interrupts, exploding trait dice, Shaken and Wounds"
    )
    rules_version = 1
    board_id = None  # the registry gives it a free one (docs/writing-a-ruleset.md)
    language = Language(VERBS, wanted=True)
    start_command = "deal"
    next_turn_commands = ("end",)
    session_totals = ("hits", "wounds_dealt")
    stat_labels = {"wounds_dealt": "wounds dealt", "shaken_dealt": "shaken dealt"}
    chart_panels = (("wounds", "Wounds per fighter"),)
    grid_legend = "one row per fighter in the card order: > whose turn, card, Wounds, marks"
    state_modules = ("turnlight_cards",)  # its Game and Fighter, in the journal's checkpoints
    no_roll_waits = (
        "no action waits for a roll: the engine deals and rolls (`dice from board` or"
        " `dice from entered`, and the next card or roll waits for the board or for you)"
    )
    asks_for_rolls = True

    # -- encounters --------------------------------------------------------------------
    def example_path(self) -> Path:
        return schema.EXAMPLE

    def parse_encounter(self, text: str, filename: str) -> schema.Encounter:
        return schema.parse(text, filename)

    # -- a game ------------------------------------------------------------------------
    def new_game(self, encounter: schema.Encounter, seed: int) -> Game:
        game = Game(encounter, seed, [Fighter(s, i) for i, s in enumerate(encounter.fighters)])
        game.state = new_state(game, self.board_id)
        return game

    def apply(self, game: Game, cmd: Command) -> Applied:
        lines = self._act(game, cmd, None)
        return Applied(lines, [list(r) for r in game.dice.records])

    def replay(self, game: Game, cmd: Command, record: list[list]) -> list[str]:
        return self._act(game, cmd, [list(r) for r in record])

    def _act(self, game: Game, cmd: Command, record: list[list] | None) -> list[str]:
        game.dice.new_action()
        game.dice.records = []
        game.moments = []
        game.replaying = record
        game.rng = random.Random(game.seed * 100_003 + game.actions)
        try:
            lines = _verb(game, cmd)
        finally:
            game.replaying, game.rng = None, None
        game.actions += 1
        game.log.extend(lines)
        return lines

    def project(self, game: Game) -> None:
        project(game, game.state)

    def turn_moments(self, game: Game) -> list[tuple[str, Any]]:
        """A held turn and a turn broken into are one turn each to the effects: the rules
        say when a turn starts, stops, goes on and ends (game.moments)."""
        return list(game.moments)

    def record_from_json(self, data: Any) -> list[list]:
        return [[str(p), [int(x) for x in f], str(s)] for p, f, s in data]

    def started(self, game: Game) -> bool:
        return game.round > 0

    def winner(self, game: Game) -> str | None:
        return kit.winner_name(game.teams, game.winner)

    def fighter_names(self, game: Game) -> list[str]:
        return [f.name for f in game.fighters]  # slot i is fighter i

    def gone(self, game: Game) -> set[str]:
        return set(game.gone)

    def snapshot(self, game: Game) -> dict:
        return {
            "round": game.round,
            "turn": game.fighters[game.turn].name if game.turn >= 0 else None,
            "winner": self.winner(game),
            "deck_left": len(game.deck.left),
            "fighters": [
                {
                    "name": f.name,
                    "team": game.teams[f.spec.team],
                    "card": f.card,
                    "holding": f.holding,
                    "shaken": f.shaken,
                    "wounds": f.wounds,
                    "out": f.out,
                    "stats": dict(f.stats),
                }
                for f in _in_order(game)
            ],
        }

    # -- the rolls an action wants -------------------------------------------------------
    def supply_rolls(self, game: Game, rolls: list[Supplied] | None) -> None:
        game.dice.supply(rolls)

    def roll_lines(self, game: Game) -> list[str]:
        return [
            f"{purpose} {' '.join(map(str, faces))}{kit.from_where(source)}"
            for purpose, faces, source in game.dice.records
        ]

    # -- scores --------------------------------------------------------------------------
    def summary(self, game: Game) -> dict:
        players = [(f.name, game.teams[f.spec.team], dict(f.stats)) for f in game.fighters]
        return kit.summary(players, game.teams)

    def score_line(self, game: Game) -> str:
        return "wounds dealt: " + " · ".join(
            f"{team} {sum(f.stats['wounds_dealt'] for f in game.fighters if f.spec.team == t)}"
            for t, team in enumerate(game.teams)
        )

    # -- views ---------------------------------------------------------------------------
    def headline(self, game: Game) -> tuple[str, str]:
        title = f"{game.encounter.name}, round {game.round}"
        if game.winner is not None:
            return title, f"the fight is over: {self.winner(game)}"
        if game.turn < 0:
            return title, "`deal` deals the action cards of round 1"
        f = game.fighters[game.turn]
        return title, f"{f.name}'s turn ({f.card or 'held'}), {len(game.deck.left)} cards left"

    def roster(self, game: Game) -> Table:
        rows = [
            [f.name, game.teams[f.spec.team], f.card or "-", str(f.wounds), _marks(f) or "-"]
            for f in _in_order(game)
        ]
        return Table(["name", "team", "card", "wounds", "state"], rows)

    def live_roster(self, game: Game) -> LiveTable:
        rows = [
            LiveRow([f.spec.label, f.card or "-", str(f.wounds)], _marks(f), f.index == game.turn)
            for f in _in_order(game)
        ]
        return LiveTable(["who", "card", "wounds"], rows)

    def device_grid(self, game: Game, color: bool) -> str:
        lines = [f"round {game.round}, {len(game.deck.left)} cards left"]
        for f in _in_order(game):
            now = ">" if f.index == game.turn else " "
            lines.append(
                f"{now} {f.spec.label:<3} {game.teams[f.spec.team][:8]:<8} {f.card or '-':>5}"
                f" W{f.wounds} {_marks(f)}"
            )
        return "\n".join(lines)

    def complete(self, game: Game, words: list[str]) -> list[str]:
        present = [f.name for f in game.fighters if f.in_fight]
        joining = newcomers.complete(
            words, game.encounter.source, schema.ROSTER, present, game.teams
        )
        if joining is not None:
            return joining
        if words[0] in ("act", "interrupt") and len(words) == 2:
            return [f.name for f in game.fighters if f.in_fight and (f.holding or f.card == JOKER)]
        return present

    def help_notes(self) -> list[str]:
        return [newcomers.help_note(schema.ROSTER)]

    # -- the demo AI -----------------------------------------------------------------------
    def plan_turn(self, game: Game) -> list[str]:
        if game.winner is not None:
            return []
        if game.turn < 0:
            return ["deal"]
        f = game.fighters[game.turn]
        holders = [g for g in game.fighters if g.holding and g.index not in game.after]
        if holders and holders[0].spec.team != f.spec.team and not f.attacked:
            return [f"interrupt {holders[0].name}"]  # a foe's turn: the holder breaks in
        if f.card and card_rank(f.card)[0] <= 3 and game.round % 2 and not f.attacked:
            return ["hold"]  # a low card: wait for the other side
        if f.shaken and not f.rallied:
            return [f"rally {f.name}"]
        foes = [g for g in game.fighters if g.in_fight and g.spec.team != f.spec.team]
        if f.shaken or f.attacked or not foes:
            return ["end"]
        target = min(foes, key=lambda g: (g.spec.wild, g.spec.toughness))
        return [f"attack {f.name} {target.name}", "end"]

    # -- the board -----------------------------------------------------------------------
    def slot_done(self, session: SessionAPI, slot: int) -> list[str] | None:
        return None


def _verb(game: Game, cmd: Command) -> list[str]:
    verb = cmd.verb
    if verb == "deal":
        if game.round:
            raise IllegalAction("the cards are dealt already: each round deals itself (`end`)")
        return rules.deal(game)
    if verb == "add":
        return _add(game, cmd)
    if verb == "remove":
        name, why = newcomers.read_leaver(cmd, lambda w: game.fighter(w).name, game.gone)
        game.current()  # (refused once the fight is over)
        return rules.leave(game, game.fighter(name), why)
    if verb == "end":
        return rules.end_turn(game)
    if verb == "hold":
        return rules.hold(game)
    who = game.fighter(cmd.arg(0, "a fighter"))
    if verb == "act":
        return rules.act(game, who)
    if verb == "interrupt":
        return rules.interrupt(game, who)
    if verb == "rally":
        return rules.rally(game, who)
    return rules.attack(game, who, game.fighter(cmd.arg(1, "the target")))


def _add(game: Game, cmd: Command) -> list[str]:
    taken = [f.name for f in game.fighters] + [f.spec.label for f in game.fighters]
    try:
        newcomer = newcomers.read_newcomer(
            cmd,
            game.encounter.source,
            schema.ROSTER,
            game.teams,
            taken,
            game.joined,
            schema.parse,
            MAX_SLOTS,
        )
    except EncounterError as err:  # (read_newcomer words its own; this is a safety net)
        raise IllegalAction(f"add: {err}") from None
    spec = newcomer.pick(newcomer.encounter.fighters)
    game.fighters.append(Fighter(spec, len(game.fighters)))
    game.joined.append((newcomer.table, newcomer.fields))
    return [f"{spec.name} joins {game.teams[spec.team]}: dealt a card from the next round"]


def _in_order(game: Game) -> list[Fighter]:
    """The round's card order, then whoever holds or has no card, then those out."""
    placed = [game.fighters[i] for i in game.order]
    rest = [f for f in game.fighters if f.index not in game.order and f.in_fight]
    out = [f for f in game.fighters if f.index not in game.order and not f.in_fight]
    return placed + rest + out


def _marks(f: Fighter) -> str:
    words = [w for w, on in (("Shaken", f.shaken), ("holding", f.holding)) if on]
    return ", ".join(words + ([f.out] if f.out else []))


# ------------------------------------------------------------------------------ the board
def descriptor(board_id: int) -> bytes:
    """What the board knows of Cards: the Wounds a fighter may still take as its health
    bar, its Wounds as a counter, Shaken and holding as marks, its card as its order value,
    one phase, the host running every rule (the turn is one slot's), and a d6 on the roll
    key; `board_id` is the one the registry gave it."""
    return pack(
        ID,
        board_id,
        Cards.rules_version,
        health="life",
        allowance="action",
        counters=(counter("wounds", rules.MOST_WOUNDS + 1, 1),),
        marks=(mark("shaken", 2), mark("holding", 6)),
        phases=("turn",),
        flags=0,
        dice_kind=dice.KIND_DN,
        sides=6,
        success_mask=0,
        dice_count=1,
        order=ORDER_CARD,
    )


def _health_max(f: Fighter) -> int:
    return rules.MOST_WOUNDS + 1 if f.spec.wild else 1


def new_state(game: Game, board_id: int) -> GameState:
    st = GameState()
    data = descriptor(board_id)
    st.rules.load(data, 0, len(data))
    st.ruleset = board_id
    for f in game.fighters:
        add_slot(st, f.spec.label, f.spec.team, 0, 1, _health_max(f))
    return st


def project(game: Game, st: GameState) -> None:
    """The game on the board's state after every change (the session calls it)."""
    for f in game.fighters[st.count :]:  # a fighter who joined
        add_slot(st, f.spec.label, f.spec.team, 0, 1, _health_max(f))
    st.round = game.round
    for f in game.fighters:
        slot = st.slots[f.index]
        slot.health = max(0, _health_max(f) - f.wounds)
        slot.counters[WOUNDS] = min(f.wounds, rules.MOST_WOUNDS + 1)
        slot.actions = 0 if f.acted or f.holding or not f.in_fight else 1
        slot.actions_max = 1
        flags = F_OUT if not f.in_fight else 0
        if f.index == game.turn:
            flags |= F_ACTIVE | (F_ACTED if f.attacked else 0)
        for bit, on in ((SHAKEN, f.shaken), (HOLDING, f.holding)):
            if on:
                flags |= mark_bit(bit)
        slot.flags = flags
        slot.order_key = order_key(f.card)
    turn = 0
    for pos, f in enumerate(_in_order(game)):
        st.order[pos] = f.index
        st.order_reason[pos] = R_SUCCESSES if f.in_fight else R_OUT
        if f.index == game.turn:
            turn = pos
    st.turn = turn
    for t in range(len(game.teams)):
        st.scores[t] = sum(f.stats["wounds_dealt"] for f in game.fighters if f.spec.team == t)
    st.touch()


RULESET = Cards()
