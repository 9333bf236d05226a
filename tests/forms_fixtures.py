"""A small forms encounter for the tests, and helpers that enter the dice each roll takes
(`dice FACE ...`: a D10 at 6 or more is a success)."""

from __future__ import annotations

import json

from table_dice import TableSession

from host.core import encounter_files
from host.core.session import Session
from host.rulesets.forms.encounter_schema import example_path
from shared import codec

HALL = """\
ruleset = "forms"
name = "Test Hall"
area = "Hall"
sides = ["Red", "Blue"]

[[form]]
name = "Mend"
step = 3
skip = [4, 5, 6]
heal = 2

[[form]]
name = "Flurry"
step = 4
extra = [5]

[[form]]
name = "Charm"
social = true
attribute = "Passion"
dice = 1

[[check]]
name = "trap"
attribute = "Genius"
difficulty = 1
springs = 3
dodge = 1

[[unit]]
name = "Ann"
side = "Red"
agility = 3
forms = ["Slow", "Fast", "Mend", "Flurry", "Charm"]

[[unit]]
name = "Bo"
side = "Red"
agility = 2

[[unit]]
name = "Cy"
side = "Blue"
agility = 2
forms = ["Slow", "Fast", "Lurk"]

[[unit]]
name = "Di"
side = "Blue"
agility = 1

[[form]]
name = "Lurk"
step = 3
movement = "last"
"""

HIT = "10 10 10"  # every die a success
MISS = "1 1 1"  # none


def hall(seed: int = 1, text: str = HALL) -> Session:
    return TableSession(encounter_files.parse(text, "hall.toml"), seed, None)


def vault(seed: int = 1) -> Session:
    return TableSession(encounter_files.load(example_path()), seed, None)


def run(s: Session, *lines: str) -> list[str]:
    """Run the lines; what they said, less the notes that entered dice wait."""
    out: list[str] = []
    for line in lines:
        out += [
            x for x in s.execute(line) if " roll waiting: " not in x and " roll held: " not in x
        ]
    return out


def seen(s: Session) -> tuple[str, bytes]:
    """Everything the rules and the board hold: a refused action must change neither."""
    snap = json.dumps(s.ruleset.snapshot(s.game), sort_keys=True)
    return snap, codec.encode(s.ruleset.state(s.game))


def fight(s: Session, agility: tuple[str, ...] = ("5", "3 7", "6 2", "4 4 4")) -> list[str]:
    """Combat begins and every unit becomes Aware at step 1; the Agility rolls of step 2 take
    `agility` in the movement order of the moment (Di, Bo, Cy, Ann in the hall)."""
    out = run(s, "fight")
    for _ in s.game.to_act():
        s.execute(f"dice {HIT}")
    for face in agility:
        s.execute(f"dice {face}")
    for name in [s.game.name(i) for i in s.game.to_act()]:
        out += s.execute(f"roll {name}")
    return out
