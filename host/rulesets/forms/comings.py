"""Forms' units who join a fight under way (`add`) and who leave it (`remove`).

All turns of a round happen at once, and a unit's part in a combat round follows from what
it did at its start (Awareness at step 1, a Form declared at steps 3 and 4): a newcomer
therefore takes part from the next round, social or combat. Until then no command may
name it, no step waits for it, and it is nobody's foe; from that round it is in the
movement order like any unit (Agility low to high, an Aware newcomer's Agility roll at the
next movement step). A unit who leaves is down for good: out of the steps and the order's
turns, kept in the scores. Reading the newcomer is every ruleset's (host/core/newcomers.py).
"""

from __future__ import annotations

from typing import Any

from host.core import newcomers
from host.core.commandline import Command
from host.core.interface import IllegalAction
from host.rulesets.forms import encounter_schema
from host.rulesets.forms.language import ROSTER

# The engine's Game calls these with itself (`game`): this module does not import the
# engine, which imports it.


def add(game: Any, cmd: Command, unit: type) -> None:
    """`unit`: the engine's Unit class."""
    enc, specs = game.encounter, [u.spec for u in game.units]
    newcomer = newcomers.read_past_the_board(
        cmd, enc.source, ROSTER, enc.teams, specs, game.joined, encounter_schema.parse
    )
    spec = newcomer.pick(newcomer.encounter.units)
    u = unit(spec, spec.health, list(spec.forms), spec.aware, arriving=True)
    u.fresh = u.aware and game.mode == "combat"
    game.units.append(u)
    game.order.append(len(game.units) - 1)
    game.joined.append((newcomer.table, newcomer.fields))
    side = game.encounter.teams[spec.side]
    game.say(f"{spec.name} joins {side}: it takes part from the next round")
    if not newcomers.on_the_board(len(game.units) - 1):
        game.say(newcomers.off_the_board(spec.name))


def remove(game: Any, cmd: Command) -> None:
    gone = {u.spec.name: u.gone for u in game.units if u.gone}
    name, why = newcomers.read_leaver(cmd, lambda w: game.name(game.unit(w)), gone)
    i = game.unit(name)
    u = game.units[i]
    u.gone = why
    # Every step still to come of it closes: its checks (and those that challenge it), the
    # Dodge of a trap sprung on it, the attacks it made or that wait for its Dodge.
    game.checks = [c for c in game.checks if i not in (c.unit, c.vs)]
    game.attacks = [a for a in game.attacks if i not in (a.attacker, a.target)]
    game.dodges.pop(i, None)
    u.damage_due = 0
    game.say(f"{name} leaves the fight ({why}); its statistics stay in the scores")
    if game.combined is not None and game.combined[0] == i:
        trap = game.combined[1]
        game.combined = None
        game.say(
            f"the {trap.name}'s combat round closes: {name} rolls no Dodge and takes no damage;"
            " the social encounter goes on"
        )
    sides = game.standing_sides()
    if game.mode == "social" and len(sides) <= 1:
        game.winner = next(iter(sides)) if sides else -1
        game.mode = "over"
        game.say(f"the fight is over: {game.winner_text()}")
    game._settle()  # a step that waited only for it closes


def refuse_arriving(game: Any, cmd: Command) -> None:
    """A unit that joined this round takes no part in it: a command naming it first is
    refused (add and remove aside)."""
    if cmd.verb in ("add", "remove") or not cmd.args:
        return
    try:
        i = game.unit(cmd.args[0])
    except IllegalAction:
        return  # (the verb itself says what is wrong)
    if game.units[i].arriving:
        raise IllegalAction(f"{game.name(i)} joined this round: it takes part from the next")
