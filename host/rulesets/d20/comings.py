"""d20's creatures who join a fight under way (`add`) and who leave it (`remove`).

A newcomer is read as the file's creatures are (host/core/newcomers.py: a `[[template]]`
or a stat line of `[[creature]]`'s keys, on a team by `team=`), one creature (no `count`),
or a monster of the bestiary (`add goblin`, `add 3 goblin`, `add goblin as Snik`: a
`from =` creature on the monsters' team, numbered `Goblin 1`.. when there are several,
each with its own initiative).
It rolls its initiative as it joins and takes its place in the order (turns.join): this
round if its place is still to come, else from the next. A fight holds MOST_FIGHTERS
entries (host/core/newcomers.py), those who left among them. A creature who leaves is out
of the fight as one who fled is: its foes count it down, its statistics stay in the scores,
and its concentration ends.
"""

from __future__ import annotations

from dataclasses import replace

from host.core import kit, newcomers
from host.core.commandline import Command
from host.core.encounter_files import templates_of
from host.core.interface import IllegalAction
from host.core.names import plain
from host.rulesets.d20 import bestiary, conditions, encounter_schema, turns
from host.rulesets.d20.engine import Game
from host.rulesets.d20.language import ROSTER


def book(teams: tuple[str, ...]) -> newcomers.Book:
    """The bestiary as `add` reads it: a monster joins on the second team (the monsters')."""

    def find(word: str) -> dict | None:
        found = bestiary.find(word)
        if found is None:
            return None
        return {"name": found["name"], "from": found["name"], "team": teams[min(1, len(teams) - 1)]}

    return newcomers.Book(find, bestiary.unknown, "bestiary (SRD 5.1)")


def add(game: Game, cmd: Command) -> list[str]:
    if "count" in cmd.opts:
        raise IllegalAction("add: one creature at a time (no count=; `add 3 goblin` for three)")
    n, what, name = newcomers.counted(cmd.args)
    if not what:
        raise IllegalAction("add: write `add [N] MONSTER [as NAME]` or `add NAME key=value ...`")
    taken = [f.name for f in game.fighters] + [f.label for f in game.fighters]
    shelf = book(game.encounter.teams)
    base = name
    typed = False  # N creatures of a stat line typed after the name (`add 3 Grik team=...`)
    if n > 1 and not base:
        found = next(
            (t for t in templates_of(game.encounter.source) if plain(t["name"]) == plain(what)),
            None,
        )
        entry = found or shelf.find(what)
        if entry is None and not cmd.opts:
            raise IllegalAction("add: " + bestiary.unknown(what))
        typed = entry is None
        base = what if entry is None else entry["name"]
    read: list[newcomers.Newcomer] = []
    joined = list(game.joined)
    for each, label in newcomers.numbered(base, n, taken):
        args = [what, "as", each] if each else [what]
        one = replace(cmd, args=[each] if typed else args, opts=dict(cmd.opts))
        if label and "label" not in cmd.opts:
            one.opts["label"] = label
        newcomer = newcomers.read_newcomer(
            one,
            game.encounter.source,
            ROSTER,
            game.encounter.teams,
            taken,
            joined,
            encounter_schema.parse,
            newcomers.MOST_FIGHTERS,
            shelf,
        )
        if "count" in newcomer.fields:
            raise IllegalAction("add: one creature at a time (its template has a count)")
        joined.append((newcomer.table, newcomer.fields))
        taken += [newcomer.name, str(newcomer.fields.get("label", ""))]
        read.append(newcomer)
    # Every newcomer read (and refused, if any is) before the first joins: state unchanged.
    lines: list[str] = []
    for newcomer in read:
        lines += turns.join(game, newcomer.pick(newcomer.encounter.creatures))
        game.joined.append((newcomer.table, newcomer.fields))
    return lines


def remove(game: Game, cmd: Command) -> list[str]:
    f, lines = kit.leave(game, cmd)
    return lines + conditions.concentration_over(game, f.index)
