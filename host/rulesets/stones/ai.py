"""The demo's simple AI: each of the player's standing characters in turn fuses its first
[Fuse] ability it can pay for, moves two spaces (or its whole move, if less), then uses
its dearest ability it can pay for on the weakest opponent (a healing one on an ally below
half HP), or else makes a Standard Attack; then the player discards down to the hand size
(stones of elements no character of theirs uses first, then the fewest stars) and ends.

It plans on a copy of the game with the engine's own rolls, so the commands it returns
are the turn the demo will play (rolls from the board or the table, if any wait, are
taken the same way)."""

from __future__ import annotations

import copy
import shlex

from host.core.interface import IllegalAction
from host.rulesets.stones import engine
from host.rulesets.stones.encounter_schema import card_element, card_stars
from host.rulesets.stones.language import LANGUAGE


def plan_turn(game: engine.Game) -> list[str]:
    if game.winner is not None:
        return []
    sim = [copy.deepcopy(game)]
    out: list[str] = []

    def run(line: str) -> bool:
        cmd = LANGUAGE.parse(line)
        assert cmd is not None
        trial = copy.deepcopy(sim[0])
        try:
            engine.act(trial, cmd, None)
        except IllegalAction:
            return False
        sim[0] = trial
        out.append(line)
        return True

    p = game.player
    for i in game.chars_of(p):
        g = sim[0]
        if g.winner is not None:
            return out
        if not g.standing(i):
            continue
        c = g.ch(i)
        for a in c.abilities:
            if a.fuse and run(_line("fuse", c.label, a.name)):
                break
        if c.move:
            run(f"move {c.label} {min(2, c.move)}")
        g = sim[0]
        enemies = sorted(
            (k for k, x in enumerate(g.enc.characters) if x.team != c.team and g.standing(k)),
            key=lambda k: (g.hp[k], k),
        )
        if not enemies:
            return out
        hurt = [
            k
            for k, x in enumerate(g.enc.characters)
            if x.team == c.team and g.standing(k) and g.hp[k] * 2 < x.hp
        ]
        acted = False
        for a in sorted(c.abilities, key=lambda a: -a.cost):
            if a.fuse:
                continue
            if a.hostile:
                acted = run(_line("ability", c.label, a.name, g.ch(enemies[0]).label))
            elif hurt:
                acted = run(_line("ability", c.label, a.name, g.ch(hurt[0]).label))
            if acted:
                break
        if not acted:
            run(f"attack {c.label} {g.ch(enemies[0]).label}")
    g = sim[0]
    if g.winner is not None:
        return out
    excess = g.held(p) - g.hand_size(p)
    if excess > 0:
        used = {a.element for k in g.chars_of(p) if g.standing(k) for a in g.ch(k).abilities}

        def worth(card: str) -> tuple[int, int]:
            stars = card_stars(card)
            return (card_element(card) in used, 99 if stars is None else stars)

        cards = sorted(g.hands[p], key=worth)
        run("discard " + " ".join(cards[:excess]))
    out.append("end")
    return out


def _line(verb: str, *words: str) -> str:
    return shlex.join([verb, *words])
