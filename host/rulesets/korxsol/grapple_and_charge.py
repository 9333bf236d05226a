"""Grapple and charge in the korxsol engine: moving and pivoting (a grappler carrying its
target, a drop from a height), struggling, releasing, a grappler's crush, a charge broken
before it is unleashed, and knockback (how far, and what the thrown body runs into, as the
game master says: the engine has no map).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from host.core.plurals import plural
from host.rulesets.korxsol import knockback, threat
from host.rulesets.korxsol.device import F_CHARGING, F_GRAPPLED, F_PINNED
from host.rulesets.korxsol.fighter import Fighter, norm
from host.rulesets.korxsol.game_core import GameCore, Outcome
from host.rulesets.korxsol.knockback import drop_onto
from host.rulesets.korxsol.language import Command
from host.rulesets.korxsol.rolls import IllegalAction
from shared import cooldowns, roster
from shared.limits import NO_SLOT

if TYPE_CHECKING:
    from host.rulesets.korxsol.attack import Attack


class GrappleAndCharge(GameCore):
    def _do_move(self, cmd: Command, out: Outcome) -> None:
        f = self._need_turn(cmd.arg(0, "a character"))
        spaces = cmd.int_arg(1, default=1, low=1, high=9, what="spaces")
        s = self.slot(f)
        if s.flags & F_PINNED:
            raise IllegalAction(f"{f.name} is pinned and cannot move")
        if s.flags & F_GRAPPLED:
            raise IllegalAction(f"{f.name} is grappled: struggle or use a move with release first")
        self._check_fall(f, cmd)
        if f.grappling != NO_SLOT:
            held = self.fighters[f.grappling]
            if grapple_weight(held) > f.spec.weight:
                raise IllegalAction(f"{held.name} is too heavy for {f.name} to carry")
        self._spend_ap(f, spaces, f"moving {plural(spaces, 'space')}")
        out.say(f"{f.name} moves {plural(spaces, 'space')}")
        self._break_charge(f, "moved", out)
        self._moved(f, out)
        if f.grappling != NO_SLOT:
            self._moved(self.fighters[f.grappling], out)  # carried along
            self._grapple_drop(f, cmd, out)

    def _do_pivot(self, cmd: Command, out: Outcome) -> None:
        f = self._need_turn(cmd.arg(0, "a character"))
        if f.grappling == NO_SLOT:
            raise IllegalAction(f"{f.name} is not grappling anyone {self._grapplers()}")
        held = self.fighters[f.grappling]
        if grapple_weight(held) > f.spec.weight:
            raise IllegalAction(f"{held.name} is too heavy for {f.name} to pivot")
        self._check_fall(f, cmd)
        out.say(f"{f.name} pivots {held.name}")
        self._moved(held, out)
        self._grapple_drop(f, cmd, out)

    def _check_fall(self, f: Fighter, cmd: Command) -> None:
        if "fall" in cmd.opts:
            if f.grappling == NO_SLOT:
                raise IllegalAction(
                    f"fall= is for a grappler carrying its target; {f.name} holds no one"
                )
            drop_onto(cmd.opts["fall"])

    def _grapple_drop(self, f: Fighter, cmd: Command, out: Outcome) -> None:
        """GRAPPLE's drop from a height (`fall=F:T`, or `fall=F:T:water`): W.1, a fall
        onto water deals no damage, and the target then stands in the water."""
        fall = cmd.opts.get("fall")
        if fall is None:
            return
        a, b, water = drop_onto(fall)
        held = self.fighters[f.grappling]
        self._release(held, out, "dropped from a height")
        if water:
            self._moved(held, out, "water")
            out.say(f"{held.name} falls into water: no damage")
        else:
            self._unblockable(held, knockback.fall_damage(a, b), f, out, "falls")

    def _grapplers(self) -> str:
        """Who may release, crush or pivot now: a refusal names them."""
        held = [f.name for f in self.fighters if f.grappling != NO_SLOT]
        return f"(grappling: {', '.join(held) or 'nobody'})"

    def _grappled(self) -> str:
        """Who may struggle now: a refusal names them."""
        held = [f.name for f in self.fighters if self.slot(f).flags & F_GRAPPLED]
        return f"(grappled: {', '.join(held) or 'nobody'})"

    def _do_struggle(self, cmd: Command, out: Outcome) -> None:
        f = self._need_turn(cmd.arg(0, "a character"))
        if not self.slot(f).flags & F_GRAPPLED:
            raise IllegalAction(f"{f.name} is not grappled {self._grappled()}")
        self._spend_ap(f, 1, "struggling")
        heads = self.roller.roll("chance", f.index, self.attribute(f, "power"))
        if heads:
            self._release(f, out, "struggles free")
        else:
            out.say(f"{f.name} struggles, but stays grappled")

    def _do_release(self, cmd: Command, out: Outcome) -> None:
        f = self._need_turn(cmd.arg(0, "a character"))
        if f.grappling == NO_SLOT:
            raise IllegalAction(f"{f.name} is not grappling anyone {self._grapplers()}")
        self._release(self.fighters[f.grappling], out, "is let go")

    def _do_crush(self, cmd: Command, out: Outcome) -> None:
        """Combat while grappling: a POWER_Roll, each success one un-blockable damage."""
        f = self._need_turn(cmd.arg(0, "a character"))
        if f.grappling == NO_SLOT:
            raise IllegalAction(f"{f.name} is not grappling anyone {self._grapplers()}")
        self._need_combat(f)
        sol = "sol" in cmd.opts  # sol=power, the POWER_Roll (the grammar takes no other)
        if sol and f.sol < 1:
            raise IllegalAction(f"{f.name} declares 1 SOL point in this command but holds {f.sol}")
        held = self.fighters[f.grappling]
        waived = threat.check(self, f, "crush", [held], cmd.opts.get("threat"))
        f.combat_used = True
        if waived:
            out.say(waived)
        n = self.attribute(f, "power")
        if sol:
            n += self.encounter.options.sol_dice
            f.sol -= 1
            out.say(f"{f.name} spends 1 SOL: {self.encounter.options.sol_dice} more power dice")
        hits = self._action_roll("power", f, n)
        f.stats.crits += hits
        self._unblockable(held, hits, f, out, "is crushed")

    def _release(self, held: Fighter, out: Outcome, why: str) -> None:
        if held.grappled_by == NO_SLOT:
            return
        self.fighters[held.grappled_by].grappling = NO_SLOT
        held.grappled_by = NO_SLOT
        roster.set_flag(self.state, self.slot(held), F_GRAPPLED, False)
        out.say(f"{held.name} {why} (grapple released)")

    def _free(self, f: Fighter, out: Outcome) -> None:
        """RELEASE: the user is freed at once from a grapple and from a pin."""
        self._release(f, out, "breaks free")
        s = self.slot(f)
        if s.flags & F_PINNED:
            roster.set_flag(self.state, s, F_PINNED, False)
            out.say(f"{f.name} breaks free of the pin")

    def _break_charge(self, f: Fighter, why: str, out: Outcome) -> None:
        """A broken charge goes on cooldown at once (not at the next Cooldown Phase)."""
        move = f.charging
        if move is None:
            return
        f.charging = None
        s = self.slot(f)
        roster.set_flag(self.state, s, F_CHARGING, False)
        timer = self.timer(f, "move", move.name)
        out.say(f"{f.name}'s charge is broken ({why}): {move.name} goes on cooldown")
        if timer == 0:
            return
        try:
            cooldowns.start_now(self.state, s, timer, move.cooldown)
        except ValueError as err:  # a charger always keeps a timer free (see _use_timer)
            out.say(f"{f.name}: {move.name} cannot go on cooldown: {err}")

    def _knockback(self, a: Attack, t: Fighter, out: Outcome) -> bool:
        """Knock `t` back; True when it moved (out of the attack area)."""
        user = a.user
        weight = grapple_weight(t)
        spaces = knockback.distance(user.spec.weight, weight)
        if spaces == 0:
            out.say(f"{t.name} is too heavy to be knocked back")
            return False
        out.say(f"{t.name} is knocked back {plural(spaces, 'space')}")
        self._break_charge(t, "knocked back", out)
        what: tuple = ("clear",)
        for parsed in a.plan.knockback:
            if norm(parsed[0]) in (norm(t.spec.name), norm(t.spec.label)):
                what = parsed[1:]
        kind = what[0]
        self._moved(t, out, "water" if kind == "water" else "ground")
        if kind == "creature":
            other = self.fighter(what[1])
            agility = self.attribute(other, "agility")
            if other.index in a.plan.collide_sol:  # SOL, spent as the roll is made
                agility += self.encounter.options.sol_dice
                self._pay_sol(a, other, "agility", out)
            if self._action_roll("agility", other, agility):
                out.say(f"{other.name} dodges the flying {t.name}")
            else:
                self._unblockable(other, t.spec.weight, user, out, f"is struck by {t.name}")
        elif kind == "wall":
            self._unblockable(t, knockback.OBSTRUCTION_DAMAGE, user, out, "hits an obstruction")
        elif kind == "out":
            if self.roller.roll("chance", t.index, 1):
                self._unblockable(t, knockback.OBSTRUCTION_DAMAGE, user, out, "hits the map's edge")
            else:
                out.say(f"{t.name} is placed back in bounds")
        elif kind == "fall":
            self._unblockable(t, knockback.fall_damage(what[1], what[2]), user, out, "falls")
        elif kind == "water":
            out.say(f"{t.name} falls into water: no damage")
        return True


def grapple_weight(f: Fighter) -> int:
    """Weight against knockback and grapple: Sturdy (mineral) counts one class heavier."""
    return min(5, f.spec.weight + (1 if "mineral" in f.spec.elements else 0))
