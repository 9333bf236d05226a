"""pf2's verbs: each checks everything it can before it changes anything, says why in one
line when the rules refuse (IllegalAction), and returns the lines of what happened.
docs/rulesets/pf2.md documents each; pf2-combat.txt's numbers are cited where a rule is
applied.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from host.core import effects as book
from host.core import kit
from host.core.commandline import Command, whole_number
from host.core.interface import IllegalAction
from host.core.names import plain
from host.rulesets.pf2 import checks, comings, delay, harm, turns
from host.rulesets.pf2.encounter_schema import (
    CONDITION_NAMES,
    MARKED,
    SIDES,
    VALUED,
    Roll,
    Strike,
    read_roll,
)
from host.rulesets.pf2.engine import Fighter, Game
from host.rulesets.pf2.language import SAVES

ATTACK_STEP = {False: 5, True: 4}  # [6] the penalty per step: -5/-10, agile -4/-8
# [24] up to 10 minutes: 100 rounds, a round being 6 seconds (the books' round; the summary
# gives none, so `sustain ... limit=ROUNDS` says another, as an effect that says otherwise).
SUSTAIN_ROUNDS = 100


def apply(game: Game, cmd: Command, replay: list[list] | None = None) -> list[str]:
    kit.may_play(game, cmd)
    checked, game.last_check = game.last_check, {}
    if cmd.verb == "hero":
        game.last_check = checked  # (what `hero` may reroll [26]; cleared as it ends)
    game.dice.begin(game.actions, replay)
    game.dice.degree = -1
    game.moments = None
    game.turn_end_at = None
    died_before = list(game.died_now)
    game.died_now = []
    if cmd.verb == "hero":
        game.died_now = died_before
    lines = HANDLERS[cmd.verb](game, cmd)
    if cmd.verb == "hero":
        game.died_now = []
        game.last_check = {}
    return kit.action_done(game, cmd, lines, _settle)


_won = kit.won


def standing(f: Fighter) -> bool:
    """[27]: conscious and in the fight (at 0 HP too, once the GM has woken it [16])."""
    return f.in_fight and "unconscious" not in f.marks


def _settle(game: Game, lines: list[str]) -> None:
    """[27] with `end = "auto"`: the fight ends once at most one side has anyone conscious."""
    kit.auto_end(game, lines, standing, finish)


def finish(game: Game, winner: str, lines: list[str]) -> None:
    kit.over(game, winner, lines)


point = kit.point
downs = kit.downs  # the foes of a team that are down: dead, at 0 HP, fled or gone


# -- who may do what ---------------------------------------------------------------------------
def _who(game: Game, cmd: Command, at: int = 0, what: str = "a creature") -> Fighter:
    return game.fighter(cmd.arg(at, what))


def _alive(f: Fighter) -> None:
    if not f.in_fight:
        raise IllegalAction(f"{f.name} is {'dead' if f.dead else 'out of the fight'}")


def whose(game: Game) -> str:
    e = game.entry()
    if e is None:
        return "nobody's"
    return " and ".join(game.fighters[i].name for i in e.members) + "'s"


def can_act(game: Game, f: Fighter) -> str:
    """Why `f` cannot act now ("" if it can) [3][18][19]."""
    if not f.in_fight:
        return "dead" if f.dead else "out of the fight"
    if "unconscious" in f.marks:
        return "unconscious [18]"
    if f.values.get("stunned"):
        return "stunned [19]"
    if "paralyzed" in f.marks:
        return "paralyzed [19]"
    if game.is_delayed(f):
        return "delaying: `return` first [22]"
    if not game.turn_of(f):
        return f"it is {whose(game)} turn"
    return ""


def spend(game: Game, f: Fighter, cost: int) -> None:
    """Refuse unless `f` may spend `cost` actions of its turn now [3]."""
    why = can_act(game, f)
    if why:
        raise IllegalAction(f"{f.name} cannot act: {why}")
    if cost > f.actions:
        raise IllegalAction(
            f"{f.name} has {f.actions} action(s) left, not {cost} [3]: `next` ends its turn"
        )
    f.actions -= cost


def react(game: Game, f: Fighter) -> None:
    """Refuse unless `f` may use its reaction now [3][18][19][22]."""
    why = can_act(game, f)
    if why and not why.startswith("it is "):
        raise IllegalAction(f"{f.name} cannot react: {why}")
    if not f.reaction:
        raise IllegalAction(f"{f.name} has used its reaction: it comes back as its turn starts [3]")
    f.reaction = False


# -- the order ---------------------------------------------------------------------------------
def do_initiative(game: Game, cmd: Command) -> list[str]:
    kit.initiative_once(game)
    checks_named: dict[int, int] = {}
    for item in cmd.list_opt("check"):  # [1] another check the GM names for a creature
        who, _, mod = item.rpartition(":")
        if not who:
            raise IllegalAction(f"check= is NAME:MODIFIER (Orc:+9), not {item!r}")
        checks_named[game.fighter(who).index] = whole_number(mod, -20, 60, "check's modifier")
    lines = turns.roll_initiative(game, checks_named)
    return kit.first_round(game, lines, turns.start_turn)


def do_next(game: Game, cmd: Command) -> list[str]:
    game.turn_end_at = 0
    return kit.advanced(game, turns.advance)


def do_end(game: Game, cmd: Command) -> list[str]:
    kit.end_named(game, cmd)
    return do_next(game, cmd)


def do_delay(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    _alive(f)
    was = game.round
    left = game.entry()
    lines = delay.delay(game, f)
    game.turn_end_at = 1  # after the line that says it Delays
    pos = game.at
    lines += turns.move_on(game, game.at)
    if left is not None:
        game.moments = delay.moments(game, left, was, pos)
    if game.round != was:
        game.timeline.append(point(game))
    return lines + turns.start_turn(game)


def do_return(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    _alive(f)
    if not game.is_delayed(f):
        raise IllegalAction(f"{f.name} is not delaying (`delay {f.label}` as its turn begins)")
    game.turn_end_at = 0
    lines = turns.end_turn(game)
    return lines + delay.back(game, f)


def do_finish(game: Game, cmd: Command) -> list[str]:
    """[27] the game master ends the fight."""
    return kit.finish_named(game, cmd, finish)


# -- checks ------------------------------------------------------------------------------------
def _typed(cmd: Command) -> list[tuple[str, int]]:
    return [(k, cmd.int_opt(k, -10, 10)) for k in checks.TYPES if k in cmd.opts]


def _d20(game: Game, purpose: str, f: Fighter, hero: bool) -> tuple[int, str, list[str]]:
    """A check's d20; with `hero`, a Hero Point rerolls it and the new result stands [26]."""
    face = game.dice.draw(purpose, f.index, (20,))[0]
    if not hero:
        if game.last_check.get("who") == f.index:
            game.last_check["face"] = face  # (kept for a reroll after it [26])
        return face, f"d20 {face}", []
    if f.hero < 1:
        raise IllegalAction(f"{f.name} has no Hero Points left [26]")
    f.hero -= 1
    again = game.dice.draw("reroll", f.index, (20,))[0]
    return (
        again,
        f"d20 {again}",
        [f"{f.name} spends a Hero Point: {face} rerolled, {again} stands [26]"],
    )


def keep_check(game: Game, f: Fighter, changed: list[Fighter], verb: str, data: list) -> None:
    """[26] a check about to be rolled, kept for `hero NAME` right after it: what resolves
    it again, and the creatures its result may change as they are before it."""
    indices = dict.fromkeys(c.index for c in changed)
    before = [_copied(game.fighters[i]) for i in indices]
    game.last_check = {"who": f.index, "verb": verb, "data": data, "before": before}
    game.last_check["over"] = game.over


def _copied(f: Fighter) -> Fighter:
    """`f` as it is now, apart from it: its containers copied, its spec (frozen) shared."""
    out = copy.copy(f)
    out.values, out.marks = dict(f.values), list(f.marks)
    out.persistent, out.stats = dict(f.persistent), dict(f.stats)
    return out


def _reroll(game: Game, f: Fighter) -> list[str]:
    """[26] `hero NAME` right after its check: 1 Hero Point, the check rolled again and the
    new result taken; what the first result did is taken back."""
    kept = game.last_check
    if not kept or kept["who"] != f.index:
        raise IllegalAction(
            f"{f.name} is not dying, and the last action was no check of its: a Hero Point"
            f" rerolls one (a `strike`, `save`, `flat` or `retch`) as `hero {f.label}` right"
            " after it (or `hero` on `strike` or `save`) [26]"
        )
    if game.over != kept["over"]:
        raise IllegalAction(
            f"{f.name}'s check ended the fight: `undo` it and make it again with `hero` [26]"
        )
    for was in kept["before"]:
        now = game.fighters[was.index]
        for name in vars(was):
            setattr(now, name, getattr(was, name))
    game.died_now = []
    f.hero -= 1
    face = kept["face"]
    again = game.dice.draw("reroll", f.index, (20,))[0]
    lines = [
        f"{f.name} spends a Hero Point: {face} rerolled, {again} stands; what the {face} did"
        " is taken back [26]"
    ]
    data = kept["data"]
    if kept["verb"] == "flat":
        return lines + _flat_result(game, f, data[0], again)
    if kept["verb"] == "retch":
        return lines + _retch_result(game, f, data[0], data[1], again)
    if kept["verb"] == "strike":
        target = game.fighters[data[0]]
        weapon = _weapon(f, data[1])
        return lines + _strike_result(
            game, f, target, weapon, data[2], data[3], again, f"d20 {again}"
        )
    which, bonus, dc, basic_text, kind, by_index = data
    basic = read_roll(basic_text) if basic_text else None
    by = game.fighters[by_index] if by_index >= 0 else None
    return lines + _save_result(game, f, which, bonus, dc, basic, kind, by, again, f"d20 {again}")


def _weapon(f: Fighter, word: str | None) -> Strike:
    return kit.pick(f.name, f.spec.strikes, word, "Strike")


def do_strike(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    target = _who(game, cmd, 1, "a target")
    weapon = _weapon(f, cmd.args[2] if len(cmd.args) > 2 else None)
    _alive(target)
    if target is f:
        raise IllegalAction(f"{f.name} does not Strike itself")
    agile = weapon.agile or "agile" in cmd.opts
    if "restrained" in f.marks:  # [19]
        raise IllegalAction(
            f"{f.name} is restrained: no attacks but to Escape (`act {f.label} Escape`)"
        )
    lines: list[str] = []
    if "readied" in cmd.opts:  # [21] with its reaction, the penalty it had as it readied
        if not f.readied:
            raise IllegalAction(f"{f.name} has no readied action (`ready {f.label} TRIGGER`)")
        react(game, f)
        step = f.readied_step
        lines.append(f"{f.name} takes its readied Strike with its reaction [21]")
        f.readied, f.readied_step = "", -1
    elif "reaction" in cmd.opts:  # [6] no multiple attack penalty off its own turn
        react(game, f)
        step = min(2, f.attacks) if game.turn_of(f) else 0
        if game.turn_of(f):
            f.attacks += 1
    else:
        if can_act(game, f).startswith("it is "):
            raise IllegalAction(
                f"it is {whose(game)} turn: {f.name} Strikes with `reaction` (or `readied`)"
            )
        spend(game, f, 1)
        step = min(2, f.attacks)
        f.attacks += 1
    if "map" in cmd.opts:
        step = cmd.int_opt("map", 0, 2)
    penalty = -step * ATTACK_STEP[agile]
    mods = checks.condition_mods(game, f, "ranged" if weapon.ranged else "melee") + _typed(cmd)
    if penalty:
        mods.append(("", penalty))  # [6] untyped
    bonus = weapon.bonus + checks.combine(mods)
    missed = _unseen(game, f, target, lines)
    if missed:
        f.stats["misses"] += 1
        return lines
    step_said = f", attack {step + 1}{' agile' if agile else ''} {penalty:+d}" if penalty else ""
    hero = "hero" in cmd.opts
    if not hero:
        keep_check(game, f, [f, target], "strike", [target.index, weapon.name, bonus, step_said])
    face, rolled, said = _d20(game, "attack", f, hero)
    return lines + said + _strike_result(game, f, target, weapon, bonus, step_said, face, rolled)


def _strike_result(
    game: Game,
    f: Fighter,
    target: Fighter,
    weapon: Strike,
    bonus: int,
    step_said: str,
    face: int,
    rolled: str,
) -> list[str]:
    """[7][8] a Strike's attack roll against the target's AC now, and its damage."""
    lines: list[str] = []
    ac, ac_why = checks.ac(game, target)
    total = face + bonus
    d = checks.degree(face, total, ac)
    game.dice.degree = d
    lines.append(
        f"{f.name} Strikes {target.name} with {weapon.name}{step_said}: {rolled}"
        f" {bonus:+d} = {total} vs AC {ac}{ac_why}: {checks.said(d)} [7][8]"
    )
    if d < checks.SUCCESS:
        f.stats["misses"] += 1
        return lines
    crit = d == checks.CRIT_SUCCESS
    f.stats["hits"] += 1
    f.stats["crits"] += crit
    amount, how = harm.roll_damage(game, weapon.damage, f.index, crit)
    if not weapon.ranged:
        less = checks.combine(checks.condition_mods(game, f, "damage_melee"))
        if less:
            amount = max(1, amount + less)  # [11] never below 1 before resistance
            how += f", enfeebled {less}: {amount}"
    lines.append(f"damage {how}{' ' + weapon.type if weapon.type else ''}")
    return lines + harm.damage(game, target, amount, weapon.type, f, crit)


def _unseen(game: Game, f: Fighter, target: Fighter, lines: list[str]) -> bool:
    """[10][19]: a flat check before the attack roll against a target the attacker cannot
    see well: DC 11 if it is hidden or invisible, or the attacker blinded; DC 5 if it is
    concealed, or the attacker dazzled. True: the check failed, the Strike is lost."""
    blind = any(m in f.marks for m in checks.BLINDED)  # [18][19]
    hidden = any(m in target.marks for m in ("hidden", "invisible")) or blind
    concealed = "concealed" in target.marks or "dazzled" in f.marks
    if not (hidden or concealed):
        return False
    dc = checks.HIDDEN_DC if hidden else checks.CONCEALED_DC
    face = game.dice.draw("flat", f.index, (20,))[0]
    d = checks.degree(face, face, dc)
    game.dice.degree = d
    how = "hidden" if hidden else "concealed"
    ok = d >= checks.SUCCESS
    lines.append(
        f"{target.name} is {how} to {f.name}: flat check d20 {face} vs DC {dc}:"
        f" {checks.said(d)}{'' if ok else ', the Strike is lost'} [10][19]"
    )
    return not ok


def do_save(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    which = plain(cmd.arg(1, "fort, ref or will"))[:4].rstrip()
    which = {"fort": "fort", "ref": "ref", "refl": "ref", "will": "will"}.get(which, "")
    if not which:
        raise IllegalAction(f"save: {cmd.args[1]!r} is no save (known: {', '.join(SAVES)})")
    _alive(f)
    dc = cmd.int_opt("dc", 0, 60)
    basic: Roll | None = None
    if "basic" in cmd.opts:
        basic = read_roll(cmd.opts["basic"])
        if basic is None:
            raise IllegalAction(
                f"basic= takes a number or dice of d{', d'.join(map(str, SIDES))} (4d6),"
                f" not {cmd.opts['basic']!r}"
            )
    elif "type" in cmd.opts:
        raise IllegalAction("type= goes with basic=DAMAGE")
    by = game.fighter(cmd.opts["by"]) if "by" in cmd.opts else None
    mods = checks.condition_mods(game, f, which) + _typed(cmd)
    bonus = f.spec.saves[which] + checks.combine(mods)
    kind = plain(cmd.opts.get("type", ""))
    hero = "hero" in cmd.opts
    if not hero:
        data = [which, bonus, dc, basic.text() if basic else "", kind, by.index if by else -1]
        keep_check(game, f, [f] + ([by] if by else []), "save", data)
    face, rolled, said = _d20(game, "save", f, hero)
    return said + _save_result(game, f, which, bonus, dc, basic, kind, by, face, rolled)


def _save_result(
    game: Game,
    f: Fighter,
    which: str,
    bonus: int,
    dc: int,
    basic: Roll | None,
    kind: str,
    by: Fighter | None,
    face: int,
    rolled: str,
) -> list[str]:
    """[9] a saving throw's degree, and a basic save's damage."""
    total = face + bonus
    d = checks.degree(face, total, dc)
    game.dice.degree = d
    lines = [
        f"{f.name}'s {which.capitalize()} save: {rolled} {bonus:+d} = {total} vs DC {dc}:"
        f" {checks.said(d)} [9]"
    ]
    if basic is None:
        return lines
    amount, how = harm.roll_damage(game, basic, by.index if by else -1, False)
    # [9] a basic save: none, half, full, double
    dealt = {
        checks.CRIT_SUCCESS: 0,
        checks.SUCCESS: amount // 2,
        checks.FAIL: amount,
        checks.CRIT_FAIL: 2 * amount,
    }[d]
    share = {3: "none", 2: "half", 1: "full", 0: "double"}[d]
    lines.append(f"basic save: damage {how}, {share}: {dealt}")
    if dealt == 0:
        return lines
    return lines + harm.damage(game, f, dealt, kind, by, d == checks.CRIT_FAIL)


def do_flat(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    dc = cmd.int_opt("dc", 1, 21)
    keep_check(game, f, [], "flat", [dc])  # [26] a flat check is a check: `hero` rerolls it
    face = game.dice.draw("flat", f.index, (20,))[0]
    game.last_check["face"] = face
    return _flat_result(game, f, dc, face)


def _flat_result(game: Game, f: Fighter, dc: int, face: int) -> list[str]:
    d = checks.degree(face, face, dc)
    game.dice.degree = d
    return [f"{f.name}'s flat check: d20 {face} vs DC {dc}: {checks.said(d)} [10]"]


# -- hit points ----------------------------------------------------------------------------------
def _amount(game: Game, word: str, who: int, purpose: str) -> tuple[int, str]:
    roll = read_roll(word)
    if roll is None:
        sides = ", ".join(f"d{n}" for n in SIDES)
        raise IllegalAction(f"{purpose} takes a number or dice of {sides} (2d6+3), not {word!r}")
    if not roll.dice:
        return roll.flat, ""
    amount, how = harm.roll_damage(
        game, roll, who, False, "heal" if purpose == "heal" else "damage"
    )
    return amount, f"{purpose} {how}"


def do_damage(game: Game, cmd: Command) -> list[str]:
    target = _who(game, cmd)
    _alive(target)
    by = game.fighter(cmd.opts["by"]) if "by" in cmd.opts else None
    kind = plain(cmd.opts.get("type", ""))
    if "type" in cmd.opts and not kind:
        raise IllegalAction("damage: type= needs a damage type (fire, slashing, ...)")
    amount, how = _amount(game, cmd.arg(1, "an amount"), by.index if by else -1, "damage")
    return ([how] if how else []) + harm.damage(game, target, amount, kind, by, "crit" in cmd.opts)


def do_heal(game: Game, cmd: Command) -> list[str]:
    target = _who(game, cmd)
    _alive(target)
    by = game.fighter(cmd.opts["by"]) if "by" in cmd.opts else None
    amount, how = _amount(game, cmd.arg(1, "an amount"), by.index if by else -1, "heal")
    return ([how] if how else []) + harm.heal(game, target, amount, by)


def do_temp(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    amount = whole_number(cmd.arg(1, "an amount"), 0, 999, "temporary hit points")
    _alive(f)
    was = f.temp
    f.temp = max(f.temp, amount)  # [12] the higher stays
    return [f"{f.name}'s temporary HP: {was} -> {f.temp} (the higher amount stays) [12]"]


# -- conditions ----------------------------------------------------------------------------------
def condition_name(word: str) -> str:
    import difflib

    key = "-".join(word.lower().split()).replace("flat-footed", "off-guard")
    if key in CONDITION_NAMES:
        return key
    close = difflib.get_close_matches(key, CONDITION_NAMES, 1, 0.6)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise IllegalAction(
        f"{word!r} is not a condition: {hint}known: {', '.join(CONDITION_NAMES)}"
        " (`effect` puts on an effect of any name)"
    )


def do_condition(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    name = condition_name(cmd.arg(1, "a condition"))
    _alive(f)
    if name in VALUED:
        word = cmd.args[2] if len(cmd.args) > 2 else "1"  # (a value of 1 unless told)
        value = whole_number(word, 1, 9, f"{name}'s value")
        was = f.values.get(name, 0)
        if value <= was:  # [20]
            return [f"{f.name} is {name} {was} already: a value of {value} changes nothing [20]"]
        f.values[name] = value
        lines = [f"{f.name} is {name} {value}" + (f" (was {was}) [20]" if was else "")]
        top = harm.hp_max(f)
        if name == "drained" and f.hp > top:  # [19] the maximum lowered
            lines.append(f"{f.name}'s HP maximum is {top}: HP {f.hp} -> {top} [19]")
            f.hp = top
        if name == "doomed" and f.dying >= harm.death_at(f):
            lines += harm.die(game, f, f"dying {f.dying}, doomed {value} [17]")
        return lines
    if len(cmd.args) > 2:
        raise IllegalAction(f"{name} has no value: `condition {f.label} {name}`")
    if name in f.marks:
        return [f"{f.name} is {name} already [20]"]
    if name == "unconscious":  # [18]
        return [f"{f.name} is unconscious: {harm.fall_unconscious(f)} [18]"]
    f.marks.append(name)
    return [f"{f.name} is {name}"]


def do_recover(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    word = cmd.arg(1, "a condition")
    if plain(word) == "wounded":  # [16] outside the encounter, the GM clears it
        if not f.wounded:
            bears = ", ".join(shown_conditions(f)) or "nothing"
            raise IllegalAction(f"{f.name} is not wounded (it is: {bears})")
        f.wounded = 0
        return [f"{f.name} is no longer wounded [16]"]
    name = condition_name(word)
    if f.values.pop(name, 0):
        return [f"{f.name} is no longer {name}"]
    if name in f.marks:
        if name == "unconscious" and f.dying and f.in_fight:  # [16]
            raise IllegalAction(f"{f.name} is dying: healing (`heal`) or `hero` ends it [16]")
        f.marks.remove(name)
        return [f"{f.name} is no longer {name}"]
    now = ", ".join(shown_conditions(f)) or "nothing"
    raise IllegalAction(f"{f.name} is not {name} (it is: {now})")


def shown_conditions(f: Fighter) -> list[str]:
    """A creature's conditions as words: dying and wounded, the valued ones, the others."""
    out = [f"dying {f.dying}"] if f.dying else []
    out += [f"wounded {f.wounded}"] if f.wounded else []
    out += [f"{n} {f.values[n]}" for n in VALUED if f.values.get(n)]
    out += [m for m in MARKED if m in f.marks]
    out += [f"persistent {k} {v}" for k, v in f.persistent.items()]
    return out


def do_persistent(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    kind = plain(cmd.arg(1, "a damage type"))
    _alive(f)
    assisted = "assist" in cmd.opts  # [25] a helper lowers the next flat check's DC
    word = (
        cmd.args[2]
        if len(cmd.args) > 2
        else ("" if assisted else cmd.arg(2, "dice (1d6) or `end`"))
    )
    if kind not in f.persistent and (not word or plain(word) == "end"):
        raise IllegalAction(
            f"{f.name} takes no persistent {kind} damage"
            f" (it takes: {', '.join(f.persistent) or 'none'}):"
            f" `persistent {f.label} {kind} 1d6` gives it"
        )
    helped = f"{f.name} is helped: its next flat check against persistent damage is DC 10 [25]"
    if not word:
        f.assisted = True
        return [helped]
    if plain(word) == "end":
        del f.persistent[kind]
        return [f"{f.name}'s persistent {kind} damage ends"]
    roll = read_roll(word)
    if roll is None:
        raise IllegalAction(
            f"persistent damage is a number or dice (1d6, 2d4+1) or `end`, not {word!r}"
        )
    old = f.persistent.get(kind)
    if old is not None:
        was = read_roll(old)
        assert was is not None
        if _average(was) >= _average(roll):  # [25] the higher amount applies
            lines = [f"{f.name}'s persistent {kind} {old} stays: {roll.text()} is not higher [25]"]
            if assisted:
                f.assisted = True
                lines.append(helped)
            return lines
    f.persistent[kind] = roll.text()
    lines = [f"{f.name} takes persistent {kind} {roll.text()} at the end of its turns [25]"]
    if assisted:
        f.assisted = True
        lines.append(helped)
    return lines


def _quoted(name: str) -> str:
    return f'"{name}"' if " " in name else name


def _average(r: Roll) -> float:
    return sum(n * (s + 1) / 2 for n, s in r.dice) + r.flat


# -- the turn's other uses -----------------------------------------------------------------------
# [19] the actions with the move trait, known by the first word of `act`'s WHAT.
MOVES = ("stride", "step", "leap", "climb", "swim", "fly", "burrow", "crawl", "tumble")


# [6] the actions with the attack trait the summary names, known by an action's first word
ATTACKS = ("strike", "grapple", "shove", "trip", "disarm")


def _held_back(f: Fighter, first: str, move: bool, attack: bool, manipulate: bool) -> None:
    """[19] immobilized (grabbed, restrained, or the condition) refuses a move action;
    restrained an attack or manipulate action; Escape neither. FIRST: the action's first
    word (Stride, Strike, Interact ...), read as the flags say when they are not given."""
    if first == "escape":
        return
    held = next((m for m in checks.IMMOBILIZED if m in f.marks), "")
    if held and (move or first in MOVES):
        raise IllegalAction(
            f"{f.name} is {held}: immobilized, no move actions [19]"
            f" (`act {f.label} Escape attack` tries to get free)"
        )
    attack = attack or first in ATTACKS
    if "restrained" in f.marks and (attack or manipulate or first == "interact"):
        what = "attacks" if attack else "manipulate actions"
        raise IllegalAction(
            f"{f.name} is restrained: no {what} but to Escape (`act {f.label} Escape`) [19]"
        )


def do_act(game: Game, cmd: Command) -> list[str]:
    """Actions spent on anything else; `attack`: one with the attack trait (Grapple, Shove,
    Trip ...), which counts toward the multiple attack penalty [6]; `spell`: casting, which
    takes a DC 5 + N flat check when stupefied N [19]; `move` (or WHAT a move: Stride,
    Step ...): refused while immobilized; `manipulate` (or WHAT Interact): refused while
    restrained. Escape is neither refused [19]."""
    f = _who(game, cmd)
    cost = cmd.int_opt("cost", 0, 3) if "cost" in cmd.opts else 1
    first = plain(cmd.args[1]) if len(cmd.args) > 1 else ""
    _held_back(f, first, "move" in cmd.opts, "attack" in cmd.opts, "manipulate" in cmd.opts)
    spend(game, f, cost)
    what = " ".join(cmd.args[1:])
    lines = [f"{f.name} spends {cost} action(s){': ' + what if what else ''} ({f.actions} left)"]
    if "attack" in cmd.opts:
        step = min(2, f.attacks)
        f.attacks += 1
        if step:
            lines.append(
                f"(an attack: its multiple attack penalty is -{5 * step}, agile -{4 * step}) [6]"
            )
    stupefied = f.values.get("stupefied", 0)
    if "spell" in cmd.opts and stupefied:
        dc = checks.CONCEALED_DC + stupefied
        face = game.dice.draw("flat", f.index, (20,))[0]
        d = checks.degree(face, face, dc)
        game.dice.degree = d
        lost = "" if d >= checks.SUCCESS else ", the spell is lost"
        lines.append(
            f"{f.name} is stupefied {stupefied}: flat check d20 {face} vs DC {dc}:"
            f" {checks.said(d)}{lost} [19]"
        )
    return lines


def do_retch(game: Game, cmd: Command) -> list[str]:
    """[19] sickened: 1 action, a Fortitude save; sickened 1 less on a success, 2 on a
    critical success."""
    f = _who(game, cmd)
    if not f.values.get("sickened"):
        bears = ", ".join(shown_conditions(f)) or "nothing"
        raise IllegalAction(f"{f.name} is not sickened (it is: {bears})")
    dc = cmd.int_opt("dc", 0, 60)
    spend(game, f, 1)
    mods = checks.condition_mods(game, f, "fort")
    bonus = f.spec.saves["fort"] + checks.combine(mods)
    keep_check(game, f, [f], "retch", [dc, bonus])  # [26] a Fortitude save: `hero` rerolls it
    face = game.dice.draw("save", f.index, (20,))[0]
    game.last_check["face"] = face
    return _retch_result(game, f, dc, bonus, face)


def _retch_result(game: Game, f: Fighter, dc: int, bonus: int, face: int) -> list[str]:
    d = checks.degree(face, face + bonus, dc)
    game.dice.degree = d
    was = f.values["sickened"]
    less = {checks.CRIT_SUCCESS: 2, checks.SUCCESS: 1}.get(d, 0)
    left = max(0, was - less)
    if left:
        f.values["sickened"] = left
    else:
        del f.values["sickened"]
    return [
        f"{f.name} retches: Fort d20 {face} {bonus:+d} = {face + bonus} vs DC {dc}:"
        f" {checks.said(d)}, sickened {was} -> {left} [19]"
    ]


def do_react(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    react(game, f)
    what = " ".join(cmd.args[1:])
    lines = [f"{f.name} uses its reaction{': ' + what if what else ''}"]
    if f.readied:
        lines.append(f"{f.name}'s readied action is not taken now: its reaction is gone")
        f.readied, f.readied_step = "", -1
    return lines


def do_stand(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    if "prone" not in f.marks:
        now = ", ".join(shown_conditions(f)) or "nothing"
        raise IllegalAction(f"{f.name} is not prone (it is: {now})")
    spend(game, f, 1)
    f.marks.remove("prone")
    return [f"{f.name} Stands up (1 action, {f.actions} left) [19]"]


def do_ready(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    trigger = kit.trigger_of(cmd)
    spend(game, f, 2)
    f.readied = trigger
    f.readied_step = min(2, f.attacks)
    return [f"{f.name} Readies (2 actions): {f.readied} [21]"]


def do_trigger(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    what = kit.readied(f)
    words = what.split()
    _held_back(f, plain(words[0]) if words else "", False, False, False)  # [19]
    react(game, f)
    f.readied, f.readied_step = "", -1
    return [f"{f.name} takes its readied action with its reaction: {what} [21]"]


def _ruleset() -> Any:
    """pf2's Ruleset, which the effect book asks for the fighters' names (found through the
    registry: ruleset.py imports this module)."""
    from host.core import registry

    return registry.get("pf2")


def do_sustain(game: Game, cmd: Command) -> list[str]:
    """[24]: 1 action on its turn; the effect (`until=end of=NAME`) lasts to the end of
    its next turn (the host's book: begun during that turn, it ends at the following)."""
    f = _who(game, cmd)
    target = _who(game, cmd, 1, "a target")
    name = " ".join(cmd.args[2:])
    if not name:
        raise IllegalAction(f"sustain: which effect on {target.name}? `sustain NAME TARGET EFFECT`")
    found = [
        e for e in book.in_play(game) if e.target == target.name and plain(e.name) == plain(name)
    ]
    if not found:
        there = [e.name for e in book.in_play(game) if e.target == target.name]
        raise IllegalAction(
            f"{target.name} has no effect {name!r} (it has: {', '.join(there) or 'none'}):"
            f" `effect {target.label} {_quoted(name)} until=end of={f.label}` puts on one {f.name}"
            " sustains [24]"
        )
    effect = found[0]
    if effect.kind != "end" or effect.of != f.name:
        raise IllegalAction(
            f"{effect.name} on {target.name} is not sustained by {f.name}: put it on with"
            f" `effect {target.label} {effect.name} until=end of={f.label}` [24]"
        )
    # [24] a Sustain extends it to the end of the maker's following turn: on the turn it
    # was put on, or a second time in one turn, it lasts that long already.
    counted = book.book_of(_ruleset(), game)
    if effect.count >= counted.ends.get(f.name, 0) + 2:
        raise IllegalAction(
            f"{effect.name} on {target.name} already lasts to the end of {f.name}'s next turn:"
            f" Sustain it on that turn [24]"
        )
    # [24] up to 10 minutes: its first round is its own, and each Sustain adds one.
    limit = cmd.int_opt("limit", 1, 10_000) if "limit" in cmd.opts else SUSTAIN_ROUNDS
    key = f"{plain(target.name)}/{plain(effect.name)}"
    done, since = game.sustained.get(key, [0, -1])
    if since != effect.since:
        done = 0  # (put on anew since its last Sustain)
    if done + 1 >= limit:
        raise IllegalAction(
            f"{effect.name} on {target.name} has been sustained {done} time(s): {limit} rounds"
            f" in all, the most it lasts [24] (limit=ROUNDS for one that says otherwise);"
            f" it ends at the end of {f.name}'s turn"
        )
    spend(game, f, 1)
    lines = [f"{f.name} Sustains {effect.name} (1 action, {f.actions} left) [24]"]
    r = _ruleset()
    lines += [str(x) for x in book.take_off(r, game, target.name, effect.name)]
    lines += [
        str(x) for x in book.add(r, game, target.name, effect.name, book.Duration("end", 0, f.name))
    ]
    again = book.in_play(game)[-1]
    game.sustained[key] = [done + 1, again.since]
    return lines


def do_hero(game: Game, cmd: Command) -> list[str]:
    """[26]: all its Hero Points (at least 1): no longer dying, at 0 HP, wounded unchanged;
    while dying at the start of its turn, or as it would die (right after). Not dying, or
    dying but not dead from its check of the action just played: 1 Hero Point rerolls that
    check, and the new result stands."""
    f = _who(game, cmd)
    if f.hero < 1:
        raise IllegalAction(f"{f.name} has no Hero Points [26]")
    if f.dead and f.index in game.died_now:
        f.dead = False
        f.hp = 0
    elif not f.dying or game.last_check.get("who") == f.index:
        # [26] all its points go as it would die, or at the start of its turn while dying:
        # knocked out (not dead) by its own check just made, the point rerolls that check.
        return _reroll(game, f)
    elif not game.turn_of(f):
        raise IllegalAction(
            f"{f.name} spends Hero Points at the start of its turn, or as it would die [26]"
        )
    spent = f.hero
    f.hero = 0
    return [f"{f.name} spends {spent} Hero Point(s) [26]"] + harm.lose_dying(
        game, f, "Hero Points", wound=False
    )


HANDLERS: dict[str, Callable[[Game, Command], list[str]]] = {
    "initiative": do_initiative,
    "next": do_next,
    "end": do_end,
    "strike": do_strike,
    "save": do_save,
    "flat": do_flat,
    "damage": do_damage,
    "heal": do_heal,
    "temp": do_temp,
    "condition": do_condition,
    "recover": do_recover,
    "persistent": do_persistent,
    "act": do_act,
    "react": do_react,
    "stand": do_stand,
    "retch": do_retch,
    "delay": do_delay,
    "return": do_return,
    "ready": do_ready,
    "trigger": do_trigger,
    "sustain": do_sustain,
    "hero": do_hero,
    "finish": do_finish,
    "add": comings.add,
    "remove": comings.remove,
}
