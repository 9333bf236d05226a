"""`turnlight odds`: the exact chance to hit and the damage distribution for given dice."""

from __future__ import annotations

import argparse
import json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "odds",
        help="exact chance to hit and damage distribution for the dice of an attack",
        description="Counts every dice outcome exactly (no sampling). A tie hits.",
    )
    p.add_argument("--hit", type=int, default=3, help="HIT_Roll dice (default 3)")
    p.add_argument("--agility", type=int, default=3, help="target's AGILITY_Roll dice")
    p.add_argument("--base", type=int, default=2, help="base damage of the move")
    p.add_argument("--power", type=int, default=3, help="attacker's POWER_Roll dice")
    p.add_argument("--resist", type=int, default=2, help="target's RESIST_Roll dice")
    p.add_argument("--armor", type=int, default=0, help="target's ARMOR_Roll dice")
    p.add_argument(
        "--hit-bonus",
        type=int,
        default=0,
        help="added to the hit chance (+3 true sight, -2 blinded)",
    )
    p.add_argument("--burn", type=int, default=0, help="target's burn stacks (un-blockable)")
    p.add_argument(
        "--success-faces", type=int, default=1, choices=(1, 2), help="D3 faces that succeed"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from host.commands._errors import fail
    from host.korxsol import odds

    for name in ("hit", "agility", "power", "resist", "armor"):
        if not 0 <= getattr(args, name) <= 15:
            return fail(f"--{name} must be 0..15 dice")
    o = odds.attack_odds(
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
                }
            )
        )
        return 0
    print(f"chance to hit: {float(o.hit):.2%} (exactly {o.hit})")
    print("damage if hit:")
    for d, p in o.damage.items():
        print(f"  {d:>3}  {float(p):7.2%}  {'#' * round(float(p) * 50)}")
    mean = float(o.expected_damage)
    print(f"mean damage if hit {mean:.3f}; per attack {float(o.hit) * mean:.3f}")
    return 0
