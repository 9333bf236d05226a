"""A pf2 campaign (docs/rulesets/pf2.md, "Between fights"): fights played through sessions
on one journal, each starting as the one before left the party (hit points, wounded,
doomed, dying), and the night's rest between them. Rules: pf2-combat.txt [13], [16], [17]."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from host.core.campaign import Book, CampaignError
from host.core.journal import Journal
from host.core.session import Session

PARTY = """\
ruleset = "pf2"

[[creature]]
name = "Valka"
label = "VAL"
hp = 20
ac = 18
  [[creature.strike]]
  name = "Sword"
  bonus = 7
  damage = "1d8+4"

[[creature]]
name = "Pell"
label = "PEL"
level = 2
hp = 16
ac = 16
"""

FOES = """\
ruleset = "pf2"
name = "An orc"
teams = ["Party", "Foes"]

[[creature]]
name = "Orc"
label = "ORC"
team = "Foes"
hp = 20
ac = 16
"""


@pytest.fixture
def book(tmp_path: Path) -> Book:
    (tmp_path / "orc.toml").write_text(FOES)
    made = Book(Journal(tmp_path / "j.sqlite"))
    made.new("Bridge", "pf2", "party.toml", PARTY)
    return made


def fight(book: Book, lines: list[str], path: Path) -> Any:
    """The campaign's next fight against the orc, `lines` played; its session."""
    _, encounter = book.start_fight("Bridge", path)
    with book.journal.transaction():
        session = Session(encounter, 7, book.journal)
        book.append("Bridge", "fight", {"game": session.game_id, "encounter": "orc"})
    for line in lines:
        session.execute(line)
    return session


def party(game: Any) -> dict[str, tuple[int, int, int, int, bool]]:
    """Each character: (HP, wounded, doomed, dying, unconscious)."""
    return {
        f.name: (f.hp, f.wounded, f.values.get("doomed", 0), f.dying, "unconscious" in f.marks)
        for f in game.fighters
        if f.spec.team == 0
    }


def test_a_pf2_fight_starts_as_the_last_left_hp_wounded_doomed_and_dying(
    book: Book, tmp_path: Path
) -> None:
    """pf2-combat.txt [16]: wounded lasts past the encounter; [17] doomed too, until a
    night's rest lowers it by 1; HP as the fight left them; one left dying comes in dying."""
    orc = tmp_path / "orc.toml"
    first = fight(
        book,
        # Pell knocked out (dying 1), healed to 3: wounded 1 [16]; doomed 1 [17].
        ["initiative", "damage Valka 5", "condition Pell doomed 1", "damage Pell 16"]
        + ["heal Pell 3", "finish Party"],
        orc,
    )
    assert party(first.game) == {"Valka": (15, 0, 0, 0, False), "Pell": (3, 1, 1, 0, False)}
    second = fight(book, [], orc)
    assert party(second.game) == party(first.game)  # as the first left them
    for line in ("initiative", "damage Pell 3", "finish Party"):  # dying 1 + wounded 1
        second.execute(line)
    assert party(second.game)["Pell"] == (0, 1, 1, 2, True)
    with pytest.raises(CampaignError, match="Pell is dying"):
        book.rest("Bridge", "night", {})
    third = fight(book, [], orc)
    assert party(third.game)["Pell"] == (0, 1, 1, 2, True)  # dying at 0 HP, unconscious
    for line in ("initiative", "heal Pell 4", "finish Party"):  # [16] healed: wounded 2
        third.execute(line)
    assert party(third.game)["Pell"] == (4, 2, 1, 0, False)
    with pytest.raises(CampaignError, match="no long rest"):
        book.rest("Bridge", "long", {})
    said = book.rest("Bridge", "night", {"Pell": 20})
    assert "Pell: HP 4 -> 16, doomed 1 -> 0" in said
    fourth = fight(book, [], orc)
    assert party(fourth.game) == {"Valka": (15, 0, 0, 0, False), "Pell": (16, 2, 0, 0, False)}
