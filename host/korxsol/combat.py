"""Combat in the korxsol engine: a combat move, an item or an active artifact used, from the
checks before anything changes (turn, cooldown, aim, options, SOL held) to its resolution:
the HIT_Roll against each target's AGILITY_Roll, the POWER_Roll against each RESIST_Roll
and armor, and what a hit brings (sunder, burn, debuffs, statuses, knockdown, knockback).
What lands without a hit (heals, buffs, bless, cleanse) is host.korxsol.effects.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from host.korxsol.commands import Command
from host.korxsol.fighter import Fighter, Modifier, norm
from host.korxsol.game_core import GameCore, Outcome
from host.korxsol.grapple_and_charge import parse_kb
from host.korxsol.model import RESIST_SUCCESS, Artifact, Effects
from host.korxsol.rolls import IllegalAction
from host.korxsol.words import plural
from shared import cooldowns, status
from shared.limits import MAX_COOLDOWNS, MAX_DICE, NO_SLOT
from shared.state import F_CHARGING, F_GRAPPLED, F_KNOCKED_DOWN, F_PINNED

ATTACK_OPTIONS = (
    "sol",
    "fulldraw",
    "reroll",
    "exchange",
    "cornered",
    "dodge_sol",
    "resist_sol",
    "kb",
)
GRAPPLED_AGILITY = -3
BLIND_HIT = -2
TRUE_SIGHT_HIT = 3


@dataclass
class _Attack:
    """One use of a move, item or artifact that strikes, while it resolves."""

    user: Fighter
    name: str
    fx: Effects
    timer: int
    cmd: Command
    cornered: set[int]
    dodge_sol: set[int]  # fighters spending SOL on their AGILITY_Roll
    resist_sol: set[int]  # ... on their RESIST_Roll
    power_sol: bool  # the user spends SOL on its POWER_Roll
    bonus: int = 0  # damage from full draw and exchange
    paid: set[tuple[int, str]] = field(default_factory=set)  # (fighter, roll) SOL spent
    dodged: set[int] = field(default_factory=set)
    moved: set[int] = field(default_factory=set)  # knocked back out of the area


class CombatRules(GameCore):
    def _do_attack(self, cmd: Command, out: Outcome) -> None:
        f = self._need_turn(cmd.arg(0, "a character"))
        move_name = cmd.arg(1, "a combat move")
        move = next((m for m in f.spec.moves if norm(m.name) == norm(move_name)), None)
        if move is None:
            known = ", ".join(m.name for m in f.spec.moves)
            raise IllegalAction(f"{f.name} has no combat move {move_name!r} (has: {known})")
        self._need_combat(f)
        timer = self.timer(f, "move", move.name)
        unleashing = f.charging is move
        if f.charging is not None and not unleashing:
            raise IllegalAction(f"{f.name} is charging {f.charging.name}: it must be unleashed")
        if not unleashing and not self.ready(f, "move", move.name):
            left = cooldowns.remaining(self.slot(f), timer)
            raise IllegalAction(f"{move.name} is on cooldown ({plural(left, 'turn')} left)")
        s = self.slot(f)
        if s.flags & F_GRAPPLED and not move.effects.release:
            raise IllegalAction(f"{f.name} is grappled: only a move with release can be used")
        if f.grappling != NO_SLOT:
            raise IllegalAction(f"{f.name} is grappling: crush or release instead of a combat move")
        fx = move.effects
        strikes = move.is_attack or move.type == "debuff"
        if strikes:
            targets = self._aim(f, move.name, fx, cmd.args[2:], True)
            if move.type == "debuff" and any(t.spec.team == f.spec.team for t in targets):
                raise IllegalAction("a debuff only affects enemies")
        else:
            targets = self._targets(cmd.args[2:], f, fx) if cmd.args[2:] else []
            if any(t.spec.team != f.spec.team for t in targets):
                raise IllegalAction("a buff only affects the user and allies")
        self._check_options(f, move.name, fx, cmd, targets, ranged=move.type == "range")

        if fx.charge and not unleashing and timer and not self._free_timers(f):
            raise IllegalAction(
                f"{f.name} has no cooldown timer free (the board holds {MAX_COOLDOWNS}):"
                f" {move.name} could not cool down if its charge broke"
            )
        f.combat_used = True
        if fx.charge and not unleashing:
            f.charging = move
            f.charge_turn = self.turn_number
            status.set_flag(self.state, s, F_CHARGING, True)
            out.say(f"{f.name} begins charging {move.name}: it strikes on the next turn")
            return
        if unleashing:
            f.charging = None
            status.set_flag(self.state, s, F_CHARGING, False)
        self._use_timer(f, timer, move.cooldown)
        out.say(f"{f.name} uses {move.name}" + _on(None, targets))
        self._resolve(f, move.name, fx, timer, targets, cmd, out, strikes)

    def _do_item(self, cmd: Command, out: Outcome) -> None:
        f = self._need_turn(cmd.arg(0, "a character"))
        item_name = cmd.arg(1, "an item")
        item = next((i for i in f.hand if norm(i.name) == norm(item_name)), None)
        if item is None:
            have = ", ".join(i.name for i in f.hand) or "nothing"
            raise IllegalAction(f"{f.name} holds no item {item_name!r} (holds: {have})")
        timer = self.timer(f, "item", item.name)
        if not self.ready(f, "item", item.name):
            raise IllegalAction(f"{item.name} is on cooldown")
        fx = item.effects
        self._need_hands(f, item.name, fx, "items")
        targets = self._aim(f, item.name, fx, cmd.args[2:], fx.strikes)
        self._check_options(f, item.name, fx, cmd, targets, ranged=False)
        self._spend_ap(f, 1, f"using {item.name}")
        self._use_timer(f, timer, item.cooldown)
        out.say(f"{f.name} uses {item.name}" + _on(f, targets))
        if item.kind == "consumable":
            f.hand.remove(item)
        self._resolve(f, item.name, fx, timer, targets, cmd, out, fx.strikes)

    def _do_artifact(self, cmd: Command, out: Outcome) -> None:
        f = self._need_turn(cmd.arg(0, "a character"))
        name = cmd.arg(1, "an artifact")
        art: Artifact | None = next(
            (a for a in f.spec.artifacts if norm(a.name) == norm(name)), None
        )
        if art is None:
            raise IllegalAction(f"{f.name} has no artifact {name!r}")
        if art.kind != "active":
            raise IllegalAction(f"{art.name} is passive: it is always on and cannot be activated")
        timer = self.timer(f, "artifact", art.name)
        if not self.ready(f, "artifact", art.name):
            raise IllegalAction(f"{art.name} is on cooldown")
        fx = art.effects
        self._need_hands(f, art.name, fx, "artifacts")
        targets = self._aim(f, art.name, fx, cmd.args[2:], fx.strikes)
        self._check_options(f, art.name, fx, cmd, targets, ranged=False)
        self._use_timer(f, timer, art.cooldown)
        out.say(f"{f.name} activates {art.name}" + _on(f, targets))
        self._resolve(f, art.name, fx, timer, targets, cmd, out, fx.strikes)

    def _need_hands(self, f: Fighter, name: str, fx: Effects, what: str) -> None:
        """Items (and artifacts, which act like permanent items) are out of reach while
        maintaining a grapple, and while grappled unless they release."""
        if f.grappling != NO_SLOT:
            raise IllegalAction(f"{f.name} is maintaining a grapple and cannot use {what}")
        if self.slot(f).flags & F_GRAPPLED and not fx.release:
            raise IllegalAction(
                f"{f.name} is grappled: only an {what[:-1]} with release can be used"
            )

    def _free_timers(self, f: Fighter) -> int:
        s = self.slot(f)
        return sum(1 for i in range(MAX_COOLDOWNS) if s.cd_id[i] == 0)

    def _use_timer(self, f: Fighter, timer: int, turns_: int) -> None:
        if timer == 0 or turns_ == 0:
            return
        charge = f.charging
        if charge is not None and self._free_timers(f) <= 1:
            own = self.timer(f, "move", charge.name)
            if own and own != timer:
                raise IllegalAction(
                    f"{f.name} keeps a cooldown timer free for its charge of {charge.name}"
                )
        try:
            cooldowns.use(self.state, self.slot(f), timer, turns_)
        except ValueError as err:
            raise IllegalAction(f"{f.name}: {err}") from None

    def _targets(self, names: list[str], user: Fighter, effects: Effects) -> list[Fighter]:
        if not names:
            return [user]
        found = []
        for n in names:
            t = self.fighter(n)
            if not self.alive(t):
                raise IllegalAction(f"{t.name} has collapsed and cannot be targeted")
            if t in found:
                raise IllegalAction(f"{t.name} is named twice")
            found.append(t)
        if len(found) > effects.targets:
            raise IllegalAction(
                f"this selects at most {plural(effects.targets, 'target')}, not {len(found)}"
            )
        return found

    def _aim(
        self, f: Fighter, name: str, fx: Effects, names: list[str], strikes: bool
    ) -> list[Fighter]:
        """The targets named: something that strikes needs at least one, never its user;
        anything else lands on its user when none is named."""
        if not strikes:
            return self._targets(names, f, fx)
        if not names:
            raise IllegalAction(f"{name} needs a target")
        targets = self._targets(names, f, fx)
        if f in targets:
            raise IllegalAction(f"{f.name} cannot target itself with {name}")
        return targets

    def _check_options(
        self, f: Fighter, name: str, fx: Effects, cmd: Command, targets, ranged: bool
    ) -> None:
        """The options of an attack, item or artifact, checked before anything changes; SOL
        declared by each fighter must be held, all of it, before any is spent."""
        if "fulldraw" in cmd.opts:
            if f.spec.weapon != "bow":
                raise IllegalAction("full draw is the bow class's bonus")
            if not ranged:
                raise IllegalAction("full draw works only before a ranged combat move")
        if "reroll" in cmd.opts:
            if f.spec.weapon != "axe":
                raise IllegalAction("rerolling the POWER_Roll is the axe class's bonus (Brutality)")
            if cmd.opts["reroll"] != "":
                cmd.int_opt("reroll", 1, MAX_DICE)
        need: dict[int, int] = {}
        if "sol" in cmd.opts:
            if cmd.opts["sol"] != "power":
                raise IllegalAction("sol=power (the user's POWER_Roll) is the attacker's choice")
            need[f.index] = 1
        if "exchange" in cmd.opts:
            if fx.exchange is None:
                raise IllegalAction(f"{name} has no exchange")
            give, _, _ = fx.exchange
            n = cmd.int_opt("exchange", 1, 9)
            if give == "sol":
                need[f.index] = need.get(f.index, 0) + n
            else:
                have = {"armor": f.armor, "kor": self.slot(f).kor - 1}[give]
                if n > have:
                    raise IllegalAction(f"{f.name} cannot exchange {n} {give} (has {have} to give)")
        for key in ("dodge_sol", "resist_sol"):
            for t in {
                self.fighter(who).index: self.fighter(who) for who in cmd.list_opt(key)
            }.values():
                if t not in targets:
                    raise IllegalAction(f"{key}: {t.name} is not a target of {name}")
                need[t.index] = need.get(t.index, 0) + 1
        for index, points in need.items():
            who = self.fighters[index]
            if points > who.sol:
                raise IllegalAction(
                    f"{who.name} declares {plural(points, 'SOL point')} in this command but holds"
                    f" {who.sol}"
                )
        for named in cmd.list_opt("cornered"):
            self.fighter(named)
        for spec in cmd.list_opt("kb"):
            parsed = parse_kb(spec)
            self.fighter(parsed[0])
            if parsed[1] == "creature":
                self.fighter(parsed[2])

    def _pay_sol(self, a: _Attack, f: Fighter, kind: str, out: Outcome) -> None:
        """SOL is spent just before the roll it adds dice to; once per fighter and kind of roll
        in one use (a double hit's second strike rolls with the same dice)."""
        if (f.index, kind) in a.paid:
            return
        a.paid.add((f.index, kind))
        f.sol -= 1
        out.say(f"{f.name} spends 1 SOL: {self.encounter.options.sol_dice} more {kind} dice")

    def _resolve(
        self,
        user: Fighter,
        name: str,
        fx: Effects,
        timer: int,
        targets: list[Fighter],
        cmd: Command,
        out: Outcome,
        strikes: bool,
    ) -> None:
        """A move, item or artifact takes effect: release first, then either the attack
        (hit and damage instances, statuses, knockback) or the buff on its targets."""
        self._current = fx
        try:
            if fx.release:
                self._free(user, out)
            self._during(user, name, fx, out)
            if not self.alive(user):
                return
            if strikes:
                self._attack(user, name, fx, timer, targets, cmd, out)
                if fx.heal or fx.armor_gain or fx.cleanse or fx.true_sight or fx.threat:
                    # On an attack these land on the user once the strikes are resolved.
                    self._support(user, user, fx, timer, name, out, with_modifiers=False)
            else:
                self._exchange(user, fx, cmd, out)
                self._buff(user, name, fx, timer, targets, out)
            if fx.condition and fx.condition[0] == "resist_success" and self.alive(user):
                _, gain, amount = fx.condition
                user.modifiers.append(
                    Modifier(user.index, timer, RESIST_SUCCESS + gain, amount, name)
                )
                out.say(f"{name}: {user.name} gains {amount} {gain} on each successful RESIST_Roll")
        finally:
            self._current = None

    def _attack(self, user: Fighter, name: str, fx: Effects, timer: int, targets, cmd, out) -> None:
        a = _Attack(
            user,
            name,
            fx,
            timer,
            cmd,
            cornered={self.fighter(n).index for n in cmd.list_opt("cornered")},
            dodge_sol={self.fighter(n).index for n in cmd.list_opt("dodge_sol")},
            resist_sol={self.fighter(n).index for n in cmd.list_opt("resist_sol")},
            power_sol=cmd.opts.get("sol") == "power",
        )
        if "fulldraw" in cmd.opts:
            s = self.slot(user)
            a.bonus += s.ap
            become = "becomes" if s.ap == 1 else "become"
            out.say(
                f"{user.name} draws fully: {plural(s.ap, 'unused action point')} {become}"
                f" +{s.ap} damage"
            )
            s.ap = 0
            self.state.touch()
        a.bonus += self._exchange(user, fx, cmd, out)
        self._strike(a, targets, out)
        if fx.double_hit:
            again = [
                t
                for t in targets
                if self.alive(t) and t.index not in a.dodged and t.index not in a.moved
            ]
            if again:
                out.say("double hit: the move strikes again")
                self._strike(a, again, out)

    def _exchange(self, user: Fighter, fx: Effects, cmd: Command, out: Outcome) -> int:
        """EXCHANGE, when the command asks for it (`exchange=N`, checked by _check_options):
        the user gives N of one indicator for N x rate of another; returns the damage bought
        (the encounter allows damage only where a damage instance follows)."""
        if fx.exchange is None or "exchange" not in cmd.opts:
            return 0
        give, get, rate = fx.exchange
        n = cmd.int_opt("exchange", 1, 9)
        if give == "armor":
            user.armor -= n
        elif give == "kor":
            self.slot(user).kor -= n
            self.state.touch()
        else:
            user.sol -= n
        gained = n * rate
        out.say(f"{user.name} exchanges {n} {give} for {gained} {get}")
        if get == "damage":
            return gained
        self._gain(user, get, gained, out)
        return 0

    def _strike(self, a: _Attack, targets: list[Fighter], out: Outcome) -> None:
        """One strike, indicator by indicator: one HIT_Roll against each target's own
        AGILITY_Roll, sunder, one POWER_Roll against each target's own RESIST_Roll, burn,
        then each hit target's debuffs, status flips, knockdown and knockback."""
        user, fx = a.user, a.fx
        # A grappler that is targeted lets go at once.
        for t in targets:
            if t.grappling != NO_SLOT:
                self._release(
                    self.fighters[t.grappling], out, "is dropped as its grappler is attacked"
                )
        foes = []
        for t in targets:
            if not self.alive(t):
                continue
            if t.spec.team == user.spec.team and fx.bless:
                self._bless(t, out)
                continue
            foes.append(t)
        chance = self._hit_roll(a) if fx.hit and foes else 0
        struck = [t for t in foes if self._hit_instance(a, t, chance, out)]
        for t in struck:
            if fx.sunder:
                chipped = min(fx.sunder, t.armor)
                t.armor -= chipped
                if chipped:  # no armor left to chip: nothing to say
                    out.say(f"sunder: {t.name}'s armor is chipped by {chipped}")
        burns = {t.index: status.burn_damage_on_hit(self.slot(t)) for t in struck}
        power, extra = 0, 0
        if fx.damage is not None and struck:
            power, extra = self._power_roll(a, out)
            cond = fx.condition
            if cond and cond[0] == "hit" and cond[1] == "damage":
                extra += cond[2]  # CONDITION: each hit's damage instance gains it
        for t in struck:
            if fx.damage is not None and self.alive(t):
                self._damage_instance(a, t, power, extra, out)
            if burns[t.index] and self.alive(t):
                self._unblockable(
                    t, burns[t.index], user, out, f"burns ({plural(burns[t.index], 'stack')})"
                )
        for t in struck:
            for key, amount in fx.modifiers.items():  # a debuff, or an attack's rider
                t.modifiers.append(Modifier(user.index, a.timer, key, amount, a.name))
            if fx.modifiers:
                out.say(f"{a.name} changes {t.name} while it is on cooldown")
            if self.alive(t):
                self._flips(user, t, fx, out)
                if fx.knockdown:
                    status.set_flag(self.state, self.slot(t), F_KNOCKED_DOWN, True)
                    out.say(f"{t.name} is knocked down")
                    self._break_charge(t, "knocked down", out)
                if fx.knockback and self._knockback(user, t, a.cmd, out):
                    a.moved.add(t.index)
            if t.index in self._loose_after:
                # A grappled creature with no chance to dodge is released after the attack.
                self._loose_after.discard(t.index)
                self._release(t, out, "is knocked loose")
        if fx.bless and not any(t.spec.team == user.spec.team for t in targets):
            self._bless(user, out)
        if struck and fx.condition and fx.condition[0] == "hit" and fx.condition[1] != "damage":
            self._gain(user, fx.condition[1], fx.condition[2], out)

    def _hit_roll(self, a: _Attack) -> int:
        """The user's one HIT_Roll for this strike, as a hit chance."""
        user = a.user
        chance = self._action_roll("hit", user, a.fx.hit)
        if user.blinded:
            chance += BLIND_HIT
        if user.has("true_sight"):
            chance += TRUE_SIGHT_HIT
        chance += self.modifier_total(user, "hit")
        return max(0, chance)

    def _hit_instance(self, a: _Attack, t: Fighter, chance: int, out: Outcome) -> bool:
        user = a.user
        if a.fx.hit == 0:
            return True
        s = self.slot(t)
        held = s.flags & F_GRAPPLED
        agility = self.attribute(t, "agility")
        if held:
            agility = max(0, agility + GRAPPLED_AGILITY)
        sol = t.index in a.dodge_sol
        if sol:
            agility += self.encounter.options.sol_dice
        if t.index in a.cornered:
            out.say(f"{t.name} cannot step out of the area: automatic hit")
            dodge = -1
        elif agility == 0:
            out.say(f"{t.name} has no chance to dodge: automatic hit")
            dodge = -1
            if held:
                self._loose_after.add(t.index)
        else:
            if sol:
                self._pay_sol(a, t, "dodge", out)
            dodge = self._action_roll("dodge", t, agility)
        if dodge > chance:
            out.say(f"{t.name} dodges ({dodge} against {chance})")
            t.stats.dodges += 1
            user.stats.misses += 1
            a.dodged.add(t.index)
            status.set_flag(self.state, s, F_KNOCKED_DOWN, False)
            status.set_flag(self.state, s, F_PINNED, False)
            if held:
                self._release(t, out, "slips the grapple")
            self._break_charge(t, "stepped aside", out)
            return False
        out.say(f"{user.name} hits {t.name} ({chance} against {max(dodge, 0)})")
        user.stats.hits += 1
        return True

    def _power_roll(self, a: _Attack, out: Outcome) -> tuple[int, int]:
        """The user's one POWER_Roll for this strike (with SOL and Brutality's reroll):
        its successes, and the damage a power_success condition adds."""
        user, fx, cmd = a.user, a.fx, a.cmd
        n = self.attribute(user, "power")
        if a.power_sol:
            n += self.encounter.options.sol_dice
            self._pay_sol(a, user, "power", out)
        power = self._action_roll("power", user, n)
        reroll_below = cmd.opts.get("reroll")
        if reroll_below is not None:
            threshold = 1 if reroll_below == "" else cmd.int_opt("reroll", 1, MAX_DICE)
            if power < threshold:
                power = self._action_roll("power", user, n)
                out.say(f"{user.name} rerolls the POWER_Roll (Brutality): {power}")
        user.stats.crits += power
        extra = 0
        if power and fx.condition and fx.condition[0] == "power_success":
            if fx.condition[1] == "damage":
                extra = fx.condition[2]
            else:
                self._gain(user, fx.condition[1], fx.condition[2], out)
        return power, extra

    def _damage_instance(self, a: _Attack, t: Fighter, power: int, extra: int, out) -> None:
        user, fx = a.user, a.fx
        per = fx.conversion or 1
        potential = (fx.damage or 0) + power * per + a.bonus + extra
        resist = 0
        if not fx.resist_piercing:
            rn = self.attribute(t, "resistance")
            if t.index in a.resist_sol:
                rn += self.encounter.options.sol_dice
                self._pay_sol(a, t, "resist", out)
            resist = self._action_roll("resist", t, rn)
        armor = 0
        if not fx.armor_piercing:
            armor = self._action_roll("armor", t, self.attribute(t, "armor"))
        by_resist = min(resist, potential)
        by_armor = min(armor, potential - by_resist)
        if by_armor:
            t.armor = max(0, t.armor - by_armor)
        blocked = by_resist + by_armor
        t.stats.blocked += blocked
        dealt = potential - blocked
        out.say(
            f"damage {potential} ({fx.damage} base + {power * per} power"
            + (f" + {a.bonus}" if a.bonus else "")
            + (f" + {extra}" if extra else "")
            + f"), {by_resist} resisted, {by_armor} by armor"
            + (f" (armor chipped to {t.armor})" if by_armor else "")
            + f": {dealt} to {t.name}"
        )
        self._hurt(t, dealt, user, out)
        if resist and self.alive(t):
            for m in list(t.modifiers):
                if m.key.startswith(RESIST_SUCCESS):
                    out.say(f"{m.source}: {t.name}'s RESIST_Roll succeeded")
                    self._gain(t, m.key[len(RESIST_SUCCESS) :], m.amount, out)


def _on(user: Fighter | None, targets: list[Fighter]) -> str:
    """ " on A, B" for a log line (nothing when the only target is the user itself)."""
    if not targets or targets == [user]:
        return ""
    return " on " + ", ".join(t.name for t in targets)
