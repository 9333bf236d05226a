"""The demo's simple AI for forms: one call plans one step of the round (or one social
move), the commands in the order the rules take them.

Social: the first round declares an Active Form where one is known, enters the area's
checks (each by the unit with the most dice for it) and one Challenge, then rolls them one
by one (`roll UNIT`: on a board, its roll key and then its next-turn key on the unit) and
ends the round (`pass`, the next-turn key); the next round goes to combat. Combat: each
unit's part of a step ends by acting or with `done UNIT` (the board's next-turn key on the
unit; at step 1 it rolls Awareness), the slower half moves at step 2 and the rest at step
8, a unit with half its health or less takes a Form of step 3 that heals, a unit that knows
a Form of step 4 declares the one that adds most steps, every unit attacks the weakest
standing foe, Aims its hits and Blocks the hits on it.
"""

from __future__ import annotations

from host.rulesets.forms.engine import Game


def plan_turn(game: Game) -> list[str]:
    if game.mode == "over":
        return []
    if game.mode == "social":
        return _social(game)
    return _combat(game)


def _q(name: str) -> str:
    return f'"{name}"' if " " in name else name


def _social(game: Game) -> list[str]:
    if game.combined is not None:
        return [f"roll {_q(game.name(game.combined[0]))}"]
    if game.checks:
        return [f"roll {_q(game.name(game.checks[0].unit))}"]
    if game.social_rounds or game.checks_made:
        return ["pass"] if game.checks_made else ["fight"]
    plan = []
    standing = [i for i, u in enumerate(game.units) if not u.down]
    party = [i for i in standing if game.units[i].spec.side == 0]
    for i in party:
        for name in game.units[i].known:
            f = game.form(name)
            if f.social:
                plan.append(f"form {game.name(i)} {_q(f.name)}")
                break
    for check in game.encounter.checks:
        best = max(party, key=lambda i: game.units[i].spec.score(check.attribute))
        plan.append(f"check {game.name(best)} {check.name}")
    others = [i for i in standing if game.units[i].spec.side != 0]
    if party and others:
        # A Challenge: the party's best talker against the first other unit's Resolve.
        talker = max(party, key=lambda i: game.units[i].spec.score("Passion"))
        plan.append(f"check {game.name(talker)} Passion vs={game.name(others[0])}:Resolve")
    # Something of the body too: entered last, rolled first (attribute order).
    plan.append(f"check {game.name(party[-1])} Physique dc=1")
    return plan or ["pass"]


def _combat(game: Game) -> list[str]:
    step = game.step
    plan: list[str] = []
    for i in game.to_act():
        u = game.units[i]
        name = game.name(i)
        if step == 1:
            plan.append(f"done {_q(name)}")
        elif step in (2, 8):
            slow_half = game.order.index(i) < len(game.order) // 2
            plan.append(f"move {_q(name)}" if step == 8 or slow_half else f"done {_q(name)}")
        elif step in (3, 4):
            forms = [game.form(k) for k in u.known]
            mine = [f for f in forms if f.step == step]
            hurt = u.health * 2 <= u.spec.health
            pick = None
            if step == 3 and hurt:  # a Form that heals, never a bare Slow (it only skips)
                pick = max((f for f in mine if f.heal), key=lambda f: f.heal, default=None)
            if step == 4:
                pick = max(mine, key=lambda f: len(f.extra), default=None)
            plan.append(f"form {_q(name)} {_q(pick.name)}" if pick else f"done {_q(name)}")
        elif step == 5:
            foes = game._foes(i)
            target = min(foes, key=lambda j: (game.units[j].health, j))
            plan += [f"attack {name} {game.name(target)}"] * game.allowance(i)
        elif step == 6:
            if game._to_aim(i):
                plan.append(f"aim {name}")
            if game._to_block(i):
                plan.append(f"block {name}")
    return plan or ["pass"]
