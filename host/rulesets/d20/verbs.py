"""d20's verbs: each checks everything it can before it changes anything, says why in one
line when the rules refuse (IllegalAction), and returns the lines of what happened.
docs/commands.md and docs/rulesets/d20.md document each; d20-srd-combat.txt's numbers are
cited where a rule is applied.
"""

from __future__ import annotations

from collections.abc import Callable

from host.core import kit, numbers
from host.core.commandline import Command, whole_number
from host.core.interface import IllegalAction
from host.core.names import plain
from host.rulesets.d20 import comings, conditions, harm, turns
from host.rulesets.d20.conditions import Effect
from host.rulesets.d20.encounter_schema import CONDITION_NAMES, SIDES, Attack, Power, read_roll
from host.rulesets.d20.engine import Fighter, Game
from host.rulesets.d20.language import ABILITY


def apply(game: Game, cmd: Command, replay: list[list] | None = None) -> list[str]:
    kit.may_play(game, cmd)
    game.dice.begin(game.actions, replay)
    lines = conditions.settle(game)
    lines += HANDLERS[cmd.verb](game, cmd)
    return kit.action_done(game, cmd, lines, _settle)


_won = kit.won


def _settle(game: Game, lines: list[str]) -> None:
    """[29] with `end = "auto"`: the fight ends once at most one team has anyone standing
    (the dead, the dying, the stable, the knocked out and the fled are not)."""
    kit.auto_end(game, lines, lambda f: not f.down, finish)


def finish(game: Game, winner: str, lines: list[str]) -> None:
    left = conditions.outlasting(game)
    after = ["effects that go on after the fight: " + "; ".join(left)] if left else []
    kit.over(game, winner, lines, after)


point = kit.point
downs = kit.downs  # the foes of a team that are down: dead, at 0 HP, fled or gone


# -- who may do what ---------------------------------------------------------------------------
def _who(game: Game, cmd: Command, at: int = 0, what: str = "a creature") -> Fighter:
    return game.fighter(cmd.arg(at, what))


def _able(game: Game, f: Fighter, use: str) -> None:
    """Refuse unless `f` may spend `use` now: action, bonus, move (its own turn), reaction."""
    if not f.in_fight:
        raise IllegalAction(f"{f.name} is {'dead' if f.dead else 'out of the fight'}")
    if f.hp == 0:
        raise IllegalAction(f"{f.name} is at 0 HP, unconscious")
    if use in ("action", "bonus", "move"):
        if not game.turn_of(f):
            e = game.entry()
            if game.legendary_now and e is not None and f.index in e.members:
                raise IllegalAction(f"{f.name}'s turn is over: a legendary action ended it [27]")
            raise IllegalAction(f"it is {_whose(game)} turn, not {f.name}'s")
        if f.surprised:
            raise IllegalAction(f"{f.name} is surprised: no move or action on its first turn [1]")
    if use == "reaction" and f.surprised:
        raise IllegalAction(f"{f.name} is surprised: no reaction until its first turn is over [1]")
    if use != "move" and conditions.incapacitated(game, f.index):
        raise IllegalAction(f"{f.name} is incapacitated: no actions or reactions [6]")
    left = {"action": f.action, "bonus": f.bonus, "reaction": f.reaction, "move": True}[use]
    if not left:
        if use == "reaction":  # [5]: one a round, back at the start of its own turn
            raise IllegalAction(
                f"{f.name} has used its reaction: it comes back at the start of its own turn [5]"
            )
        word = {"action": "its action", "bonus": "its bonus action"}
        raise IllegalAction(f"{f.name} has used {word[use]} this turn [4]")


def _whose(game: Game) -> str:
    e = game.entry()
    if e is None:
        return "nobody's"
    if e.lair_of >= 0:
        return "the lair's"
    if game.legendary_now:
        return "nobody's (a legendary action ended the last)"
    return " and ".join(game.fighters[i].name for i in e.members) + "'s"


def _spend(f: Fighter, use: str) -> None:
    if use == "action":
        f.action = False
    elif use == "bonus":
        f.bonus = False
    elif use == "reaction":
        f.reaction = False


def _legendary_ok(game: Game, f: Fighter, cost: int) -> None:
    """[27]: one at the end of another creature's turn, with enough left, not incapacitated,
    not surprised before its first turn is over."""
    if f.spec.legendary == 0:
        some = [c.name for c in game.fighters if c.spec.legendary]
        raise IllegalAction(
            f"{f.name} has no legendary actions (those with some: {', '.join(some) or 'none'})"
        )
    if not f.in_fight or f.hp == 0:
        raise IllegalAction(f"{f.name} is down: no legendary actions")
    e = game.entry()
    if e is None or e.lair_of >= 0 or f.index in e.members:
        raise IllegalAction("a legendary action comes at the end of another creature's turn")
    if f.index in game.legendary_now:
        raise IllegalAction(f"{f.name} has taken its legendary action at the end of this turn")
    if f.surprised:
        raise IllegalAction(f"{f.name} is surprised: no legendary actions before its first turn")
    if conditions.incapacitated(game, f.index):
        raise IllegalAction(f"{f.name} is incapacitated: no legendary actions [27]")
    if cost > f.legendary_left:
        raise IllegalAction(f"{f.name} has {f.legendary_left} legendary actions left, not {cost}")


def _take_legendary(game: Game, f: Fighter, cost: int) -> str:
    f.legendary_left -= cost
    game.legendary_now.append(f.index)
    return f"{f.name} takes a legendary action at the end of the turn ({f.legendary_left} left)"


# -- the order ---------------------------------------------------------------------------------
def do_initiative(game: Game, cmd: Command) -> list[str]:
    kit.initiative_once(game)
    surprised = {f.index for f in game.fighters if f.spec.surprised}
    if "surprised" in cmd.opts:
        surprised = {game.fighter(w).index for w in cmd.list_opt("surprised")}
    lines = turns.roll_initiative(game, surprised)
    return kit.first_round(game, lines, turns.start_turn)


def do_next(game: Game, cmd: Command) -> list[str]:
    return kit.advanced(game, turns.advance)


# -- attacks -------------------------------------------------------------------------------------
def _weapon(f: Fighter, word: str | None) -> Attack:
    return kit.pick(f.name, f.spec.attacks, word, "attack")


def advantage(game: Game, f: Fighter, target: Fighter, far: bool) -> tuple[bool, bool, list[str]]:
    """[25]: what the conditions give an attack roll: (advantage, disadvantage, why)."""
    adv = dis = False
    why: list[str] = []
    on_target = conditions.on(game, target.index)
    for name in ("paralyzed", "unconscious"):
        if name in on_target:
            adv = True
            why.append(f"{target.name} is {name}: advantage")
            break
    if "prone" in on_target:  # (an unconscious one too [24]: from afar, the two cancel [9])
        if far:
            dis = True
            why.append(f"{target.name} is prone, the attack from afar: disadvantage")
        else:
            adv = True
            why.append(f"{target.name} is prone, the attack within 5 feet: advantage")
    if "prone" in conditions.on(game, f.index):
        dis = True
        why.append(f"{f.name} is prone: disadvantage")
    return adv, dis, why


def do_attack(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    target = _who(game, cmd, 1, "a target")
    weapon = _weapon(f, cmd.args[2] if len(cmd.args) > 2 else None)
    if "far" in cmd.opts and "within5" in cmd.opts:
        raise IllegalAction("an attack is far or within5, not both")
    how = cmd.opts.get("as", "action" if game.turn_of(f) else "")
    if not how:
        raise IllegalAction(
            f"it is {_whose(game)} turn: {f.name} attacks with as=reaction or as=legendary"
        )
    if how == "legendary":
        _legendary_ok(game, f, 1)
    elif how == "free":
        _able(game, f, "move")  # its turn, standing; no action spent (Extra Attack, Multiattack)
        if conditions.incapacitated(game, f.index):
            raise IllegalAction(f"{f.name} is incapacitated: no actions or reactions [6]")
    else:
        _able(game, f, how)
    if not target.in_fight:
        raise IllegalAction(f"{target.name} is {'dead' if target.dead else 'out of the fight'}")
    if target is f:
        raise IllegalAction(f"{f.name} does not attack itself")
    # [25] counts the distance: a ranged attack is from afar unless `within5`
    far = "far" in cmd.opts or (weapon.ranged and "within5" not in cmd.opts)
    lines: list[str] = []
    if how == "legendary":
        lines.append(_take_legendary(game, f, 1))
    else:
        _spend(f, how)
    if how == "reaction" and f.readied:
        lines.append(f"{f.name}'s readied action is taken: {f.readied}")
        f.readied = ""
    adv, dis, why = advantage(game, f, target, far)
    adv = adv or "adv" in cmd.opts
    dis = dis or "dis" in cmd.opts
    lines += why
    face, rolled = harm.d20(game, "attack", f.index, adv, dis)
    total = face + weapon.bonus
    head = f"{f.name} attacks {target.name} with {weapon.name}: {rolled}"
    head += f" {weapon.bonus:+d} = {total}"
    if face == 1:  # [8]
        hit, crit = False, False
        lines.append(head + ": a natural 1 misses")
    elif face == 20:
        hit, crit = True, True
        lines.append(head + ": a natural 20, a critical hit")
    else:
        hit = total >= target.spec.ac
        crit = False
        lines.append(head + f" vs AC {target.spec.ac}: {'hit' if hit else 'miss'}")
    if not hit:
        f.stats["misses"] += 1
        return lines
    on_target = conditions.on(game, target.index)
    if not crit and not far and ("paralyzed" in on_target or "unconscious" in on_target):
        crit = True  # [25]
        lines.append(f"{target.name} is helpless within 5 feet: the hit is a critical hit")
    f.stats["hits"] += 1
    f.stats["crits"] += crit
    parts: list[tuple[int, str]] = []
    for roll, kind in ((weapon.damage, weapon.type), *weapon.extra):
        amount = harm.roll_damage(game, roll, f.index, crit)
        dice = f"{roll.text()}{' doubled dice' if crit else ''}"
        lines.append(f"damage {amount} ({dice}{' ' + kind if kind else ''})")
        parts.append((amount, kind))
    magic = weapon.magic or "magic" in cmd.opts
    return lines + harm.damage_parts(game, target, parts, f, crit, "spare" in cmd.opts, magic)


def do_damage(game: Game, cmd: Command) -> list[str]:
    target = _who(game, cmd)
    amounts = [whole_number(w, 0, 9999, "damage") for w in cmd.arg(1, "an amount").split(",") if w]
    if not amounts:
        raise IllegalAction("damage needs an amount")
    by = game.fighter(cmd.opts["by"]) if "by" in cmd.opts else None
    kind = plain(cmd.opts.get("type", ""))
    if "type" in cmd.opts and not kind:
        raise IllegalAction("damage: type= needs a damage type (fire, slashing, ...)")
    lines: list[str] = []
    for amount in amounts:  # [21] one source at a time: one concentration save each
        crit, spare = "crit" in cmd.opts, "spare" in cmd.opts
        lines += harm.damage(game, target, amount, kind, by, crit, spare, "magic" in cmd.opts)
    return lines


def do_heal(game: Game, cmd: Command) -> list[str]:
    target = _who(game, cmd)
    if not target.in_fight:
        raise IllegalAction(f"{target.name} is {'dead' if target.dead else 'out of the fight'}")
    word = cmd.arg(1, "an amount")
    whole = numbers.whole_or_none(word)
    roll = None if whole is not None else read_roll(word)
    if roll is None and whole is None:
        sides = ", ".join(f"d{n}" for n in SIDES)
        raise IllegalAction(f"heal takes a number or dice of {sides} (1d8+3), not {word!r}")
    by = game.fighter(cmd.opts["by"]) if "by" in cmd.opts else None
    lines: list[str] = []
    if by is not None:
        _able(game, by, "action")
        _spend(by, "action")
        lines.append(f"{by.name} heals {target.name} (its action)")
    if roll is not None:
        amount = harm.roll_damage(game, roll, by.index if by else -1, False, "heal")
        lines.append(f"healing {amount} ({roll.text()})")
    else:
        amount = whole_number(word, 0, 9999, "healing")
    return lines + harm.heal(game, target, amount, by)


def do_temp(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    amount = whole_number(cmd.arg(1, "an amount"), 0, 9999, "temporary hit points")
    if not f.in_fight:
        raise IllegalAction(f"{f.name} is {'dead' if f.dead else 'out of the fight'}")
    return [harm.set_temp(game, f, amount, cmd.opts.get("keep", game.options.temp_hp))]


def _ability(word: str) -> str:
    key = word.lower()[:3]
    if key not in ABILITY:
        raise IllegalAction(f"unknown ability {word!r} (known: {', '.join(ABILITY)})")
    return key


def do_save(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    ability = _ability(cmd.arg(1, "an ability"))
    dc = whole_number(cmd.arg(2, "a DC"), 1, 40, "DC")
    if not f.in_fight:
        raise IllegalAction(f"{f.name} is {'dead' if f.dead else 'out of the fight'}")
    adv, dis, lr = "adv" in cmd.opts, "dis" in cmd.opts, "nolr" not in cmd.opts
    return [harm.saving_throw(game, f, ability, dc, adv, dis, lr)[1]]


# -- conditions and concentration ----------------------------------------------------------------
def do_condition(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    name = conditions.condition_name(cmd.arg(1, "a condition or effect"))
    if not f.in_fight:
        raise IllegalAction(f"{f.name} is {'dead' if f.dead else 'out of the fight'}")
    if name.startswith("exhaustion"):
        raise IllegalAction("exhaustion has levels: `exhaustion NAME LEVEL`")
    _not_immune(f, name)
    kinds = [k for k in ("rounds", "until", "save") if k in cmd.opts]
    if len(kinds) > 1:
        raise IllegalAction(f"one duration at a time, not {' and '.join(kinds)}")
    effect = Effect(name, f.index)
    kind, rounds, of = "", 0, -1
    if "by" in cmd.opts:
        effect.source = game.fighter(cmd.opts["by"]).index
    if "rounds" in cmd.opts:
        kind, rounds = "rounds", cmd.int_opt("rounds", 1, 100)
    elif "until" in cmd.opts:
        kind = cmd.opts["until"]
        who = cmd.opts.get("of")
        if who is None:
            # "until the start of your next turn" is the source's; "the end of its next
            # turn", the target's [26]
            if kind == "start" and effect.source < 0:
                raise IllegalAction("until=start is of the source's next turn: by=NAME or of=NAME")
            of = effect.source if kind == "start" else f.index
        else:
            of = game.fighter(who).index
    elif "save" in cmd.opts:
        ability, _, dc = cmd.opts["save"].partition(":")
        effect.kind = "save"
        effect.save = _ability(ability)
        effect.dc = whole_number(dc, 1, 40, "save=ABILITY:DC's DC")
    elif "of" in cmd.opts:
        raise IllegalAction("of=NAME goes with until=start or until=end")
    caster = -1
    if "concentration" in cmd.opts:
        if effect.source < 0:
            raise IllegalAction("concentration: whose? by=NAME names the caster")
        caster = effect.source
        if not game.fighters[caster].concentration:
            raise IllegalAction(
                f"{game.fighters[caster].name} concentrates on nothing: `concentrate` first"
            )
    lines = conditions.begin(game, effect, game.entry(), kind, rounds, of)
    if caster >= 0:
        conditions.link(game, f.index, name, caster)
    return lines + _implied(game, f, name)


def _not_immune(f: Fighter, name: str) -> None:
    if name in f.spec.condition_immune:
        raise IllegalAction(
            f"{f.name} is immune to {name} (its stat line's condition_immune): no effect"
        )


def _implied(game: Game, f: Fighter, name: str) -> list[str]:
    """[22][24]: an incapacitating condition ends concentration; unconscious drops prone."""
    lines: list[str] = []
    if name == "unconscious" and "prone" not in conditions.on(game, f.index):
        lines += conditions.begin(game, Effect("prone", f.index), None)
    if name in conditions.INCAPACITATING and name in CONDITION_NAMES:
        lines += conditions.concentration_over(game, f.index)
    return lines


def do_recover(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    name = conditions.condition_name(cmd.arg(1, "a condition or effect"))
    return conditions.remove(game, f.index, name)


def do_exhaustion(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    level = whole_number(cmd.arg(1, "a level"), 0, 6, "exhaustion level")
    if not f.in_fight:
        raise IllegalAction(f"{f.name} is {'dead' if f.dead else 'out of the fight'}")
    if level > f.exhaustion:
        _not_immune(f, "exhaustion")
    was = f.exhaustion
    f.exhaustion = level
    lines = [f"{f.name}'s exhaustion: level {was} -> {level}"]
    if level == 6:  # [23]
        lines += harm.die(game, f, None, "exhaustion level 6")
    return lines


def do_concentrate(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    cmd.arg(1, "a spell")
    spell = " ".join(cmd.args[1:])
    if not f.in_fight or f.hp == 0 or conditions.incapacitated(game, f.index):
        raise IllegalAction(f"{f.name} cannot concentrate now (down or incapacitated) [22]")
    lines = conditions.concentration_over(game, f.index)  # [20] the old one ends
    f.concentration = spell
    return lines + [f"{f.name} concentrates on {spell}"]


def do_drop(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    if not f.concentration:
        some = [c.name for c in game.fighters if c.concentration]
        raise IllegalAction(
            f"{f.name} concentrates on nothing (concentrating: {', '.join(some) or 'nobody'})"
        )
    return conditions.concentration_over(game, f.index)


# -- the turn's other uses -----------------------------------------------------------------------
def _use(use: str) -> Callable[[Game, Command], list[str]]:
    word = {"action": "its action", "bonus": "its bonus action", "reaction": "its reaction"}[use]

    def do(game: Game, cmd: Command) -> list[str]:
        f = _who(game, cmd)
        _able(game, f, use)
        _spend(f, use)
        what = " ".join(cmd.args[1:])
        lines = [f"{f.name} uses {word}" + (f": {what}" if what else "")]
        if use == "reaction" and f.readied:
            lines.append(f"{f.name}'s readied action is not taken now: its reaction is gone")
            f.readied = ""
        return lines

    return do


def do_move(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    _able(game, f, "move")
    feet = whole_number(cmd.arg(1, "feet"), 1, 1000, "feet")
    if "grappled" in conditions.on(game, f.index) or "restrained" in conditions.on(game, f.index):
        raise IllegalAction(f"{f.name} cannot move: its speed is 0")
    if feet > f.movement:
        raise IllegalAction(f"{f.name} has {f.movement} feet of movement left, not {feet} [4]")
    f.movement -= feet
    return [f"{f.name} moves {feet} feet ({f.movement} left)"]


def do_stand(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    _able(game, f, "move")
    if "prone" not in conditions.on(game, f.index) or f.hp == 0:
        raise IllegalAction(f"{f.name} is not prone")
    cost = f.spec.speed // 2  # [25]
    if cost > f.movement:
        raise IllegalAction(f"standing costs {cost} feet; {f.name} has {f.movement} left")
    f.movement -= cost
    return conditions.remove(game, f.index, "prone") + [
        f"{f.name} stands up ({cost} feet; {f.movement} left)"
    ]


def do_ready(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    trigger = kit.trigger_of(cmd)
    _able(game, f, "action")
    _spend(f, "action")
    f.readied = trigger
    return [f"{f.name} readies an action: {f.readied} [7]"]


def do_trigger(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    what = kit.readied(f)
    _able(game, f, "reaction")
    _spend(f, "reaction")
    f.readied = ""
    return [f"{f.name} takes its readied action with its reaction: {what} [7]"]


def do_legendary(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    what = " ".join(cmd.args[1:])
    # One of its stat line's legendary actions costs what the line says [27].
    named = next((p for p in f.spec.legendary_actions if plain(p.name) == plain(what)), None)
    cost = named.cost if named is not None else 1
    if "cost" in cmd.opts:
        cost = cmd.int_opt("cost", 1, 15)
    if named is not None and (named.save or named.attack):
        how = f"`use {f.label} {_q(named.name)} TARGET as=legendary`"
        if named.attack:
            how = f"`attack {f.label} TARGET {_q(named.attack)} as=legendary`"
        raise IllegalAction(f"{named.name} has a target: {how}")
    _legendary_ok(game, f, cost)
    return [_take_legendary(game, f, cost) + (f": {what}" if what else "")]


_q = kit.quoted


# -- save-based actions and the multiattack ---------------------------------------------------
def _power(f: Fighter, word: str, legendary: bool) -> Power:
    """The action `word` names among `f`'s save-based actions (its legendary ones too, if
    `legendary`)."""
    book = f.spec.legendary_actions if legendary else f.spec.actions
    for p in book:
        if plain(p.name) == plain(word):
            return p
    others = f.spec.actions + (f.spec.legendary_actions if legendary else ())
    known = ", ".join(p.name for p in others if p.save) or "none"
    raise IllegalAction(f"{f.name} has no action {word!r} that calls for a save (it has: {known})")


def _ready(f: Fighter, p: Power) -> None:
    """Refuse an action still recharging, or used as often as its stat line allows."""
    if p.name in f.recharging:
        raise IllegalAction(
            f"{f.name}'s {p.name} is used: it recharges on a d6 of {p.recharge}+ as"
            f" {f.name}'s turn starts"
        )
    if p.uses and f.used.get(p.name, 0) >= p.uses:
        raise IllegalAction(f"{f.name} has used {p.name} {p.uses} times today: none left")


def do_use(game: Game, cmd: Command) -> list[str]:
    """A save-based action: each target's save against its DC [10]; its damage, rolled
    once, in full on a failure, halved (rounded down) or none on a success [12]."""
    f = _who(game, cmd)
    how = cmd.opts.get("as", "action" if game.turn_of(f) else "")
    cmd = cmd.take_name([p.name for p in f.spec.actions + f.spec.legendary_actions], "action")
    p = _power(f, cmd.arg(1, "an action"), how == "legendary")
    words = cmd.args[2:]
    targets = [game.fighter(w) for t in words for w in t.split(",") if w]
    if p.save and not targets:
        raise IllegalAction(f"{p.name} needs its targets: `use {f.label} {_q(p.name)} NAME,NAME`")
    _ready(f, p)
    if not how:
        raise IllegalAction(
            f"it is {_whose(game)} turn, not {f.name}'s (a legendary action: as=legendary)"
        )
    for t in targets:
        if not t.in_fight:
            raise IllegalAction(f"{t.name} is {'dead' if t.dead else 'out of the fight'}")
    lines: list[str] = []
    if how == "legendary":
        _legendary_ok(game, f, p.cost)
        lines.append(_take_legendary(game, f, p.cost))
    elif how == "free":
        _able(game, f, "move")
        if conditions.incapacitated(game, f.index):
            raise IllegalAction(f"{f.name} is incapacitated: no actions or reactions [6]")
    else:
        _able(game, f, how)
        _spend(f, how)
    return lines + _use_power(game, f, p, targets, "nolr" not in cmd.opts)


def _use_power(
    game: Game, f: Fighter, p: Power, targets: list[Fighter], lr: bool = True
) -> list[str]:
    if p.recharge:
        f.recharging.append(p.name)
    if p.uses:
        f.used[p.name] = f.used.get(p.name, 0) + 1
    lines = [f"{f.name} uses {p.name}"]
    rolled: list[tuple[int, str]] = []
    for roll, kind in p.damage:
        amount = harm.roll_damage(game, roll, f.index, False)
        rolled.append((amount, kind))
        lines.append(f"damage {amount} ({roll.text()}{' ' + kind if kind else ''})")
    for t in targets:
        if not t.in_fight:
            continue
        ok = False
        if p.save:
            ok, line = harm.saving_throw(game, t, p.save, p.dc, legendary=lr)
            lines.append(line)
        if not rolled:
            continue
        if ok and not p.half:
            lines.append(f"{t.name} takes none of it")
            continue
        parts = [(a // 2, k) for a, k in rolled] if ok else rolled
        if ok:
            lines.append(f"{t.name} takes half")
        lines += harm.damage_parts(game, t, parts, f)
    if p.recharge:
        lines.append(f"{p.name} is used until it recharges (d6 {p.recharge}+ at a turn's start)")
    return lines


def do_multiattack(game: Game, cmd: Command) -> list[str]:
    """The creature's action: the attacks (and actions) its Multiattack names, in order,
    against TARGET; what is left once TARGET is down stays the game master's (`as=free`)."""
    f = _who(game, cmd)
    target = _who(game, cmd, 1, "a target")
    if not f.spec.multiattack:
        some = [c.name for c in game.fighters if c.spec.multiattack]
        raise IllegalAction(
            f"{f.name} has no multiattack (those with one: {', '.join(some) or 'none'})"
        )
    _able(game, f, "action")
    if not target.in_fight or target is f:
        raise IllegalAction(f"{target.name} is no target for {f.name}'s multiattack")
    _spend(f, "action")
    lines = [f"{f.name}'s multiattack: {', '.join(f.spec.multiattack)}"]
    for n, step in enumerate(f.spec.multiattack):
        if not target.in_fight or not f.in_fight or f.hp == 0:
            left = ", ".join(f.spec.multiattack[n:])
            lines.append(f"left of the multiattack: {left} (`attack ... as=free` on another)")
            break
        power = next((p for p in f.spec.actions if plain(p.name) == step), None)
        if power is not None:
            if power.name in f.recharging or (
                power.uses and f.used.get(power.name, 0) >= power.uses
            ):
                lines.append(f"{power.name} is not ready: left out")
                continue
            lines += _use_power(game, f, power, [target])
            continue
        weapon = _weapon(f, step)
        free = Command("attack", [f.label, target.label, weapon.name], {"as": "free"})
        for key in ("adv", "dis", "far", "within5", "magic"):
            if key in cmd.opts:
                free.opts[key] = cmd.opts[key]
        lines += do_attack(game, free)
    return lines


def do_lair(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    target = _who(game, cmd, 1, "a target")
    if f.spec.lair is None:
        raise IllegalAction(f"{f.name} has no lair")
    e = game.entry()
    if e is None or e.lair_of != f.index:
        raise IllegalAction(f"{f.name}'s lair acts on initiative count 20, not now [28]")
    if game.lair_used:
        raise IllegalAction("the lair has acted this round")
    if not target.in_fight:
        raise IllegalAction(f"{target.name} is {'dead' if target.dead else 'out of the fight'}")
    lair = f.spec.lair
    assert lair is not None
    game.lair_used = True
    lines = [f"{f.name}'s lair: {lair.text}"]
    ok, line = harm.saving_throw(game, target, lair.save, lair.dc)
    lines.append(line)
    if ok:
        return lines
    if lair.damage is not None:
        amount = harm.roll_damage(game, lair.damage, f.index, False)
        lines.append(f"damage {amount} ({lair.damage.text()})")
        lines += harm.damage(game, target, amount, lair.type, f)
    if lair.condition in target.spec.condition_immune:
        lines.append(f"{target.name} is immune to {lair.condition}")
    elif lair.condition and target.in_fight:
        if lair.condition not in conditions.on(game, target.index):
            lines += conditions.begin(game, Effect(lair.condition, target.index, f.index), e)
        lines += _implied(game, target, lair.condition)
    return lines


def do_stabilize(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    target = _who(game, cmd, 1, "a dying creature")
    if not target.dying:
        raise IllegalAction(f"{target.name} is not dying")
    _able(game, f, "action")
    _spend(f, "action")
    face = game.dice.draw("check", f.index, (20,))[0]
    total = face + f.spec.medicine
    ok = total >= 10  # [19]
    lines = [f"{f.name}'s Medicine check: d20 {face} {f.spec.medicine:+d} = {total} vs DC 10"]
    if ok:
        target.stable = True
        target.successes = target.failures = 0
        lines.append(f"{target.name} is stable")
    else:
        lines.append(f"{target.name} is still dying")
    return lines


def do_flee(game: Game, cmd: Command) -> list[str]:
    f = _who(game, cmd)
    if not f.in_fight:
        raise IllegalAction(f"{f.name} is {'dead' if f.dead else 'out of the fight'}")
    f.fled = True
    lines = [f"{f.name} leaves the fight"] + conditions.concentration_over(game, f.index)
    e = game.entry()
    if e is not None and f.index in e.members and not turns.takes_a_turn(game, e):
        lines.append("`next` goes on to the next turn")
    return lines


def do_end(game: Game, cmd: Command) -> list[str]:
    """`end` ends the turn in every game, as `next` does here: a name, if given, is the one
    whose turn it is (a team's name is refused saying that ending the fight is `finish`)."""
    kit.end_named(game, cmd)
    return do_next(game, cmd)


def do_finish(game: Game, cmd: Command) -> list[str]:
    """[29] the game master ends the fight, saying that one word takes it back."""
    return kit.finish_named(game, cmd, finish)


HANDLERS: dict[str, Callable[[Game, Command], list[str]]] = {
    "initiative": do_initiative,
    "next": do_next,
    "attack": do_attack,
    "damage": do_damage,
    "heal": do_heal,
    "temp": do_temp,
    "save": do_save,
    "condition": do_condition,
    "recover": do_recover,
    "exhaustion": do_exhaustion,
    "concentrate": do_concentrate,
    "drop": do_drop,
    "act": _use("action"),
    "bonus": _use("bonus"),
    "react": _use("reaction"),
    "move": do_move,
    "stand": do_stand,
    "ready": do_ready,
    "trigger": do_trigger,
    "legendary": do_legendary,
    "use": do_use,
    "multiattack": do_multiattack,
    "lair": do_lair,
    "stabilize": do_stabilize,
    "flee": do_flee,
    "end": do_end,
    "finish": do_finish,
    "add": comings.add,
    "remove": comings.remove,
}
