"""`turnlight odds`: korxsol's exact chance to hit and damage distribution for given dice.

A command korxsol adds to `turnlight` through the `turnlight.commands` entry-point group
(pyproject.toml), as any installed ruleset may: the generic host never names it.
"""

from __future__ import annotations

import argparse
import json

MAX_BASE = 1_000  # korxsol's largest base damage is 30; beyond this, nothing is a move

# option -> (default, lowest, highest or None, help); every option is optional.
OPTIONS = {
    "hit": (3, 0, 15, "the attacker's HIT_Roll dice"),
    "agility": (3, 0, 15, "the target's AGILITY_Roll dice (its dodge)"),
    "base": (2, 0, None, "the move's base damage"),
    "power": (3, 0, 15, "the attacker's POWER_Roll dice (each success +1 damage)"),
    "resist": (2, 0, 15, "the target's RESIST_Roll dice (each success blocks 1)"),
    "armor": (0, 0, 15, "the target's ARMOR_Roll dice (each success blocks 1)"),
    "hit-bonus": (
        0,
        -10,
        10,
        "added to the attacker's hit successes, not a percentage: +3 true sight, -2 blinded",
    ),
    "burn": (0, 0, 3, "the target's burn stacks: as much un-blockable damage on a hit"),
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "odds",
        help="korxsol: exact chance to hit and damage distribution for the dice of an attack",
        description="Korxsol's attack dice, counted exactly (no sampling): a tie hits. Every "
        "option is optional; the defaults describe a 3-die attack on a 3-agility target.",
    )
    for name, (default, low, high, text) in OPTIONS.items():
        bounds = f"{low}..{high}" if high is not None else f"{low} or more"
        p.add_argument(
            f"--{name}",
            type=int,
            default=default,
            metavar="N",
            help=f"{text}; {bounds} (default {default})",
        )
    p.add_argument(
        "--success-faces",
        type=int,
        default=1,
        choices=(1, 2),
        help="how many faces of a D3 count as a success (default 1)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object (default: a table)")
    p.set_defaults(run=run)


def assumptions(args: argparse.Namespace) -> str:
    """The dice the figures are for, in one line."""
    from host.core.plurals import plural

    bonus = f" {args.hit_bonus:+d} successes" if args.hit_bonus else ""
    burn = f", then {args.burn} burn" if args.burn else ""
    return (
        f"assuming {plural(args.hit, 'HIT die', 'HIT dice')}{bonus} against "
        f"{plural(args.agility, 'AGILITY die', 'AGILITY dice')}; damage {args.base} base + "
        f"{plural(args.power, 'POWER die', 'POWER dice')} - "
        f"{plural(args.resist, 'RESIST die', 'RESIST dice')} - "
        f"{plural(args.armor, 'ARMOR die', 'ARMOR dice')}{burn}; "
        f"{plural(args.success_faces, 'D3 face succeeds', 'D3 faces succeed')}"
    )


def run(args: argparse.Namespace) -> int:
    from host.core.errors import OneLineError
    from host.rulesets.korxsol import exact_odds

    for name, (_, low, high, _) in OPTIONS.items():
        value = getattr(args, name.replace("-", "_"))
        if value < low or (high is not None and value > high):
            bounds = f"{low}..{high}" if high is not None else f"{low} or more"
            raise OneLineError(f"--{name} must be {bounds}, not {value}")
    if args.base > MAX_BASE:  # the figures are printed as floats: 310 digits overflowed
        shown = (
            f"{args.base}" if args.base < 10**20 else f"a number of {len(str(args.base))} digits"
        )
        raise OneLineError(f"--base must be at most {MAX_BASE:,} (a move's damage), not {shown}")
    o = exact_odds.attack_odds(
        args.hit,
        args.agility,
        args.base,
        args.power,
        args.resist,
        args.armor,
        args.success_faces,
        args.hit_bonus,
        1,
        args.burn,
    )
    if args.json:
        print(
            json.dumps(
                {
                    "hit": str(o.hit),
                    "hit_float": float(o.hit),
                    "damage": {str(d): str(p) for d, p in o.damage.items()},
                    "expected_damage": float(o.expected_damage),
                    "assumptions": {
                        name.replace("-", "_"): getattr(args, name.replace("-", "_"))
                        for name in (*OPTIONS, "success-faces")
                    },
                }
            )
        )
        return 0
    print(assumptions(args))
    print(f"chance to hit: {float(o.hit):.2%} (exactly {o.hit})")
    print("damage if hit:")
    for d, p in o.damage.items():
        print(f"  {d:>3}  {float(p):7.2%}  {'#' * round(float(p) * 50)}")
    mean = float(o.expected_damage)
    print(f"mean damage if hit {mean:.3f}; per attack {float(o.hit) * mean:.3f}")
    return 0
