"""Tug with plain dice, a ruleset written only for the tests: the board rolls any die with no
ruleset code in firmware/ or shared/ (issue #30 §1).

It is the tests' Tug (tests/tug_ruleset.py) with other dice: a `pull` wants a d20 with
advantage (two d20, the higher counts: 11 or more gains one ground, a natural 20 two), and a
`heave` wants 2d6 + 1d8 (three dice of two kinds: a total of 14 or more gains one ground).
Its descriptor gives the board's roll key one d20 and the NATURALS flag (a die's highest and
lowest faces are marked). Who pulls or heaves, and when, is Tug's.
"""

from __future__ import annotations

import random
from typing import Any

import tug_ruleset as tug

from host.core.commandline import Command, Language, Verb
from host.core.interface import IllegalAction, RollWanted, WantedRoll
from shared import dice
from shared.descriptor_pack import NATURALS, counter, pack
from shared.limits import MAX_COUNTER

ID = "tug20"
ADVANTAGE = (20, 20)  # a pull's dice
HEAVE = (6, 6, 8)  # a heave's dice
# A two-player rope, the encounter the tests play it on.
ROPE = """ruleset = "tug20"
name = "Rope"
teams = ["Red", "Blue"]
goal = 8
[[player]]
name = "Ann"
team = "Red"
[[player]]
name = "Bo"
team = "Blue"
"""
VERBS = {
    "pull": Verb("NAME", "NAME pulls: a d20 with advantage, 11 or more gains ground"),
    "heave": Verb("NAME", "NAME heaves: 2d6 + 1d8, 14 or more gains ground"),
    "end": Verb("", "pass the turn to the other team"),
}
SESSION_VERBS = {"dice": Verb("FACE ...", "the dice the waiting pull or heave wants")}
PURPOSES = {"pull": 1, "heave": 2}


class Tug20(tug.Tug):
    id = ID
    description = "a test game: tug with a d20 with advantage and 2d6 + 1d8"
    board_id = None  # given by the registry, as tug's is
    language = Language(VERBS, SESSION_VERBS, wanted=True)

    def new_game(self, encounter: tug.Rope, seed: int) -> tug.Game:
        game = super().new_game(encounter, seed)
        data = descriptor(self.board_id)
        game.state.rules.load(data, 0, len(data))
        game.state.ruleset = self.board_id
        return game

    def parse_encounter(self, text: str, filename: str) -> tug.Rope:
        rope = super().parse_encounter(text.replace(f'"{ID}"', f'"{tug.ID}"'), filename)
        return tug.Rope(rope.name, rope.teams, rope.players, rope.goal, text, filename, ID)

    def _act(self, game: tug.Game, cmd: Command, replayed: list[list] | None) -> list[str]:
        if cmd.verb == "end":
            return super()._act(game, cmd, replayed)
        won = game.winner()
        if won is not None:
            raise IllegalAction(f"the tug is over: {game.rope.teams[won]} won")
        who = game.player(cmd.arg(0, "a player"))
        name, team = game.rope.players[who]
        if team != game.team or who in game.pulled:
            raise IllegalAction(f"{name} may not {cmd.verb} now")
        sides = ADVANTAGE if cmd.verb == "pull" else HEAVE
        faces, source = _roll(game, who, cmd.verb, sides, replayed)
        game.used = [[list(faces), source]]
        dice.enter(game.state, dice.KIND_DN, faces, who, sides)
        if cmd.verb == "pull":
            gained = 2 if max(faces) == 20 else 1 if max(faces) >= 11 else 0
        else:
            gained = 1 if sum(faces) >= 14 else 0
        game.pulled.append(who)
        game.pulls[who] += 1
        game.ground[team] += gained
        game.actions += 1
        shown = " ".join(map(str, faces))
        lines = [f"{name} {cmd.verb}s {shown} ({source}): +{gained}"]
        if game.winner() is not None:
            lines.append(f"{game.rope.teams[team]} wins")
        game.log.extend(lines)
        tug._project(game)
        return lines

    def record_from_json(self, data: Any) -> list[list]:
        return [list(d) for d in data]


def _roll(
    game: tug.Game, who: int, purpose: str, sides: tuple[int, ...], replayed: list[list] | None
) -> tuple[tuple[int, ...], str]:
    """The action's dice: the record's when replaying, else the roll given to the waiting
    action (RollWanted when none is yet), else the engine's."""
    if replayed is not None:
        faces, source = replayed.pop(0)
        return tuple(faces), str(source)
    if game.supplied is not None:
        if not game.supplied:
            name = game.rope.players[who][0]
            wanted = WantedRoll(
                purpose, len(sides), dice.KIND_DN, who, name, PURPOSES[purpose], sides
            )
            raise RollWanted(wanted)
        _, faces, source = game.supplied[0]
        return tuple(faces), source
    rng = random.Random(game.seed * 100_003 + game.actions)
    return tuple(rng.randint(1, n) for n in sides), "engine"


def descriptor(board_id: int) -> bytes:
    """Tug's board description, with one d20 on the roll key and the naturals marked."""
    return pack(
        ID,
        board_id,
        Tug20.rules_version,
        health="ground",
        allowance="pull",
        counters=(counter("pulls", MAX_COUNTER, 7),),
        flags=NATURALS,
        dice_kind=dice.KIND_DN,
        sides=20,
        dice_count=1,
    )


RULESET = Tug20()
