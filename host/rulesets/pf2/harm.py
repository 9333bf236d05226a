"""What pf2's damage and healing do (pf2-combat.txt [8], [9], [11]-[17], [25], [26]): dice
rolled (a critical's double damage as the `critical` option says), immunity, weakness and
resistance, temporary hit points, knocked out and dying at 0 HP or dead, the recovery
check, losing dying and gaining wounded, death at dying 4 less doomed, persistent damage
and its flat check.
"""

from __future__ import annotations

from host.rulesets.pf2 import checks
from host.rulesets.pf2.encounter_schema import Roll, read_roll
from host.rulesets.pf2.engine import Fighter, Game

PERSISTENT_DC = 15  # [25]
ASSISTED_DC = 10


def roll_damage(
    game: Game, roll: Roll, who: int, crit: bool, purpose: str = "damage"
) -> tuple[int, str]:
    """[8]: the dice and the modifier; a critical doubles it all (`critical = "double"`) or
    rolls the dice twice and doubles the modifier (`"dice_twice"`). (amount, how)"""
    twice = crit and game.options.critical == "dice_twice"
    sides = tuple(s for n, s in roll.dice for _ in range(n * (2 if twice else 1)))
    faces = game.dice.draw(purpose, who, sides) if sides else ()
    if twice:
        amount = sum(faces) + 2 * roll.flat
        return max(0, amount), f"{roll.text()}, dice rolled twice: {amount}"
    amount = max(0, sum(faces) + roll.flat)
    if crit:
        return 2 * amount, f"{roll.text()} {amount}, doubled: {2 * amount}"
    return amount, f"{roll.text()}: {amount}"


def knocked_out(game: Game, f: Fighter) -> bool:
    """[13]: who falls dying at 0 HP rather than dying outright: player characters, and the
    creatures the file names (`named = true`) or every creature, as `knocked_out` says."""
    rule = game.options.knocked_out
    return f.spec.kind == "character" or rule == "all" or (rule == "named" and f.spec.named)


def death_at(f: Fighter) -> int:
    """[15][17]: the dying value that kills: 4 less doomed."""
    return max(1, 4 - f.values.get("doomed", 0))


def typed(f: Fighter, amount: int, kind: str) -> tuple[int, list[str]]:
    """[11]: immunity, weakness and resistance to a damage type."""
    if not kind:
        return amount, []
    if kind in f.spec.immune:
        return 0, [f"{f.name} is immune to {kind}"]
    why: list[str] = []
    if kind in f.spec.weak and amount > 0:
        amount += f.spec.weak[kind]
        why.append(f"weakness {kind} {f.spec.weak[kind]}: {amount}")
    if kind in f.spec.resist:
        amount = max(0, amount - f.spec.resist[kind])
        why.append(f"resistance {kind} {f.spec.resist[kind]}: {amount}")
    return amount, [f"{f.name}: " + "; ".join(why)] if why else []


def damage(
    game: Game, f: Fighter, amount: int, kind: str, by: Fighter | None, crit: bool = False
) -> list[str]:
    """One source of damage to `f` and all that follows [11]-[15]; `crit`: from a critical
    hit or a critically failed save (dying 2, or 2 more)."""
    if not f.in_fight:
        return [f"{f.name} is {'dead' if f.dead else 'out of the fight'}: no effect"]
    amount, lines = typed(f, amount, kind)
    if amount <= 0:
        return lines + [f"{f.name} takes no damage"]
    if by is not None:
        by.stats["damage_dealt"] += amount
    f.stats["damage_taken"] += amount
    absorbed = min(f.temp, amount)  # [12] lost first
    f.temp -= absorbed
    rest = amount - absorbed
    was = f.hp
    f.hp = max(0, f.hp - rest)  # [13] never below 0
    tmp = f" ({absorbed} from temporary HP)" if absorbed else ""
    lines.append(f"{f.name} takes {amount} damage{tmp}: HP {was} -> {f.hp}")
    if f.hp > 0 or rest == 0:
        return lines
    if was > 0:
        if by is not None:
            by.stats["downs"] += 1
        if not knocked_out(game, f):
            return lines + die(game, f, "at 0 HP [13]")
        step = 2 if crit else 1
        f.dying = step + f.wounded
        fallen = fall_unconscious(f)
        w = f" + wounded {f.wounded}" if f.wounded else ""
        how = f"{step}{' from a critical' if crit else ''}{w}"
        lines.append(
            f"{f.name} is knocked out: unconscious, {fallen} [18], dying {f.dying} ({how}) [13]"
        )
        return lines + _death_check(game, f)
    # [15] damage while at 0 HP: dying 1 more, 2 from a critical (a creature at 0 HP not
    # dying falls dying as if knocked out again)
    if not knocked_out(game, f):
        return lines + die(game, f, "at 0 HP [13]")
    step = 2 if crit else 1
    before = f.dying
    f.dying = f.dying + step if f.dying else step + f.wounded
    lines.append(f"{f.name}'s dying {before} -> {f.dying} (damage while at 0 HP) [15]")
    return lines + _death_check(game, f)


def fall_unconscious(f: Fighter) -> str:
    """[18]: unconscious, it falls prone and drops what it holds, and takes no actions or
    reactions (on its own turn too); its -4 status penalties, blinded and off-guard are
    read from the mark (checks.py). What it held is not tracked: the words say it."""
    f.actions = 0
    f.reaction = False
    if "unconscious" not in f.marks:
        f.marks.append("unconscious")
    said = (
        "falls prone and drops what it holds" if "prone" not in f.marks else "drops what it holds"
    )
    if "prone" not in f.marks:
        f.marks.append("prone")
    return f"{said}, blinded and off-guard while unconscious"


def _death_check(game: Game, f: Fighter) -> list[str]:
    if f.dying >= death_at(f):
        doomed = f.values.get("doomed", 0)
        why = f"dying {f.dying}" + (f", doomed {doomed}" if doomed else "")
        lines = die(game, f, f"{why} [15]")
        if f.hero > 0 and f.spec.kind == "character":
            game.died_now.append(f.index)
            lines.append(f"(`hero {f.label}` spends all its Hero Points to live on [26])")
        return lines
    return []


def die(game: Game, f: Fighter, why: str) -> list[str]:
    f.dead = True
    f.hp = 0
    f.dying = 0
    return [f"{f.name} dies ({why})"]


def lose_dying(game: Game, f: Fighter, why: str, wound: bool = True) -> list[str]:
    """[16]: dying is lost; wounded 1, or 1 more (not with a Hero Point [26])."""
    f.dying = 0
    line = f"{f.name} is no longer dying ({why})"
    if wound:
        f.wounded += 1
        line += f": wounded {f.wounded} [16]"
    return [line]


def heal(game: Game, f: Fighter, amount: int, by: Fighter | None) -> list[str]:
    """[12][16]: hit points back up to the maximum (never temporary ones); a dying creature
    healed above 0 loses dying and wakes."""
    top = hp_max(f)
    was = f.hp
    f.hp = min(top, f.hp + amount) if f.hp < top else f.hp
    gained = f.hp - was
    f.stats["healed"] += gained
    lines = [f"{f.name} regains {gained} HP: {was} -> {f.hp}"]
    if was == 0 and f.hp > 0:
        if f.dying:
            lines += lose_dying(game, f, "healed")
        for m in ("unconscious",):
            if m in f.marks:
                f.marks.remove(m)
        lines.append(f"{f.name} wakes up (still prone; what it dropped is on the ground [18]) [16]")
    return lines


def hp_max(f: Fighter) -> int:
    """[19] drained N lowers the hit point maximum by N times the level."""
    return max(1, f.spec.hp - max(1, f.spec.level) * f.values.get("drained", 0))


def recovery_check(game: Game, f: Fighter) -> list[str]:
    """[14]: a flat check against DC 10 + dying: -2, -1, +1, +2 by its degree; dying 0 is
    lost [16], dying at the threshold kills [15]."""
    dc = 10 + f.dying
    face = game.dice.draw("recovery", f.index, (20,))[0]
    d = checks.degree(face, face, dc)
    game.dice.degree = d
    change = {checks.CRIT_SUCCESS: -2, checks.SUCCESS: -1, checks.FAIL: 1, checks.CRIT_FAIL: 2}[d]
    was = f.dying
    f.dying = max(0, f.dying + change)
    lines = [
        f"{f.name}'s recovery check: d20 {face} vs DC {dc}: {checks.said(d)},"
        f" dying {was} -> {f.dying} [14]"
    ]
    if f.dying == 0:
        return (
            lines
            + lose_dying(game, f, "its recovery check")
            + [f"{f.name} stays unconscious at 0 HP until healed [16]"]
        )
    return lines + _death_check(game, f)


def persistent(game: Game, f: Fighter) -> list[str]:
    """[25]: each persistent damage taken, then a flat check (DC 15, 10 with a helper's
    assistance) that ends it on a success."""
    lines: list[str] = []
    for kind in list(f.persistent):
        if not f.in_fight:
            break
        roll = read_roll(f.persistent[kind])
        assert roll is not None
        amount, how = roll_damage(game, roll, f.index, False, "persistent")
        lines.append(f"{f.name}'s persistent {kind} damage: {how}")
        lines += damage(game, f, amount, kind, None)
        if not f.in_fight:
            break
        dc = ASSISTED_DC if f.assisted else PERSISTENT_DC
        face = game.dice.draw("flat", f.index, (20,))[0]
        d = checks.degree(face, face, dc)
        game.dice.degree = d
        ends = d >= checks.SUCCESS
        lines.append(
            f"{f.name}'s flat check against persistent {kind}: d20 {face} vs DC {dc}:"
            f" {checks.said(d)}{', it ends' if ends else ', it goes on'} [25]"
        )
        if ends:
            del f.persistent[kind]
    f.assisted = False
    return lines
