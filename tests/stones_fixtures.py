"""Small stones encounters for the tests, written so each rule can be seen alone: a deck of
one kind of card where the hand must be known, low HP where someone must fall."""

from __future__ import annotations

from string import Template

from table_dice import TableSession

from host.core import encounter_files
from host.core.journal import Journal
from host.core.session import Session

ONE_KIND = 'elements = ["fire"]\nvalues = [2]\ncopies = 40\ninfinite = 0'
MIXED = 'elements = ["fire", "water"]\nvalues = [1, 2, 3, 4]\ncopies = 3\ninfinite = 1'
TWO_PLAYERS = """
[[player]]
name = "Ann"
team = "Dawn"

[[player]]
name = "Bo"
team = "Dusk"
"""
CHARACTERS = """
[[character]]
name = "Kaelen"
label = "Kae"
player = "Ann"
class = "warrior"
hp = $kae_hp
atk = 6
armor = 2
spirit_armor = 1
crt = 20
move = 4
range = 1

[[character.abilities]]
name = "Flame Slash"
card = "offensive"
element = "fire"
cost = 3
text = "[Standard Attack], [On 1-50] adds [Burn]"

[[character.abilities]]
name = "Ember Ward"
card = "defensive"
element = "fire"
cost = 2
text = "[Fuse] [Armor +2]"

[[character.abilities]]
name = "Hearth"
card = "defensive"
element = "fire"
cost = 1
text = "[Fuse] [Hand +2]"

[[character]]
name = "Mira"
label = "Mir"
player = "Ann"
class = "cleric"
hp = $mir_hp
atk = 4
armor = 1
spirit_armor = 3
crt = 10
move = 3
range = 3

[[character.abilities]]
name = "Mending Light"
card = "defensive"
element = "fire"
cost = 2
text = "[Heal 5]"

[[character]]
name = "Orrin"
label = "Orr"
player = "Bo"
class = "mage"
hp = $orr_hp
atk = 7
armor = 1
spirit_armor = 3
crt = 15
move = 3
range = 4

[[character.abilities]]
name = "Ember Lance"
card = "offensive"
element = "fire"
cost = 3
text = "[Damage 7], [On 1-20] adds [Stun]"
"""
TEXT = Template(
    'ruleset = "stones"\nname = "Test Ford"\nteams = ["Dawn", "Dusk"]\n$options\n'
    "[deck]\n$deck\n$players\n" + CHARACTERS + "$more\n"
)


def encounter_text(
    deck: str = ONE_KIND,
    options: str = "",
    players: str = TWO_PLAYERS,
    more: str = "",
    kae_hp: int = 20,
    mir_hp: int = 12,
    orr_hp: int = 18,
) -> str:
    return TEXT.substitute(
        deck=deck,
        options=options,
        players=players,
        more=more,
        kae_hp=kae_hp,
        mir_hp=mir_hp,
        orr_hp=orr_hp,
    )


def session(seed: int = 1, journal: Journal | None = None, **kw: object) -> Session:
    text = encounter_text(**kw)  # type: ignore[arg-type]
    return TableSession(encounter_files.parse(text, "test_ford.toml"), seed, journal)


def play(s: Session, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += s.execute(line)
    return out
