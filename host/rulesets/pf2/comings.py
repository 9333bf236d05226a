"""pf2's creatures who join a fight under way (`add`) and who leave it (`remove`).

A newcomer is read as the file's creatures are (host/core/newcomers.py: a `[[template]]`
or a stat line of `[[creature]]`'s keys, on a team by `team=`), one creature (no `count`).
It rolls its initiative as it joins and takes its place in the order (turns.join): this
round if its place is still to come, else from the next. At most MOST_FIGHTERS entries
(host/core/newcomers.py), those who left among them; those past the board's slots play on
the screens only. A creature who leaves is out of the fight as one who fled is:
its foes count it down, its statistics stay in the scores.
"""

from __future__ import annotations

from host.core import kit, newcomers
from host.core.commandline import Command
from host.core.interface import IllegalAction
from host.rulesets.pf2 import encounter_schema, turns
from host.rulesets.pf2.engine import Game
from host.rulesets.pf2.language import ROSTER


def add(game: Game, cmd: Command) -> list[str]:
    if "count" in cmd.opts:
        raise IllegalAction("add: one creature at a time (no count=)")
    taken = [f.name for f in game.fighters] + [f.label for f in game.fighters]
    newcomer = newcomers.read_newcomer(
        cmd,
        game.encounter.source,
        ROSTER,
        game.encounter.teams,
        taken,
        game.joined,
        encounter_schema.parse,
        newcomers.MOST_FIGHTERS,
    )
    if "count" in newcomer.fields:
        raise IllegalAction("add: one creature at a time (its template has a count)")
    spec = newcomer.pick(newcomer.encounter.creatures)
    lines = turns.join(game, spec)
    game.joined.append((newcomer.table, newcomer.fields))
    return lines


def remove(game: Game, cmd: Command) -> list[str]:
    _, lines = kit.leave(game, cmd)
    return lines
