"""Exact odds before an attack: the chance to hit and the distribution of damage, computed
by counting dice outcomes with integers (never sampled).

With k success faces out of 3, n action dice give s successes in C(n,s) k^s (3-k)^(n-s) of
the 3^n equally likely outcomes. Hit and dodge are independent rolls; resistance and armor
successes each block a point, so together they count like one roll of their summed dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from host.rulesets.korxsol.attack import AttackPlan
from host.rulesets.korxsol.combat import plan_attack
from host.rulesets.korxsol.device import BURN
from host.rulesets.korxsol.fighter import norm
from host.rulesets.korxsol.language import Command
from host.rulesets.korxsol.model import Effects
from host.rulesets.korxsol.rolls import IllegalAction


@lru_cache(maxsize=512)
def successes(n: int, k: int = 1) -> tuple[int, ...]:
    """Integer weights of 0..n successes for n dice with k success faces of 3 (sum 3^n)."""
    return tuple(comb(n, s) * k**s * (3 - k) ** (n - s) for s in range(n + 1))


@dataclass(frozen=True)
class Odds:
    hit: Fraction  # chance that the attack hits
    damage: dict[int, Fraction]  # damage dealt -> chance, given a hit

    @property
    def expected_damage(self) -> Fraction:
        return sum((d * p for d, p in self.damage.items()), Fraction(0))


def hit_chance(hit_dice: int, agility_dice: int, k: int = 1, hit_bonus: int = 0) -> Fraction:
    """P(max(0, hit successes + bonus) >= dodge successes): a tie hits."""
    h = successes(hit_dice, k)
    a = successes(agility_dice, k)
    # cumulative dodge weights: cum[x] = weight of dodge <= x
    cum = []
    running = 0
    for w in a:
        running += w
        cum.append(running)
    top = len(a) - 1
    wins = 0
    for s, w in enumerate(h):
        chance = max(0, s + hit_bonus)
        wins += w * cum[min(chance, top)]
    return Fraction(wins, 3 ** (hit_dice + agility_dice))


def power_weights(power_dice: int, k: int = 1, reroll_below: int = 0) -> tuple[list[int], int]:
    """Integer weights of 0..n POWER_Roll successes and their total. With Brutality's
    reroll (a roll with fewer than `reroll_below` successes is rolled again and the second
    roll stands): w'(s) = w(s)*3^n*[s >= K] + W(<K)*w(s), out of 3^2n."""
    p = list(successes(power_dice, k))
    total = 3**power_dice
    if reroll_below > 0:
        low = sum(p[:reroll_below])
        p = [w * total * (s >= reroll_below) + low * w for s, w in enumerate(p)]
        total *= total
    return p, total


def damage_distribution(
    base: int,
    power_dice: int,
    block_dice: int,
    k: int = 1,
    per_success: int = 1,
    unblockable: int = 0,
    reroll_below: int = 0,
    success_bonus: int = 0,
) -> dict[int, Fraction]:
    """Damage dealt on a hit: max(0, base + per*power (+ success_bonus when power > 0)
    - blocks) + unblockable; `reroll_below` is Brutality's reroll."""
    p, ptotal = power_weights(power_dice, k, reroll_below)
    b = successes(block_dice, k)
    weights: dict[int, int] = {}
    for ps, pw in enumerate(p):
        if not pw:
            continue
        potential = base + ps * per_success + (success_bonus if ps else 0)
        for bs, bw in enumerate(b):
            dealt = (potential - bs if bs < potential else 0) + unblockable
            weights[dealt] = weights.get(dealt, 0) + pw * bw
    total = ptotal * 3**block_dice
    return {d: Fraction(w, total) for d, w in sorted(weights.items())}


def attack_odds(
    hit_dice: int,
    agility_dice: int,
    base: int,
    power_dice: int,
    resist_dice: int,
    armor_dice: int,
    k: int = 1,
    hit_bonus: int = 0,
    per_success: int = 1,
    unblockable: int = 0,
) -> Odds:
    hit = hit_chance(hit_dice, agility_dice, k, hit_bonus) if hit_dice else Fraction(1)
    dmg = damage_distribution(
        base, power_dice, resist_dice + armor_dice, k, per_success, unblockable
    )
    return Odds(hit, dmg)


KINDS = ("move", "item", "artifact")


def _striker(game, user, name: str, kinds: tuple[str, ...] = KINDS):
    """The move, item (in hand) or active artifact `name` of `user`, first found in that
    order among `kinds`: (its name, its effects, whether it is ranged), refused unless it
    strikes."""
    key = norm(name)
    moves = list(user.spec.moves) if "move" in kinds else []
    hand = list(user.hand) if "item" in kinds else []
    arts = [a for a in user.spec.artifacts if a.kind == "active"] if "artifact" in kinds else []
    move = next((m for m in moves if norm(m.name) == key), None)
    if move is not None:
        found = (move.name, move.effects, move.type == "range")
        strikes = move.is_attack or move.type == "debuff"
    else:
        thing = next((t for t in [*hand, *arts] if norm(t.name) == key), None)
        if thing is None:
            have = [t.name for t in [*moves, *hand, *arts]]
            raise IllegalAction(
                f"{user.name} has no move, item or artifact {name!r}"
                f" (has: {', '.join(have) or 'nothing'})"
            )
        found = (thing.name, thing.effects, False)
        strikes = thing.effects.strikes
    if not strikes:
        raise IllegalAction(f"{found[0]} does not strike: odds are for what hits its targets")
    return found


def plan(
    game, cmd: Command, targets: list | None = None, kinds: tuple[str, ...] = KINDS
) -> AttackPlan:
    """The engine's plan (host.rulesets.korxsol.combat.plan_attack) for `odds NAME THING TARGET
    [TARGET ...] [options]` now: THING a combat move, an item or an active artifact that
    strikes, the options checked as `attack` checks them. `targets`: all the targets
    (Fighters) when the odds are for one of several of one attack; `kinds`: where THING is
    looked for (an `attack` line's odds look among the moves only)."""
    return _planned(game, cmd, targets, kinds)[0]


def _planned(
    game, cmd: Command, targets: list | None, kinds: tuple[str, ...]
) -> tuple[AttackPlan, Effects]:
    user = game.fighter(cmd.arg(0, "a character"))
    thing, fx, ranged = _striker(game, user, cmd.arg(1, "a combat move, item or artifact"), kinds)
    game.fighter(cmd.arg(2, "a target"))
    aimed = targets if targets is not None else game.aim(user, thing, fx, cmd.args[2:], True)
    return plan_attack(game, user, thing, fx, aimed, cmd, ranged), fx


def for_move(
    game, cmd: Command, targets: list | None = None, kinds: tuple[str, ...] = KINDS
) -> tuple[Odds, str]:
    """The odds of `odds NAME THING TARGET [TARGET ...] [options]` for its first target
    now, from the engine's plan of the use (see `plan`): SOL (sol=power, dodge_sol,
    resist_sol), full draw, Brutality's reroll, an exchange for damage, cornered, a hit or
    power_success condition worth damage and the move's ATTRIBUTE power all count. A
    double hit's second strike is not (its odds depend on the first)."""
    p, fx = _planned(game, cmd, targets, kinds)
    user = game.fighters[p.user]
    target = game.fighter(cmd.arg(2, "a target"))
    d = p.defence(target)
    k = len(game.encounter.options.success_faces)
    agility = 0 if d.cornered else d.dodge_dice  # cornered: an automatic hit, no dodge roll
    base = p.base_damage + p.bonus + p.hit_damage  # a hit's damage instance gains hit_damage
    burn = game.slot(target).counters[BURN]
    hit = hit_chance(p.hit_dice, agility, k, p.hit_bonus) if p.hit_dice else Fraction(1)
    if fx.damage is None:
        odds = Odds(hit, {burn: Fraction(1)})
    else:
        dmg = damage_distribution(
            base,
            p.power_dice,
            d.resist_dice + d.armor_dice,
            k,
            p.per_success,
            burn,
            p.reroll_below,
            p.power_success_damage,
        )
        odds = Odds(hit, dmg)
    why = ", ".join(f"{amount:+d} {reason}" for reason, amount in p.hit_bonus_parts)
    what = (
        f"{user.name} {p.name} -> {target.name}: {p.hit_dice} hit dice"
        + (f" ({why} to the hit successes)" if why and p.hit_dice else "")
        + f" vs {agility} agility,"
        f" {p.power_dice} power vs {d.resist_dice} resist + {d.armor_dice} armor"
        + (" (double hit: the second strike is not counted)" if fx.double_hit else "")
    )
    return odds, what


def describe(game, cmd: Command) -> list[str]:
    """The `odds` lines: for each target named, in order, against all of them at once."""
    user = game.fighter(cmd.arg(0, "a character"))
    thing, fx, _ = _striker(game, user, cmd.arg(1, "a combat move, item or artifact"))
    cmd.arg(2, "a target")
    aimed = game.aim(user, thing, fx, cmd.args[2:], True)
    lines = []
    for target in aimed:
        probe = Command(cmd.verb, [cmd.args[0], cmd.args[1], target.spec.name], dict(cmd.opts))
        odds, what = for_move(game, probe, aimed)
        lines += [what, f"chance to hit: {float(odds.hit):.1%} ({odds.hit})"]
        dist = "  ".join(f"{d}:{float(p):.1%}" for d, p in odds.damage.items())
        lines.append(f"damage if hit: {dist}  (mean {float(odds.expected_damage):.2f})")
    return lines


def before_attack(game, line: str) -> list[str]:
    """One line of odds per target of an `attack` (or an `item` or `artifact` that
    strikes) line, shown before it is resolved; empty when the line is not one the odds can
    describe (the engine will say why)."""
    from host.rulesets.korxsol import language

    try:
        cmd = language.parse(line)
    except IllegalAction:
        return []
    if cmd is None or cmd.verb not in ("attack", "item", "artifact") or len(cmd.args) < 3:
        return []
    lines = []
    try:
        aimed = [game.fighter(t) for t in cmd.args[2:]]
    except IllegalAction:
        return []
    for target in cmd.args[2:]:
        probe = Command("odds", [cmd.args[0], cmd.args[1], target], dict(cmd.opts))
        try:
            o, _ = for_move(game, probe, aimed, ("move",) if cmd.verb == "attack" else (cmd.verb,))
        except IllegalAction:
            return []
        mean = float(o.expected_damage)
        lines.append(
            f"odds vs {game.fighter(target).name}: {float(o.hit):.1%} to hit, "
            f"damage if hit {min(o.damage)}..{max(o.damage)} (mean {mean:.2f})"
        )
    return lines
