"""Flare encounters for the tests: a 5x5 grid, a deck dealt in its file's order (no
shuffle) so Ann's hand is known, and a starting grid given per test. Ann starts; unless a
test says otherwise her first turn has two actions, like every other."""

from __future__ import annotations

from host.core import encounter_files
from host.core.journal import Journal
from host.core.session import Session

# Ann draws every creature card (creature_hand 9), one legendary and one Flare; Bo draws
# the second legendary and the second Flare and no creature.
DECK = """
[[creature]]
id = "stepper"
rank = "common"
pattern = ["o*"]
effects = ["move"]

[[creature]]
id = "charger"
rank = "common"
pattern = ["o*"]
effects = ["combat_move"]

[[creature]]
id = "leaper"
rank = "heroic"
pattern = ["o*"]
effects = ["jump", "combat_jump"]

[[creature]]
id = "lifter"
rank = "common"
pattern = ["o*"]
effects = ["upgrade", "extra_action", "extra_draw"]

[[creature]]
id = "sinker"
rank = "heroic"
pattern = ["o*"]
effects = ["downgrade", "destroy:heroic", "convert"]

[[creature]]
id = "bent"
rank = "heroic"
pattern = ["cc", ".*"]

[[creature]]
id = "plain"
rank = "common"
pattern = ["o*"]

[[legendary]]
id = "wyrm"
pattern = ["u*"]
copies = 2

[[flare]]
id = "flash"
top = 1
top_effects = ["extra_action"]
bottom = 2
bottom_effects = ["destroy"]
copies = 2
"""


def text(
    start: tuple[str, ...] = (),
    deck_text: str = "",
    players: tuple[str, ...] = ("Ann", "Bo"),
    **keys: object,
) -> str:
    settings: dict[str, object] = {
        "name": "Test duel",
        "columns": 5,
        "rows": 5,
        "tokens": 8,
        "legendary_tokens": 2,
        "first_turn_actions": 2,
        "creature_hand": 9,
        "legendary_hand": 1,
        "flare_hand": 1,
        "shuffle": False,
        "target": 30,
        "rounds": 20,
    }
    settings.update(keys)
    lines = ['ruleset = "flare"']
    for key, value in settings.items():
        if isinstance(value, bool):
            lines.append(f"{key} = {'true' if value else 'false'}")
        elif isinstance(value, str):
            lines.append(f'{key} = "{value}"')
        else:
            lines.append(f"{key} = {value}")
    if start:
        lines.append("start = [" + ", ".join(f'"{row}"' for row in start) + "]")
    for name in players:
        lines += ["", "[[player]]", f'name = "{name}"']
    if "deck" not in keys:
        lines.append(deck_text or DECK)
    return "\n".join(lines) + "\n"


def duel(
    start: tuple[str, ...] = (),
    seed: int = 1,
    journal: Journal | None = None,
    deck_text: str = "",
    players: tuple[str, ...] = ("Ann", "Bo"),
    **keys: object,
) -> Session:
    source = text(start, deck_text, players, **keys)
    return Session(encounter_files.parse(source, "test.toml"), seed, journal)


def cell(session: Session, square: str) -> str:
    """What a square holds: '.' or the player's number and c, h or l."""
    col, row = "abcdefghi".index(square[0]), int(square[1:]) - 1
    token = session.game.at(row, col)
    return "." if token is None else f"{token.owner + 1}{'chl'[token.rank]}"


TEAMS = ("Ann", "Bo", "Cy", "Di")


def teams(start: tuple[str, ...] = (), **keys: object) -> Session:
    """Ann and Cy (Sun) against Bo and Di (Moon), Ann first; Ann holds the first wyrm."""
    source = text(start, players=TEAMS, mode="team", **keys)
    for name, team in zip(TEAMS, ("Sun", "Moon", "Sun", "Moon"), strict=True):
        source = source.replace(f'name = "{name}"\n', f'name = "{name}"\nteam = "{team}"\n', 1)
    return Session(encounter_files.parse(source, "teams.toml"), 1, None)
