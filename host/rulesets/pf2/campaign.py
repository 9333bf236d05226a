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
    dead_key = "dead"
    said = (("hp_now", "HP"), ("doomed", "doomed"))
    first_team = TEAMS[0]
    what = (
        "hit points, wounded, doomed and dying (pf2-combat.txt [13], [16], [17]);"
        " the dead stay dead"
    )
    rests = {
        "night": "a full night's rest: doomed down 1 [17]; hit points as the game master says"
        " (--heal NAME=N)",
    }

    def carried(self, game: Any, f: Any) -> Line:
        return {
            "hp_now": f.hp,
            "wounded": f.wounded,
            "doomed": f.values.get("doomed", 0),
            "dying": f.dying,
        }

    def check_rest(self, kind: str, party: dict[str, Line], heal: dict[str, int]) -> None:
        for name, line in party.items():
            if not self.dead(line) and int(line.get("dying", 0)):
                raise IllegalAction(
                    f"{name} is dying: the summary has no dying outside a fight; play it on,"
                    f" or `campaign adjust` its dying=0 (and wounded) first [16]"
                )

    def rested(self, kind: str, line: Line, heal: int) -> tuple[Line, Line]:
        most = int(line["hp"])
        hp = int(line.get("hp_now", most))
        doomed = int(line.get("doomed", 0))
        before = {"hp_now": hp, "doomed": doomed}
        return before, {"hp_now": min(most, hp + heal), "doomed": max(0, doomed - 1)}
