"""Engine figures for `turnlight bench`: one full korxsol turn with an attack, and one exact
odds query of 7 attack dice against 7 defence dice. Medians of many runs, in microseconds."""

from __future__ import annotations

import statistics
import time

from host.rulesets.korxsol import encounter_schema, exact_odds, language
from host.rulesets.korxsol.device import F_FROZEN, F_GRAPPLED
from host.rulesets.korxsol.engine import Game
from shared.limits import NO_SLOT

TURNS = 400
ODDS_RUNS = 400


def _attack_line(game: Game) -> str | None:
    f = game.active
    if f is None or game.slot(f).flags & (F_GRAPPLED | F_FROZEN) or f.grappling != NO_SLOT:
        return None
    enemies = [e for e in game.fighters if e.spec.team != f.spec.team and game.alive(e)]
    for move in f.spec.moves:
        if move.is_attack and not move.effects.charge and enemies:
            if game.ready(f, "move", move.name):
                return f'attack {f.spec.label} "{move.name}" {enemies[0].spec.label}'
    return None


def engine_turn() -> dict[str, float]:
    """A turn = the active fighter's attack (hit, damage, statuses) and `end` (Cooldown Phase,
    timing rules, buff expiry, the next turn's start). Games restart when one is won."""
    enc = encounter_schema.load(encounter_schema.example_path())
    samples: list[float] = []
    seed = 1
    game = None
    end = language.parse("end")
    assert end is not None
    while len(samples) < TURNS:
        if game is None or game.winner is not None:
            game = Game(enc, seed)
            seed += 1
            start = language.parse("initiative")
            assert start is not None
            game.apply(start)
        line = _attack_line(game)
        if line is None:
            game.apply(end)
            continue
        attack = language.parse(line)
        assert attack is not None
        t0 = time.perf_counter_ns()
        game.apply(attack)
        if game.winner is None:
            game.apply(end)
        samples.append((time.perf_counter_ns() - t0) / 1000)
    return {"engine_turn_us": round(statistics.median(samples), 1)}


def odds_query() -> dict[str, float]:
    samples = []
    for _ in range(ODDS_RUNS):
        t0 = time.perf_counter_ns()
        exact_odds.attack_odds(7, 7, 2, 7, 7, 0)
        samples.append((time.perf_counter_ns() - t0) / 1000)
    return {"odds_us": round(statistics.median(samples), 1)}
