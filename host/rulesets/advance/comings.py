"""Advance's characters who join a fight under way (`add`) and who leave it (`remove`).

A round's order is made at its step A: the Initiative check splits the adventurers into
Advance (step B) and Late (step D), and enemies act in step C. A newcomer added in step A,
before the check, takes part in this round (an adventurer rolls the check with the rest);
added later, it waits for the next round's Initiative Check and takes no action in this
one. An adventurer or an enemy by `team=`: its table in the encounter file. A character
who leaves is out of the fight as one who fled with <Flee> is, and its foes count it as
put down in the score. Reading the newcomer is every ruleset's (host/core/newcomers.py).
"""

from __future__ import annotations

from host.core import newcomers
from host.core.commandline import Command
from host.core.interface import IllegalAction
from host.rulesets.advance import encounter_schema
from host.rulesets.advance.engine import Fighter, Game
from host.rulesets.advance.language import ROSTER


def add(game: Game, cmd: Command) -> list[str]:
    enc, specs = game.encounter, [f.spec for f in game.fighters]
    newcomer = newcomers.read_past_the_board(
        cmd, enc.source, ROSTER, enc.teams, specs, game.joined, encounter_schema.parse
    )
    spec = newcomer.pick(newcomer.encounter.characters)
    f = Fighter(
        spec,
        len(game.fighters),
        spec.stamina if spec.stamina_now is None else spec.stamina_now,
        spec.willpower if spec.willpower_now is None else spec.willpower_now,
        {it.name: it.place for it in spec.items},
        {it.name: it for it in spec.items},
        list(spec.damaged),
    )
    game.fighters.append(f)
    game.joined.append((newcomer.table, newcomer.fields))
    team = game.encounter.teams[spec.side]
    off = [] if newcomers.on_the_board(f.index) else [newcomers.off_the_board(f.name)]
    if game.step == 0:
        return [f"{f.name} joins the {team}: it takes part in this round's Initiative Check", *off]
    f.acted = True  # this round's order is made: it waits for the next
    f.joins = game.round + 1
    return [f"{f.name} joins the {team}: it acts from the next round's Initiative Check", *off]


def remove(game: Game, cmd: Command) -> list[str]:
    name, why = newcomers.read_leaver(cmd, lambda w: game.fighter(w).name, game.gone)
    f = game.fighter(name)
    pending = game.pending
    if pending is not None:
        raise IllegalAction("remove: a hit or a Death check waits for its answer first")
    if not f.in_combat:
        raise IllegalAction(f"remove: {f.name} is already out of the fight ({f.status})")
    f.status = "left"
    game.gone[f.name] = why
    return [f"{f.name} leaves the fight ({why}); its statistics stay in the scores"]
