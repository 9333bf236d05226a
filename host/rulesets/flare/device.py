"""Flare on the board: its descriptor and the game projected onto the generic state.

A slot per player (its team is its own): the allowance is the actions left this turn, the
health bar the cards in hand, counters 0..3 the tokens in supply, the tokens on the grid,
the upgraded ones among them and the legendary tokens in supply, mark 0 ("flare") lit on
whoever may call a Flare now, and the scores are the players' points. The token grid is
the state's grid (descriptor flag GRID): each token's owner as its side (team), its rank
as common, heroic or legendary; a grid wider or taller than the codec's 8 is not projected
(docs/rulesets/flare.md, "On the board").
"""

from __future__ import annotations

from functools import cache

from firmware import palette as pal
from host.rulesets.flare.cards import Flare
from host.rulesets.flare.engine import Game
from shared import dice, roster
from shared.descriptor import REFILL
from shared.descriptor_pack import GRID, counter, mark, pack
from shared.limits import MAX_ACTIONS, MAX_COUNTER, MAX_GRID_SIDE
from shared.state import F_ACTIVE, GameState, mark_bit

SUPPLY, ON_GRID, UPGRADED, LEGENDS = 0, 1, 2, 3
FLARE = 0  # the mark: may call a Flare now
CONTROL = 1  # the mark: holds control of a teammate's turn (team play)
F_FLARE = mark_bit(FLARE)
F_CONTROL = mark_bit(CONTROL)


# Flare's number on the board (the state's ruleset field); its Ruleset declares
# this one (the registry refuses a number two rulesets declare).
BOARD_ID = 4


@cache
def descriptor() -> bytes:
    """Flare's descriptor, the same for every encounter (made when first asked for)."""
    return pack(
        "flare",
        BOARD_ID,
        1,
        health="hand",
        allowance="actions",
        counters=(
            counter("supply", MAX_COUNTER, pal.WHITE),
            counter("tokens", MAX_COUNTER, pal.SKY_BLUE),
            counter("upgraded", MAX_COUNTER, pal.BLUISH_GREEN),
            counter("legends", MAX_COUNTER, pal.COOLDOWN),
        ),
        marks=(mark("flare", pal.VERMILLION), mark("control", pal.BLUISH_GREEN)),
        phases=("turn",),
        flags=REFILL | GRID,
        dice_kind=dice.KIND_ACTION_D3,
        dice_count=1,
        first_counter=SUPPLY,
    )


def new_state(game: Game) -> GameState:
    st = GameState()
    data = descriptor()
    st.rules.load(data, 0, len(data))
    st.ruleset = BOARD_ID
    hand = game.enc.creature_hand + game.enc.legendary_hand + game.enc.flare_hand
    st.team_count = len(game.enc.teams)  # in a duel or battle each player is a side
    for p, name in enumerate(game.enc.players):
        roster.add_slot(
            st, name[:3], game.enc.team_of[p], 0, min(game.enc.actions, MAX_ACTIONS), max(hand, 1)
        )
    if game.enc.columns <= MAX_GRID_SIDE and game.enc.rows <= MAX_GRID_SIDE:
        roster.set_grid(st, game.enc.columns, game.enc.rows)
    return st


def project_grid(game: Game, st: GameState) -> None:
    """The tokens onto the state's grid (row by row from a1's row): the owner's side, the
    rank. Nothing when the encounter's grid is larger than the state's."""
    if not st.grid_w:
        return
    for i, token in enumerate(game.grid):
        st.grid[i] = (
            0 if token is None else roster.grid_cell(game.enc.team_of[token.owner], token.rank)
        )


def may_call_flare(game: Game, p: int) -> bool:
    """Whether player p may call a Flare now: their turn, before any action, with a Flare in
    hand whose criteria the grid meets."""
    if game.winner is not None or p != game.current or game.flare_refusal() is not None:
        return False
    if game.controller != game.current:
        return False
    for card_id in game.hands[p].flares:
        card = game.card(card_id)
        assert isinstance(card, Flare)
        if any(any(game.flare_met(card, o)) for o in game.opponents()):
            return True
    return False


def project(game: Game, st: GameState) -> None:
    st.round = min(game.round, game.enc.rounds)
    for p in range(len(game.enc.players)):
        slot = st.slots[p]
        upgraded, tokens = game.counts(p)
        hand = len(game.hands[p].all())
        slot.health = min(hand, slot.health_max)
        slot.counters[SUPPLY] = min(game.supply[p], MAX_COUNTER)
        slot.counters[ON_GRID] = min(tokens, MAX_COUNTER)
        slot.counters[UPGRADED] = min(upgraded, MAX_COUNTER)
        slot.counters[LEGENDS] = min(game.legends[p], MAX_COUNTER)
        active = p == game.current and game.winner is None
        slot.actions_max = min(game.actions_max if active else game.enc.actions, MAX_ACTIONS)
        slot.actions = min(game.actions_left, MAX_ACTIONS) if active else 0
        slot.flags = (F_ACTIVE if active else 0) | (F_FLARE if may_call_flare(game, p) else 0)
        if p == game.controller != game.current and game.winner is None:
            slot.flags |= F_CONTROL
    for t, total in enumerate(game.team_scores()):
        st.scores[t] = total
    project_grid(game, st)
    st.turn = game.current
    st.touch()
