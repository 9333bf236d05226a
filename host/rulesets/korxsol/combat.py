"""Combat in the korxsol engine: a combat move, an item or an active artifact used, from the
checks before anything changes (turn, cooldown, aim, options, SOL held) to its resolution:
the HIT_Roll against each target's AGILITY_Roll, the POWER_Roll against each RESIST_Roll
and armor, and what a hit brings (sunder, burn, debuffs, statuses, knockdown, knockback).
What lands without a hit (heals, buffs, bless, cleanse) is host.rulesets.korxsol.effects.

`plan_attack` is the one place the attack's maths is written: the options checked, the dice
each roll takes and every bonus to the damage. The engine resolves a use by its plan, and
host.rulesets.korxsol.exact_odds counts the odds of the same plan.
"""

from __future__ import annotations

from host.core.plurals import plural
from host.rulesets.korxsol import threat
from host.rulesets.korxsol.attack import Attack, AttackPlan, Defence
from host.rulesets.korxsol.device import BURN, F_CHARGING, F_GRAPPLED, F_KNOCKED_DOWN, F_PINNED
from host.rulesets.korxsol.fighter import Fighter, Modifier, norm
from host.rulesets.korxsol.game_core import GameCore, Outcome
from host.rulesets.korxsol.knockback import parse_kb
from host.rulesets.korxsol.language import Command
from host.rulesets.korxsol.model import RESIST_SUCCESS, Artifact, Effects
from host.rulesets.korxsol.rolls import IllegalAction
from shared import cooldowns, roster
from shared.limits import MAX_COOLDOWNS, MAX_DICE, NO_SLOT

GRAPPLED_AGILITY = -3
BLIND_HIT = -2
TRUE_SIGHT_HIT = 3


def hit_bonus_parts(game: GameCore, user: Fighter) -> tuple[tuple[str, int], ...]:
    """What the user's hit successes gain, and why: -2 blinded, +3 with true sight, `hit`
    modifiers."""
    parts = []
    if user.blinded:
        parts.append(("blinded", BLIND_HIT))
    if user.has("true_sight"):
        parts.append(("true sight", TRUE_SIGHT_HIT))
    modifiers = game.modifier_total(user, "hit")
    if modifiers:
        parts.append(("hit modifiers", modifiers))
    return tuple(parts)


def hit_bonus(game: GameCore, user: Fighter) -> int:
    """What the user's hit successes gain (hit_bonus_parts, summed)."""
    return sum(amount for _, amount in hit_bonus_parts(game, user))


def dodge_dice(game: GameCore, t: Fighter, grappled: bool, sol: bool) -> int:
    """A target's AGILITY_Roll against a hit: -3 while grappled, then SOL's dice."""
    agility = game.attribute(t, "agility")
    if grappled:
        agility = max(0, agility + GRAPPLED_AGILITY)
    if sol:
        agility += game.encounter.options.sol_dice
    return agility


def power_dice(
    game: GameCore, user: Fighter, sol: bool, during: dict[str, int] | None = None
) -> int:
    """The user's POWER_Roll: its power (with `during`, the ATTRIBUTE changes the use has not
    made yet), then SOL's dice."""
    n = game.attribute(user, "power", during)
    if sol:
        n += game.encounter.options.sol_dice
    return n


def resist_dice(game: GameCore, fx: Effects, t: Fighter, sol: bool) -> int:
    """A target's RESIST_Roll, with SOL's dice; none against resistance piercing."""
    if fx.resist_piercing:
        return 0
    n = game.attribute(t, "resistance")
    if sol:
        n += game.encounter.options.sol_dice
    return n


def armor_dice(game: GameCore, fx: Effects, t: Fighter, sunder: int = 0) -> int:
    """A target's ARMOR_Roll once `sunder` more points are chipped; none against armor
    piercing."""
    if fx.armor_piercing:
        return 0
    return game.attribute(t, "armor", chipped=min(sunder, t.armor))


def plan_attack(
    game: GameCore,
    user: Fighter,
    name: str,
    fx: Effects,
    targets: list[Fighter],
    cmd: Command,
    ranged: bool,
) -> AttackPlan:
    """The plan of `user` using `name` (a move, item or artifact with effects `fx`) on
    `targets` with the options of `cmd`, checked before anything changes: IllegalAction
    for an option the user cannot take, and for SOL declared beyond what a fighter holds.
    The dice are counted as the strike will roll them: after the use's ATTRIBUTE changes,
    its grapplers letting go and its sunder."""
    opts = cmd.opts
    if "fulldraw" in opts:
        if user.spec.weapon != "bow":
            raise IllegalAction("full draw is the bow class's bonus")
        if not ranged:
            raise IllegalAction("full draw works only before a ranged combat move")
    reroll_below = 0
    if "reroll" in opts:
        if user.spec.weapon != "axe":
            raise IllegalAction("rerolling the POWER_Roll is the axe class's bonus (Brutality)")
        reroll_below = 1 if opts["reroll"] == "" else cmd.int_opt("reroll", 1, MAX_DICE)
    need: dict[int, int] = {}
    if "sol" in opts:  # sol=power, the user's POWER_Roll (the grammar takes no other)
        need[user.index] = 1
    exchange, exchange_damage = 0, 0
    if "exchange" in opts:
        if fx.exchange is None:
            raise IllegalAction(f"{name} has no exchange")
        give, get, rate = fx.exchange
        exchange = cmd.int_opt("exchange", 1, 9)
        if give == "sol":
            need[user.index] = need.get(user.index, 0) + exchange
        else:
            have = {"armor": user.armor, "kor": game.slot(user).health - 1}[give]
            if exchange > have:
                raise IllegalAction(
                    f"{user.name} cannot exchange {exchange} {give} (has {have} to give)"
                )
        if get == "damage":
            exchange_damage = exchange * rate
    sol_named: dict[str, set[int]] = {}
    for key in ("dodge_sol", "resist_sol"):
        sol_named[key] = set()
        for t in {game.fighter(who).index: game.fighter(who) for who in cmd.list_opt(key)}.values():
            if t not in targets:
                raise IllegalAction(f"{key}: {t.name} is not a target of {name}")
            need[t.index] = need.get(t.index, 0) + 1
            sol_named[key].add(t.index)
    for index, points in need.items():
        who = game.fighters[index]
        if points > who.sol:
            raise IllegalAction(
                f"{who.name} declares {plural(points, 'SOL point')} in this command but holds"
                f" {who.sol}"
            )
    cornered = {game.fighter(named).index for named in cmd.list_opt("cornered")}
    paths = []
    for spec in cmd.list_opt("kb"):
        parsed = parse_kb(spec)
        game.fighter(parsed[0])
        if parsed[1] == "creature":
            game.fighter(parsed[2])
        paths.append(parsed)
    in_the_way = {game.fighter(p[2]).index for p in paths if p[1] == "creature"}
    collide_sol = {
        game.fighter(who).index: game.fighter(who) for who in cmd.list_opt("collide_sol")
    }
    for t in collide_sol.values():
        if t.index not in in_the_way:
            raise IllegalAction(
                f"collide_sol: {t.name} is in no knockback's path (kb=TARGET:creature:{t.name})"
            )
        points = need.get(t.index, 0) + 1
        if points > t.sol:
            raise IllegalAction(
                f"{t.name} declares {plural(points, 'SOL point')} in this command but holds {t.sol}"
            )

    power_sol = "sol" in opts
    defences = []
    for t in targets:
        # A targeted grappler lets go first, so only a creature held by no target is grappled.
        held = t.grappled_by != NO_SLOT and all(o.index != t.grappled_by for o in targets)
        dodge_sol = t.index in sol_named["dodge_sol"]
        resist_sol = t.index in sol_named["resist_sol"]
        defences.append(
            Defence(
                t.index,
                t.index in cornered,
                dodge_dice(game, t, held, dodge_sol),
                dodge_sol,
                resist_dice(game, fx, t, resist_sol),
                resist_sol,
                armor_dice(game, fx, t, fx.sunder),
            )
        )
    cond = fx.condition or ("", "", 0)
    return AttackPlan(
        user=user.index,
        name=name,
        hit_dice=fx.hit,
        hit_bonus=hit_bonus(game, user),
        hit_bonus_parts=hit_bonus_parts(game, user),
        power_dice=power_dice(game, user, power_sol, fx.during),
        power_sol=power_sol,
        reroll_below=reroll_below,
        base_damage=fx.damage or 0,
        per_success=fx.conversion or 1,
        full_draw=game.slot(user).actions if "fulldraw" in opts else None,
        exchange=exchange,
        exchange_damage=exchange_damage,
        hit_damage=cond[2] if cond[:2] == ("hit", "damage") else 0,
        power_success_damage=cond[2] if cond[:2] == ("power_success", "damage") else 0,
        defences=tuple(defences),
        knockback=tuple(paths),
        collide_sol=frozenset(collide_sol),
    )


def _typed(name: str) -> str:
    """A name as it is typed at the prompt: quoted when it has spaces."""
    return f'"{name}"' if " " in name else name


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
            raise IllegalAction(
                f"{f.name} is charging {f.charging.name}: unleash it first"
                f" (`attack {f.name} {_typed(f.charging.name)} TARGET`)"
            )
        if not unleashing and not self.ready(f, "move", move.name):
            left = cooldowns.remaining(self.slot(f), timer)
            raise IllegalAction(f"{move.name} is on cooldown ({plural(left, 'turn')} left)")
        s = self.slot(f)
        if s.flags & F_GRAPPLED and not move.effects.release:
            freeing = [m.name for m in f.spec.moves if m.effects.release]
            which = f"one with release: {', '.join(freeing)}" if freeing else "none has release"
            raise IllegalAction(
                f"{f.name} is grappled: {move.name} cannot be used ({which}; or"
                f" `struggle {f.name}` to break free)"
            )
        if f.grappling != NO_SLOT:
            raise IllegalAction(f"{f.name} is grappling: crush or release instead of a combat move")
        fx = move.effects
        strikes = move.is_attack or move.type == "debuff"
        if strikes:
            targets = self.aim(f, move.name, fx, cmd.args[2:], True)
            if move.type == "debuff" and any(t.spec.team == f.spec.team for t in targets):
                raise IllegalAction("a debuff only affects enemies")
        else:
            targets = self._targets(cmd.args[2:], f, fx) if cmd.args[2:] else []
            if any(t.spec.team != f.spec.team for t in targets):
                raise IllegalAction("a buff only affects the user and allies")
        plan = plan_attack(self, f, move.name, fx, targets, cmd, ranged=move.type == "range")
        waived = None
        if strikes:
            waived = threat.check(self, f, move.name, targets, cmd.opts.get("threat"))
        elif "threat" in cmd.opts:
            raise IllegalAction(f"threat= is for attacks; {move.name} is a {move.type}")
        reach = self._check_reach(f, move.name, move.type, fx, targets, cmd)

        if fx.charge and not unleashing and timer and not self._free_timers(f):
            raise IllegalAction(
                f"{f.name} has no cooldown timer free (the board holds {MAX_COOLDOWNS}):"
                f" {move.name} could not cool down if its charge broke"
            )
        f.combat_used = True
        if fx.charge and not unleashing:
            f.charging = move
            f.charge_turn = self.turn_number
            roster.set_flag(self.state, s, F_CHARGING, True)
            out.say(f"{f.name} begins charging {move.name}: it strikes on the next turn")
            if waived:
                out.say(waived)
            return
        if unleashing:
            f.charging = None
            roster.set_flag(self.state, s, F_CHARGING, False)
        self._use_timer(f, timer, move.cooldown)
        out.say(f"{f.name} uses {move.name}" + _on(None, targets))
        for line in ([waived] if waived else []) + reach:
            out.say(line)
        self._resolve(f, move.name, fx, timer, targets, plan, out, strikes)
        self._move_by_movement(f, move.name, cmd, out)

    def _do_item(self, cmd: Command, out: Outcome) -> None:
        f = self._need_turn(cmd.arg(0, "a character"))
        item_name = cmd.arg(1, "an item")
        item = next((i for i in f.hand if norm(i.name) == norm(item_name)), None)
        if item is None:
            have = ", ".join(i.name for i in f.hand) or "nothing"
            raise IllegalAction(f"{f.name} holds no item {item_name!r} (holds: {have})")
        timer = self.timer(f, "item", item.name)
        if not self.ready(f, "item", item.name):
            raise IllegalAction(self._cooling(f, timer, item.name, item.kind))
        fx = item.effects
        targets, plan, said = self._aimed(f, item.name, "item", fx, cmd)
        self._spend_ap(f, 1, f"using {item.name}")
        self._use_timer(f, timer, item.cooldown)
        out.say(f"{f.name} uses {item.name}" + _on(f, targets))
        for line in said:
            out.say(line)
        if item.kind == "consumable":
            f.hand.remove(item)
        self._resolve(f, item.name, fx, timer, targets, plan, out, fx.strikes)
        self._move_by_movement(f, item.name, cmd, out)

    def _do_artifact(self, cmd: Command, out: Outcome) -> None:
        f = self._need_turn(cmd.arg(0, "a character"))
        name = cmd.arg(1, "an artifact")
        art: Artifact | None = next(
            (a for a in f.spec.artifacts if norm(a.name) == norm(name)), None
        )
        if art is None:
            have = ", ".join(a.name for a in f.spec.artifacts) or "none"
            raise IllegalAction(f"{f.name} has no artifact {name!r} (has: {have})")
        if art.kind != "active":
            raise IllegalAction(f"{art.name} is passive: it is always on and cannot be activated")
        timer = self.timer(f, "artifact", art.name)
        if not self.ready(f, "artifact", art.name):
            raise IllegalAction(self._cooling(f, timer, art.name, "artifact"))
        fx = art.effects
        targets, plan, said = self._aimed(f, art.name, "artifact", fx, cmd)
        self._use_timer(f, timer, art.cooldown)
        out.say(f"{f.name} activates {art.name}" + _on(f, targets))
        for line in said:
            out.say(line)
        self._resolve(f, art.name, fx, timer, targets, plan, out, fx.strikes)
        self._move_by_movement(f, art.name, cmd, out)

    def _aimed(
        self, f: Fighter, name: str, kind: str, fx: Effects, cmd: Command
    ) -> tuple[list[Fighter], AttackPlan, list[str]]:
        """What an item's or artifact's use (`kind`) checks before anything changes: the
        hands it needs, its targets, its attack's plan; and the lines of a threat it waived
        and of its reach."""
        self._need_hands(f, name, fx, kind + "s")
        targets = self.aim(f, name, fx, cmd.args[2:], fx.strikes)
        plan = plan_attack(self, f, name, fx, targets, cmd, ranged=False)
        waived = self._threat(f, name, fx, targets, cmd)
        reach = self._check_reach(f, name, kind, fx, targets, cmd)
        return targets, plan, ([waived] if waived else []) + reach

    def _threat(
        self, f: Fighter, name: str, fx: Effects, targets: list[Fighter], cmd: Command
    ) -> str | None:
        """THREAT binds an item or artifact that strikes like an attack (threat.check)."""
        if fx.strikes:
            return threat.check(self, f, name, targets, cmd.opts.get("threat"))
        if "threat" in cmd.opts:
            raise IllegalAction(f"threat= is for attacks; {name} does not strike")
        return None

    def _need_hands(self, f: Fighter, name: str, fx: Effects, what: str) -> None:
        """Items (and artifacts, which act like permanent items) are out of reach while
        maintaining a grapple, and while grappled unless they release."""
        if f.grappling != NO_SLOT:
            raise IllegalAction(f"{f.name} is maintaining a grapple and cannot use {what}")
        if self.slot(f).flags & F_GRAPPLED and not fx.release:
            raise IllegalAction(
                f"{f.name} is grappled: only an {what[:-1]} with release can be used"
            )

    def _cooling(self, f: Fighter, timer: int, name: str, kind: str) -> str:
        """Why an item or artifact cannot be used now: used this turn (its cooldown starts at
        this turn's Cooldown Phase, and it is shown at once), or still cooling down."""
        s = self.slot(f)
        left = plural(cooldowns.remaining(s, timer), "turn")
        index = next(i for i in range(MAX_COOLDOWNS) if s.cd_id[i] == timer)
        if not s.cd_pending & (1 << index):
            return f"{name} is on cooldown ({left} left)"
        if kind == "tool":
            return (
                f"{name} was used this turn: a tool comes back to the hand only after its"
                f" cooldown ({left} from this turn's Cooldown Phase)"
            )
        if kind == "artifact":
            return (
                f"{name} was activated this turn: it cannot be again until its cooldown ends"
                f" ({left} from this turn's Cooldown Phase)"
            )
        return f"{name} was used this turn and is on cooldown ({left} from this Cooldown Phase)"

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
            heals = effects.bless or (effects.heal and not effects.strikes)
            if not self.alive(t) and not (heals and t.spec.team == user.spec.team):
                raise IllegalAction(
                    f"{t.name} has collapsed: only healing from its own side (a heal or a"
                    " bless) can reach it"
                )
            if t in found:
                raise IllegalAction(f"{t.name} is named twice")
            found.append(t)
        if len(found) > effects.targets:
            raise IllegalAction(
                f"this selects at most {plural(effects.targets, 'target')}, not {len(found)}"
            )
        return found

    def aim(
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

    def _pay_sol(self, a: Attack, f: Fighter, kind: str, out: Outcome) -> None:
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
        plan: AttackPlan,
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
                self._attack(Attack(user, name, fx, timer, plan), targets, out)
                if fx.heal or fx.armor_gain or fx.cleanse or fx.true_sight or fx.threat:
                    # On an attack these land on the user once the strikes are resolved.
                    self._support(user, user, fx, timer, name, out, with_modifiers=False)
            else:
                self._exchange(user, fx, plan.exchange, out)
                self._buff(user, name, fx, timer, targets, out)
            if fx.condition and fx.condition[0] == "resist_success" and self.alive(user):
                _, gain, amount = fx.condition
                user.modifiers.append(
                    Modifier(user.index, timer, RESIST_SUCCESS + gain, amount, name)
                )
                out.say(f"{name}: {user.name} gains {amount} {gain} on each successful RESIST_Roll")
        finally:
            self._current = None

    def _attack(self, a: Attack, targets: list[Fighter], out: Outcome) -> None:
        user, fx, drawn = a.user, a.fx, a.plan.full_draw
        if drawn is not None:
            become = "becomes" if drawn == 1 else "become"
            out.say(
                f"{user.name} draws fully: {plural(drawn, 'unused action point')} {become}"
                f" +{drawn} damage"
            )
            self.slot(user).actions = 0
            self.state.touch()
        self._exchange(user, fx, a.plan.exchange, out)
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

    def _exchange(self, user: Fighter, fx: Effects, n: int, out: Outcome) -> None:
        """EXCHANGE, when the command asks for it (`exchange=N`, planned by plan_attack):
        the user gives N of one indicator for N x rate of another. Damage bought joins the
        damage instances (the plan's bonus; the encounter allows it only where one follows).
        """
        if fx.exchange is None or not n:
            return
        give, get, rate = fx.exchange
        if give == "armor":
            user.armor -= n
        elif give == "kor":
            self.slot(user).health -= n
            self.state.touch()
        else:
            user.sol -= n
        gained = n * rate
        out.say(f"{user.name} exchanges {n} {give} for {gained} {get}")
        if get != "damage":
            self._gain(user, get, gained, out)

    def _strike(self, a: Attack, targets: list[Fighter], out: Outcome) -> None:
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
            if t.spec.team == user.spec.team and fx.bless:
                self._bless(t, out)  # a collapsed ally too: bless heals it awake
                continue
            if not self.alive(t):
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
        burns = {t.index: self.slot(t).counters[BURN] for t in struck}
        power, extra = 0, 0
        if fx.damage is not None and struck:
            power, extra = self._power_roll(a, out)
            extra += a.plan.hit_damage  # CONDITION: each hit's damage instance gains it
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
                    roster.set_flag(self.state, self.slot(t), F_KNOCKED_DOWN, True)
                    out.say(f"{t.name} is knocked down")
                    self._break_charge(t, "knocked down", out)
                if fx.knockback and self._knockback(a, t, out):
                    a.moved.add(t.index)
            if t.index in self._loose_after:
                # A grappled creature with no chance to dodge is released after the attack.
                self._loose_after.discard(t.index)
                self._release(t, out, "is knocked loose")
        if fx.bless and not any(t.spec.team == user.spec.team for t in targets):
            self._bless(user, out)
        if struck and fx.condition and fx.condition[0] == "hit" and fx.condition[1] != "damage":
            self._gain(user, fx.condition[1], fx.condition[2], out)

    def _hit_roll(self, a: Attack) -> int:
        """The user's one HIT_Roll for this strike, as a hit chance."""
        chance = self._action_roll("hit", a.user, a.fx.hit)
        return max(0, chance + hit_bonus(self, a.user))

    def _hit_instance(self, a: Attack, t: Fighter, chance: int, out: Outcome) -> bool:
        user = a.user
        if a.fx.hit == 0:
            return True
        s = self.slot(t)
        held = s.flags & F_GRAPPLED
        planned = a.plan.defence(t)
        sol = planned.dodge_sol
        agility = dodge_dice(self, t, bool(held), sol)
        if planned.cornered:
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
            roster.set_flag(self.state, s, F_KNOCKED_DOWN, False)
            roster.set_flag(self.state, s, F_PINNED, False)
            if held:
                self._release(t, out, "slips the grapple")
            self._break_charge(t, "stepped aside", out)
            self._moved(t, out)  # the dodge's step out of the area
            return False
        out.say(f"{user.name} hits {t.name} ({chance} against {max(dodge, 0)})")
        user.stats.hits += 1
        return True

    def _power_roll(self, a: Attack, out: Outcome) -> tuple[int, int]:
        """The user's one POWER_Roll for this strike (with SOL and Brutality's reroll):
        its successes, and the damage a power_success condition adds."""
        user, fx, plan = a.user, a.fx, a.plan
        n = power_dice(self, user, plan.power_sol)  # its ATTRIBUTE changes are made by now
        if plan.power_sol:
            self._pay_sol(a, user, "power", out)
        power = self._action_roll("power", user, n)
        if power < plan.reroll_below:
            power = self._action_roll("power", user, n)
            out.say(f"{user.name} rerolls the POWER_Roll (Brutality): {power}")
        user.stats.crits += power
        extra = 0
        if power and fx.condition and fx.condition[0] == "power_success":
            if fx.condition[1] == "damage":
                extra = plan.power_success_damage
            else:
                self._gain(user, fx.condition[1], fx.condition[2], out)
        return power, extra

    def _damage_instance(self, a: Attack, t: Fighter, power: int, extra: int, out) -> None:
        user, fx, plan = a.user, a.fx, a.plan
        per = plan.per_success
        bonus = plan.bonus
        potential = plan.base_damage + power * per + bonus + extra
        resist = 0
        if not fx.resist_piercing:
            sol = plan.defence(t).resist_sol
            if sol:
                self._pay_sol(a, t, "resist", out)
            resist = self._action_roll("resist", t, resist_dice(self, fx, t, sol))
        armor = 0
        if not fx.armor_piercing:
            armor = self._action_roll("armor", t, armor_dice(self, fx, t))
        by_resist = min(resist, potential)
        by_armor = min(armor, potential - by_resist)
        if by_armor:
            t.armor = max(0, t.armor - by_armor)
        blocked = by_resist + by_armor
        t.stats.blocked += blocked
        dealt = potential - blocked
        out.say(
            f"damage {potential} ({fx.damage} base + {power * per} power"
            + (f" + {bonus}" if bonus else "")
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
