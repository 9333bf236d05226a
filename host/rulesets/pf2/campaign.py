"""What a pf2 character carries from one fight of a campaign to the next, and the rest
between fights (host/core/campaign_carry.py is the hook; docs/rulesets/pf2.md, "Between
fights", says it). Rules: pf2-combat.txt.

Carried, as keys of the character's stat line that the encounter reader takes: its hit
points (`hp_now`), its wounded value (`wounded`: it lasts until the creature is treated and
fully healed, which the game master says [16]), its doomed value (`doomed` [17]) and, for
one the fight left dying, its dying value (`dying`: the summary says nothing of dying
outside an encounter, so it comes into the next fight as it left, at 0 HP, making its
recovery checks [14]). A character at 0 HP comes in unconscious [16]. One that died stays
dead, out of the fights, until the game master says otherwise (`campaign adjust CAMPAIGN
NAME dead=false`).

The one rest the summary gives is a full night's rest: doomed drops by 1 [17]. The hit
points a rest gives back are not in it: the game master says them (`--heal NAME=N`).
"""

from __future__ import annotations

from typing import Any

from host.core.campaign_carry import Carry, Line
from host.core.errors import IllegalAction
from host.rulesets.pf2.encounter_schema import TEAMS
from host.rulesets.pf2.language import ROSTER

KEYS = ("hp_now", "wounded", "doomed", "dying", "dead")


class PF2Carry(Carry):
    roster = ROSTER
    keys = KEYS
    apart = ("dead",)
    first_team = TEAMS[0]
    what = (
        "hit points, wounded, doomed and dying (pf2-combat.txt [13], [16], [17]);"
        " the dead stay dead"
    )
    rests = {
        "night": "a full night's rest: doomed down 1 [17]; hit points as the game master says"
        " (--heal NAME=N)",
    }

    def after(self, game: Any, names: list[str]) -> dict[str, Line]:
        out: dict[str, Line] = {}
        for f in game.fighters:
            if f.name not in names:
                continue
            line: Line = {
                "hp_now": f.hp,
                "wounded": f.wounded,
                "doomed": f.values.get("doomed", 0),
                "dying": f.dying,
            }
            if f.dead:
                line["dead"] = True
            out[f.name] = line
        return out

    def dead(self, line: Line) -> bool:
        return bool(line.get("dead"))

    def rest(
        self, kind: str, party: dict[str, Line], heal: dict[str, int]
    ) -> tuple[dict[str, Line], list[str]]:
        if kind not in self.rests:
            raise IllegalAction(f"pf2 has no {kind} rest: night")
        for name in heal:
            if name not in party:
                raise IllegalAction(f"--heal {name}: not in the party ({', '.join(party)})")
            if self.dead(party[name]):
                raise IllegalAction(
                    f"--heal {name}: {name} is dead (`campaign adjust` it first if it is not)"
                )
        for name, line in party.items():
            if not self.dead(line) and int(line.get("dying", 0)):
                raise IllegalAction(
                    f"{name} is dying: the summary has no dying outside a fight; play it on,"
                    f" or `campaign adjust` its dying=0 (and wounded) first [16]"
                )
        out: dict[str, Line] = {}
        lines: list[str] = []
        for name, line in party.items():
            if self.dead(line):
                continue
            most = int(line["hp"])
            hp = int(line.get("hp_now", most))
            doomed = int(line.get("doomed", 0))
            after = {"hp_now": min(most, hp + heal.get(name, 0)), "doomed": max(0, doomed - 1)}
            out[name] = after
            changes = [
                f"{label} {before} -> {after[key]}"
                for key, label, before in (("hp_now", "HP", hp), ("doomed", "doomed", doomed))
                if after[key] != before
            ]
            lines.append(f"{name}: {', '.join(changes) or 'no change'}")
        return out, lines

    def check_adjust(self, key: str, value: Any) -> str | None:
        if key == "dead" and not isinstance(value, bool):
            return "dead= is true or false"
        return None
