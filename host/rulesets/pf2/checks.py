"""pf2's checks (pf2-combat.txt [7]-[10], [18], [19]): the four degrees of success with the
natural 20 and 1, and the modifiers a creature's conditions and an action's typed bonuses
and penalties give a roll or a DC, of each type only the best bonus and the worst penalty.

Of the conditions with a value, frightened and sickened are status penalties to everything
([19]); clumsy, enfeebled, drained and stupefied are counted as status penalties too (as
the books have them: the summary leaves their type unsaid), so that only the worst status
penalty applies. docs/rulesets/pf2.md says so.
"""

from __future__ import annotations

from host.rulesets.pf2.engine import Fighter, Game

CRIT_FAIL, FAIL, SUCCESS, CRIT_SUCCESS = range(4)
CONCEALED_DC = 5  # [10][19]
HIDDEN_DC = 11
DEGREES = ("critical failure", "failure", "success", "critical success")
TYPES = ("circumstance", "item", "status")
# [19] what makes a creature off-guard (a -2 circumstance penalty to its AC) [18].
OFF_GUARD = ("off-guard", "prone", "grabbed", "restrained", "paralyzed", "unconscious")
# [19] what immobilizes it (no move actions); [18] what blinds it.
IMMOBILIZED = ("immobilized", "grabbed", "restrained")
BLINDED = ("blinded", "unconscious")


def degree(face: int, total: int, dc: int) -> int:
    """[7]: DC + 10 or more a critical success, DC or more a success, DC - 10 or less a
    critical failure, else a failure; a natural 20 one degree better, a natural 1 worse."""
    if total >= dc + 10:
        out = CRIT_SUCCESS
    elif total >= dc:
        out = SUCCESS
    elif total <= dc - 10:
        out = CRIT_FAIL
    else:
        out = FAIL
    if face == 20:
        out = min(CRIT_SUCCESS, out + 1)
    elif face == 1:
        out = max(CRIT_FAIL, out - 1)
    return out


def combine(mods: list[tuple[str, int]]) -> int:
    """[10]: of each type the highest bonus and the worst penalty; untyped ("") penalties
    all apply (and untyped bonuses, which the summary does not limit)."""
    total = 0
    for kind in TYPES:
        values = [v for t, v in mods if t == kind]
        total += max([v for v in values if v > 0], default=0)
        total += min([v for v in values if v < 0], default=0)
    total += sum(v for t, v in mods if t not in TYPES)
    return total


def condition_mods(game: Game, f: Fighter, what: str) -> list[tuple[str, int]]:
    """The typed modifiers a creature's conditions give `what`: "melee" or "ranged" (an
    attack roll), "ac", "fort", "ref", "will", "perception", "check" (any other check or
    DC), "damage_melee" (a melee Strike's damage: enfeebled)."""
    v = f.values
    out: list[tuple[str, int]] = []
    if what != "damage_melee":
        for name in ("frightened", "sickened"):  # [19] all checks and DCs
            if v.get(name):
                out.append(("status", -v[name]))
    by_what = {
        "ranged": ("clumsy",),
        "ac": ("clumsy",),
        "ref": ("clumsy",),
        "melee": ("enfeebled",),
        "damage_melee": ("enfeebled",),
        "fort": ("drained",),
        "will": ("stupefied",),
    }
    for name in by_what.get(what, ()):
        if v.get(name):
            out.append(("status", -v[name]))
    unconscious = "unconscious" in f.marks
    if unconscious and what in ("ac", "perception", "ref"):  # [18]
        out.append(("status", -4))
    if what == "ac" and (unconscious or any(m in f.marks for m in OFF_GUARD)):
        out.append(("circumstance", -2))  # [19] off-guard
    if what in ("melee", "ranged") and "prone" in f.marks:
        out.append(("circumstance", -2))  # [19] prone
    return out


def ac(game: Game, f: Fighter) -> tuple[int, str]:
    """A creature's AC now, and what changed it ("" for nothing)."""
    mods = condition_mods(game, f, "ac")
    value = f.spec.ac + combine(mods)
    return value, "" if value == f.spec.ac else f" (AC {f.spec.ac} {value - f.spec.ac:+d})"


def said(d: int) -> str:
    return DEGREES[d]
