"""Helpers for d20's tests: small encounters written from stat lines, and a game played
through the Ruleset interface (host/core/interface.py) with the faces of every roll given
in order, as the table would give them (`Ruleset.supply_rolls`, the kit's order), so each
test says exactly which dice fell; the host's effect book ticks after each action, as the
session has it (host/core/effects.py).

The creatures (labels in brackets):
- Ana [ANA], a character: 20 HP, AC 15, initiative +3, CON save +2, Medicine +4; Sword
  +5 (1d8+3 slashing), Bow +5 (1d6+3 piercing, ranged); heals 1d4+2.
- Bo [BO], a character: 12 HP, AC 12, Dexterity +1; Axe +4 (1d6+2 slashing).
- Orc [ORC], a monster: 15 HP, AC 13, Dexterity +1, resists fire, vulnerable to cold;
  Greataxe +5 (1d12+3 slashing).
- Wolf 1 and Wolf 2 [WF1, WF2], one group: 11 HP, AC 13, Dexterity +2; Bite +4 (2d4+2).
- Drake [DRK], a monster with 3 legendary actions and a lair (DC 12 Dexterity, 1d6,
  prone): 40 HP, AC 15; Claw +6 (1d6+4), Tail +6 (1d8+4).
"""

from __future__ import annotations

from typing import Any

from host.core import effects
from host.core.interface import IllegalAction
from host.rulesets.d20.language import LANGUAGE
from host.rulesets.d20.ruleset import RULESET

ANA = """
[[creature]]
name = "Ana"
team = "Heroes"
hp = 20
ac = 15
dex = 3
saves = { con = 2, wis = 1 }
medicine = 4
healing = "1d4+2"
  [[creature.attack]]
  name = "Sword"
  bonus = 5
  damage = "1d8+3"
  type = "slashing"
  [[creature.attack]]
  name = "Bow"
  bonus = 5
  damage = "1d6+3"
  type = "piercing"
  ranged = true
"""
BO = """
[[creature]]
name = "Bo"
team = "Heroes"
hp = 12
ac = 12
dex = 1
  [[creature.attack]]
  name = "Axe"
  bonus = 4
  damage = "1d6+2"
  type = "slashing"
"""
ORC = """
[[creature]]
name = "Orc"
team = "Foes"
hp = 15
ac = 13
dex = 1
resist = ["fire"]
vulnerable = ["cold"]
  [[creature.attack]]
  name = "Greataxe"
  bonus = 5
  damage = "1d12+3"
  type = "slashing"
"""
WOLVES = """
[[creature]]
name = "Wolf"
label = "WF"
team = "Foes"
count = 2
hp = 11
ac = 13
dex = 2
  [[creature.attack]]
  name = "Bite"
  bonus = 4
  damage = "2d4+2"
  type = "piercing"
"""
DRAKE = """
[[creature]]
name = "Drake"
label = "DRK"
team = "Foes"
hp = 40
ac = 15
legendary = 3
lair = { text = "a quake", save = "dex", dc = 12, damage = "1d6", condition = "prone" }
  [[creature.attack]]
  name = "Claw"
  bonus = 6
  damage = "1d6+4"
  type = "slashing"
  [[creature.attack]]
  name = "Tail"
  bonus = 6
  damage = "1d8+4"
  type = "bludgeoning"
"""


def encounter_text(*creatures: str, options: str = "") -> str:
    head = 'ruleset = "d20"\nname = "Test"\nteams = ["Heroes", "Foes"]\n'
    if options:
        head += "[options]\n" + options + "\n"
    return head + "".join(creatures)


Roll = tuple[str, tuple[int, ...]]


class Table:
    """A d20 game and the dice the table gives its actions."""

    def __init__(self, *creatures: str, options: str = "", seed: int = 1) -> None:
        text = encounter_text(*creatures, options=options)
        self.encounter = RULESET.parse_encounter(text, "test.toml")
        self.game: Any = RULESET.new_game(self.encounter, seed)
        RULESET.project(self.game)
        effects.book_of(RULESET, self.game)  # the host's effect book, as a session keeps it

    def play(self, line: str, *rolls: Roll) -> list[str]:
        """Apply `line` with exactly `rolls` (purpose, faces), each used in order."""
        cmd = LANGUAGE.parse(line)
        assert cmd is not None
        RULESET.supply_rolls(self.game, [(p, tuple(f), "entered") for p, f in rolls])
        try:
            lines = RULESET.apply(self.game, cmd).lines
        finally:
            RULESET.supply_rolls(self.game, None)
        assert self.game.dice.supplied_at == len(rolls), "a roll was given and not used"
        RULESET.project(self.game)
        # The host's effect book ticks after each action, as the session has it do.
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
        """The names whose turn it is ("lair" on a lair's count)."""
        e = self.game.entry()
        return ["lair"] if e.lair_of >= 0 else [self.game.fighters[i].name for i in e.members]

    def conditions(self, name: str) -> list[str]:
        from host.rulesets.d20 import conditions

        return conditions.on(self.game, self.who(name).index)


def d20(face: int, purpose: str = "attack") -> Roll:
    return (purpose, (face,))


def dmg(*faces: int) -> Roll:
    return ("damage", faces)


def save(face: int) -> Roll:
    return ("save", (face,))
