"""What lands on a fighter in the korxsol engine: a move's ATTRIBUTE changes, status flips
(burn, frost, fear, pin, blind, grapple), buffs and support (heal, armor, cleanse, true
sight, threat), bless, gains of armor, KOR and SOL, and damage down to a collapse.
"""

from __future__ import annotations

from host.core.plurals import plural
from host.rulesets.korxsol.device import (
    BURN,
    F_CHARGING,
    F_GRAPPLED,
    F_KNOCKED_DOWN,
    F_PINNED,
    FEAR,
    FROST,
)
from host.rulesets.korxsol.fighter import Fighter, Modifier
from host.rulesets.korxsol.game_core import GameCore, Outcome
from host.rulesets.korxsol.model import STATUS_FLIPS, Effects
from shared import roster
from shared.limits import MAX_DICE, NO_SLOT
from shared.state import F_OUT

BLESS_KOR = 1


def armor_after(armor: int, change: int, cap: int) -> int:
    """Armor after a change of the fighter's own (its move, item or artifact, an exchange, a
    condition) or the game master's: a gain stops at the cap and never takes back armor a
    teammate's assist put above it; a loss stops at 0."""
    if change > 0:
        return max(armor, min(cap, armor + change))
    return max(0, armor + change)


class EffectRules(GameCore):
    def _during(self, user: Fighter, name: str, fx: Effects, out: Outcome) -> None:
        """ATTRIBUTE: power, resistance and agility change until the move goes on cooldown
        (a modifier with no timer wears off as this turn ends); armor changes stay until
        chipped; KOR changes happen at once and are kept."""
        for key, amount in fx.during.items():
            if key == "armor":
                user.armor = armor_after(user.armor, amount, self.cap)
                out.say(f"{name}: {user.name}'s armor is now {user.armor}")
            elif key == "kor":
                if amount > 0:
                    self._heal(user, amount, out)
                else:
                    out.say(f"{name} costs {user.name} {-amount} KOR")
                    self._hurt(user, -amount, user, out)
            else:
                user.modifiers.append(Modifier(user.index, 0, key, amount, name))
                out.say(f"{name}: {user.name}'s {key} {amount:+d} until it goes on cooldown")

    def _flips(self, user: Fighter, t: Fighter, fx: Effects, out: Outcome) -> None:
        s = self.slot(t)
        for name in STATUS_FLIPS:
            if name == "blind" and fx.blinds:  # BLINDED outright: no chance flip
                t.blinded = True
                out.say(f"{t.name} is blinded")
                continue
            n = fx.flips.get(name, 0)
            if not n:
                continue
            n = max(0, n + self.modifier_total(user, name + "_flips"))
            if name in ("burn", "frost") and "fire" in t.spec.elements:
                out.say(f"{t.name} is immune to {name} (Inner Fire)")
                continue
            heads = self._heads(t, n, out, f"{name}: {t.name} flips {n}, no heads")
            if not heads:
                continue
            if name == "burn":
                self.state.add_counter(s, BURN, heads)
                out.say(f"burn: {t.name} now has {plural(s.counters[BURN], 'stack')}")
            elif name == "frost":
                self.state.add_counter(s, FROST, heads)
                out.say(f"frost: {t.name} now has {plural(s.counters[FROST], 'stack')}")
            elif name == "fear":
                self.state.add_counter(s, FEAR, heads)
                out.say(f"fear: {t.name} now has {plural(s.counters[FEAR], 'stack')}")
                self._break_charge(t, "feared", out)
            elif name == "pin":
                roster.set_flag(self.state, s, F_PINNED, True)
                out.say(f"{t.name} is pinned")
            elif name == "blind":
                t.blinded = True
                out.say(f"{t.name} is blinded")
            elif name == "grapple":
                if user.grappling != NO_SLOT or t.grappled_by != NO_SLOT or t is user:
                    out.say(f"{t.name} cannot be grappled now")
                    continue
                user.grappling = t.index
                t.grappled_by = user.index
                roster.set_flag(self.state, s, F_GRAPPLED, True)
                out.say(f"{user.name} grapples {t.name}")
                self._break_charge(t, "grappled", out)

    def _buff(
        self, user: Fighter, name: str, fx: Effects, timer: int, targets, out: Outcome
    ) -> None:
        if fx.bless:
            allies = [t for t in targets if t is not user]
            for t in allies or [user]:
                self._bless(t, out)
            return
        for t in targets or [user]:
            self._support(user, t, fx, timer, name, out)

    def _support(
        self,
        user: Fighter,
        t: Fighter,
        fx: Effects,
        timer: int,
        name: str,
        out: Outcome,
        with_modifiers: bool = True,
    ) -> None:
        """Effects that land without a hit instance: heal, armor, cleanse, buffs. A collapsed
        target is reached only by the heal, which wakes it."""
        if fx.heal:
            self._heal(t, fx.heal, out)
        if not self.alive(t):
            return
        if fx.armor_gain:
            self._gain(t, "armor", fx.armor_gain, out, by=user)
        if fx.cleanse:
            self._cleanse(t, fx.cleanse, out)
        for key, amount in fx.modifiers.items() if with_modifiers else ():
            t.modifiers.append(Modifier(user.index, timer, key, amount, name))
        if fx.true_sight:
            t.modifiers.append(Modifier(user.index, timer, "true_sight", 1, name))
        if fx.threat:
            t.modifiers.append(Modifier(user.index, timer, "threat", 1, name))
        if (fx.modifiers and with_modifiers) or fx.true_sight or fx.threat:
            out.say(f"{name} strengthens {t.name} while it is on cooldown")

    def _bless(self, t: Fighter, out: Outcome) -> None:
        self._heal(t, BLESS_KOR, out)
        self._cleanse(t, ("all",), out)
        out.say(f"{t.name} is blessed")

    def _cleanse(self, t: Fighter, which: tuple[str, ...], out: Outcome) -> None:
        s = self.slot(t)
        every = "all" in which
        if every or "burn" in which:
            s.counters[BURN] = 0
        if every or "frost" in which:
            s.counters[FROST] = 0
        if every or "fear" in which:
            s.counters[FEAR] = 0
        if every or "pin" in which:
            s.flags &= ~F_PINNED
        if every or "knockdown" in which:
            s.flags &= ~F_KNOCKED_DOWN
        if every or "blind" in which:
            t.blinded = False
        if (every or "grapple" in which) and t.grappled_by != NO_SLOT:
            self._release(t, out, "is cleansed of the grapple")
        self.state.touch()
        out.say(f"{t.name} is cleansed of {', '.join(which)}")

    def _gain(
        self, f: Fighter, what: str, amount: int, out: Outcome, by: Fighter | None = None
    ) -> None:
        """Armor, KOR or SOL gained (`by`: the one whose move, item or artifact gave it, when
        not `f` itself); damage is never gained here: it joins the damage instance it was
        gained for (_strike, _power_roll, an exchange's bonus)."""
        if what == "armor":
            if by is not None and by is not f and by.spec.team == f.spec.team:
                # A teammate's assist may go past the cap, up to the dice a roll can have.
                f.armor = min(MAX_DICE, f.armor + amount)
            else:
                f.armor = armor_after(f.armor, amount, self.cap)
            past = f" (assisted past +{self.cap})" if f.armor > self.cap else ""
            out.say(f"{f.name} gains armor: {f.armor}{past}")
        elif what == "kor":
            self._heal(f, amount, out)
        elif what == "sol":
            f.sol += amount
            out.say(f"{f.name} gains {amount} SOL")

    def _heal(self, f: Fighter, amount: int, out: Outcome) -> None:
        """KOR restored, never above the start; a collapsed fighter healed wakes (KOR: at 0
        it collapses, and KOR can be restored): back in play in its place in the order."""
        s = self.slot(f)
        before = s.health
        s.health = min(s.health_max, s.health + amount)  # healing never passes the starting KOR
        self.state.touch()
        out.say(f"{f.name} heals {s.health - before} KOR ({s.health}/{s.health_max})")
        if s.flags & F_OUT and s.health > 0 and f.name not in self.gone:
            s.flags &= ~F_OUT
            out.say(f"{f.name} wakes and is back in the fight")

    def _unblockable(
        self, t: Fighter, amount: int, source: Fighter, out: Outcome, why: str
    ) -> None:
        if amount <= 0:
            return
        out.say(f"{t.name} {why}: {amount} un-blockable damage")
        self._hurt(t, amount, source, out)

    def _hurt(self, t: Fighter, amount: int, source: Fighter, out: Outcome) -> None:
        s = self.slot(t)
        if amount <= 0 or s.flags & F_OUT:
            return
        dealt = min(amount, s.health)
        s.health -= dealt
        t.stats.damage_taken += dealt
        if source.spec.team != t.spec.team:
            source.stats.damage_dealt += dealt
        self.state.touch()
        if s.health == 0:
            self._collapse(t, source, out)

    def _collapse(self, t: Fighter, source: Fighter, out: Outcome) -> None:
        s = self.slot(t)
        s.flags |= F_OUT
        s.flags &= ~(F_CHARGING | F_GRAPPLED)
        t.charging = None
        if t.grappling != NO_SLOT:
            self._release(self.fighters[t.grappling], out, "is let go")
        if t.grappled_by != NO_SLOT:
            self._release(t, out, "goes limp")
        if source is not t and source.spec.team != t.spec.team:
            source.stats.kos += 1
        self.state.touch()
        out.say(f"{t.name} collapses (KOR 0)")
        cond = self._current.condition if self._current else None
        if cond and cond[0] == "knockout" and source is not t:  # never damage (encounter_schema.py)
            self._gain(source, cond[1], cond[2], out)
