"""What a d20 character carries from one fight of a campaign to the next, and the rests
between fights (host/core/campaign_carry.py is the hook; docs/rulesets/d20.md says it).

Carried, as keys of the character's stat line that the encounter reader takes: its hit
points (`hp_now`; [11], never over the maximum `hp`), temporary hit points (`temp`),
exhaustion (`exhaustion`, 0..5; level 6 is death [23]) and the conditions that outlast the
fight [29] (`conditions`: those on it until removed, put on by `condition` or by the generic
`effect` with no end; one counted in rounds, ended by a save or a turn, or depending on a
concentration ends with the fight). A character at 0 HP comes into the next fight stable
[17]; one that died (three failed death saves, damage past its maximum [13][18], exhaustion
6) stays dead, out of the fights, until the game master says otherwise (`campaign adjust
CAMPAIGN NAME dead=false`).

The rests are the SRD's, told in our own words in docs/rulesets/d20.md: a long rest brings
hit points back to the maximum, ends temporary hit points, lowers exhaustion by one level and
resets death saves (none are carried: a fight that ends leaves nobody dying); a short rest
gives each character what the game master says its spent hit dice return (`--heal NAME=N`).
"""

from __future__ import annotations

from typing import Any

from host.core import effects as book
from host.core.campaign_carry import Carry, Line
from host.core.errors import IllegalAction
from host.core.names import plain
from host.rulesets.d20.encounter_schema import TEAMS
from host.rulesets.d20.language import ROSTER

KEYS = ("hp_now", "temp", "exhaustion", "conditions", "dead")
LUCK = ("nat20", "nat1", "above", "below")  # engine.count_luck's
HIDDEN = ("unconscious", "prone")  # what 0 HP implies [13][24]: not a condition of its own


class D20Carry(Carry):
    roster = ROSTER
    keys = KEYS
    apart = ("dead",)
    dead_key = "dead"
    said = (("hp_now", "HP"), ("temp", "temporary HP"), ("exhaustion", "exhaustion"))
    lists = ("conditions",)
    first_team = TEAMS[0]
    what = (
        "hit points, temporary hit points, exhaustion and the conditions on a character"
        " until removed (d20-srd-combat.txt [11], [23], [29]); the dead stay dead"
    )
    rests = {
        "long": "hit points to the maximum, temporary hit points end, exhaustion down one level,"
        " death saves reset",
        "short": "each character regains what its spent hit dice give (--heal NAME=N)",
    }

    def carried(self, game: Any, f: Any) -> Line:
        # What depends on a concentration ends with it, and concentration with the fight.
        tied = {(x.target, x.name) for x in game.links}
        lasting = [
            e.name
            for e in game.effects
            if e.target == f.index
            and e.kind == "none"
            and e.name not in HIDDEN
            and (f.index, e.name) not in tied
        ]
        # The generic `effect` verb's with no end (until taken off) last as long [29];
        # its name carries, as a condition of the next fight (its stacks and note do not).
        lasting += [
            e.name
            for e in book.in_play(game)
            if e.target == f.name
            and e.kind == ""
            and plain(e.name) not in {plain(n) for n in lasting}
            and e.name not in HIDDEN
        ]
        return {
            "hp_now": f.hp,
            "temp": f.temp,
            "exhaustion": min(f.exhaustion, 5),
            "conditions": lasting,
        }

    def died(self, f: Any) -> bool:
        return bool(f.dead or f.exhaustion >= 6)

    def scores(self, game: Any, summary: dict, names: list[str]) -> dict[str, dict[str, int]]:
        out = super().scores(game, summary, names)
        for f in game.fighters:
            if f.name in out:
                out[f.name].update({k: f.stats[k] for k in LUCK})
        return out

    def check_rest(self, kind: str, party: dict[str, Line], heal: dict[str, int]) -> None:
        if kind == "long" and heal:
            raise IllegalAction("a long rest heals everyone fully: --heal goes with a short rest")

    def rested(self, kind: str, line: Line, heal: int) -> tuple[Line, Line]:
        most = int(line["hp"])
        hp = int(line.get("hp_now", most))
        temp = int(line.get("temp", 0))
        level = int(line.get("exhaustion", 0))
        before = {"hp_now": hp, "temp": temp, "exhaustion": level}
        if kind == "long":
            return before, {"hp_now": most, "temp": 0, "exhaustion": max(0, level - 1)}
        return before, {"hp_now": min(most, hp + heal), "temp": temp, "exhaustion": level}
