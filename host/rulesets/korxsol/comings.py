"""Korxsol's fighters who join a fight under way (`add`) and who leave it (`remove`).

The players' guide has every player roll AGILITY for the turn order once, before the first
turn, and says nothing of a fighter who comes later: a newcomer takes the place right after
the fighter whose turn it is (its turn comes next, this round), or with the encounter's
`newcomers = "last"` the last place in the order; before initiative it simply rolls with
everyone. A fighter who leaves is out of play (the turn order skips it)
and stays in the scores; it cannot be healed back. Reading a newcomer's stat line or
template is every ruleset's (host/core/newcomers.py).
"""

from __future__ import annotations

from host.core import newcomers
from host.rulesets.korxsol import encounter_schema
from host.rulesets.korxsol.device import F_CHARGING
from host.rulesets.korxsol.game_core import GameCore, Outcome
from host.rulesets.korxsol.language import ROSTER, Command
from host.rulesets.korxsol.rolls import IllegalAction
from shared import roster
from shared.limits import NO_SLOT
from shared.state import F_OUT


class Comings(GameCore):
    def _do_add(self, cmd: Command, out: Outcome) -> None:
        taken = [f.spec.name for f in self.fighters] + [f.spec.label for f in self.fighters]
        newcomer = newcomers.read_newcomer(
            cmd,
            self.encounter.source,
            ROSTER,
            self.encounter.teams,
            taken,
            self.joined,
            encounter_schema.parse,
        )
        spec = newcomer.pick(newcomer.encounter.solighters)
        f = self._enlist(spec)
        self.joined.append((newcomer.table, newcomer.fields))
        st = self.state
        team = self.encounter.teams[spec.team]
        if not self.started:
            out.say(f"{f.name} joins {team}: it rolls AGILITY with everyone at initiative")
            return
        order = [st.order[p] for p in range(st.count - 1)]
        reasons = [st.order_reason[p] for p in range(st.count - 1)]
        at = st.turn + 1 if self.encounter.options.newcomers == "next" else len(order)
        order.insert(at, f.index)
        reasons.insert(at, 0)
        roster.set_order(st, order, reasons)
        if at == st.turn + 1:
            now = self.active
            after = f" after {now.name}" if now is not None else ""
            out.say(f"{f.name} joins {team}: its turn comes next{after}, this round")
        else:
            out.say(f"{f.name} joins {team}: its turn comes last in the order, this round")

    def _do_remove(self, cmd: Command, out: Outcome) -> None:
        name, why = newcomers.read_leaver(cmd, lambda n: self.fighter(n).spec.name, self.gone)
        f = self.fighter(name)
        if self.active is f:
            raise IllegalAction(f"remove: it is {f.name}'s turn: `end` it first")
        s = self.slot(f)
        s.flags |= F_OUT
        s.flags &= ~F_CHARGING
        f.charging = None
        if f.grappling != NO_SLOT:
            self._release(self.fighters[f.grappling], out, "is let go")
        if f.grappled_by != NO_SLOT:
            self._release(f, out, "is let go")
        self.state.touch()
        self.gone[f.name] = why
        out.say(f"{f.name} leaves the fight ({why}); its statistics stay in the scores")
