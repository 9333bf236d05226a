"""What every seam of the korxsol engine stands on: the game built from an encounter (the
device view, the fighters, the dice), the lookups (a fighter by name, its slot, an attribute
as rolled now, a cooldown), and the checks and the roll every verb shares.

`GameCore` is the base of the seams (turn_flow, combat, effects, grapple_and_charge, views);
host.rulesets.korxsol.engine composes them into `Game`. Below, for the type checker only, are the
calls one seam makes into another.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from host.core.interface import game_log
from host.core.plurals import plural
from host.core.timeline import Timeline
from host.rulesets.korxsol import device, table
from host.rulesets.korxsol.device import F_FROZEN, F_KNOCKED_DOWN
from host.rulesets.korxsol.fighter import Fighter, norm
from host.rulesets.korxsol.model import Effects, Encounter, Solighter
from host.rulesets.korxsol.rolls import IllegalAction, Roller
from shared import cooldowns, dice
from shared.limits import MAX_HEALTH, NO_SLOT
from shared.state import F_OUT, GameState

if TYPE_CHECKING:
    from host.rulesets.korxsol.attack import Attack

KNOCKDOWN_AGILITY = -1


@dataclass
class Outcome:
    """What one action did, for the log."""

    lines: list[str] = field(default_factory=list)

    def say(self, text: str) -> None:
        self.lines.append(text)


class GameCore:
    rules_version = 0  # the Game (engine.py) says korxsol's RULES_VERSION

    def __init__(self, encounter: Encounter, seed: int = 1):
        self.encounter = encounter
        self.seed = seed
        opts = encounter.options
        self.cap = opts.attribute_cap
        self.dice_kind = dice.KIND_ACTION_D6 if opts.dice == "d6" else dice.KIND_ACTION_D3
        self.mask = 0
        for face in opts.success_faces:
            self.mask |= 1 << (face - 1)
        self.success_faces = len(opts.success_faces)
        self.state: GameState = table.TableState()  # every fighter's slot (table.py)
        self.board = GameState()  # the board's share of it (`table.board_view`)
        st = self.state
        # Korxsol's descriptor: its counters, marks and turn rules (which shared/ runs here
        # and on the board), the dice the board's roll key rolls and their success faces.
        device.load_rules(st, self.dice_kind, self.mask, self.rules_version)
        st.team_count = max(2, len(encounter.teams))
        self.fighters: list[Fighter] = []
        self._by_name: dict[str, Fighter] = {}
        for spec in encounter.solighters:
            self._enlist(spec)
        # Fighters who joined under way ((table, fields) each: host/core/newcomers.py) and
        # those who left, by name, with why.
        self.joined: list[tuple[str, dict]] = []
        self.gone: dict[str, str] = {}
        self.roller = Roller(st, self.dice_kind, self.mask, seed)
        self.actions = 0  # actions applied so far
        self.winner: int | None = None
        self.turn_number = 0
        self.timeline = Timeline()
        self.log = game_log()
        self._loose_after: set[int] = set()
        self.order_by_gm = False
        self._current: Effects | None = None  # the move, item or artifact being resolved

    def _enlist(self, spec: Solighter) -> Fighter:
        """A fighter of `spec` on a slot of its own, with its whole allowance: the
        encounter's fighters, and those who join under way (`add`)."""
        st = self.state
        opts = self.encounter.options
        passive = _passive(spec)
        ap_max = spec.actions + passive.get("actions", 0) + (1 if spec.weapon == "sword" else 0)
        kor = min(MAX_HEALTH, spec.kor + passive.get("kor", 0))
        # the slot's Agility is the initiative dice: passive artifacts count
        agility = max(0, min(self.cap, spec.agility + passive.get("agility", 0)))
        index = table.add_slot(st, spec.label, spec.team, agility, min(7, ap_max), kor)
        f = Fighter(
            spec,
            index,
            sol=opts.sol_points + passive.get("sol", 0),
            armor=min(self.cap, spec.armor + passive.get("armor", 0)),
            hand=list(spec.items),
            timers={(kind, norm(name)): n for n, (kind, name) in enumerate(spec.timed(), 1)},
        )
        self.fighters.append(f)
        # a name wins over another's equal label
        self._by_name.setdefault(norm(spec.label), f)
        self._by_name[norm(spec.name)] = f
        return f

    # Copies (the session's checkpoints, the legal-action check) share what never changes
    # and copy the histories, which are only ever appended to, one level deep: a game's
    # copy then costs about the same at turn 10 and at turn 10,000
    # (host/core/memory_checkpoints.py).
    _SHARED = ("encounter",)
    _APPEND_ONLY = ("timeline", "log")

    def __deepcopy__(self, memo: dict) -> GameCore:
        clone = object.__new__(type(self))
        memo[id(self)] = clone
        for key, value in vars(self).items():
            if key in self._SHARED:
                setattr(clone, key, value)
            elif key in self._APPEND_ONLY:
                setattr(clone, key, copy.copy(value))
            else:
                setattr(clone, key, copy.deepcopy(value, memo))
        return clone

    def fighter(self, name: str) -> Fighter:
        found = self._by_name.get(norm(name))
        if found is not None:
            return found
        known = ", ".join(f.spec.name for f in self.fighters)
        raise IllegalAction(f"unknown character {name!r} (known: {known})")

    @property
    def started(self) -> bool:
        return self.state.round > 0

    @property
    def active(self) -> Fighter | None:
        index = self.state.active
        return None if index == NO_SLOT else self.fighters[index]

    def slot(self, f: Fighter):
        return self.state.slots[f.index]

    def alive(self, f: Fighter) -> bool:
        return not self.slot(f).flags & F_OUT

    def attribute(
        self, f: Fighter, name: str, during: dict[str, int] | None = None, chipped: int = 0
    ) -> int:
        """An attribute as rolled now (`during`: changes still to come; `chipped`: armor
        points still to be chipped): base (armor as chipped), passives, buffs and debuffs,
        capped at the attribute cap; a teammate's assist may go beyond it, a buff ("assisted")
        or armor it gave, which stays until chipped."""
        if name == "armor":
            base = f.armor - chipped
            ceiling = max(self.cap, base)
        else:
            base = getattr(f.spec, name) + _passive(f.spec).get(name, 0)
            ceiling = self.cap
        own = 0
        assisted = 0
        for m in f.modifiers:
            if m.key != name:
                continue
            owner = self.fighters[m.owner]
            if m.amount > 0 and m.owner != f.index and owner.spec.team == f.spec.team:
                assisted += m.amount
            else:
                own += m.amount
        if during:
            own += during.get(name, 0)
        value = min(ceiling, base + own) + assisted
        if name == "agility" and self.slot(f).flags & F_KNOCKED_DOWN:
            value += KNOCKDOWN_AGILITY
        return max(0, value)

    def timer(self, f: Fighter, kind: str, name: str) -> int:
        """The cooldown id of `f`'s move, item or artifact (0: it has no cooldown)."""
        return f.timers.get((kind, norm(name)), 0)

    def ready(self, f: Fighter, kind: str, name: str) -> bool:
        """Whether that move, item or artifact is off cooldown."""
        timer = self.timer(f, kind, name)
        return timer == 0 or cooldowns.is_ready(self.slot(f), timer)

    def modifier_total(self, f: Fighter, key: str) -> int:
        return sum(m.amount for m in f.modifiers if m.key == key)

    def _need_turn(self, name: str) -> Fighter:
        if not self.started:
            raise IllegalAction("the fight has not started: roll initiative first")
        f = self.fighter(name)
        if not self.alive(f):
            raise IllegalAction(f"{f.name} has collapsed (KOR 0)")
        active = self.active
        if active is not f:
            who = active.name if active else "nobody"
            raise IllegalAction(f"it is {who}'s turn, not {f.name}'s")
        if self.slot(f).flags & F_FROZEN:
            raise IllegalAction(
                f"{f.name} is frozen: this turn goes straight to the Cooldown Phase"
            )
        if self.state.phase > 0:
            raise IllegalAction(f"{f.name}'s Action Phase is over: only `end` is left")
        return f

    def _spend_ap(self, f: Fighter, n: int, what: str) -> None:
        s = self.slot(f)
        if s.actions < n:
            raise IllegalAction(
                f"{f.name} has {plural(s.actions, 'action point')} left; {what} needs {n}"
            )
        s.actions -= n
        self.state.touch()

    def _need_combat(self, f: Fighter) -> None:
        if f.combat_used:
            raise IllegalAction(f"{f.name} has already used a combat move this turn")

    def _action_roll(self, purpose: str, f: Fighter, n: int) -> int:
        got = self.roller.roll(purpose, f.index, n)
        if n > 0:
            f.stats.dice += n
            f.stats.successes += got
            f.stats.expected3 += n * self.success_faces
        return got

    def _heads(self, f: Fighter, n: int, out: Outcome, none: str) -> int:
        """The heads of `n` coins flipped for `f` (its chance roll), `none` said where
        there are none (a status's flips, lava's)."""
        heads = self.roller.roll("chance", f.index, n)
        if not heads:
            out.say(none)
        return heads

    if TYPE_CHECKING:
        # The calls one seam makes into another, for the type checker.
        # grapple_and_charge.py
        def _break_charge(self, f: Fighter, why: str, out: Outcome) -> None: ...
        def _release(self, held: Fighter, out: Outcome, why: str) -> None: ...
        def _free(self, f: Fighter, out: Outcome) -> None: ...
        def _knockback(self, a: Attack, t: Fighter, out: Outcome) -> bool: ...

        # combat.py
        def _pay_sol(self, a: Attack, f: Fighter, kind: str, out: Outcome) -> None: ...

        # effects.py
        def _during(self, user: Fighter, name: str, fx: Effects, out: Outcome) -> None: ...
        def _flips(self, user: Fighter, t: Fighter, fx: Effects, out: Outcome) -> None: ...
        def _buff(
            self, user: Fighter, name: str, fx: Effects, timer: int, targets, out: Outcome
        ) -> None: ...
        def _support(
            self,
            user: Fighter,
            t: Fighter,
            fx: Effects,
            timer: int,
            name: str,
            out: Outcome,
            with_modifiers: bool = True,
        ) -> None: ...
        def _bless(self, t: Fighter, out: Outcome) -> None: ...
        def _gain(
            self, f: Fighter, what: str, amount: int, out: Outcome, by: Fighter | None = None
        ) -> None: ...
        def _heal(self, f: Fighter, amount: int, out: Outcome) -> None: ...
        def _unblockable(
            self, t: Fighter, amount: int, source: Fighter, out: Outcome, why: str
        ) -> None: ...
        def _hurt(self, t: Fighter, amount: int, source: Fighter, out: Outcome) -> None: ...

        # views.py
        def _record_timeline(self) -> None: ...

        # terrain.py
        def _moved(self, f: Fighter, out: Outcome, onto: str = "ground") -> None: ...
        def _terrain_at_turn_start(self, f: Fighter, out: Outcome) -> None: ...
        def _check_reach(
            self, f: Fighter, name: str, kind: str, fx: Effects, targets: list[Fighter], cmd
        ) -> list[str]: ...
        def _move_by_movement(self, f: Fighter, name: str, cmd, out: Outcome) -> None: ...


def _passive(spec: Solighter) -> dict[str, int]:
    return spec.passive()
