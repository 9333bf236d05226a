"""The d20 rolls and what they do to hit points (d20-srd-combat.txt [8]-[22]): a d20 with
advantage or disadvantage, attack rolls and saving throws (and a legendary creature's
resistance that turns a failed one into a success), damage (temporary hit points,
resistance, vulnerability and immunity, massive damage, a monster at 0), healing, death
saves and stabilizing, and the concentration saves damage calls for.
"""

from __future__ import annotations

from host.rulesets.d20 import conditions
from host.rulesets.d20.encounter_schema import Roll
from host.rulesets.d20.engine import Fighter, Game

# The most dice one draw asks the board for: a roll of more (a breath's 18d6) is drawn in
# parts of this many (the board shows 15 at most).
BOARD_DICE = 14


def d20(game: Game, purpose: str, who: int, adv: bool, dis: bool) -> tuple[int, str]:
    """[9]: one d20, or two with advantage (the higher) or disadvantage (the lower); both
    at once cancel out to one. (the face used, how it was rolled for the log)"""
    if adv and dis or not (adv or dis):
        face = game.dice.draw(purpose, who, (20,))[0]
        return face, f"d20 {face}"
    a, b = game.dice.draw(purpose, who, (20, 20))
    face = max(a, b) if adv else min(a, b)
    return face, f"d20 {a} and {b} with {'advantage' if adv else 'disadvantage'}: {face}"


def roll_damage(game: Game, roll: Roll, who: int, crit: bool, purpose: str = "damage") -> int:
    """[8]: a critical hit rolls the damage dice twice; the flat part once."""
    # Each kind of die together (2d6+1d8 doubled is 4d6+2d8): a roll names at most a few kinds.
    sides = tuple(s for n, s in roll.dice for _ in range(n * (2 if crit else 1)))
    faces: tuple[int, ...] = ()
    for at in range(0, len(sides), BOARD_DICE):
        faces += game.dice.draw(purpose, who, sides[at : at + BOARD_DICE])
    return max(0, sum(faces) + roll.flat)


def typed(f: Fighter, amount: int, kind: str, magic: bool = False) -> tuple[int, list[str]]:
    """[12] `amount` of `kind` as `f` takes it: none if immune, halved (rounded down) if it
    resists, doubled if vulnerable. A type resisted "from nonmagical weapons" (written
    "nonmagical TYPE") is resisted unless the damage is `magic`."""
    if not kind:
        return amount, []

    def has(words: tuple[str, ...]) -> bool:
        return kind in words or (not magic and f"nonmagical {kind}" in words)

    if has(f.spec.immune):
        return 0, [f"{f.name} is immune to {kind}: no damage"]
    lines: list[str] = []
    if has(f.spec.resist):
        amount //= 2
        lines.append(f"{f.name} resists {kind}: {amount}")
    if has(f.spec.vulnerable):
        amount *= 2
        lines.append(f"{f.name} is vulnerable to {kind}: {amount}")
    return amount, lines


def damage_parts(
    game: Game,
    f: Fighter,
    parts: list[tuple[int, str]],
    by: Fighter | None,
    crit: bool = False,
    spare: bool = False,
    magic: bool = False,
) -> list[str]:
    """One source of damage of several types (a bite's piercing and fire): each type as
    `f` takes it, then the sum as one source [21]."""
    if len(parts) == 1:
        return damage(game, f, parts[0][0], parts[0][1], by, crit, spare, magic)
    total, lines = 0, []
    for amount, kind in parts:
        taken, said = typed(f, amount, kind, magic)
        total += taken
        lines += said
    return lines + damage(game, f, total, "", by, crit, spare)


def saving_throw(
    game: Game,
    f: Fighter,
    ability: str,
    dc: int,
    adv: bool = False,
    dis: bool = False,
    legendary: bool = True,
) -> tuple[bool, str]:
    """[10]: a d20 and the creature's modifier for the ability, against the DC. A failure
    of a creature with Legendary Resistance left becomes a success, one use spent, unless
    `legendary` is False (the game master keeps it: `nolr`)."""
    face, how = d20(game, "save", f.index, adv, dis)
    mod = f.spec.saves.get(ability, 0)
    total = face + mod
    ok = total >= dc
    word = "succeeds" if ok else "fails"
    line = f"{f.name}'s {ability.upper()} save: {how} {mod:+d} = {total} vs DC {dc}: {word}"
    if not ok and legendary and f.legendary_resistance > 0:
        f.legendary_resistance -= 1
        ok = True
        line += f"; Legendary Resistance makes it a success ({f.legendary_resistance} left)"
    return ok, line


def damage(
    game: Game,
    f: Fighter,
    amount: int,
    kind: str,
    by: Fighter | None,
    crit: bool = False,
    spare: bool = False,
    magic: bool = False,
) -> list[str]:
    """One source of damage to `f`, with all that follows from it."""
    if not f.in_fight:
        return [f"{f.name} is {'dead' if f.dead else 'out of the fight'}: no effect"]
    amount, lines = typed(f, amount, kind, magic)
    if amount <= 0:
        return lines + [f"{f.name} takes no damage"]
    taken = amount
    if f.temp:  # [11] temporary hit points go first
        soaked = min(f.temp, amount)
        f.temp -= soaked
        amount -= soaked
        lines.append(f"{f.name}'s temporary hit points take {soaked} ({f.temp} left)")
    f.stats["damage_taken"] += taken
    if by is not None:
        by.stats["damage_dealt"] += taken
    if amount and f.hp == 0:  # [18] damage at 0 HP
        if amount >= f.spec.hp:
            return lines + die(game, f, by, f"{amount} damage at 0 HP, its maximum or more")
        if f.knocked_out or f.spec.kind == "monster":
            return lines + die(game, f, by, "damage while knocked out")
        f.stable = False
        f.failures += 2 if crit else 1
        lines.append(
            f"{f.name} takes {amount} damage at 0 HP: {'two' if crit else 'one'} death save"
            f" failure{'s' if crit else ''} ({f.failures} of 3)"
        )
        if f.failures >= 3:
            lines += die(game, f, by, "three death save failures")
        return lines
    if amount:
        before = f.hp
        f.hp = max(0, f.hp - amount)
        lines.append(f"{f.name} takes {amount} damage: HP {before} -> {f.hp}")
        if f.hp == 0:
            if by is not None and by.spec.team != f.spec.team:
                by.stats["downs"] += 1
            over = amount - before  # [13] what is left over after 0
            if over >= f.spec.hp:
                return lines + die(game, f, by, f"{over} damage past 0, its maximum or more")
            if f.spec.kind == "monster":
                if spare or game.options.monsters_at_zero == "knocked_out":
                    f.knocked_out = True
                    lines.append(f"{f.name} is knocked out [14]")
                else:
                    return lines + die(game, f, by, "a monster at 0 HP")
            else:
                f.successes = f.failures = 0
                lines.append(f"{f.name} falls unconscious and is dying")
            lines += conditions.concentration_over(game, f.index)  # [22]
            return lines
    if f.concentration:  # [21] one save for each source of damage
        dc = max(10, taken // 2)
        ok, line = saving_throw(game, f, "con", dc)
        lines.append("concentration: " + line)
        if not ok:
            lines += conditions.concentration_over(game, f.index)
    return lines


def die(game: Game, f: Fighter, by: Fighter | None, why: str) -> list[str]:
    """The creature dies; the foes it is counted down for are counted where it fell."""
    f.dead = True
    f.hp = 0
    f.temp = 0
    f.stable = False
    f.successes = f.failures = 0
    lines = [f"{f.name} dies ({why})"]
    return lines + conditions.concentration_over(game, f.index)


def heal(game: Game, f: Fighter, amount: int, by: Fighter | None) -> list[str]:
    """[11][19]: never above the maximum, never temporary hit points; at 0 HP the creature
    is conscious again, its death saves reset."""
    before = f.hp
    f.hp = min(f.spec.hp, f.hp + amount)
    if by is not None:
        by.stats["healed"] += f.hp - before
    lines = [f"{f.name} regains {f.hp - before} HP: {before} -> {f.hp}"]
    if before == 0 and f.hp > 0:
        f.successes = f.failures = 0
        f.stable = f.knocked_out = False
        lines.append(f"{f.name} is conscious again")
        if "prone" not in conditions.on(game, f.index):  # [24] it fell prone; it wakes so
            lines += conditions.begin(game, conditions.Effect("prone", f.index), None)
    return lines


def death_save(game: Game, f: Fighter) -> list[str]:
    """[15][16][17]: a d20 with no modifier at the start of a dying character's turn."""
    face = game.dice.draw("death", f.index, (20,))[0]
    head = f"{f.name}'s death save: d20 {face}"
    if face == 20:
        return [head + ": a natural 20"] + heal(game, f, 1, None)
    if face >= 10:
        f.successes += 1
        lines = [head + f": a success ({f.successes} of 3)"]
    else:
        f.failures += 2 if face == 1 else 1
        two = " (a 1: two failures)" if face == 1 else ""
        lines = [head + f": a failure{two} ({min(3, f.failures)} of 3)"]
    if f.failures >= 3:
        return lines + die(game, f, None, "three death save failures")
    if f.successes >= 3:
        f.stable = True
        f.successes = f.failures = 0
        lines.append(f"{f.name} is stable (0 HP, unconscious)")
    return lines


def set_temp(game: Game, f: Fighter, amount: int, keep: str) -> str:
    """[11]: temporary hit points do not add up; `keep` says which amount stays."""
    old = f.temp
    if keep == "new" or (keep == "higher" and amount > old) or not old:
        f.temp = amount
    return f"{f.name} has {f.temp} temporary hit points (had {old}, given {amount})"
