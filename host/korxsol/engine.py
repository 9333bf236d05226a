"""The korxsol rules engine: a running game of one encounter, changed only by actions.

The device view (`Game.state`, a shared.state.GameState) is the single store for what the
board also shows: turn order, round, phase, action points, KOR, frost/burn/fear stacks,
flags and cooldown timers; the trimmed rules that move those (shared.turns, timing,
cooldowns, status, dice, initiative) are called, never rewritten. `Fighter` holds what only
the desktop tracks: attributes, SOL, armor chips, buffs and debuffs, grapples, charges,
inventory and statistics.

Every action is checked before it changes anything and raises IllegalAction with a one-line
reason. A game is a pure function of (encounter, seed, actions with their recorded rolls),
which is what undo, redo and resume rely on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from host.korxsol import knockback
from host.korxsol.commands import Command
from host.korxsol.model import (
    RESIST_SUCCESS,
    STATUS_FLIPS,
    Artifact,
    Effects,
    Encounter,
    Item,
    Move,
    Solighter,
)
from host.korxsol.rolls import IllegalAction, InitiativeDice, Roller
from host.korxsol.scoring import Stats
from host.korxsol.words import plural
from shared import cooldowns, dice, initiative, rulesets, status, turns
from shared.limits import MAX_COOLDOWNS, MAX_DICE, MAX_KOR, NO_SLOT
from shared.state import (
    F_CHARGING,
    F_FROZEN,
    F_GRAPPLED,
    F_KNOCKED_DOWN,
    F_OUT,
    F_PINNED,
    GameState,
)

# The version of these rules as a journal sees them. Raise it whenever a change makes the
# same journalled commands and dice play out differently (or be refused): a saved game
# records the version it was played under, and resuming it under another one is checked.
# 1: until one hit and one power roll per strike (several targets), one cooldown id per
#    timed move, item and artifact, and checked SOL spending; 2: until a `hit` condition
#    worth damage added it to the damage instance, a buff or an item that helps made its
#    exchange and a grappled creature kept the action points fear takes; 3: since.
RULES_VERSION = 3

# What placed each turn position (shared.initiative.R_*), for the log and the views.
REASON_NAMES = ("successes", "base agility", "reroll", "out of play")

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
# The options each verb takes (docs/commands.md); any other is refused.
VERB_OPTIONS: dict[str, tuple[str, ...]] = {
    "attack": ATTACK_OPTIONS,
    "item": ATTACK_OPTIONS,
    "artifact": ATTACK_OPTIONS,
    "move": ("fall",),
    "pivot": ("fall",),
    "crush": ("sol",),
}
GRAPPLED_AGILITY = -3
KNOCKDOWN_AGILITY = -1
BLIND_HIT = -2
TRUE_SIGHT_HIT = 3
BLESS_KOR = 1


@lru_cache(maxsize=1024)
def norm(name: str) -> str:
    """A name as matched: lower case, letters and digits only."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


@dataclass
class Modifier:
    """A buff or debuff: lasts while its source's cooldown timer runs."""

    owner: int  # slot of the one whose move or item gave it
    timer: int  # the owner's cooldown id that keeps it alive (0: none, ends with this turn)
    key: str  # an attribute, "hit", "<status>_flips", "true_sight" or "threat"
    amount: int
    source: str  # the move's name, for display


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


@dataclass
class Fighter:
    spec: Solighter
    index: int
    sol: int
    armor: int
    hand: list[Item]
    modifiers: list[Modifier] = field(default_factory=list)
    blinded: bool = False
    grappling: int = NO_SLOT
    grappled_by: int = NO_SLOT
    charging: Move | None = None
    charge_turn: int = -1  # the game's turn number when the charge began
    combat_used: bool = False
    stats: Stats = field(default_factory=Stats)
    # (kind, normalised name) -> cooldown id 1..7, for what has a cooldown (Solighter.timed)
    timers: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.spec.name

    def has(self, key: str) -> bool:
        return any(m.key == key for m in self.modifiers)


@dataclass
class Outcome:
    """What one action did, for the log."""

    lines: list[str] = field(default_factory=list)

    def say(self, text: str) -> None:
        self.lines.append(text)


class Game:
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
        self.state = GameState()
        st = self.state
        st.ruleset = rulesets.KORXSOL
        st.timing = rulesets.KORXSOL_TIMING
        st.phase_count = rulesets.KORXSOL_PHASES
        st.success_mask = self.mask  # the board counts its own rolls with these faces
        st.team_count = max(2, len(encounter.teams))
        self.fighters: list[Fighter] = []
        for spec in encounter.solighters:
            passive = _passive(spec)
            ap_max = spec.actions + passive.get("actions", 0) + (1 if spec.weapon == "sword" else 0)
            kor = min(MAX_KOR, spec.kor + passive.get("kor", 0))
            # the slot's Agility is the initiative dice: passive artifacts count
            agility = max(0, min(self.cap, spec.agility + passive.get("agility", 0)))
            index = st.add_slot(spec.label, spec.team, agility, min(7, ap_max), kor)
            self.fighters.append(
                Fighter(
                    spec,
                    index,
                    sol=opts.sol_points + passive.get("sol", 0),
                    armor=min(self.cap, spec.armor + passive.get("armor", 0)),
                    hand=list(spec.items),
                    timers={
                        (kind, norm(name)): n for n, (kind, name) in enumerate(spec.timed(), 1)
                    },
                )
            )
        self._by_name = {}
        for f in reversed(self.fighters):  # a name wins over another's equal label
            self._by_name[norm(f.spec.label)] = f
        for f in reversed(self.fighters):
            self._by_name[norm(f.spec.name)] = f
        self.roller = Roller(st, self.dice_kind, self.mask, seed)
        self.actions = 0  # actions applied so far
        self.winner: int | None = None
        self.turn_number = 0
        self.timeline: list[dict] = []
        self.log: list[str] = []
        self._loose_after: set[int] = set()
        self.order_by_gm = False
        self._current: Effects | None = None  # the move, item or artifact being resolved

    # ---------------------------------------------------------------- lookups
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

    def attribute(self, f: Fighter, name: str, during: dict[str, int] | None = None) -> int:
        """An attribute as rolled now: base (armor as chipped), passives, buffs and debuffs,
        capped at the attribute cap; a teammate's buff ("assisted") may go beyond it."""
        base = f.armor if name == "armor" else getattr(f.spec, name) + _passive(f.spec).get(name, 0)
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
        value = min(self.cap, base + own) + assisted
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

    # ---------------------------------------------------------------- applying actions
    def apply(self, command: Command, replay=None) -> Outcome:
        """Apply one action. `replay` holds the recorded rolls when rebuilding from a journal."""
        handler = getattr(self, "_do_" + command.verb.replace("-", "_"), None)
        if handler is None:
            raise IllegalAction(f"unknown command {command.verb!r}")
        if self.winner is not None:
            won = self.encounter.teams[self.winner] if self.winner >= 0 else "nobody"
            raise IllegalAction(f"the game is over: {won} won")
        allowed = VERB_OPTIONS.get(command.verb, ())
        for key in command.opts:
            if key not in allowed:
                known = f"known: {', '.join(allowed)}" if allowed else "it takes none"
                raise IllegalAction(f"{command.verb}: unknown option {key!r} ({known})")
        self.roller.begin(self.actions, replay)
        out = Outcome()
        handler(command, out)
        self.actions += 1
        self._check_game_end(out)
        self._project_scores()
        self.log.extend(out.lines)
        return out

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
        return f

    def _spend_ap(self, f: Fighter, n: int, what: str) -> None:
        s = self.slot(f)
        if s.ap < n:
            raise IllegalAction(
                f"{f.name} has {plural(s.ap, 'action point')} left; {what} needs {n}"
            )
        s.ap -= n
        self.state.touch()

    # -- initiative and turns
    def _do_initiative(self, cmd: Command, out: Outcome) -> None:
        if self.started:
            raise IllegalAction("initiative is already rolled")
        source = self.roller.initiative_dice(self.state, [f.name for f in self.fighters])
        if isinstance(source, InitiativeDice):
            view = source.view
            result = initiative.roll_initiative(view, source, self.dice_kind, self.mask)
            source.finish()
            count = self.state.count
            turns.set_order(self.state, list(view.order[:count]), list(view.order_reason[:count]))
            out.lines.extend(source.lines)
        else:  # a journal from before initiative rolls were recorded one per fighter
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
            raise IllegalAction("the turn order is already set")
        chosen = [self.fighter(n).index for n in cmd.args]
        if sorted(chosen) != list(range(len(self.fighters))):
            raise IllegalAction("order must name every character exactly once")
        turns.set_order(self.state, chosen, [0] * len(chosen))
        self.order_by_gm = True
        out.say("order set by the game master: " + ", ".join(self.fighters[i].name for i in chosen))
        self._start(out)

    def _start(self, out: Outcome) -> None:
        turns.start_round(self.state)
        self._record_timeline()
        self._turn_begins(out)

    def _do_end(self, cmd: Command, out: Outcome) -> None:
        if not self.started:
            raise IllegalAction("the fight has not started: roll initiative first")
        f = self.active
        assert f is not None
        if cmd.args and self.fighter(cmd.args[0]) is not f:
            raise IllegalAction(f"it is {f.name}'s turn, not {self.fighter(cmd.args[0]).name}'s")
        f.blinded = False  # blinded lasts until the end of the blinded creature's turn
        if f.charging is not None and f.charge_turn != self.turn_number:
            self._break_charge(f, "not unleashed on its turn", out)
        ending = self.state.turn
        turns.end_turn(self.state)
        self._skipped_turns(ending)
        self._expire(out)
        out.say(f"{f.name} ends the turn (Cooldown Phase)")
        self.turn_number += 1
        self._record_timeline()
        self._turn_begins(out)

    def _skipped_turns(self, ending: int) -> None:
        """A collapsed character's turns are skipped, but its moves and items keep stepping
        off cooldown on them (its Cooldown Phase still passes), so the buffs and debuffs it
        gave wear off on time."""
        st = self.state
        pos = (ending + 1) % st.count
        while pos != st.turn:
            slot = st.slots[st.order[pos]]
            if slot.flags & F_OUT:
                cooldowns.cooldown_phase(slot)
                st.touch()
            pos = (pos + 1) % st.count

    def _turn_begins(self, out: Outcome) -> None:
        f = self.active
        if f is None:
            return
        f.combat_used = False
        s = self.slot(f)
        if s.flags & F_FROZEN:
            out.say(f"{f.name} is frozen: straight to the Cooldown Phase")
            self._break_charge(f, "frozen", out)
        elif s.fear and s.flags & (F_PINNED | F_GRAPPLED):  # held where it stands
            held = "pinned" if s.flags & F_PINNED else "grappled"
            out.say(f"{f.name} is feared but {held}: it cannot move away, no action point spent")
        elif s.fear:
            spent = min(s.fear, s.ap)
            s.ap -= spent
            s.fear -= spent
            if spent:
                out.say(
                    f"{f.name} flees in fear: {plural(spent, 'action point')} spent moving away"
                )
        self.state.touch()
        out.say(f"round {self.state.round}: {f.name}'s turn, {s.ap} AP")

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

    # -- the game master's corrections
    ADJUSTABLE = ("frost", "burn", "fear", "kor", "armor", "sol", "ap")

    def _do_adjust(self, cmd: Command, out: Outcome) -> None:
        """Frost, burn, fear, KOR, armor, SOL or action points changed by hand (a board key,
        a house rule, a mistake): through the same stack rules, KOR capped at its start."""
        f = self.fighter(cmd.arg(0, "a character"))
        what = cmd.arg(1, "what to adjust").lower()
        if what not in self.ADJUSTABLE:
            raise IllegalAction(f"adjust {what!r}: choose one of {', '.join(self.ADJUSTABLE)}")
        text = cmd.arg(2, "the change (+N or -N)")
        if not _signed(text):
            raise IllegalAction(f"adjust: the change must be +N or -N, not {text!r}")
        delta = int(text)
        if not self.alive(f) and what != "kor":
            raise IllegalAction(f"{f.name} has collapsed (KOR 0)")
        s = self.slot(f)
        if what in ("frost", "burn") and delta > 0 and "fire" in f.spec.elements:
            raise IllegalAction(f"{f.name} is immune to {what} (Inner Fire)")

        def value() -> int:
            if what in ("armor", "sol"):
                return int(getattr(f, what))
            return int(getattr(s, what))

        before = value()
        if what == "frost":
            status.add_frost(self.state, s, delta)
        elif what == "burn":
            status.add_burn(self.state, s, delta)
        elif what == "fear":
            status.add_fear(self.state, s, delta)
        elif what == "kor":
            if delta < 0:
                self._hurt(f, -delta, f, out)
            elif s.flags & F_OUT:
                raise IllegalAction(f"{f.name} has collapsed: KOR cannot be healed back")
            else:
                self._heal(f, delta, out)
        elif what == "armor":
            f.armor = max(0, min(self.cap, f.armor + delta))
        elif what == "sol":
            f.sol = max(0, f.sol + delta)
        else:
            s.ap = max(0, min(s.ap_max, s.ap + delta))
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

    # -- movement
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
            if _grapple_weight(held) > f.spec.weight:
                raise IllegalAction(f"{held.name} is too heavy for {f.name} to carry")
        self._spend_ap(f, spaces, f"moving {plural(spaces, 'space')}")
        out.say(f"{f.name} moves {plural(spaces, 'space')}")
        self._break_charge(f, "moved", out)
        if f.grappling != NO_SLOT:
            self._grapple_drop(f, cmd, out)

    def _do_pivot(self, cmd: Command, out: Outcome) -> None:
        f = self._need_turn(cmd.arg(0, "a character"))
        if f.grappling == NO_SLOT:
            raise IllegalAction(f"{f.name} is not grappling anyone")
        held = self.fighters[f.grappling]
        if _grapple_weight(held) > f.spec.weight:
            raise IllegalAction(f"{held.name} is too heavy for {f.name} to pivot")
        self._check_fall(f, cmd)
        out.say(f"{f.name} pivots {held.name}")
        self._grapple_drop(f, cmd, out)

    def _check_fall(self, f: Fighter, cmd: Command) -> None:
        if "fall" in cmd.opts:
            if f.grappling == NO_SLOT:
                raise IllegalAction(
                    f"fall= is for a grappler carrying its target; {f.name} holds no one"
                )
            _heights(cmd.opts["fall"])

    def _grapple_drop(self, f: Fighter, cmd: Command, out: Outcome) -> None:
        fall = cmd.opts.get("fall")
        if fall is None:
            return
        a, b = _heights(fall)
        held = self.fighters[f.grappling]
        self._release(held, out, "dropped from a height")
        self._unblockable(held, knockback.fall_damage(a, b), f, out, "falls")

    # -- grapple
    def _do_struggle(self, cmd: Command, out: Outcome) -> None:
        f = self._need_turn(cmd.arg(0, "a character"))
        if not self.slot(f).flags & F_GRAPPLED:
            raise IllegalAction(f"{f.name} is not grappled")
        self._spend_ap(f, 1, "struggling")
        heads = self.roller.roll("chance", f.index, self.attribute(f, "power"))
        if heads:
            self._release(f, out, "struggles free")
        else:
            out.say(f"{f.name} struggles, but stays grappled")

    def _do_release(self, cmd: Command, out: Outcome) -> None:
        f = self._need_turn(cmd.arg(0, "a character"))
        if f.grappling == NO_SLOT:
            raise IllegalAction(f"{f.name} is not grappling anyone")
        self._release(self.fighters[f.grappling], out, "is let go")

    def _do_crush(self, cmd: Command, out: Outcome) -> None:
        """Combat while grappling: a POWER_Roll, each success one un-blockable damage."""
        f = self._need_turn(cmd.arg(0, "a character"))
        if f.grappling == NO_SLOT:
            raise IllegalAction(f"{f.name} is not grappling anyone")
        self._need_combat(f)
        sol = "sol" in cmd.opts
        if sol and cmd.opts["sol"] != "power":
            raise IllegalAction("crush: sol=power is the only SOL choice (the POWER_Roll)")
        if sol and f.sol < 1:
            raise IllegalAction(f"{f.name} declares 1 SOL point in this command but holds {f.sol}")
        f.combat_used = True
        held = self.fighters[f.grappling]
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
        status.set_flag(self.state, self.slot(held), F_GRAPPLED, False)
        out.say(f"{held.name} {why} (grapple released)")

    def _free(self, f: Fighter, out: Outcome) -> None:
        """RELEASE: the user is freed at once from a grapple and from a pin."""
        self._release(f, out, "breaks free")
        s = self.slot(f)
        if s.flags & F_PINNED:
            status.set_flag(self.state, s, F_PINNED, False)
            out.say(f"{f.name} breaks free of the pin")

    # -- items and artifacts
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

    # -- combat moves
    def _need_combat(self, f: Fighter) -> None:
        if f.combat_used:
            raise IllegalAction(f"{f.name} has already used a combat move this turn")

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
            parsed = _parse_kb(spec)
            self.fighter(parsed[0])
            if parsed[1] == "creature":
                self.fighter(parsed[2])

    def _action_roll(self, purpose: str, f: Fighter, n: int) -> int:
        got = self.roller.roll(purpose, f.index, n)
        if n > 0:
            f.stats.dice += n
            f.stats.successes += got
            f.stats.expected3 += n * self.success_faces
        return got

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

    def _during(self, user: Fighter, name: str, fx: Effects, out: Outcome) -> None:
        """ATTRIBUTE: power, resistance and agility change until the move goes on cooldown
        (a modifier with no timer wears off as this turn ends); armor changes stay until
        chipped; KOR changes happen at once and are kept."""
        for key, amount in fx.during.items():
            if key == "armor":
                user.armor = max(0, min(self.cap, user.armor + amount))
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

    def _flips(self, user: Fighter, t: Fighter, fx: Effects, out: Outcome) -> None:
        s = self.slot(t)
        for name in STATUS_FLIPS:
            n = fx.flips.get(name, 0)
            if not n:
                continue
            n = max(0, n + self.modifier_total(user, name + "_flips"))
            if name in ("burn", "frost") and "fire" in t.spec.elements:
                out.say(f"{t.name} is immune to {name} (Inner Fire)")
                continue
            heads = self.roller.roll("chance", t.index, n)
            if not heads:
                out.say(f"{name}: {t.name} flips {n}, no heads")
                continue
            if name == "burn":
                status.add_burn(self.state, s, heads)
                out.say(f"burn: {t.name} now has {plural(s.burn, 'stack')}")
            elif name == "frost":
                status.add_frost(self.state, s, heads)
                out.say(f"frost: {t.name} now has {plural(s.frost, 'stack')}")
            elif name == "fear":
                status.add_fear(self.state, s, heads)
                out.say(f"fear: {t.name} now has {plural(s.fear, 'stack')}")
                self._break_charge(t, "feared", out)
            elif name == "pin":
                status.set_flag(self.state, s, F_PINNED, True)
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
                status.set_flag(self.state, s, F_GRAPPLED, True)
                out.say(f"{user.name} grapples {t.name}")
                self._break_charge(t, "grappled", out)

    def _knockback(self, user: Fighter, t: Fighter, cmd: Command, out: Outcome) -> bool:
        """Knock `t` back; True when it moved (out of the attack area)."""
        weight = _grapple_weight(t)
        spaces = knockback.distance(user.spec.weight, weight)
        if spaces == 0:
            out.say(f"{t.name} is too heavy to be knocked back")
            return False
        out.say(f"{t.name} is knocked back {plural(spaces, 'space')}")
        self._break_charge(t, "knocked back", out)
        what: tuple = ("clear",)
        for spec in cmd.list_opt("kb"):
            parsed = _parse_kb(spec)
            if norm(parsed[0]) in (norm(t.spec.name), norm(t.spec.label)):
                what = parsed[1:]
        kind = what[0]
        if kind == "creature":
            other = self.fighter(what[1])
            if self._action_roll("agility", other, self.attribute(other, "agility")):
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
        """Effects that land without a hit instance: heal, armor, cleanse, buffs."""
        if not self.alive(t):
            return
        if fx.heal:
            self._heal(t, fx.heal, out)
        if fx.armor_gain:
            self._gain(t, "armor", fx.armor_gain, out)
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
            s.burn = 0
        if every or "frost" in which:
            s.frost = 0
        if every or "fear" in which:
            s.fear = 0
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

    def _gain(self, f: Fighter, what: str, amount: int, out: Outcome) -> None:
        """Armor, KOR or SOL gained; damage is never gained here: it joins the damage
        instance it was gained for (_strike, _power_roll, an exchange's bonus)."""
        if what == "armor":
            f.armor = min(self.cap, f.armor + amount)
            out.say(f"{f.name} gains armor: {f.armor}")
        elif what == "kor":
            self._heal(f, amount, out)
        elif what == "sol":
            f.sol += amount
            out.say(f"{f.name} gains {amount} SOL")

    def _heal(self, f: Fighter, amount: int, out: Outcome) -> None:
        s = self.slot(f)
        before = s.kor
        s.kor = min(s.kor_max, s.kor + amount)  # healing never passes the starting KOR
        self.state.touch()
        out.say(f"{f.name} heals {s.kor - before} KOR ({s.kor}/{s.kor_max})")

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
        dealt = min(amount, s.kor)
        s.kor -= dealt
        t.stats.damage_taken += dealt
        if source.spec.team != t.spec.team:
            source.stats.damage_dealt += dealt
        self.state.touch()
        if s.kor == 0:
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
        if cond and cond[0] == "knockout" and source is not t:  # never damage (encounter.py)
            self._gain(source, cond[1], cond[2], out)

    def _break_charge(self, f: Fighter, why: str, out: Outcome) -> None:
        """A broken charge goes on cooldown at once (not at the next Cooldown Phase)."""
        move = f.charging
        if move is None:
            return
        f.charging = None
        s = self.slot(f)
        status.set_flag(self.state, s, F_CHARGING, False)
        timer = self.timer(f, "move", move.name)
        out.say(f"{f.name}'s charge is broken ({why}): {move.name} goes on cooldown")
        if timer == 0:
            return
        try:
            cooldowns.start_now(self.state, s, timer, move.cooldown)
        except ValueError as err:  # a charger always keeps a timer free (see _use_timer)
            out.say(f"{f.name}: {move.name} cannot go on cooldown: {err}")

    # ---------------------------------------------------------------- game end and scores
    def _check_game_end(self, out: Outcome) -> None:
        if not self.started or self.winner is not None:
            return
        standing = {f.spec.team for f in self.fighters if self.alive(f)}
        if len(standing) <= 1:
            self.winner = standing.pop() if standing else -1
            name = self.encounter.teams[self.winner] if self.winner >= 0 else "nobody"
            out.say(f"the fight is over: {name} wins")
            self._record_timeline()

    def _project_scores(self) -> None:
        for t in range(self.state.team_count):
            total = sum(f.stats.score for f in self.fighters if f.spec.team == t)
            self.state.scores[t] = total & 0xFFFF

    def _record_timeline(self) -> None:
        self.timeline.append(
            {
                "turn": self.turn_number,
                "round": self.state.round,
                "kor": {f.spec.label: self.slot(f).kor for f in self.fighters},
                "score": {
                    self.encounter.teams[t]: sum(
                        f.stats.score for f in self.fighters if f.spec.team == t
                    )
                    for t in range(len(self.encounter.teams))
                },
            }
        )

    # ---------------------------------------------------------------- views
    def team_stats(self) -> dict[str, Stats]:
        teams: dict[str, Stats] = {name: Stats() for name in self.encounter.teams}
        for f in self.fighters:
            teams[self.encounter.teams[f.spec.team]].add(f.stats)
        return teams

    def snapshot(self) -> dict:
        """The whole game as plain data: the `--json` output of `turnlight run`."""
        st = self.state
        out = {
            "encounter": self.encounter.name,
            "seed": self.seed,
            "actions": self.actions,
            "round": st.round,
            "turn": self.turn_number,
            "phase": ("action", "cooldown")[st.phase] if self.started else None,
            "active": self.active.spec.name if self.active else None,
            "order": [
                {
                    "name": self.fighters[st.order[i]].spec.name,
                    "reason": "game master"
                    if self.order_by_gm
                    else REASON_NAMES[st.order_reason[i]],
                }
                for i in range(st.count)
            ]
            if self.started
            else [],
            "winner": None
            if self.winner is None
            else (self.encounter.teams[self.winner] if self.winner >= 0 else "nobody"),
            "fighters": [self.fighter_json(f) for f in self.fighters],
            "teams": {name: s.as_json() for name, s in self.team_stats().items()},
            "last_roll": {
                "kind": dice.KIND_NAMES[st.roll.kind],
                "faces": list(st.roll.faces[: st.roll.count]),
                "successes": st.roll.successes,
            },
        }
        return out

    def fighter_json(self, f: Fighter) -> dict:
        s = self.slot(f)
        timers = {}
        names = {n: name for n, (_, name) in enumerate(f.spec.timed(), 1)}
        for i in range(len(s.cd_id)):
            if s.cd_id[i]:
                timers[names.get(s.cd_id[i], str(s.cd_id[i]))] = s.cd_left[i]
        statuses = {
            "frost": s.frost,
            "burn": s.burn,
            "fear": s.fear,
            "frozen": bool(s.flags & F_FROZEN),
            "knocked_down": bool(s.flags & F_KNOCKED_DOWN),
            "pinned": bool(s.flags & F_PINNED),
            "grappled": bool(s.flags & F_GRAPPLED),
            "charging": f.charging.name if f.charging else None,
            "blinded": f.blinded,
            "grappling": self.fighters[f.grappling].spec.name if f.grappling != NO_SLOT else None,
        }
        return {
            "name": f.spec.name,
            "label": f.spec.label,
            "team": self.encounter.teams[f.spec.team],
            "kor": s.kor,
            "kor_max": s.kor_max,
            "ap": s.ap,
            "ap_max": s.ap_max,
            "sol": f.sol,
            "armor": f.armor,
            "attributes": {a: self.attribute(f, a) for a in ("power", "resistance", "agility")},
            "down": bool(s.flags & F_OUT),
            "status": statuses,
            "cooldowns": timers,
            "modifiers": [
                {"source": m.source, "key": m.key, "amount": m.amount} for m in f.modifiers
            ],
            "hand": [i.name for i in f.hand],
            "stats": f.stats.as_json(),
        }


def _on(user: Fighter | None, targets: list[Fighter]) -> str:
    """ " on A, B" for a log line (nothing when the only target is the user itself)."""
    if not targets or targets == [user]:
        return ""
    return " on " + ", ".join(t.name for t in targets)


def _passive(spec: Solighter) -> dict[str, int]:
    return spec.passive()


def _grapple_weight(f: Fighter) -> int:
    """Weight against knockback and grapple: Sturdy (mineral) counts one class heavier."""
    return min(5, f.spec.weight + (1 if "mineral" in f.spec.elements else 0))


def _signed(text: str) -> bool:
    return len(text) > 1 and text[0] in "+-" and text[1:].isdigit()


def _heights(text: str) -> tuple[int, int]:
    try:
        a, b = (int(x) for x in text.split(":"))
    except ValueError:
        raise IllegalAction(f"fall={text!r}: give the heights as FROM:TO, e.g. fall=4:1") from None
    return a, b


def _parse_kb(spec: str) -> tuple:
    """kb=TARGET:clear | TARGET:creature:NAME | TARGET:wall | TARGET:out | TARGET:fall:F:T |
    TARGET:water -- what a knocked-back creature would run into (the map is the GM's)."""
    parts = spec.split(":")
    if len(parts) < 2 or parts[1] not in knockback.OUTCOMES:
        raise IllegalAction(
            f"kb={spec!r}: write TARGET:WHAT with WHAT one of {', '.join(knockback.OUTCOMES)}"
        )
    kind = parts[1]
    if kind == "creature":
        if len(parts) != 3:
            raise IllegalAction(f"kb={spec!r}: write TARGET:creature:NAME")
        return (parts[0], kind, parts[2])
    if kind == "fall":
        if len(parts) != 4:
            raise IllegalAction(f"kb={spec!r}: write TARGET:fall:FROM:TO")
        a, b = _heights(parts[2] + ":" + parts[3])
        return (parts[0], kind, a, b)
    if len(parts) != 2:
        raise IllegalAction(f"kb={spec!r}: {kind} takes no more parts")
    return (parts[0], kind)
