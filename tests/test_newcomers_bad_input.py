"""What `add` and `remove` refuse: one line each, saying what is wrong (and, for a name
not known, the known ones), the game unchanged (docs/commands.md, "Fighters who join and
leave"; the house rule on bad input)."""

from __future__ import annotations

from typing import Any

import pytest
from newcomer_games import JOINING, SCENES, named, seen, session

from host.core.interface import IllegalAction
from host.core.newcomers import MOST_FIGHTERS
from host.core.session import Session


def refused(s: Session, line: str) -> str:
    before = (seen(s), len(s.done))
    with pytest.raises(IllegalAction) as err:
        s.execute(line)
    assert (seen(s), len(s.done)) == before
    message = str(err.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_newcomer_named_as_a_fighter_of_the_fight_is_refused(ruleset_id: str) -> None:
    s = session(ruleset_id)
    taken = s.ruleset.fighter_names(s.game)[0]
    line = SCENES[ruleset_id].stat_line.replace(named(SCENES[ruleset_id].stat_line), taken, 1)
    assert "already a fighter's name" in refused(s, line)


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_name_clashes_with_one_who_has_left(ruleset_id: str) -> None:
    s = session(ruleset_id)
    leaver = SCENES[ruleset_id].leaver
    s.execute(f"remove {leaver}")
    assert "already a fighter's name" in refused(
        s, f"add {SCENES[ruleset_id].template} as {leaver}"
    )


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_template_the_encounter_lacks_is_refused_naming_the_known_ones(ruleset_id: str) -> None:
    s = session(ruleset_id)
    message = refused(s, "add Gargoyle as Gar")
    assert "no template 'Gargoyle'" in message and SCENES[ruleset_id].template in message


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_word_neither_template_nor_stat_line_is_refused(ruleset_id: str) -> None:
    s = session(ruleset_id)
    message = refused(s, "add Gargoyle")
    assert SCENES[ruleset_id].template in message and f"{SCENES[ruleset_id].teams_key}=" in message


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_an_unknown_stat_key_is_refused_naming_the_known_ones(ruleset_id: str) -> None:
    s = session(ruleset_id)
    message = refused(s, SCENES[ruleset_id].stat_line + " wings=2")
    assert "unknown option 'wings'" in message and f"{SCENES[ruleset_id].teams_key}=" in message


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_team_that_does_not_exist_is_refused_naming_the_teams(ruleset_id: str) -> None:
    s = session(ruleset_id)
    key = SCENES[ruleset_id].teams_key
    words = [
        f"{key}=Nowhere" if w.startswith(f"{key}=") else w
        for w in SCENES[ruleset_id].stat_line.split(" ")
    ]
    message = refused(s, " ".join(words))
    assert "'Nowhere'" in message
    known = [p.name for p in s.game.enc.players] if ruleset_id == "stones" else s.game.teams
    assert all(t in message for t in known)


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_value_the_file_would_refuse_is_refused_in_the_files_words(ruleset_id: str) -> None:
    s = session(ruleset_id)
    key = {"korxsol": "kor", "stones": "hp", "forms": "health", "advance": "stamina"}[ruleset_id]
    message = refused(s, SCENES[ruleset_id].stat_line + f" {key}=lots")
    assert message.startswith("add: ") and key in message


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_removing_someone_unknown_is_refused_naming_the_fighters(ruleset_id: str) -> None:
    s = session(ruleset_id)
    message = refused(s, "remove Nobody")
    assert s.ruleset.fighter_names(s.game)[0] in message


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_a_fight_holds_at_most_so_many_fighters(ruleset_id: str) -> None:
    # Past the board's slots a newcomer plays on the screens only, up to MOST_FIGHTERS
    # (korxsol too: its engine keeps a slot for each on its own table).
    s = session(ruleset_id)
    template = SCENES[ruleset_id].template
    n = 0
    while len(s.ruleset.fighter_names(s.game)) < MOST_FIGHTERS:
        s.execute(f"add {template} as Q{n}")
        n += 1
    message = refused(s, f"add {template} as Q{n}")
    assert f"a fight holds at most {MOST_FIGHTERS} fighters" in message


def test_a_game_without_add_or_remove_says_it_takes_no_newcomers_in_one_line() -> None:
    """issue #29 item 1: "where a ruleset cannot take a newcomer, one line says why". A
    game whose language has no `add` or `remove` (tug, a test's ruleset) says that, not
    that the command is unknown, the game unchanged."""
    from tug_ruleset import RULESET as tug

    from host.core import registry

    registry.register(tug)
    try:
        _no_newcomers(tug)
    finally:
        registry.unregister(tug.id)


def _no_newcomers(tug: Any) -> None:
    path = tug.example_path()
    s = Session(tug.parse_encounter(path.read_text(encoding="utf-8"), str(path)), 1, None)
    assert not s.ruleset.language.knows("add")
    added = refused(s, "add Bob team=Red")
    assert "no newcomers" in added and "unknown command" not in added
    removed = refused(s, "remove Ann")
    assert "leaves mid-fight" in removed and "unknown command" not in removed
    assert "unknown command 'summon'" in refused(s, "summon Ann")  # the rest stay unknown
