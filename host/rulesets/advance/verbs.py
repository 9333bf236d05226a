"""Advance's verbs: each checks everything it can before it changes anything, says why in
one line when the rules refuse (IllegalAction), and returns the lines of what happened.
The round's flow (`next`), the actions of the list (attack, coop, assist, flee, equip,
exchange, store, wait), the answers to a hit (evade, take) and to Body Damage (death,
break, spend), and a Boss's Full Power and <Yell>. docs/commands.md documents each.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.core.commandline import Command, whole_number
from host.core.interface import IllegalAction
from host.core.names import plain
from host.rulesets.advance import comings
from host.rulesets.advance.encounter_schema import Ability, Row
from host.rulesets.advance.engine import STEP_NAMES, STEPS, Death, Fighter, Game, Hit

# What may be done while a hit or a Death check waits for its answer.
ANSWERS = {Hit: ("evade", "take", "fullpower"), Death: ("death", "break", "spend", "fullpower")}


def apply(game: Game, cmd: Command, replay: list[list] | None = None) -> list[str]:
    if game.over is not None:
        raise IllegalAction(f"the fight is over: {game.over} won")
    pending = game.pending
    if pending is not None and cmd.verb not in ANSWERS[type(pending)]:
        raise IllegalAction(_waiting_for(game))
    game.dice.begin(game.actions, replay)
    lines = HANDLERS[cmd.verb](game, cmd)
    game.actions += 1
    _settle(game, lines)
    game.log.extend(lines)
    return lines


def _waiting_for(game: Game) -> str:
    p = game.pending
    if isinstance(p, Hit):
        t = game.fighters[p.target].name
        return f"{t}'s answer to the hit waits: `evade {t}` or `take {t}` first"
    assert isinstance(p, Death)
    who = game.fighters[p.who].name
    if p.roll is None:
        return f"{who}'s Death check waits: `death {who}` (or `break {who} WEAPON`) first"
    return f"{who}'s Death check failed: `spend {who} N` first"


def _settle(game: Game, lines: list[str]) -> None:
    """The fight ends once a side has nobody standing. Helpless ends with it, Willpower 1
    (advance-late-combat-round.txt:161), so where neither side stands (the last enemy
    falls as the last adventurer's Rebound leaves them Helpless) a side with anyone still in
    the fight wins over one with nobody left."""
    if game.pending is not None:
        return
    standing = [bool(game.standing(side)) for side in (0, 1)]
    if all(standing):
        return
    left = [any(f.in_combat for f in game.fighters if f.spec.side == side) for side in (0, 1)]
    rank = [2 if standing[side] else 1 if left[side] else 0 for side in (0, 1)]
    teams = game.encounter.teams
    game.over = "nobody" if rank[0] == rank[1] else teams[0 if rank[0] > rank[1] else 1]
    lines.append(f"the fight is over: {game.over} {'win' if game.over != 'nobody' else 'wins'}")
    for f in game.fighters:
        if f.helpless:
            f.put_down = True
            f.willpower = 1
            lines.append(f"{f.name} is no longer Helpless: Willpower 1 as the fight ends")
    game.timeline.append(point(game))


def point(game: Game) -> dict:
    teams = game.encounter.teams
    return {
        "round": game.round,
        "stamina": {f.name: f.stamina for f in game.fighters},
        "score": {teams[s]: downs(game, s) for s in (0, 1)},
    }


def downs(game: Game, side: int) -> int:
    """The foes a side has put down: dead, fled or Helpless (also when the fight's end has
    lifted it)."""
    return sum(
        1
        for f in game.fighters
        if f.spec.side != side and (not f.in_combat or f.helpless or f.put_down)
    )


# -- the round -------------------------------------------------------------------------------
def do_next(game: Game, cmd: Command) -> list[str]:
    step = STEPS[game.step]
    if step == "A":
        return do_initiative(game, cmd)
    lines: list[str] = []
    if step == "E":
        game.round += 1
        game.step = 0
        for f in game.fighters:
            f.acted = False
            f.extra = 0
            f.yelled = False
            f.advance = None
            f.supports.clear()
        game.timeline.append(point(game))
        return [f"round {game.round}, step A: {STEP_NAMES[0]}"]
    for f in game.acting_now():
        f.acted = True
        lines.append(f"{f.name} takes no action")
    game.step += 1
    return lines + [f"step {STEPS[game.step]}: {STEP_NAMES[game.step]}"]


def do_initiative(game: Game, cmd: Command) -> list[str]:
    if game.step != 0:
        raise IllegalAction(
            f"initiative is step A's; this is step {STEPS[game.step]} of round {game.round}"
        )
    row = game.table("initiative", 255)
    game.initiative_specialty = row.value
    lines = [f"round {game.round}: the Initiative check is on <{row.value}>"]
    for f in game.fighters:
        if f.enemy or not f.in_combat:
            continue
        result, ok, special, difficulty = game.check(f, row.value)
        f.advance = ok
        # Not `acted`: a Helpless character is Done while it is Helpless (Fighter.done), and
        # one freed before its step has its action still to take.
        f.acted = False
        said = f" ({special})" if special else ""
        lines.append(f"{f.name}: {result} vs {difficulty}{said}: {'Advance' if ok else 'Late'}")
    for f in game.fighters:
        if f.enemy:
            f.acted = not f.in_combat
    game.started = True
    game.step = 1
    return lines + [f"step B: {STEP_NAMES[1]}"]


def _actor(game: Game, cmd: Command) -> Fighter:
    f = game.fighter(cmd.arg(0, "a character"))
    why = game.can_act_now(f)
    if why:
        raise IllegalAction(why)
    return f


def _use_action(game: Game, f: Fighter) -> None:
    if STEPS[game.step] == "E":
        f.extra -= 1
    else:
        f.acted = True


def _not_locked(game: Game, f: Fighter, ability: Ability) -> None:
    part = game.locked(f).get(_key(ability.name))
    if part:
        raise IllegalAction(
            f"{f.name}'s {ability.name} is locked: it is next to the damaged {part}"
        )


def _key(name: str) -> str:
    return plain(name)


def _ally(game: Game, f: Fighter, word: str, not_oneself: str = "") -> Fighter:
    """The ally of `f` that `word` names, in the fight; `not_oneself`: the refusal where it
    names `f` itself ("": `f` may be named)."""
    ally = game.fighter(word)
    if not_oneself and ally is f:
        raise IllegalAction(not_oneself)
    if ally.spec.side != f.spec.side:
        raise IllegalAction(f"{ally.name} is not {f.name}'s ally")
    if not ally.in_combat:
        raise IllegalAction(f"{ally.name} is no longer in the fight")
    return ally


def _effect(game: Game, table: str, who: Fighter, lines: list[str]) -> int:
    """Roll on a Critical or Fumble table and apply its row to `who`; returns the damage it
    adds to the attack."""
    row: Row = game.table(table, who.index)
    title = table.replace("_", " ")
    lines.append(f"  {title}: {row.text or row.value}")
    if row.value == "damage":
        return row.amount
    if row.value == "extra":
        who.extra = max(0, who.extra + row.amount)
    elif row.value == "willpower":
        _willpower(who, row.amount, lines)
    elif row.value == "stamina":
        who.stamina = max(0, min(who.spec.stamina, who.stamina + row.amount))
        if who.stamina == 0 and who.enemy and not who.spec.boss and who.in_combat:
            lines += die(game, who, who)  # any Stamina at 0 ends a non-Boss enemy
    return 0


def _willpower(f: Fighter, delta: int, lines: list[str]) -> None:
    was = f.helpless
    f.willpower = max(0, min(f.spec.willpower, f.willpower + delta))
    if f.helpless and not was:
        lines.append(f"{f.name} has 0 Willpower: Helpless")
    elif was and not f.helpless:
        lines.append(f"{f.name} is no longer Helpless")


# -- attacks -----------------------------------------------------------------------------------
def do_attack(game: Game, cmd: Command) -> list[str]:
    f = _actor(game, cmd)
    what = cmd.arg(1, "an ability or weapon")
    target = game.fighter(cmd.arg(2, "a target"))
    ability = game.ability(f, what)
    rebound = 0
    if ability is not None:
        if ability.kind != "attack":
            raise IllegalAction(
                f"{f.name}'s {ability.name} is a {ability.kind} ability, not an attack"
            )
        _not_locked(game, f, ability)
        specialty, damage, name = ability.specialty, ability.damage, ability.name
        rebound = ability.rebound
    else:
        item = game.item(f, what)
        if item is None or not item.weapon:
            known = _abilities(f, "attack") + _items(f, lambda it: it.weapon)
            raise IllegalAction(
                f"{f.name} has no attack ability or weapon named {what!r}{_known(known)}"
            )
        if f.places[item.name] != "equipped":
            raise IllegalAction(
                f"{f.name}'s {item.name} is not equipped (it is in the {f.places[item.name]})"
            )
        specialty, damage, name = item.specialty, item.damage, item.name
    if target.spec.side == f.spec.side or not target.in_combat:
        raise IllegalAction(f"{target.name} is not an enemy of {f.name} in the fight")
    supports: list[Ability] = []
    for word in cmd.list_opt("with"):
        s = game.ability(f, word)
        if s is None or s.kind != "support":
            raise IllegalAction(
                f"{f.name} has no support ability named {word!r}" + _known(_abilities(f, "support"))
            )
        _not_locked(game, f, s)
        supports.append(s)
    most = f.spec.assists if f.spec.boss else 1
    if len(supports) > most:
        raise IllegalAction(
            f"{f.name} may join {most} support ability to an attack, not {len(supports)}"
        )
    rebound += sum(s.rebound for s in supports)
    if f.full_power:
        rebound = 0
    if rebound > f.willpower:
        raise IllegalAction(f"{f.name} has {f.willpower} Willpower; the Rebound is {rebound}")
    evade = cmd.opts.get("evade")  # yes, no or None (the grammar takes no other)
    if evade == "yes" and target.willpower < 1:
        raise IllegalAction(f"{target.name} has no Willpower to evade with")
    spare = "spare" in cmd.opts
    # Checked: now it happens.
    _use_action(game, f)
    lines = [f"{f.name} attacks {target.name} with {name} (<{specialty}>)"]
    if rebound:
        lines.append(f"{f.name} pays {rebound} Willpower of Rebound")
        _willpower(f, -rebound, lines)
    bonus = sum(s.bonus for s in supports)
    for sup_index, sup_name in f.supports:
        sup = game.fighters[sup_index]
        if not sup.in_combat:
            lines.append(f"{sup.name} is out of the fight: its support lapses")
            continue
        ab = game.ability(sup, sup_name) if sup_name else None
        if ab is None:
            lines.append(f"{sup.name}'s Cooperative Attack joins in")
            continue
        cost = 0 if sup.full_power else ab.rebound
        if cost > sup.willpower:
            lines.append(f"{sup.name} cannot pay {ab.name}'s Rebound {cost}: its support lapses")
            continue
        if cost:
            lines.append(f"{sup.name} pays {cost} Willpower of Rebound for {ab.name}")
            _willpower(sup, -cost, lines)
        bonus += ab.bonus
        lines.append(f"{sup.name}'s {ab.name} adds {ab.bonus} damage")
    f.supports.clear()
    result, ok, special, difficulty = game.check(f, specialty)
    said = f" ({special})" if special else ""
    lines.append(f"Hit check: {result} vs {difficulty}{said}: {'hit' if ok else 'miss'}")
    if special == "critical":
        bonus += _effect(game, "hit_critical", f, lines)
    elif special == "fumble":
        _effect(game, "hit_fumble", f, lines)
    if not ok:
        return lines
    hit = Hit(f.index, target.index, max(0, damage + bonus), specialty, result, spare)
    lines.append(f"damage {hit.damage}")
    if evade == "yes":
        return lines + _evade(game, target, hit)
    if evade is None and target.willpower >= 1:
        game.pending = hit
        lines.append(
            f"{target.name} may evade (1 Willpower, difficulty"
            f" {evasion_difficulty(game, target, hit)}):"
            f" `evade {target.spec.label}` or `take {target.spec.label}`"
        )
        return lines
    return lines + land(game, hit)


def evasion_difficulty(game: Game, f: Fighter, hit: Hit) -> int:
    cut = game.options.full_power_evasion if f.full_power else 0
    return max(0, hit.result + game.distance(f, hit.specialty) - cut)


def _answerer(game: Game, cmd: Command) -> tuple[Fighter, Hit]:
    f = game.fighter(cmd.arg(0, "a character"))
    hit = game.pending
    if not isinstance(hit, Hit):
        raise IllegalAction(
            "no hit waits for an answer (`evade` and `take` answer an attack's hit)"
        )
    if hit.target != f.index:
        raise IllegalAction(f"the hit waiting is on {game.fighters[hit.target].name}, not {f.name}")
    return f, hit


def do_evade(game: Game, cmd: Command) -> list[str]:
    f, hit = _answerer(game, cmd)
    if f.willpower < 1:
        raise IllegalAction(f"{f.name} has no Willpower to evade with")
    game.pending = None
    return _evade(game, f, hit)


def _evade(game: Game, f: Fighter, hit: Hit) -> list[str]:
    lines = [f"{f.name} tries to evade (1 Willpower)"]
    _willpower(f, -1, lines)
    difficulty = evasion_difficulty(game, f, hit)
    result, ok, special, _ = game.check(f, hit.specialty, difficulty)
    said = f" ({special})" if special else ""
    lines.append(f"Evasion: {result} vs {difficulty}{said}: {'evaded' if ok else 'failed'}")
    if special == "critical":
        _effect(game, "evasion_critical", f, lines)
    elif special == "fumble":
        hit.damage = max(0, hit.damage + _effect(game, "evasion_fumble", f, lines))
    if ok:
        f.stats["evasions"] += 1
        return lines + ["the attack has no effect"]
    return lines + land(game, hit)


def do_take(game: Game, cmd: Command) -> list[str]:
    _, hit = _answerer(game, cmd)
    game.pending = None
    return land(game, hit)


def land(game: Game, hit: Hit) -> list[str]:
    """The hit's damage: off Stamina while it lasts, past it Body Damage."""
    by = game.fighters[hit.attacker]
    f = game.fighters[hit.target]
    by.stats["hits"] += 1
    lines: list[str] = []
    amount = hit.damage
    before = f.stamina
    body = amount > f.stamina or (f.stamina == 0 and amount > 0)
    f.stamina = max(0, f.stamina - amount)
    by.stats["damage"] += before - f.stamina
    lines.append(f"{f.name} takes {amount} damage: Stamina {before} -> {f.stamina}")
    if f.enemy and not f.spec.boss:
        if f.stamina == 0:
            if hit.spare and before > 0:
                lines.append(f"{f.name} is left Helpless at 0 Stamina")
                _willpower(f, -f.willpower, lines)
            else:
                lines += die(game, f, by)
        return lines
    if body:
        lines += body_damage(game, f, by)
    elif (
        f.spec.boss and before > 0 and f.stamina == 0 and game.options.boss_death_check == "at_zero"
    ):
        lines += death_check(game, f, by, f"{f.name}'s Stamina hits 0")
    return lines


def body_damage(game: Game, f: Fighter, by: Fighter) -> list[str]:
    parts = game.encounter.parts
    free = [p for p in parts if p not in f.damaged]
    by.stats["body"] += 1
    if not free:
        return [f"Body Damage to {f.name}, every part already damaged"] + die(game, f, by)
    before = set(game.locked(f))
    part = ""
    for _ in range(100):
        row = game.table("body", f.index)
        if row.value not in f.damaged:
            part = row.value
            break
    part = part or free[0]
    f.damaged.append(part)
    lines = [f"Body Damage: {f.name}'s {part} ({len(f.damaged)} damaged)"]
    newly = [
        a.name
        for a in f.spec.abilities
        if _key(a.name) in game.locked(f) and _key(a.name) not in before
    ]
    if newly:
        lines.append(f"locked: {', '.join(newly)}")
    return lines + death_check(game, f, by, "")


def death_check(game: Game, f: Fighter, by: Fighter, why: str) -> list[str]:
    """`f` owes a Death check, which waits for its answer."""
    game.pending = Death(f.index, by.index)
    return [
        (f"{why}: " if why else "")
        + f"{f.name} owes a Death check (1D6 against {len(f.damaged)} damaged parts"
        + (", a tie survives" if game.options.death_tie == "survive" else ", a tie dies")
        + f"): `death {f.spec.label}`"
        + (" or `break` an equipped weapon" if _equipped(f) else "")
    ]


def _equipped(f: Fighter) -> list[str]:
    return [n for n, p in f.places.items() if p == "equipped"]


def die(game: Game, f: Fighter, by: Fighter) -> list[str]:
    f.status = "dead"
    if by is not f:
        by.stats["downs"] += 1
    if isinstance(game.pending, Death) and game.pending.who == f.index:
        game.pending = None
    return [f"{f.name} dies"]


def _death_pending(game: Game, cmd: Command) -> tuple[Fighter, Death]:
    f = game.fighter(cmd.arg(0, "a character"))
    p = game.pending
    if not isinstance(p, Death) or p.who != f.index:
        owing = game.pending.who if isinstance(game.pending, Death) else None
        who = game.fighters[owing].name if owing is not None else "nobody"
        raise IllegalAction(f"{f.name} owes no Death check (owing one: {who})")
    return f, p


def survives(game: Game, total: int, parts: int) -> bool:
    return total > parts or (total == parts and game.options.death_tie == "survive")


def lives(game: Game, f: Fighter, total: int, parts: int) -> str:
    """The line of a Death check passed; a tie says it survives by the encounter's reading
    (the text fails only a lower roll: the `death_tie` option)."""
    if total == parts:
        return f'{f.name} lives: a tie survives (death_tie = "survive", this encounter\'s reading)'
    return f"{f.name} lives"


def do_death(game: Game, cmd: Command) -> list[str]:
    f, p = _death_pending(game, cmd)
    if p.roll is not None:
        raise IllegalAction(f"{f.name}'s Death check is rolled: `spend {f.spec.label} N`")
    face = game.dice.action_dice("death", f.index)[0]
    parts = len(f.damaged)
    lines = [f"{f.name}'s Death check: {face} vs {parts} damaged parts"]
    by = game.fighters[p.by]
    if survives(game, face, parts):
        game.pending = None
        game.last_ok = True
        return lines + [lives(game, f, face, parts)]
    game.last_ok = False
    need = parts - face + (0 if game.options.death_tie == "survive" else 1)
    if f.full_power:
        return lines + ["in Full Power a Boss spends no Willpower on it"] + die(game, f, by)
    if f.willpower < need:
        return (
            lines
            + [f"{need} Willpower would save {f.name}, who has {f.willpower}"]
            + die(game, f, by)
        )
    p.roll = face
    return lines + [f"{need} Willpower saves {f.name}: `spend {f.spec.label} {need}` (0 to die)"]


def do_spend(game: Game, cmd: Command) -> list[str]:
    f, p = _death_pending(game, cmd)
    if p.roll is None:
        raise IllegalAction(f"roll {f.name}'s Death check first: `death {f.spec.label}`")
    n = whole_number(cmd.arg(1, "Willpower"), 0, 99, "Willpower")
    if n > f.willpower:
        raise IllegalAction(f"{f.name} has {f.willpower} Willpower, not {n}")
    lines = [f"{f.name} spends {n} Willpower: {p.roll} + {n} = {p.roll + n}"]
    total = p.roll + n
    _willpower(f, -n, lines)
    if survives(game, total, len(f.damaged)):
        game.pending = None
        return lines + [lives(game, f, total, len(f.damaged))]
    return lines + die(game, f, game.fighters[p.by])


def do_break(game: Game, cmd: Command) -> list[str]:
    f, p = _death_pending(game, cmd)
    if p.roll is not None:
        raise IllegalAction("a weapon breaks before the Death check is rolled, not after")
    item = game.item(f, cmd.arg(1, "a weapon"))
    if item is None or f.places.get(item.name) != "equipped":
        equipped = _items(f, lambda it: it.weapon, "equipped")
        raise IllegalAction(
            f"{f.name} has no equipped weapon named {cmd.args[1]!r}{_known(equipped)}"
        )
    del f.places[item.name]
    del f.owned[item.name]
    game.pending = None
    return [f"{f.name}'s {item.name} breaks: the Death check is cancelled"]


# -- the other actions --------------------------------------------------------------------------
def do_coop(game: Game, cmd: Command) -> list[str]:
    f = _actor(game, cmd)
    oneself = "a Cooperative Attack supports another adventurer, not oneself"
    ally = _ally(game, f, cmd.arg(1, "an ally"), oneself)
    name = ""
    if len(cmd.args) > 2:
        ab = game.ability(f, cmd.args[2])
        if ab is None or ab.kind != "support":
            raise IllegalAction(
                f"{f.name} has no support ability named {cmd.args[2]!r}"
                + _known(_abilities(f, "support"))
            )
        _not_locked(game, f, ab)
        name = ab.name
    _use_action(game, f)
    ally.supports.append((f.index, name))
    what = f" with {name}" if name else ""
    return [f"{f.name} supports {ally.name}'s next attack this round{what}"]


def do_assist(game: Game, cmd: Command) -> list[str]:
    f = _actor(game, cmd)
    what = cmd.arg(1, "an ability, an item or gm")
    target = _ally(game, f, cmd.args[2]) if len(cmd.args) > 2 else f
    if what.lower() == "gm":
        _use_action(game, f)
        return [f"{f.name} takes an Assist action the GM allows"]
    ab = game.ability(f, what)
    lines: list[str] = []
    if ab is not None:
        if ab.kind != "assist":
            raise IllegalAction(f"{f.name}'s {ab.name} is a {ab.kind} ability, not an assist")
        _not_locked(game, f, ab)
        cost = 0 if f.full_power else ab.rebound
        if cost > f.willpower:
            raise IllegalAction(f"{f.name} has {f.willpower} Willpower; the Rebound is {cost}")
        _use_action(game, f)
        lines.append(f"{f.name} uses {ab.name} on {target.name}")
        if cost:
            _willpower(f, -cost, lines)
        stamina, willpower, extra = ab.stamina, ab.willpower, ab.extra
    else:
        item = game.item(f, what)
        if item is None or not (item.stamina or item.willpower):
            known = _abilities(f, "assist") + _items(f, lambda it: it.stamina or it.willpower)
            raise IllegalAction(
                f"{f.name} has no assist ability or usable item named {what!r}{_known(known)}"
            )
        if f.places[item.name] != "hand":
            raise IllegalAction(
                f"{f.name}'s {item.name} is in the bag: take it out first (`store`)"
            )
        _use_action(game, f)
        del f.owned[item.name]
        del f.places[item.name]
        lines.append(f"{f.name} uses {item.name} on {target.name}")
        stamina, willpower, extra = item.stamina, item.willpower, 0
    if stamina:
        was = target.stamina
        target.stamina = min(target.spec.stamina, target.stamina + stamina)
        lines.append(f"{target.name}'s Stamina {was} -> {target.stamina}")
    if willpower:
        _willpower(target, willpower, lines)
        lines.append(f"{target.name}'s Willpower is {target.willpower}")
    if extra:
        f.extra += extra
        lines.append(f"{f.name} gains {extra} extra action{'s' if extra > 1 else ''} (step E)")
    return lines


def do_flee(game: Game, cmd: Command) -> list[str]:
    f = _actor(game, cmd)
    _use_action(game, f)
    spec = game.options.flee
    result, ok, special, difficulty = game.check(f, spec)
    said = f" ({special})" if special else ""
    lines = [f"{f.name}'s <{spec}> check: {result} vs {difficulty}{said}"]
    if ok:
        f.status = "fled"
        lines.append(f"{f.name} withdraws from the fight")
    else:
        lines.append(f"{f.name} cannot get away")
    return lines


def do_equip(game: Game, cmd: Command) -> list[str]:
    f = _actor(game, cmd)
    item = game.item(f, cmd.arg(1, "a weapon"))
    if item is None or not item.weapon:
        known = _items(f, lambda it: it.weapon)
        raise IllegalAction(f"{f.name} has no weapon named {cmd.args[1]!r}{_known(known)}")
    if f.places[item.name] != "bag":
        raise IllegalAction(
            f"{f.name}'s {item.name} is {f.places[item.name]}, not in the bag:"
            " equip takes it from a bag"
        )
    _use_action(game, f)
    f.places[item.name] = "equipped"
    return [f"{f.name} equips {item.name}"]


def do_exchange(game: Game, cmd: Command) -> list[str]:
    f = _actor(game, cmd)
    ally = _ally(game, f, cmd.arg(1, "an ally"), "an exchange is with another ally")
    word = cmd.arg(2, "an item")
    for giver, taker in ((f, ally), (ally, f)):
        item = game.item(giver, word)
        if item is None:
            continue
        if giver.places[item.name] == "equipped":
            raise IllegalAction(f"{giver.name}'s {item.name} is equipped: store it first")
        if item.name in taker.owned:
            raise IllegalAction(f"{taker.name} already has an item named {item.name}")
        _use_action(game, f)
        del giver.owned[item.name]
        del giver.places[item.name]
        taker.owned[item.name] = item
        taker.places[item.name] = "hand"
        return [f"{item.name} goes from {giver.name} to {taker.name}"]
    known = _items(f) + _items(ally)
    raise IllegalAction(
        f"neither {f.name} nor {ally.name} has an item named {word!r}{_known(known)}"
    )


def do_store(game: Game, cmd: Command) -> list[str]:
    f = _actor(game, cmd)
    item = game.item(f, cmd.arg(1, "an item"))
    if item is None:
        raise IllegalAction(f"{f.name} has no item named {cmd.args[1]!r}{_known(_items(f))}")
    _use_action(game, f)
    into = f.places[item.name] != "bag"
    f.places[item.name] = "bag" if into else "hand"
    return [f"{f.name} puts {item.name} {'into' if into else 'out of'} the bag"]


def do_wait(game: Game, cmd: Command) -> list[str]:
    f = _actor(game, cmd)
    _use_action(game, f)
    return [f"{f.name} takes no action"]


def _boss(game: Game, cmd: Command, doing: str) -> Fighter:
    """The Boss `cmd` names; refused for another (`doing`: what only a Boss does)."""
    f = game.fighter(cmd.arg(0, "a Boss"))
    if not f.spec.boss:
        raise IllegalAction(f"only a Boss {doing}, and {f.name} is not one")
    return f


def do_fullpower(game: Game, cmd: Command) -> list[str]:
    f = _boss(game, cmd, "has Full Power")
    if not f.in_combat:
        raise IllegalAction(f"{f.name} is out of the fight")
    if f.full_power:
        raise IllegalAction(f"{f.name} is already in Full Power")
    if f.helpless:
        raise IllegalAction(f"{f.name} is Helpless (0 Willpower) and declares nothing")
    if f.willpower * 2 >= f.spec.willpower:
        raise IllegalAction(
            f"{f.name}'s Willpower {f.willpower} is not below half of {f.spec.willpower}"
        )
    f.full_power = True
    f.extra += 1
    return [
        f"{f.name} enters Full Power: 1 extra action this round, Rebound 0, Evasion"
        f" -{game.options.full_power_evasion}, no Willpower on Death checks"
    ]


def do_yell(game: Game, cmd: Command) -> list[str]:
    f = _boss(game, cmd, f"may <{game.options.yell}>")
    if not f.helpless:
        raise IllegalAction(f"{f.name} is not Helpless: <{game.options.yell}> is a Helpless Boss's")
    if f.yelled:
        raise IllegalAction(f"{f.name} has tried <{game.options.yell}> this round already")
    f.yelled = True
    result, ok, special, difficulty = game.check(f, game.options.yell)
    said = f" ({special})" if special else ""
    lines = [f"{f.name}'s <{game.options.yell}> check: {result} vs {difficulty}{said}"]
    if ok:
        _willpower(f, 1, lines)
    else:
        lines.append(f"{f.name} stays Helpless")
    return lines


HANDLERS: dict[str, Callable[[Game, Command], list[str]]] = {
    "next": do_next,
    "initiative": do_initiative,
    "attack": do_attack,
    "coop": do_coop,
    "assist": do_assist,
    "flee": do_flee,
    "equip": do_equip,
    "exchange": do_exchange,
    "store": do_store,
    "wait": do_wait,
    "evade": do_evade,
    "take": do_take,
    "death": do_death,
    "break": do_break,
    "spend": do_spend,
    "fullpower": do_fullpower,
    "yell": do_yell,
    "add": comings.add,
    "remove": comings.remove,
}


# -- what a refusal names ----------------------------------------------------------------------
def _abilities(f: Fighter, kind: str) -> list[str]:
    return [a.name for a in f.spec.abilities if a.kind == kind]


def _items(f: Fighter, which: Callable[[Any], Any] = bool, place: str = "") -> list[str]:
    return [n for n, it in f.owned.items() if which(it) and (not place or f.places[n] == place)]


def _known(names: list[str]) -> str:
    """The names a refusal offers instead: ` (known: A, B)` (`known: none` if it has none)."""
    return f" (known: {', '.join(names) or 'none'})"
