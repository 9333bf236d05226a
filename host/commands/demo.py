"""`turnlight demo`: a short scripted korxsol round, played on the shared engine alone."""

from __future__ import annotations

import argparse

from shared import cooldowns, dice, initiative, rulesets, status, turns
from shared.state import FLAG_NAMES, GameState

ROSTER = (
    # label, team, agility, action points, KOR
    ("Kae", 0, 4, 3, 18),
    ("Orn", 1, 3, 2, 20),
    ("Vex", 0, 5, 3, 14),
    ("Brm", 1, 2, 2, 22),
)
MOVE_COOLDOWN = 2  # every demo fighter has one combat move (timer id 1) with cooldown 2


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="play a short scripted korxsol round and print it")
    p.add_argument("--seed", type=int, default=1, help="seed for every die rolled (default 1)")
    p.add_argument("--rounds", type=int, default=2, help="rounds to play (default 2)")
    p.set_defaults(run=run)


def describe(state: GameState, index: int) -> str:
    s = state.slots[index]
    flags = ",".join(n for bit, n in enumerate(FLAG_NAMES) if s.flags & (1 << bit))
    cds = " ".join(f"cd{s.cd_id[i]}={s.cd_left[i]}" for i in range(len(s.cd_id)) if s.cd_id[i])
    return (
        f"{s.label:<3} team {s.team} AP {s.ap}/{s.ap_max} KOR {s.kor:>2}/{s.kor_max}"
        f" frost {s.frost} burn {s.burn} fear {s.fear} [{flags}] {cds}"
    ).rstrip()


def play(seed: int, rounds: int, out=print) -> GameState:
    """Play `rounds` rounds: each fighter attacks the next enemy in the order, hits on
    equal-or-more successes, deals 2 + power successes less resist successes, and flips
    the chance token once for frost or burn."""
    rng = dice.XorShift32(seed)
    state = GameState()
    state.ruleset = rulesets.KORXSOL
    state.timing = rulesets.KORXSOL_TIMING
    state.phase_count = rulesets.KORXSOL_PHASES
    for row in ROSTER:
        state.add_slot(*row)
    out(f"Initiative (seed {seed}):")
    for pos, (index, successes, rerolls) in enumerate(initiative.roll_initiative(state, rng)):
        reason = initiative.REASON_NAMES[state.order_reason[pos]]
        label = state.slots[index].label
        extra = f", {rerolls} reroll(s)" if rerolls else ""
        out(f"  {pos + 1}. {label}  {successes} successes, placed by {reason}{extra}")
    turns.start_round(state)
    while state.round <= rounds:
        me = state.active
        attacker = state.slots[me]
        out(f"Round {state.round}, {attacker.label}'s turn: AP {attacker.ap}")
        if attacker.ap and cooldowns.is_ready(attacker, 1):
            target_index = next(
                state.order[(state.turn + k) % state.count]
                for k in range(1, state.count)
                if state.slots[state.order[(state.turn + k) % state.count]].team != attacker.team
            )
            target = state.slots[target_index]
            hit = dice.roll(state, rng, dice.KIND_ACTION_D3, attacker.agility, me)
            dodge = dice.roll(state, rng, dice.KIND_ACTION_D3, target.agility, target_index)
            if hit >= dodge:
                power = dice.roll(state, rng, dice.KIND_ACTION_D3, 2, me)
                resist = dice.roll(state, rng, dice.KIND_ACTION_D3, 1, target_index)
                damage = max(0, 2 + power - resist) + status.burn_damage_on_hit(target)
                target.kor = max(0, target.kor - damage)
                state.touch()
                out(f"  hits {target.label} ({hit} vs {dodge}) for {damage}")
                if dice.roll(state, rng, dice.KIND_CHANCE, 1, me):
                    if attacker.team == 0:
                        status.add_frost(state, target, 1)
                        out(f"  heads: {target.label} gains a frost stack")
                    else:
                        status.add_burn(state, target, 1)
                        out(f"  heads: {target.label} gains a burn stack")
            else:
                out(f"  {target.label} dodges ({dodge} vs {hit})")
            cooldowns.use(state, attacker, 1, MOVE_COOLDOWN)
        elif attacker.ap:
            out("  move on cooldown: moves instead")
        else:
            out("  frozen: straight to the Cooldown Phase")
        turns.end_turn(state)
    out("Final table:")
    for index in range(state.count):
        out("  " + describe(state, index))
    return state


def run(args: argparse.Namespace) -> int:
    play(args.seed, args.rounds)
    return 0
