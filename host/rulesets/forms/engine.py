"""The forms rules: encounters, rounds whose turns all happen at once, social checks in
attribute order, the eight-step combat round with its skips, and the movement order.

A `Game` is a pure function of its encounter, its seed and the actions applied with their
records (the dice each used): undo, redo and resume replay them. docs/rulesets/forms.md says
what is implemented and every choice made where the text is silent.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from host.core import kit
from host.core.commandline import Command, whole_number
from host.core.interface import IllegalAction, Supplied, WantedRoll, game_log
from host.core.plurals import plural
from host.core.timeline import Timeline
from host.rulesets.forms import comings
from host.rulesets.forms.encounter_schema import (
    ATTRIBUTES,
    STEP_NAMES,
    STEPS,
    Check,
    Encounter,
    Form,
    UnitSpec,
)
from shared import dice
from shared.limits import MAX_DICE

# 2: a unit who leaves (`remove`) has its steps closed: a trap sprung on it, the attacks on it
RULES_VERSION = 2
SEQUENTIAL = (2, 8)  # the movement steps: units act one at a time, in the movement order
MAX_REROLLS = 64  # a tie still level after this many rerolls goes to the encounter's order
# Why a unit stands where it does in the movement order (the board's order reasons).
R_ROLL, R_AGILITY, R_REROLL, R_DOWN = 0, 1, 2, 3


@dataclass
class Roll:
    """One roll an action used: whose, for what, its faces and where they came from."""

    who: int
    what: str
    faces: tuple[int, ...]
    source: str  # "engine", "board" or "entered"
    successes: int = 0

    def as_json(self) -> dict:
        return {
            "who": self.who,
            "what": self.what,
            "faces": list(self.faces),
            "source": self.source,
        }


@dataclass
class Unit:
    spec: UnitSpec
    health: int
    known: list[str]
    aware: bool = False
    fresh: bool = False  # Aware for the first time: its Agility roll is still to come
    chain: list[int] = field(default_factory=list)  # Agility roll's top die, then rerolls
    # this round
    path: set[int] = field(default_factory=lambda: set(range(1, STEPS + 1)))
    form: str = ""
    moved_at: int = 0
    acts: int = 0  # actions taken in the current step
    finished: bool = False  # its part of the current step is over
    damage_due: int = 0
    arriving: bool = False  # joined under way (`add`): it takes part from the next round
    gone: str = ""  # why it left the fight (`remove`); "" while it is in it
    # statistics
    dealt: int = 0
    taken: int = 0
    passed: int = 0
    failed: int = 0

    @property
    def down(self) -> bool:
        """Out of the fight: at 0 health, or gone (`remove`)."""
        return self.health <= 0 or bool(self.gone)


@dataclass
class Attack:
    attacker: int
    target: int
    rolled: int
    dodged: int = -1  # -1 until the target's Dodge roll at the end of step 5
    aim: int = 0
    block: int = 0
    aimed: bool = False
    blocked: bool = False

    @property
    def hit(self) -> bool:
        return self.dodged >= 0 and self.rolled > self.dodged


@dataclass
class PendingCheck:
    seq: int
    unit: int
    attribute: str
    difficulty: int
    vs: int = -1  # the challenging unit, for a Challenge check
    vs_attribute: str = ""
    named: Check | None = None

    def key(self) -> tuple[int, int]:
        return ATTRIBUTES.index(self.attribute), self.seq


class Game(kit.Dice):
    """A game, and the dice of its actions (kit.Dice: their order; its record is a
    `Roll.as_json` a roll)."""

    def __init__(self, encounter: Encounter, seed: int) -> None:
        self.encounter = encounter
        self.seed = seed
        # A unit marked `aware` is Aware of foes as it comes to combat (and `fight` sets
        # it so again): until then the views show it as the encounter file says.
        self.units = [Unit(s, s.health, list(s.forms), s.aware) for s in encounter.units]
        self.mode = "social"  # "social", "combat" or "over"
        self.round = 1
        self.step = 0  # the combat step, 1..8 (0 outside combat)
        self.encounters: list[dict] = [
            {"n": 1, "kind": "social", "area": encounter.area, "opened": 1, "closed": 0}
        ]
        self.order = list(range(len(self.units)))
        self.checks: list[PendingCheck] = []
        self.checks_made = 0  # checks entered this social round
        self.seq = 0
        self.combined: tuple[int, Check] | None = None  # a sprung trap's combat round
        self.attacks: list[Attack] = []
        self.dodges: dict[int, int] = {}
        self.social_rounds = 0  # social rounds ended (the demo AI reads it)
        self.last: list[Roll] = []  # the last check's dice (one roll, or a challenge's two)
        self.winner: int | None = None  # a side, -1 for nobody
        self.actions = 0
        self.used: list[Roll] = []  # the rolls of the action being applied
        self.replaying: deque[dict] | None = None
        self.supplied: list[Supplied] | None = None
        self.supplied_at = 0
        self.lines: list[str] = []
        self.log = game_log()
        self.timeline = Timeline()
        # Units who joined under way ((table, fields) each: host/core/newcomers.py).
        self.joined: list[tuple[str, dict]] = []
        self.state: Any = None  # the board's view (host/rulesets/forms/device.py keeps it)
        self._remake_order()

    @property
    def teams(self) -> tuple[str, ...]:  # (interface.Game)
        return self.encounter.teams

    # ------------------------------------------------------------------ helpers
    def unit(self, word: str) -> int:
        low = word.lower()
        for i, u in enumerate(self.units):
            if low in (u.spec.name.lower(), u.spec.label.lower()):
                return i
        known = ", ".join(u.spec.name for u in self.units)
        raise IllegalAction(f"unknown unit {word!r} (known: {known})")

    def name(self, i: int) -> str:
        return self.units[i].spec.name

    def form(self, word: str) -> Form:
        found = self.encounter.form(word)
        if found is None:
            known = ", ".join(f.name for f in self.encounter.forms)
            raise IllegalAction(f"unknown Form {word!r} (known: {known})")
        return found

    def standing_sides(self) -> set[int]:
        return {u.spec.side for u in self.units if not u.down}

    def dice_for(self, i: int, attribute: str) -> int:
        u = self.units[i]
        count = u.spec.score(attribute)
        if u.form:
            f = self.form(u.form)
            if f.attribute == attribute:
                count += f.dice
        return min(count, MAX_DICE)

    def say(self, line: str) -> None:
        self.lines.append(line)

    # ------------------------------------------------------------------ dice
    def roll(self, who: int, attribute: str, at_least: int = 0) -> Roll:
        """Roll `who`'s dice of `attribute` (Form dice included), in the kit's order (the
        record's, the roll given to the waiting action, the engine's)."""
        count = max(self.dice_for(who, attribute), at_least)
        if count == 0:
            return Roll(who, attribute, (), "none")
        code = ATTRIBUTES.index(attribute) + 1 if attribute in ATTRIBUTES else 0
        wanted = WantedRoll(attribute, count, dice.KIND_D10, who, code=code)
        taken = self.take_roll(wanted, self.replaying, lambda: self._own(count))
        rolled = Roll(who, attribute, taken.faces, taken.source, self.successes(taken.faces))
        self.used.append(rolled)
        return rolled

    def _own(self, count: int) -> kit.Rolled:
        rng = random.Random(self.seed * 1_000_003 + self.actions * 1_009 + len(self.used))
        return kit.Rolled(tuple(rng.randint(1, 10) for _ in range(count)), "engine")

    def read_record(self, entry: dict) -> kit.Rolled:
        faces, source = tuple(entry["faces"]), entry["source"]
        return kit.Rolled(faces, source, purpose=entry["what"], who=entry["who"])

    def successes(self, faces: tuple[int, ...]) -> int:
        return sum(1 for f in faces if f >= self.encounter.rules.success)

    def roll_text(self, r: Roll) -> str:
        faces = " ".join(map(str, r.faces)) or "no dice"
        return f"{self.name(r.who)} rolls {r.what} [{faces}]: {plural(r.successes, 'success')}"

    # ------------------------------------------------------------------ applying
    def apply(self, cmd: Command, replay: list | None = None) -> list[str]:
        if self.mode == "over":
            raise IllegalAction(f"the game is over: {self.winner_text()}")
        self.lines = []
        self.used = []
        self.new_action()
        self.replaying = deque(replay) if replay is not None else None
        handler = getattr(self, "_do_" + cmd.verb, None)
        if handler is None:
            raise IllegalAction(f"forms has no verb {cmd.verb!r}")
        comings.refuse_arriving(self, cmd)
        handler(cmd)
        self.actions += 1
        self.log.extend(self.lines)
        return self.lines

    def winner_text(self) -> str:
        if self.winner is None:
            return "nobody has won yet"
        if self.winner < 0:
            return "every side is down"
        return f"{self.encounter.teams[self.winner]} wins"

    # ------------------------------------------------------------------ comings and goings
    def _do_add(self, cmd: Command) -> None:
        comings.add(self, cmd, Unit)

    def _do_remove(self, cmd: Command) -> None:
        comings.remove(self, cmd)

    # ------------------------------------------------------------------ social rounds
    def _social(self, verb: str) -> None:
        if self.mode != "social":
            raise IllegalAction(
                f"{verb} belongs to a social round; this is combat step {self.step}"
            )

    def _between(self, verb: str) -> None:
        self._social(verb)
        if self.combined is not None:
            raise IllegalAction(f"{verb}: the sprung trap's combat round comes first: `roll`")
        if self.checks:
            raise IllegalAction(f"{verb}: {len(self.checks)} check(s) of this round still to roll")

    def _do_form(self, cmd: Command) -> None:
        i = self.unit(cmd.arg(0, "a unit"))
        f = self.form(cmd.arg(1, "a Form"))
        u = self.units[i]
        if f.name not in u.known:
            raise IllegalAction(f"{u.spec.name} does not know the Form {f.name}")
        if u.down:
            raise IllegalAction(f"{u.spec.name} is down")
        if u.form:
            raise IllegalAction(f"{u.spec.name} has declared {u.form} this round")
        if self.mode == "social":
            if not f.social:
                raise IllegalAction(
                    f"{f.name} is a combat Form (step {f.step}), not an Active Form"
                )
            if self.checks_made or self.combined is not None:
                raise IllegalAction(
                    "an Active Form is declared first, before any check of the round"
                )
            u.form = f.name
            self.say(f"{u.spec.name} declares the Active Form {f.name}" + _bonus(f))
            return
        if f.social:
            raise IllegalAction(f"{f.name} is an Active Form of social rounds")
        if f.step != self.step:
            raise IllegalAction(
                f"{f.name} is declared at step {f.step} ({STEP_NAMES[f.step - 1]}), and this is"
                f" step {self.step}"
            )
        self._may_act(i)
        u.form = f.name
        u.path -= set(f.skip)
        said = f"{u.spec.name} declares {f.name}" + _bonus(f)
        if f.skip:
            nxt = min(s for s in u.path if s > self.step)
            said += f": steps {_list(f.skip)} skipped, on to step {nxt}"
        if f.extra:
            said += f": step {_list(f.extra)} taken twice"
        self.say(said)
        if f.movement:
            self._remake_order()
            self.say("movement order: " + "; ".join(self.order_lines()))
        self._acted(i, finish=True)

    def _do_check(self, cmd: Command) -> None:
        self._social("check")
        if self.combined is not None:
            raise IllegalAction("the sprung trap's combat round comes first: `roll`")
        i = self.unit(cmd.arg(0, "a unit"))
        if self.units[i].down:
            raise IllegalAction(f"{self.name(i)} is down")
        what = cmd.arg(1, "an attribute or a check of the area")
        named = self.encounter.check(what)
        attr = named.attribute if named else _attribute(what, self.encounter)
        difficulty = named.difficulty if named else self.encounter.rules.difficulty
        if "dc" in cmd.opts:
            if named:
                raise IllegalAction(f"the {named.name} check's difficulty is the area's")
            difficulty = whole_number(cmd.opts["dc"], 0, MAX_DICE, "dc")
        check = PendingCheck(self.seq, i, attr, difficulty, named=named)
        if "vs" in cmd.opts:
            if named or "dc" in cmd.opts:
                raise IllegalAction("a Challenge check (vs=) has no difficulty: it is rolled off")
            who, _, other = cmd.opts["vs"].partition(":")
            check.vs = self.unit(who)
            check.vs_attribute = _attribute(other, self.encounter) if other else attr
            if check.vs == i:
                raise IllegalAction(f"{self.name(i)} cannot challenge itself")
            if self.units[check.vs].down:
                raise IllegalAction(f"{self.name(check.vs)} is down")
        self.seq += 1
        self.checks_made += 1
        self.checks.append(check)
        self.checks.sort(key=PendingCheck.key)
        kind = (
            f"a Challenge check against {self.name(check.vs)}'s {check.vs_attribute}"
            if check.vs >= 0
            else f"an Environment check needing {difficulty}"
        )
        label = f" ({named.name})" if named else ""
        nxt = self.checks[0]
        self.say(
            f"{self.name(i)}'s {attr} check{label} waits: {kind}; next to roll:"
            f" {self.name(nxt.unit)}'s {nxt.attribute}"
        )

    def _resolve_check(self) -> None:
        c = self.checks.pop(0)
        mine = self.roll(c.unit, c.attribute)
        self.last = [mine]
        u = self.units[c.unit]
        if c.vs >= 0:
            theirs = self.roll(c.vs, c.vs_attribute)  # rolled at the same time
            self.last.append(theirs)
            ok = mine.successes > theirs.successes
            self.say(f"{self.roll_text(mine)}; {self.roll_text(theirs)}")
            self.say(
                f"{u.spec.name}'s {c.attribute} challenge "
                + ("succeeds" if ok else f"fails ({self.name(c.vs)} holds)")
            )
        else:
            ok = mine.successes >= c.difficulty
            label = c.named.name if c.named else c.attribute
            self.say(
                f"{self.roll_text(mine)}: the {label} check "
                + ("succeeds" if ok else f"fails (needs {c.difficulty})")
            )
        if ok:
            u.passed += 1
        else:
            u.failed += 1
        if not ok and c.named is not None and c.named.springs:
            self.combined = (c.unit, c.named)
            self.say(
                f"the {c.named.name} springs: combat at once, {u.spec.name} rolls"
                f" {self.encounter.rules.dodge} to Dodge (step 5)"
            )

    def _resolve_trap(self) -> None:
        assert self.combined is not None
        i, trap = self.combined
        r = self.roll(i, self.encounter.rules.dodge)
        self.last = [r]
        u = self.units[i]
        if r.successes >= trap.dodge:
            self.say(f"{self.roll_text(r)}: {u.spec.name} dodges the {trap.name}")
        else:
            self._hurt(i, trap.springs)
            self.say(
                f"{self.roll_text(r)}: the Dodge fails; step 7: {u.spec.name} takes"
                f" {trap.springs} damage ({u.health} left)"
            )
        self.combined = None
        self.say("no foes: the combat is over, the social encounter goes on")
        self._settle()

    def _end_social_round(self) -> None:
        self._lingering()
        self.social_rounds += 1
        self.say(f"social round {self.round} is over")
        self._new_round()

    def _do_end(self, cmd: Command) -> None:
        self._between("end")
        self._end_social_round()

    def _do_area(self, cmd: Command) -> None:
        self._between("area")
        where = " ".join(cmd.args).strip()
        if not where:
            raise IllegalAction("area: name the area (usage: area NAME)")
        self._close_encounter()
        self._next_round()
        self._open_encounter("social", where)

    def _do_gain(self, cmd: Command) -> None:
        self._between("gain")
        i = self.unit(cmd.arg(0, "a unit"))
        f = self.form(cmd.arg(1, "a Form"))
        u = self.units[i]
        if f.name in u.known:
            raise IllegalAction(f"{u.spec.name} already knows {f.name}")
        area = self.encounters[-1]["area"]
        self._close_encounter()
        self._next_round()
        self._open_encounter("form", area)
        u.known.append(f.name)
        self.say(f"{u.spec.name} gains the Form {f.name}")
        self._close_encounter()
        self._open_encounter("social", area)

    def _do_fight(self, cmd: Command) -> None:
        self._between("fight")
        area = self.encounters[-1]["area"]
        self._close_encounter()
        self._next_round()
        self._open_encounter("combat", area)
        self.mode = "combat"
        for u in self.units:
            u.aware = u.spec.aware and not u.down
            u.fresh = u.aware
            u.chain = []
        self._remake_order()
        self._open_step(1)

    def _next_round(self) -> None:
        """A new round for what comes next: the social round so far ends (its effects left
        over take place) unless nothing happened in it, and then it is that round."""
        if self.checks_made or any(u.form for u in self.units):
            self._end_social_round()

    def _open_encounter(self, kind: str, area: str) -> None:
        n = len(self.encounters) + 1
        self.encounters.append(
            {"n": n, "kind": kind, "area": area, "opened": self.round, "closed": 0}
        )
        self.say(f"encounter {n} opens: {kind} in {area} (round {self.round})")

    def _close_encounter(self) -> None:
        e = self.encounters[-1]
        e["closed"] = self.round
        self.say(f"encounter {e['n']} ({e['kind']}) closes")

    def _new_round(self) -> None:
        self.round += 1
        self.checks_made = 0
        self.attacks = []
        self.dodges = {}
        for u in self.units:
            u.arriving = False
            u.path = set(range(1, STEPS + 1))
            u.form = ""
            u.moved_at = 0
            u.acts = 0
            u.finished = False
            u.damage_due = 0
        self._remake_order()  # a Form's place in the order lasts one round

    def _lingering(self) -> None:
        """The effects left over once every eligible unit has finished: Forms' healing."""
        for u in self.units:
            if u.form and not u.down:
                heal = self.form(u.form).heal
                if heal and u.health < u.spec.health:
                    before = u.health
                    u.health = min(u.spec.health, u.health + heal)
                    self.say(f"{u.spec.name} heals {u.health - before} ({u.form}): {u.health}")
        self.timeline.append(self._point())

    def _point(self) -> dict:
        sides = {t: 0 for t in self.encounter.teams}
        for u in self.units:
            sides[self.encounter.teams[u.spec.side]] += u.dealt
        return {
            "round": self.round,
            "health": {u.spec.name: max(0, u.health) for u in self.units},
            "score": sides,
        }

    # ------------------------------------------------------------------ combat
    def _combat(self, verb: str, step: tuple[int, ...]) -> None:
        if self.mode != "combat":
            raise IllegalAction(f"{verb} belongs to combat; this is a social round (`fight`)")
        if self.step not in step:
            where = " or ".join(f"{s} ({STEP_NAMES[s - 1]})" for s in step)
            raise IllegalAction(f"{verb} is for step {where}; this is step {self.step}")

    def eligible(self, i: int, step: int) -> bool:
        """Whether unit i has a part in `step` of this combat round."""
        u = self.units[i]
        if u.down or u.arriving or step not in u.path:
            return False
        if step == 1:
            return not u.aware
        if step == 2:
            return u.aware
        if step == 8:
            return u.moved_at == 0
        if step in (3, 4):
            return (
                u.aware
                and not u.form
                and any(self.form(k).step == step for k in u.known if not self.form(k).social)
            )
        if step == 5:
            return u.aware and self._foes(i) != []
        if step == 6:
            return u.aware and (bool(self._to_aim(i)) or bool(self._to_block(i)))
        return False

    def no_part(self, i: int, step: int) -> str:
        """Why unit i has no part in `step`, as the combat round's steps say
        (forms-turns-rounds-encounters.txt:54-61); `eligible` is False."""
        u = self.units[i]
        if step not in u.path:
            if u.form:
                return f"its {u.form} Form skips step {step}"
            return "it is not Aware, so it skips to step 7 this round"
        if step == 1:
            return "it is Aware already (step 1 checks the Awareness of the others)"
        if step == 7:
            return "nobody acts at step 7: its damage is dealt at once"
        if step == 8:
            return (
                f"it moved at step {u.moved_at}, and a unit moves at step 8 only if it did"
                " not at step 2"
            )
        if not u.aware:
            return f"only Aware units take step {step}"
        if step in (3, 4):
            if u.form:
                return f"it has declared {u.form} this round"
            return f"it knows no Form of step {step}"
        if step == 5:
            return "no foe of it still stands"
        return "it has no hit to Aim and none on it to Block"

    def allowance(self, i: int) -> int:
        u = self.units[i]
        extra = self.form(u.form).extra if u.form else ()
        return 2 if self.step in extra else 1

    def to_act(self) -> list[int]:
        """The units still to act in this step, in the movement order."""
        if self.mode != "combat":
            return []
        return [i for i in self.order if self.eligible(i, self.step) and not self.units[i].finished]

    def _foes(self, i: int) -> list[int]:
        side = self.units[i].spec.side
        return [
            j
            for j in self.order
            if self.units[j].spec.side != side
            and not self.units[j].down
            and not self.units[j].arriving
        ]

    def _to_aim(self, i: int) -> list[Attack]:
        return [a for a in self.attacks if a.attacker == i and a.hit and not a.aimed]

    def _to_block(self, i: int) -> list[Attack]:
        return [a for a in self.attacks if a.target == i and a.hit and not a.blocked]

    def _may_act(self, i: int) -> None:
        u = self.units[i]
        if u.down:
            raise IllegalAction(f"{u.spec.name} is down")
        if u.finished or not self.eligible(i, self.step):
            why = "has finished its part of" if u.finished else "has no part in"
            raise IllegalAction(
                f"{u.spec.name} {why} step {self.step} ({STEP_NAMES[self.step - 1]})"
                + ("" if u.finished else f": {self.no_part(i, self.step)}")
            )
        if self.step in SEQUENTIAL:
            first = self.to_act()[0]
            if first != i:
                raise IllegalAction(
                    f"{self.name(first)} moves before {u.spec.name}: movement goes by Agility,"
                    " low to high"
                )

    def _acted(self, i: int, finish: bool = False) -> None:
        u = self.units[i]
        u.acts += 1
        if finish or u.acts >= self.allowance(i):
            u.finished = True
        self._settle()

    def _settle(self) -> None:
        """Close the step once nobody is left to act in it, and open the next ones."""
        while self.mode == "combat" and not self.to_act():
            if self.step == 5:
                self._close_attacks()
            if self.step == STEPS:
                self._end_combat_round()
                return
            self._open_step(self.step + 1)

    def _open_step(self, step: int) -> None:
        self.step = step
        for u in self.units:
            u.acts = 0
            u.finished = False
        if step in SEQUENTIAL:
            self._agility_rolls()
        if step == 7:
            self._deal_damage()
            if len(self.standing_sides()) <= 1:
                self._end_combat_round()
                return
        waiting = self.to_act()
        if waiting:
            self.say(
                f"step {step} ({STEP_NAMES[step - 1]}): "
                + ", ".join(self.name(i) for i in waiting)
                + (" in turn" if step in SEQUENTIAL else " at once")
            )
        elif step != 7:
            self.say(f"step {step} ({STEP_NAMES[step - 1]}): nobody acts")
        self._settle()

    def _end_combat_round(self) -> None:
        self._lingering()
        sides = self.standing_sides()
        self.say(f"combat round {self.round} is over")
        if len(sides) <= 1:
            self.winner = next(iter(sides)) if sides else -1
            self._close_encounter()
            self.say(f"the combat is complete: {self.winner_text()}")
            self.mode = "over"
            self.step = 0
            return
        self._new_round()
        self._open_step(1)

    def _agility_rolls(self) -> None:
        """Units Aware for the first time roll Agility; the order is made again."""
        fresh = [i for i in self.order if self.units[i].fresh and not self.units[i].down]
        if not fresh:
            return
        for i in fresh:
            r = self.roll(i, "Agility", at_least=1)
            self.units[i].chain = [max(r.faces)]
            self.units[i].fresh = False
            self.say(f"{self.roll_text(r)}: top die {max(r.faces)}")
        self._remake_order(fresh)
        self.say("movement order: " + "; ".join(self.order_lines()))

    def _remake_order(self, fresh: list[int] | None = None) -> None:
        """Agility low to high; equal Agility by the Agility roll's top die, low to high,
        the tied rerolling among themselves. A tie that takes in a unit Aware for the first
        time rerolls; ties settled before stay settled."""
        fresh_set = set(fresh or [])
        groups: dict[tuple[int, int], list[int]] = {}
        for i, u in enumerate(self.units):
            if u.chain:
                groups.setdefault((u.spec.score("Agility"), u.chain[0]), []).append(i)
        for group in groups.values():
            if len(group) > 1 and fresh_set & set(group):
                for i in group:
                    del self.units[i].chain[1:]
                self._reroll(group)

        def key(i: int) -> tuple[int, int, list[int], int]:
            return self._rank(i), self.units[i].spec.score("Agility"), self.units[i].chain, i

        self.order = sorted(range(len(self.units)), key=key)

    def _rank(self, i: int) -> int:
        """0 for a unit whose Form moves it first this round, 2 last, else 1."""
        u = self.units[i]
        movement = self.form(u.form).movement if u.form else ""
        return {"first": 0, "last": 2}.get(movement, 1)

    def _reroll(self, group: list[int]) -> None:
        for _ in range(MAX_REROLLS):
            tops = {}
            for i in group:
                r = self.roll(i, "Agility", at_least=1)
                tops[i] = max(r.faces)
                self.units[i].chain.append(tops[i])
            self.say(
                "tied, rerolled: " + ", ".join(f"{self.name(i)} top die {tops[i]}" for i in group)
            )
            values: dict[int, list[int]] = {}
            for i in group:
                values.setdefault(tops[i], []).append(i)
            for tied in values.values():
                if len(tied) > 1:
                    self._reroll(tied)
            return

    def order_reason(self, i: int) -> tuple[int, str]:
        """Why unit i stands where it does in the movement order: a code and the words."""
        u = self.units[i]
        agility = u.spec.score("Agility")
        if u.down:
            return R_DOWN, "down"
        if self._rank(i) != 1:
            return R_AGILITY, f"{u.form}: moves {self.form(u.form).movement}"
        level = [
            j
            for j, o in enumerate(self.units)
            if j != i and not o.down and o.spec.score("Agility") == agility
        ]
        if not level:
            return R_AGILITY, f"Agility {agility}"
        if not u.chain:
            return R_AGILITY, f"Agility {agility}, no Agility roll yet"
        same_top = [j for j in level if self.units[j].chain[:1] == u.chain[:1]]
        if not same_top:
            return R_ROLL, f"Agility {agility}, top die {u.chain[0]}"
        rerolls = " ".join(map(str, u.chain[1:]))
        return R_REROLL, f"Agility {agility}, top die {u.chain[0]} tied, rerolls {rerolls}"

    def order_lines(self) -> list[str]:
        return [f"{self.name(i)} ({self.order_reason(i)[1]})" for i in self.order]

    def _do_roll(self, cmd: Command) -> None:
        if self.mode == "social":
            if cmd.args:
                i = self.unit(cmd.args[0])
                if self.combined is not None and self.combined[0] != i:
                    raise IllegalAction(f"the trap's Dodge roll is {self.name(self.combined[0])}'s")
                if self.combined is None and self.checks and self.checks[0].unit != i:
                    c = self.checks[0]
                    raise IllegalAction(
                        f"{self.name(c.unit)}'s {c.attribute} check comes first: checks go"
                        " Vitality, Physique, Resolve, Insight, Agility, Passion, Prowess, Genius"
                    )
            if self.combined is not None:
                self._resolve_trap()
            elif self.checks:
                self._resolve_check()
            else:
                raise IllegalAction("no check waits to be rolled: `check UNIT WHAT` first")
            return
        self._combat("roll", (1,))
        waiting = self.to_act()
        i = self.unit(cmd.args[0]) if cmd.args else waiting[0]
        self._may_act(i)
        self._awareness(i)

    def _awareness(self, i: int) -> None:
        r = self.roll(i, "Insight")
        self.last = [r]
        u = self.units[i]
        if r.successes >= self.encounter.rules.awareness:
            u.aware = u.fresh = True
            self.say(f"{self.roll_text(r)}: Aware of its foes")
        else:
            u.path -= {2, 3, 4, 5, 6}
            self.say(f"{self.roll_text(r)}: not Aware, on to step 7")
        self._acted(i, finish=True)

    def _do_move(self, cmd: Command) -> None:
        self._combat("move", SEQUENTIAL)
        i = self.unit(cmd.arg(0, "a unit"))
        self._may_act(i)
        self.units[i].moved_at = self.step
        self.say(f"{self.name(i)} moves (step {self.step})")
        self._acted(i, finish=True)

    def _do_attack(self, cmd: Command) -> None:
        self._combat("attack", (5,))
        i = self.unit(cmd.arg(0, "a unit"))
        t = self.unit(cmd.arg(1, "a target"))
        self._may_act(i)
        if t not in self._foes(i):
            raise IllegalAction(f"{self.name(t)} is not a standing foe of {self.name(i)}")
        r = self.roll(i, self.encounter.rules.attack)
        self.last = [r]
        self.attacks.append(Attack(i, t, r.successes))
        self.say(f"{self.roll_text(r)} to attack {self.name(t)}")
        self._acted(i)

    def _close_attacks(self) -> None:
        """Step 5 ends: every unit attacked rolls its Dodge dice, at once; more attack
        successes than Dodge successes hit. A unit that skips step 5 (not Aware, or in a
        Form that skips it, as Slow does) rolls no Dodge dice: 0 successes."""
        for t in self.order:
            if any(a.target == t for a in self.attacks) and t not in self.dodges:
                u = self.units[t]
                if not u.aware or 5 not in u.path:
                    why = f"in {u.form}" if u.aware else "not Aware"
                    self.dodges[t] = 0
                    self.say(f"{u.spec.name} is {why}: no Dodge roll (step 5 skipped)")
                    continue
                r = self.roll(t, self.encounter.rules.dodge)
                self.dodges[t] = r.successes
                self.last = [r]
                self.say(f"{self.roll_text(r)} to Dodge")
        for a in self.attacks:
            a.dodged = self.dodges[a.target]
            verdict = "hits" if a.hit else "misses"
            self.say(f"{self.name(a.attacker)}'s attack {verdict} {self.name(a.target)}")

    def _do_aim(self, cmd: Command) -> None:
        self._aim_or_block(cmd, aim=True)

    def _do_block(self, cmd: Command) -> None:
        self._aim_or_block(cmd, aim=False)

    def _aim_or_block(self, cmd: Command, aim: bool) -> None:
        self._combat(cmd.verb, (6,))
        i = self.unit(cmd.arg(0, "a unit"))
        self._may_act(i)
        hits = self._to_aim(i) if aim else self._to_block(i)
        if not hits:
            what = "no hit of its own to Aim" if aim else "no hit on it to Block"
            raise IllegalAction(f"{self.name(i)} has {what}")
        attribute = self.encounter.rules.aim if aim else self.encounter.rules.block
        r = self.roll(i, attribute)
        self.last = [r]
        for a in hits:
            if aim:
                a.aim, a.aimed = r.successes, True
            else:
                a.block, a.blocked = r.successes, True
        self.say(f"{self.roll_text(r)} to {'Aim' if aim else 'Block'}")
        u = self.units[i]
        u.acts += 1
        if not self._to_aim(i) and not self._to_block(i):
            u.finished = True
        self._settle()

    def _deal_damage(self) -> None:
        """Step 7: every hit's damage is dealt and taken at once."""
        for a in self.attacks:
            if a.hit:
                amount = max(0, self.units[a.attacker].spec.damage + a.aim - a.block)
                self.units[a.target].damage_due += amount
                self.units[a.attacker].dealt += amount
        said = []
        for i in self.order:
            u = self.units[i]
            if u.damage_due:
                self._hurt(i, u.damage_due)
                said.append(f"{u.spec.name} takes {u.damage_due} ({max(0, u.health)} left)")
                u.damage_due = 0
            if not u.down and not u.aware and any(a.target == i for a in self.attacks):
                u.aware = u.fresh = True
                said.append(f"{u.spec.name}, attacked, is Aware now")
        self.say("step 7 (Damage): " + ("; ".join(said) if said else "no damage"))

    def _hurt(self, i: int, amount: int) -> None:
        u = self.units[i]
        u.taken += amount
        u.health = max(0, u.health - amount)
        if u.down:
            self.say(f"{u.spec.name} is down")
            if self.mode == "social" and len(self.standing_sides()) <= 1:
                sides = self.standing_sides()
                self.winner = next(iter(sides)) if sides else -1
                self.mode = "over"

    def _do_done(self, cmd: Command) -> None:
        if self.mode != "combat":
            raise IllegalAction(
                "done ends a unit's part of a combat step; this is a social round (`fight`"
                " begins combat)"
            )
        i = self.unit(cmd.arg(0, "a unit"))
        self._pass(i)

    def _pass(self, i: int) -> None:
        self._may_act(i)
        if self.step == 1:  # the Awareness check is not optional
            self._awareness(i)
            return
        self.say(f"{self.name(i)} is done with step {self.step}")
        self._acted(i, finish=True)

    def _do_next(self, cmd: Command) -> None:
        """What comes next, one at a time: the next check in a social round (or its end),
        else the end of the first unit's part of the step still to act in it."""
        if self.mode == "social":
            self._social_next()
            return
        self._pass(self.to_act()[0])

    def _social_next(self) -> None:
        """A social round's next thing: the sprung trap's Dodge, else the next check, else
        the round's end."""
        if self.combined is not None:
            self._resolve_trap()
        elif self.checks:
            self._resolve_check()
        else:
            self._end_social_round()

    def _do_pass(self, cmd: Command) -> None:
        """The step's end (the board's next-turn key with no unit selected, and its
        next-phase key): everyone still to act in this combat step is done; a social round
        (one step on the board) makes the sprung trap's Dodge roll and every check still
        waiting, in their order, and then ends."""
        if self.mode == "social":
            rnd = self.round
            while self.mode == "social" and self.round == rnd:
                self._social_next()
            return
        step, rnd = self.step, self.round
        while self.mode == "combat" and self.step == step and self.round == rnd:
            self._pass(self.to_act()[0])

    # ------------------------------------------------------------------ reading
    def active(self) -> int | None:
        """The unit `next` acts for now, if any."""
        if self.mode == "social":
            if self.combined is not None:
                return self.combined[0]
            return self.checks[0].unit if self.checks else None
        waiting = self.to_act()
        return waiting[0] if waiting else None

    def phase_name(self) -> str:
        if self.mode == "combat":
            return f"round {self.round}, step {self.step} ({STEP_NAMES[self.step - 1]})"
        if self.mode == "over":
            return self.winner_text()
        if self.combined is not None:
            return f"round {self.round}: a sprung trap's combat, step 5 (Dodge)"
        if self.checks:
            c = self.checks[0]
            return f"round {self.round}: {self.name(c.unit)}'s {c.attribute} check next"
        return f"round {self.round}: Active Forms, then checks"


def _attribute(word: str, enc: Encounter) -> str:
    from host.rulesets.forms.encounter_schema import attribute

    found = attribute(word)
    if found is None:
        checks = ", ".join(c.name for c in enc.checks)
        also = f", or a check of the area ({checks})" if checks else ""
        raise IllegalAction(f"{word!r} is not an attribute ({', '.join(ATTRIBUTES)}){also}")
    return found


def _bonus(f: Form) -> str:
    return f" (+{f.dice} {f.attribute} dice)" if f.dice else ""


def _list(steps: tuple[int, ...]) -> str:
    return ", ".join(map(str, steps))
