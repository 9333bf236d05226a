"""Helpers for pf2's tests: small encounters written from stat lines, and a game played
through the Ruleset interface (host/core/interface.py) with the faces of every roll given
in order, as the table would give them (`Ruleset.supply_rolls`, the kit's order), so each
test says exactly which dice fell; the host's effect book ticks after each action, as the
session has it (host/core/effects.py).

The creatures (labels in brackets):
- Valka [VAL], a character: 20 HP, AC 18, Perception +5, Fort +7 Ref +5 Will +4, 1 Hero
  Point; Sword +7 (1d8+4 slashing), Dagger +7 (1d4+2 piercing, agile).
- Pell [PEL], a character: 16 HP, AC 16, Perception +3, level 2.
- Orc [ORC], a monster: 20 HP, AC 16, Perception +2, Fort +6 Ref +4 Will +2, resists fire
  5, weak to cold 3, immune to poison; Axe +8 (1d12+4 slashing).
- Goblin 1 and Goblin 2 [GB1, GB2], one group: 8 HP, AC 15, Perception +2; Blade +6 (1d6
  slashing, agile).
- Boss [BOS], a named monster: 30 HP, AC 18, Perception +6; Pick +9 (1d6+4 piercing).
"""

from __future__ import annotations

from typing import Any

from host.core import effects
from host.core.interface import IllegalAction
from host.rulesets.pf2.language import LANGUAGE
from host.rulesets.pf2.ruleset import RULESET

VAL = """
[[creature]]
name = "Valka"
label = "VAL"
team = "Party"
hp = 20
ac = 18
perception = 5
fort = 7
ref = 5
will = 4
  [[creature.strike]]
  name = "Sword"
  bonus = 7
  damage = "1d8+4"
  type = "slashing"
  [[creature.strike]]
  name = "Dagger"
  bonus = 7
  damage = "1d4+2"
  type = "piercing"
  agile = true
"""
PEL = """
[[creature]]
name = "Pell"
label = "PEL"
team = "Party"
level = 2
hp = 16
ac = 16
perception = 3
  [[creature.strike]]
  name = "Rapier"
  bonus = 6
  damage = "1d6+1"
  type = "piercing"
"""
ORC = """
[[creature]]
name = "Orc"
label = "ORC"
team = "Foes"
hp = 20
ac = 16
perception = 2
fort = 6
ref = 4
will = 2
resist = { fire = 5 }
weak = { cold = 3 }
immune = ["poison"]
  [[creature.strike]]
  name = "Axe"
  bonus = 8
  damage = "1d12+4"
  type = "slashing"
"""
GOBLINS = """
[[creature]]
name = "Goblin"
label = "GB"
team = "Foes"
count = 2
hp = 8
ac = 15
perception = 2
  [[creature.strike]]
  name = "Blade"
  bonus = 6
  damage = "1d6"
  type = "slashing"
  agile = true
"""
BOSS = """
[[creature]]
name = "Boss"
label = "BOS"
team = "Foes"
named = true
hp = 30
ac = 18
perception = 6
  [[creature.strike]]
  name = "Pick"
  bonus = 9
  damage = "1d6+4"
  type = "piercing"
"""


def encounter_text(*creatures: str, options: str = "") -> str:
    head = 'ruleset = "pf2"\nname = "Test"\nteams = ["Party", "Foes"]\n'
    if options:
        head += "[options]\n" + options + "\n"
    return head + "".join(creatures)


Roll = tuple[str, tuple[int, ...]]


class Table:
    """A pf2 game and the dice the table gives its actions."""

    def __init__(self, *creatures: str, options: str = "", seed: int = 1) -> None:
        text = encounter_text(*creatures, options=options)
        self.encounter = RULESET.parse_encounter(text, "test.toml")
        self.game: Any = RULESET.new_game(self.encounter, seed)
        RULESET.project(self.game)
        effects.book_of(RULESET, self.game)

    def play(self, line: str, *rolls: Roll) -> list[str]:
        """Apply `line` with exactly `rolls` (purpose, faces), each used in order."""
        cmd = LANGUAGE.parse(line)
        assert cmd is not None
        if effects.is_effect(RULESET, cmd):  # the book's own, as the session has it
            return [str(x) for x in effects.command(RULESET, self.game, cmd)]
        RULESET.supply_rolls(self.game, [(p, tuple(f), "entered") for p, f in rolls])
        try:
            lines = RULESET.apply(self.game, cmd).lines
        finally:
            RULESET.supply_rolls(self.game, None)
        assert self.game.dice.supplied_at == len(rolls), "a roll was given and not used"
        RULESET.project(self.game)
        return lines + [str(x) for x in effects.tick(RULESET, self.game)]

    def refused(self, line: str) -> str:
        """The one line the rules refuse `line` with; the game is unchanged."""
        cmd = LANGUAGE.parse(line)
        assert cmd is not None
        before = RULESET.snapshot(self.game)
        try:
            RULESET.check(self.game, cmd)
        except IllegalAction as err:
            assert RULESET.snapshot(self.game) == before
            assert "\n" not in str(err)
            return str(err)
        raise AssertionError(f"{line!r} was not refused")

    def start(self, *faces: int) -> list[str]:
        """`initiative` with one d20 face for each creature or group, in the file's order."""
        return self.play("initiative", *[("initiative", (f,)) for f in faces])

    def who(self, name: str) -> Any:
        return self.game.fighter(name)

    def turn(self) -> list[str]:
        e = self.game.entry()
        return [self.game.fighters[i].name for i in e.members]

    def to(self, name: str) -> None:
        """`next` until it is `name`'s turn (no rolls on the way)."""
        for _ in range(20):
            if name in self.turn():
                return
            self.play("next")
        raise AssertionError(f"{name}'s turn never came")

    def effects(self, name: str) -> list[str]:
        return [e.name for e in effects.in_play(self.game) if e.target == name]


def d20(face: int, purpose: str = "attack") -> Roll:
    return (purpose, (face,))


def dmg(*faces: int) -> Roll:
    return ("damage", faces)


def flat(face: int) -> Roll:
    return ("flat", (face,))
