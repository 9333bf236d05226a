"""Korxsol's turn flow on the desktop: initiative (or the game master's order), the start
and end of each turn (frozen turns, fear's flight, a collapsed fighter's skipped Cooldown
Phases, buffs and debuffs wearing off), the game master's adjustments, and the game's end.

The turn machine itself (order, rounds, phases, timing) is shared/'s code, called here.
"""

from __future__ import annotations

from host.core import numbers
from host.core.plurals import plural
from host.rulesets.korxsol.device import BURN, F_FROZEN, F_GRAPPLED, F_PINNED, FEAR, FROST
from host.rulesets.korxsol.effects import armor_after
from host.rulesets.korxsol.fighter import Fighter
from host.rulesets.korxsol.game_core import GameCore, Outcome
from host.rulesets.korxsol.language import Command
from host.rulesets.korxsol.rolls import IllegalAction, InitiativeDice
from shared import cooldowns, initiative, roster, turns

# What placed each turn position (shared.initiative.R_*), for the log and the views.
REASON_NAMES = ("successes", "base agility", "reroll", "out of play")


class TurnFlow(GameCore):
    def _do_initiative(self, cmd: Command, out: Outcome) -> None:
        """TURN ORDER: everyone rolls AGILITY; `sol=A,B` spends a SOL point of each named
        fighter on 3 more dice for its roll (not for a tie's reroll, a roll of its own)."""
        if self.started:
            raise IllegalAction(
                "initiative is already rolled: the order stands (`end` passes the turn)"
            )
        spending = {self.fighter(name).index: self.fighter(name) for name in cmd.list_opt("sol")}
        for f in spending.values():
            if f.sol < 1:
                raise IllegalAction(
                    f"{f.name} declares 1 SOL point in this command but holds {f.sol}"
                )
        sol_dice = self.encounter.options.sol_dice
        source = self.roller.initiative_dice(
            self.state, [f.name for f in self.fighters], {i: sol_dice for i in spending}
        )
        if isinstance(source, InitiativeDice):
            view = source.view
            result = initiative.roll_initiative(view, source, self.dice_kind, self.mask)
            source.finish()
            count = self.state.count
            roster.set_order(self.state, list(view.order[:count]), list(view.order_reason[:count]))
            for f in spending.values():
                if f.index in source.rolled:  # spent only on a roll that was made
                    f.sol -= 1
                    out.say(f"{f.name} spends 1 SOL: {sol_dice} more initiative dice")
            out.lines.extend(source.lines)
        else:  # a journal from before initiative rolls were recorded one per fighter
            if spending:
                raise IllegalAction("this journal's initiative roll has no SOL dice")
            result = initiative.roll_initiative(self.state, source, self.dice_kind, self.mask)
            self.roller.record_initiative(source)
        for pos, (index, successes, rerolls) in enumerate(result):
            reason = REASON_NAMES[self.state.order_reason[pos]]
            extra = f", {plural(rerolls, 'reroll')}" if rerolls else ""
            out.say(
                f"initiative {pos + 1}. {self.fighters[index].name}:"
                f" {plural(successes, 'success')},"
                f" placed by {reason}{extra}"
            )
        self._start(out)

    def _do_order(self, cmd: Command, out: Outcome) -> None:
        if self.started:
            raise IllegalAction("the turn order is already set: it stands (`end` passes the turn)")
        chosen = [self.fighter(n).index for n in cmd.args]
        if sorted(chosen) != list(range(len(self.fighters))):
            raise IllegalAction("order must name every character exactly once")
        roster.set_order(self.state, chosen, [0] * len(chosen))
        self.order_by_gm = True
        out.say("order set by the game master: " + ", ".join(self.fighters[i].name for i in chosen))
        self._start(out)

    def _start(self, out: Outcome) -> None:
        fears = self._fears()
        turns.start_round(self.state)
        self._record_timeline()
        self._turn_begins(out, fears)

    def _do_phase(self, cmd: Command, out: Outcome) -> None:
        """The board's next-phase key: the Action Phase ends (actions are refused from
        now on) and the turn waits in its Cooldown Phase for `end`; from the last phase it
        is `end`. shared/ steps the phase, as the board does untethered."""
        f = self._turn_of(cmd)
        if self.state.phase + 1 >= self.state.phase_count:
            self._do_end(cmd, out)
            return
        turns.advance_phase(self.state)
        out.say(f"{f.name}'s Action Phase is over: `end` runs the Cooldown Phase")

    def _turn_of(self, cmd: Command) -> Fighter:
        """The fighter whose turn `cmd` (`phase`, `end`) acts on: the running one, and the
        one it names if it names one."""
        if not self.started:
            raise IllegalAction("the fight has not started: roll initiative first")
        f = self.active
        assert f is not None
        if cmd.args and self.fighter(cmd.args[0]) is not f:
            raise IllegalAction(f"it is {f.name}'s turn, not {self.fighter(cmd.args[0]).name}'s")
        return f

    def _do_end(self, cmd: Command, out: Outcome) -> None:
        f = self._turn_of(cmd)
        f.blinded = False  # blinded lasts until the end of the blinded creature's turn
        if f.charging is not None and f.charge_turn != self.turn_number:
            self._break_charge(f, "not unleashed on its turn", out)
        # Ending the turn runs its Cooldown Phase and starts the next turn by korxsol's turn
        # rules, which shared/ runs (host/rulesets/korxsol/device.py states them): frost, getting
        # up, fear's flight, and the Cooldown Phases of a collapsed fighter's skipped turns
        # (so the buffs and debuffs it gave wear off on time).
        fears = self._fears()
        fears[f.index] = 0  # its own fear goes as its turn ends
        turns.end_turn(self.state)
        self._expire(out)
        out.say(f"{f.name} ends the turn (Cooldown Phase)")
        self.turn_number += 1
        self._record_timeline()
        self._turn_begins(out, fears)

    def _fears(self) -> list[int]:
        """Every slot's fear now, to tell what the next turn's start spent of it."""
        return [self.state.slots[i].counters[FEAR] for i in range(self.state.count)]

    def _turn_begins(self, out: Outcome, fears: list[int]) -> None:
        """The start of the new turn: shared.turns has run korxsol's turn rules (frost,
        getting up, fear's flight); `fears` is every slot's fear before it."""
        f = self.active
        if f is None:
            return
        f.combat_used = False
        s = self.slot(f)
        if s.flags & F_FROZEN:
            out.say(f"{f.name} is frozen: straight to the Cooldown Phase")
            self._break_charge(f, "frozen", out)
        else:
            # Water (terrain, which only the desktop knows) costs its action point before
            # fear's flight: take back what shared/ spent of fear, and let the flight come
            # after the water, with what it says.
            spent = fears[f.index] - s.counters[FEAR]
            s.actions += spent
            s.counters[FEAR] = fears[f.index]
            self._terrain_at_turn_start(f, out)
            self._flee(f, out)
        self.state.touch()
        out.say(f"round {self.state.round}: {f.name}'s turn, {s.actions} AP")

    def _flee(self, f: Fighter, out: Outcome) -> None:
        """FEAR: at the start of its turn a feared creature spends 1 action point per stack
        moving away, unless it is held where it stands."""
        s = self.slot(f)
        if s.counters[FEAR] and s.flags & (F_PINNED | F_GRAPPLED):
            held = "pinned" if s.flags & F_PINNED else "grappled"
            out.say(f"{f.name} is feared but {held}: it cannot move away, no action point spent")
        elif s.counters[FEAR]:
            spent = min(s.counters[FEAR], s.actions)
            s.actions -= spent
            s.counters[FEAR] -= spent
            if spent:
                out.say(
                    f"{f.name} flees in fear: {plural(spent, 'action point')} spent moving away"
                )
                self._moved(f, out)

    def _expire(self, out: Outcome) -> None:
        """Buffs and debuffs end when the move (or item) that gave them comes off cooldown."""
        for f in self.fighters:
            keep, worn = [], []
            for m in f.modifiers:
                if m.timer == 0 or cooldowns.is_ready(self.state.slots[m.owner], m.timer):
                    if m.source not in worn:  # a move that gave two changes ends once
                        worn.append(m.source)
                else:
                    keep.append(m)
            f.modifiers = keep
            for source in worn:
                out.say(f"{source} wears off {f.name}")

    ADJUSTABLE = ("frost", "burn", "fear", "kor", "armor", "sol", "ap")

    def _do_adjust(self, cmd: Command, out: Outcome) -> None:
        """Frost, burn, fear, KOR, armor, SOL or action points changed by hand (a board key,
        a house rule, a mistake): through the same stack rules, KOR capped at its start."""
        f = self.fighter(cmd.arg(0, "a character"))
        what = cmd.arg(1, "what to adjust").lower()
        if what not in self.ADJUSTABLE:
            raise IllegalAction(f"adjust {what!r}: choose one of {', '.join(self.ADJUSTABLE)}")
        text = cmd.arg(2, "the change (+N or -N)")
        delta = numbers.whole(text, "adjust: the change (+N or -N)", signed=True)
        if text[:1] not in ("+", "-"):
            raise IllegalAction(f"adjust: the change must be +N or -N, not {text!r}")
        if not self.alive(f) and what != "kor":
            raise IllegalAction(f"{f.name} has collapsed (KOR 0)")
        s = self.slot(f)
        if what in ("frost", "burn") and delta > 0 and "fire" in f.spec.elements:
            raise IllegalAction(f"{f.name} is immune to {what} (Inner Fire)")

        def value() -> int:
            if what in ("armor", "sol"):
                return int(getattr(f, what))
            if what == "kor":
                return s.health
            if what == "ap":
                return s.actions
            return s.counters[{"frost": FROST, "burn": BURN, "fear": FEAR}[what]]

        before = value()
        if what == "frost":
            self.state.add_counter(s, FROST, delta)
        elif what == "burn":
            self.state.add_counter(s, BURN, delta)
        elif what == "fear":
            self.state.add_counter(s, FEAR, delta)
        elif what == "kor":
            if delta < 0:
                self._hurt(f, -delta, f, out)
            elif delta > 0 and s.health < s.health_max:  # at full KOR: only "no change"
                self._heal(f, delta, out)  # a collapsed fighter wakes, as healed
        elif what == "armor":
            f.armor = armor_after(f.armor, delta, self.cap)
        elif what == "sol":
            f.sol = max(0, f.sol + delta)
        else:
            s.actions = max(0, min(s.actions_max, s.actions + delta))
            self.state.touch()
        # What changed, once the stack caps, the start KOR and the floors had their say.
        after = value()
        if after == before:
            out.say(f"the game master adjusts {f.name}'s {what}: no change (still {after})")
        else:
            asked = f" ({delta:+d} asked)" if after - before != delta else ""
            out.say(
                f"the game master adjusts {f.name}'s {what} by {after - before:+d} to {after}"
                + asked
            )

    def _check_game_end(self, out: Outcome) -> None:
        if not self.started or self.winner is not None:
            return
        standing = {f.spec.team for f in self.fighters if self.alive(f)}
        if len(standing) <= 1:
            self.winner = standing.pop() if standing else -1
            name = self.encounter.teams[self.winner] if self.winner >= 0 else "nobody"
            out.say(f"the fight is over: {name} wins")
            self._record_timeline()
