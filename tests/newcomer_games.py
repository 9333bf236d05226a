"""Each ruleset's bundled encounter with its fighters joining and leaving, for the
tests/test_newcomers_*.py tests: a session of it, a newcomer typed as a stat line and one
from a `[[template]]`, and someone who leaves. The lines use the keys of each game's own
encounter file (host/rulesets/<id>/encounters/)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from host.core import registry
from host.core.journal import Journal
from host.core.session import Session


@dataclass(frozen=True)
class Scene:
    ruleset: str
    stat_line: str  # `add ...` typed at the prompt: the newcomer's name is its first word
    template: str  # a [[template]] of the bundled encounter
    leaver: str  # a fighter of the file who may leave at the start
    teams_key: str  # the key naming the newcomer's team


SCENES = {
    "korxsol": Scene(
        "korxsol",
        'add Gorm team=Dusk kor=12 agility=3 power=2 moves="Rock Smash"',
        "Ashling",
        "Orrin",
        "team",
    ),
    "stones": Scene(
        "stones",
        "add Tamsin player=Bo class=warrior hp=15 atk=5 armor=1 spirit_armor=1 crt=10 move=3"
        " range=1",
        "Wisp",
        "Orrin",
        "player",
    ),
    "forms": Scene(
        "forms", "add Gorm side=Wardens health=6 agility=2 aware=true", "Drowned", "Shade", "side"
    ),
    "advance": Scene(
        "advance",
        "add Mirek team=Adventurers stamina=9 willpower=5 specialties=Sword,Courage",
        "Ghoul",
        "Grub",
        "team",
    ),
}
JOINING = sorted(SCENES)  # the rulesets that take newcomers (flare refuses them)


def session(ruleset_id: str, seed: int = 5, journal: Journal | None = None) -> Session:
    ruleset = registry.get(ruleset_id)
    path: Path = ruleset.example_path()
    encounter = ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path))
    return Session(encounter, seed, journal)


def seen(s: Session) -> str:
    """The whole game as it stands, and its scores."""
    ruleset = s.ruleset
    return json.dumps(
        [ruleset.snapshot(s.game), ruleset.summary(s.game), sorted(ruleset.gone(s.game))],
        sort_keys=True,
        default=str,
    )


def named(line: str) -> str:
    """The newcomer's name in an `add NAME ...` line."""
    return line.split()[1]
