"""Stones' characters who join a fight under way (`add`) and who leave it (`remove`).

A turn is a player's, and its characters act in it in any order: a newcomer joins the
characters of the player it names (`player=`), and takes part in that player's turns from
the next one, or from this one if it is that player's turn now (it has not been activated
yet). Its player's draw grows by the hand's share of a character from the next draw, as
the turn-order text counts a player's characters. A character who leaves is out as an
incapacitated one is (its statuses end, its fused stones are discarded, a player left with
no character is eliminated, and passes its turn at once if it is its turn) and stays in
the scores. Reading the newcomer is every ruleset's (host/core/newcomers.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from host.core import newcomers
from host.core.commandline import Command
from host.core.interface import IllegalAction
from host.rulesets.stones import encounter_schema
from host.rulesets.stones.language import ROSTER
from shared import roster

# The engine calls these with its Game (`game`) and what they need of it: this module does
# not import the engine, which imports it.


def add(game: Any, cmd: Command, stat_keys: Sequence[str]) -> list[str]:
    """`stat_keys`: the statistics a character keeps (engine.STAT_KEYS)."""
    chars = game.enc.characters
    teams = [p.name for p in game.enc.players]
    newcomer = newcomers.read_past_the_board(
        cmd, game.enc.source, ROSTER, teams, chars, game.joined, encounter_schema.parse
    )
    c = newcomer.pick(newcomer.encounter.characters)
    game.enc = dataclasses.replace(game.enc, characters=(*chars, c))
    game.hp.append(c.hp)
    game.statuses.append({})
    game.fused.append([])
    game.stats.append(dict.fromkeys(stat_keys, 0))
    game.joined.append((newcomer.table, newcomer.fields))
    owner = game.enc.players[c.player].name
    when = "this turn" if c.player == game.player else f"{owner}'s next turn"
    lines = [f"{c.name} joins {owner}'s characters ({game.enc.teams[c.team]}): it acts from {when}"]
    if newcomers.on_the_board(len(chars)):
        roster.add_slot(game.state, c.label, c.team, c.player, 3, c.hp)
    else:
        lines.append(newcomers.off_the_board(c.name))
    return lines


def remove(
    game: Any,
    cmd: Command,
    out_of_the_fight: Callable[[Any, int], list[str]],
    turn_passes: Callable[[Any], list[str]],
) -> list[str]:
    """`out_of_the_fight`: the engine's, for a character out as an incapacitated one is;
    `turn_passes`: the engine's, for the turn of a player who has no character left."""
    name, why = newcomers.read_leaver(cmd, lambda w: game.ch(game.char(w)).name, game.gone)
    i = game.char(name)
    if game.active == i:
        raise IllegalAction(f"remove: {name} is being activated: `done {name}` first")
    game.gone[name] = why
    left = f"{name} leaves the fight ({why}); its statistics stay in the scores"
    lines = [left, *out_of_the_fight(game, i)]
    if game.winner is None and not game.player_standing(game.player):
        lines += turn_passes(game)  # its player's own turn: nobody is left to end it
    return lines
