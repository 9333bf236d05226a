"""The demo's simple AI: a Flare when one is met, then summons where a pattern matches
(best on an enemy token), else a common next to its own tokens; the turn ends when every
action is used. It plans on a copy of the game, so each command it returns is legal in
the order given."""

from __future__ import annotations

import copy
import random

from host.core.interface import IllegalAction
from host.rulesets.flare import cards
from host.rulesets.flare.cards import LEGENDARY, Creature, Effect, Flare
from host.rulesets.flare.engine import STEPS, Game


def plan_turn(game: Game, act) -> list[str]:  # act(game, line) applies a line to a game
    if game.winner is not None:
        return []
    sim = copy.deepcopy(game)
    rng = random.Random(game.seed * 7919 + game.turns)
    plan: list[str] = []

    def attempt(line: str) -> bool:
        trial = copy.deepcopy(sim)
        try:
            act(trial, line)
        except IllegalAction:
            return False
        act(sim, line)
        plan.append(line)
        return True

    flare = _flare_line(sim)
    if flare:
        attempt(flare) or attempt(" ".join(flare.split()[:2]) + _skips(sim))
    for _ in range(20):
        if sim.actions_left <= 0:
            break
        options = _summons(sim) + [_place(sim, rng), _discard(sim)]
        if not any(attempt(line) for line in options if line):
            break
    plan.append("end")
    return plan


def _skips(game: Game) -> str:
    card = game.card(game.hands[game.current].flares[0])
    assert isinstance(card, Flare)
    opp = game.flare_against(card, None)
    top, bottom = game.flare_met(card, opp)
    out = "" if game.duel else f" vs={game.enc.players[opp]}"
    if top and card.top_effects:
        n = sum(e.targeted for e in card.top_effects)
        out += " top=" + ",".join(["-"] * n) if n else ""
    if bottom and card.bottom_effects:
        n = sum(e.targeted for e in card.bottom_effects)
        out += " bottom=" + ",".join(["-"] * n) if n else ""
    return out


def _flare_line(game: Game) -> str | None:
    if game.flare_refusal() is not None or not game.hands[game.current].flares:
        return None
    card = game.card(game.hands[game.current].flares[0])
    assert isinstance(card, Flare)
    opp = game.flare_against(card, None)
    top, bottom = game.flare_met(card, opp)
    if not (top or bottom):
        return None
    line = f"flare {card.id}" + ("" if game.duel else f" vs={game.enc.players[opp]}")
    used: set[tuple[int, int]] = set()
    if top and any(e.targeted for e in card.top_effects):
        line += " top=" + ",".join(_targets(game, card.top_effects, None, used))
    if bottom and any(e.targeted for e in card.bottom_effects):
        line += " bottom=" + ",".join(_targets(game, card.bottom_effects, None, used))
    return line


def _summons(game: Game) -> list[str]:
    """Every summon worth trying, best first."""
    hand = game.hands[game.current]
    found: list[tuple[int, str]] = []
    for card_id in sorted(set(hand.creatures + hand.legendaries)):
        card = game.card(card_id)
        assert isinstance(card, Creature)
        for r in range(game.enc.rows):
            for c in range(game.enc.columns):
                if game.summon_refusal(card, r, c) is not None:
                    continue
                there = game.at(r, c)
                value = 10 + 5 * card.rank
                if there is not None and there.owner != game.current:
                    value += 4 * (there.rank + 1)
                elif there is not None:
                    value -= 6  # its own token
                line = f"summon {card.id} at={game.name_of(r, c)}"
                if any(e.targeted for e in card.effects):
                    line += " do=" + ",".join(_targets(game, card.effects, (r, c), set()))
                found.append((-value, line))
    found.sort()
    return [line for _, line in found[:6]]


def _targets(
    game: Game, effects: tuple[Effect, ...], mark: tuple[int, int] | None, used: set
) -> list[str]:
    me = game.current
    out = []
    squares = [(r, c) for r in range(game.enc.rows) for c in range(game.enc.columns)]
    for effect in effects:
        if not effect.targeted:
            continue
        choice = "-"
        if effect.kind in cards.MOVES:
            for r, c in squares:
                mover = game.at(r, c)
                if mover is None or mover.owner != me or (r, c) == mark or (r, c) in used:
                    continue
                reach = (
                    [(r + dr, c + dc) for dr, dc in STEPS] if "jump" not in effect.kind else squares
                )
                for tr, tc in reach:
                    if not game.on_grid(tr, tc) or (tr, tc) in used or (tr, tc) == mark:
                        continue
                    there = game.at(tr, tc)
                    limit = mover.rank if effect.kind.startswith("combat") else mover.rank - 1
                    if there is not None and there.owner != me and there.rank <= limit:
                        choice = f"{game.name_of(r, c)}-{game.name_of(tr, tc)}"
                        used.update({(r, c), (tr, tc)})
                        break
                if choice != "-":
                    break
        else:
            own = effect.kind == "upgrade"
            best = None
            for r, c in squares:
                t = game.at(r, c)
                if t is None or (t.owner == me) != own or (r, c) in used or (r, c) == mark:
                    continue
                if t.rank > effect.most or (own and t.rank == LEGENDARY):
                    continue
                if effect.kind == "downgrade" and t.rank == 0:
                    continue
                if best is None or t.rank > best[0]:
                    best = (t.rank, r, c)
            if best is not None:
                choice = game.name_of(best[1], best[2])
                used.add((best[1], best[2]))
        out.append(choice)
    return out


def _place(game: Game, rng: random.Random) -> str | None:
    me = game.current
    best: tuple[float, int, int] | None = None
    for r in range(game.enc.rows):
        for c in range(game.enc.columns):
            if game.at(r, c) is not None:
                continue
            value = rng.random()
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr or dc) and game.on_grid(r + dr, c + dc):
                        t = game.at(r + dr, c + dc)
                        if t is not None:
                            value += (2 if not (dr and dc) else 1) if t.owner == me else 0.5
            if best is None or value > best[0]:
                best = (value, r, c)
    if best is None:
        return None
    line = f"place {game.name_of(best[1], best[2])}"
    if game.supply[me] == 0:
        for r in range(game.enc.rows):
            for c in range(game.enc.columns):
                t = game.at(r, c)
                if t is not None and t.owner == me and t.rank == 0:
                    return f"{line} from={game.name_of(r, c)}"
        for r in range(game.enc.rows):
            for c in range(game.enc.columns):
                t = game.at(r, c)
                if t is not None and t.owner == me and t.rank != LEGENDARY:
                    return f"{line} from={game.name_of(r, c)}"
        return None
    return line


def _discard(game: Game) -> str | None:
    hand = game.hands[game.current]
    if game.discarded or not (hand.creatures or hand.legendaries):
        return None
    return f"discard {(hand.creatures or hand.legendaries)[0]}"
