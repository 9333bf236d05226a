"""The korxsol game as plain data: the `--json` snapshot, one fighter's view, team
statistics, the timeline of KOR and scores, and the team scores projected onto the device
view for the board's score page.
"""

from __future__ import annotations

from host.rulesets.korxsol.device import (
    BURN,
    F_FROZEN,
    F_GRAPPLED,
    F_KNOCKED_DOWN,
    F_PINNED,
    FEAR,
    FROST,
)
from host.rulesets.korxsol.fighter import Fighter
from host.rulesets.korxsol.game_core import GameCore
from host.rulesets.korxsol.scoring import Stats
from host.rulesets.korxsol.turn_flow import REASON_NAMES
from shared.limits import NO_SLOT
from shared.state import F_OUT
from shared.words import KIND_NAMES


class GameViews(GameCore):
    def _project_scores(self) -> None:
        for t in range(self.state.team_count):
            total = sum(f.stats.score for f in self.fighters if f.spec.team == t)
            self.state.scores[t] = total & 0xFFFF

    def _record_timeline(self) -> None:
        self.timeline.append(
            {
                "turn": self.turn_number,
                "round": self.state.round,
                "kor": {f.spec.label: self.slot(f).health for f in self.fighters},
                "score": {
                    self.encounter.teams[t]: sum(
                        f.stats.score for f in self.fighters if f.spec.team == t
                    )
                    for t in range(len(self.encounter.teams))
                },
            }
        )

    def team_stats(self) -> dict[str, Stats]:
        teams: dict[str, Stats] = {name: Stats() for name in self.encounter.teams}
        for f in self.fighters:
            teams[self.encounter.teams[f.spec.team]].add(f.stats)
        return teams

    def snapshot(self) -> dict:
        """The whole game as plain data: the `--json` output of `turnlight run`."""
        st = self.state
        out = {
            "encounter": self.encounter.name,
            "seed": self.seed,
            "actions": self.actions,
            "round": st.round,
            "turn": self.turn_number,
            "phase": ("action", "cooldown")[st.phase] if self.started else None,
            "active": self.active.spec.name if self.active else None,
            "order": [
                {
                    "name": self.fighters[st.order[i]].spec.name,
                    "reason": "game master"
                    if self.order_by_gm
                    else REASON_NAMES[st.order_reason[i]],
                }
                for i in range(st.count)
            ]
            if self.started
            else [],
            "winner": None
            if self.winner is None
            else (self.encounter.teams[self.winner] if self.winner >= 0 else "nobody"),
            "fighters": [self.fighter_json(f) for f in self.fighters],
            "teams": {name: s.as_json() for name, s in self.team_stats().items()},
            "last_roll": {
                "kind": KIND_NAMES[st.roll.kind],
                "faces": list(st.roll.faces[: st.roll.count]),
                "successes": st.roll.successes,
            },
        }
        return out

    def fighter_json(self, f: Fighter) -> dict:
        s = self.slot(f)
        timers = {}
        names = {n: name for n, (_, name) in enumerate(f.spec.timed(), 1)}
        for i in range(len(s.cd_id)):
            if s.cd_id[i]:
                timers[names.get(s.cd_id[i], str(s.cd_id[i]))] = s.cd_left[i]
        statuses = {
            "frost": s.counters[FROST],
            "burn": s.counters[BURN],
            "fear": s.counters[FEAR],
            "frozen": bool(s.flags & F_FROZEN),
            "knocked_down": bool(s.flags & F_KNOCKED_DOWN),
            "pinned": bool(s.flags & F_PINNED),
            "grappled": bool(s.flags & F_GRAPPLED),
            "charging": f.charging.name if f.charging else None,
            "blinded": f.blinded,
            "grappling": self.fighters[f.grappling].spec.name if f.grappling != NO_SLOT else None,
        }
        return {
            "name": f.spec.name,
            "label": f.spec.label,
            "team": self.encounter.teams[f.spec.team],
            "kor": s.health,
            "kor_max": s.health_max,
            "ap": s.actions,
            "ap_max": s.actions_max,
            "sol": f.sol,
            "armor": f.armor,
            "attributes": {a: self.attribute(f, a) for a in ("power", "resistance", "agility")},
            "down": bool(s.flags & F_OUT),
            "terrain": f.terrain,
            "status": statuses,
            "cooldowns": timers,
            "modifiers": [
                {"source": m.source, "key": m.key, "amount": m.amount} for m in f.modifiers
            ],
            "hand": [i.name for i in f.hand],
            "stats": f.stats.as_json(),
        }
