"""What the host relies on in a ruleset (host/core/interface.py), checked on every one that
is registered and on the test rulesets: its example encounter, its game (interface.Game:
log, timeline, teams), the board's view of it and its descriptor, its fighters' names by
slot, the projection the session keeps in step, its records in the journal, its scores
and snapshot as JSON, its verbs' usage and help, and its demo played through a Session.
A ruleset that breaks one of these fails here, by name, before any other test trips on it.
"""

from __future__ import annotations

import dataclasses
import json
from collections import deque
from collections.abc import Iterator
from typing import Any

import pytest
from tiny_ruleset import TINY
from tiny_units import TINY_STEPS, TINY_TEAMS

from host.core import registry
from host.core.interface import GAME_LOG_LINES, Game, IllegalAction, Ruleset
from host.core.session import Session
from host.core.timeline import Timeline
from shared import codec
from shared.descriptor_pack import encoded, explain, state_problem
from shared.state import GameState

TEST_RULESETS = (TINY, TINY_TEAMS, TINY_STEPS)
EVERY = [*registry.ids(), *(r.id for r in TEST_RULESETS)]
DEMO_TURNS = 6  # turns of the demo's plan played through a session


@pytest.fixture(autouse=True)
def test_rulesets() -> Iterator[None]:
    for ruleset in TEST_RULESETS:
        registry.register(ruleset)
    yield
    for ruleset in TEST_RULESETS:
        registry.unregister(ruleset.id)


def example(ruleset: Ruleset) -> Any:
    path = ruleset.example_path()
    return ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path))


def session(ruleset_id: str, seed: int = 5) -> Session:
    return Session(example(registry.get(ruleset_id)), seed)


def demo(s: Session, turns: int = DEMO_TURNS) -> list[str]:
    """The demo's lines for `turns` turns (its start command first), each executed, until
    the game is over."""
    played = [s.ruleset.start_command] if s.ruleset.start_command else []
    for line in played:
        s.execute(line)
    for _ in range(turns):
        for line in s.ruleset.plan_turn(s.game):
            if s.over:
                return played
            s.execute(line)
            played.append(line)
    return played


def board_view(ruleset: Ruleset, game: Any) -> bytes:
    return bytes(codec.encode(ruleset.state(game)))


@pytest.mark.parametrize("ruleset_id", EVERY)
def test_its_example_encounter_parses_and_names_it(ruleset_id: str) -> None:
    ruleset = registry.get(ruleset_id)
    enc = example(ruleset)
    assert enc.ruleset == ruleset_id
    assert len(enc.teams) >= 2 and all(enc.teams)
    assert enc.source == ruleset.example_path().read_text(encoding="utf-8")


@pytest.mark.parametrize("ruleset_id", EVERY)
def test_a_new_game_has_the_log_the_timeline_and_the_teams_the_host_reads(
    ruleset_id: str,
) -> None:
    ruleset = registry.get(ruleset_id)
    enc = example(ruleset)
    game = ruleset.new_game(enc, 1)
    assert isinstance(game, Game)
    assert isinstance(game.log, deque) and game.log.maxlen == GAME_LOG_LINES
    assert isinstance(game.timeline, Timeline)
    assert tuple(game.teams) == tuple(enc.teams)
    ruleset.note(game, "a line the host says")
    assert game.log[-1] == "a line the host says"


@pytest.mark.parametrize("ruleset_id", EVERY)
def test_the_board_s_view_is_a_state_that_fits_the_descriptor_it_packs(ruleset_id: str) -> None:
    s = session(ruleset_id)
    state = s.ruleset.state(s.game)
    assert isinstance(state, GameState)
    assert explain(encoded(state.rules)) == ""
    assert state_problem(state.rules, state) == ""
    again = GameState()
    codec.decode(codec.encode(state), again)
    assert bytes(codec.encode(again)) == board_view(s.ruleset, s.game)


@pytest.mark.parametrize("ruleset_id", EVERY)
def test_the_fighters_names_are_one_a_slot_each_on_its_slot_s_team(ruleset_id: str) -> None:
    s = session(ruleset_id)
    demo(s, 2)
    ruleset, game = s.ruleset, s.game
    state = ruleset.state(game)
    names = ruleset.fighter_names(game)
    assert len(names) == state.count and all(names)
    team_of = ruleset.summary(game)["team_of"]
    for i, name in enumerate(names):
        assert team_of[name] == game.teams[state.slots[i].team], (i, name)
    shown = [(f.name, f.label) for f in ruleset.fighters(game)]
    in_order = [state.order[p] for p in range(state.count)]
    assert shown == [(names[i], state.slots[i].label) for i in in_order]


@pytest.mark.parametrize("ruleset_id", EVERY)
def test_the_projection_after_each_action_is_the_one_a_fresh_replay_gives(
    ruleset_id: str,
) -> None:
    s = session(ruleset_id)
    ruleset = s.ruleset
    fresh = ruleset.new_game(s.encounter, s.seed)
    ruleset.project(fresh)
    assert board_view(ruleset, fresh) == board_view(ruleset, s.game)
    demo(s)
    for entry in s.done:
        ruleset.replay(fresh, s._parse(entry.text), entry.rolls)
        ruleset.project(fresh)
    assert s.done, "the demo played nothing"
    assert board_view(ruleset, fresh) == board_view(ruleset, s.game)


@pytest.mark.parametrize("ruleset_id", EVERY)
def test_every_record_goes_through_the_journal_and_back_unchanged(ruleset_id: str) -> None:
    s = session(ruleset_id)
    demo(s)
    assert s.done
    for entry in s.done:
        stored = json.loads(json.dumps(s.ruleset.record_json(entry.rolls)))
        assert s.ruleset.record_from_json(stored) == entry.rolls, entry.text


@pytest.mark.parametrize("ruleset_id", EVERY)
def test_the_summary_the_score_table_and_the_snapshot_are_json(ruleset_id: str) -> None:
    s = session(ruleset_id)
    demo(s)
    ruleset, game = s.ruleset, s.game
    summary = ruleset.summary(game)
    assert set(summary) == {"players", "teams", "team_of"}
    assert set(summary["teams"]) == set(game.teams)
    table = ruleset.score_table(game)
    assert table.rows and all(len(row) == len(table.headers) for row in table.rows)
    for data in (summary, dataclasses.asdict(table), ruleset.snapshot(game)):
        json.dumps(data)  # raises TypeError for anything that is not JSON


@pytest.mark.parametrize("ruleset_id", EVERY)
def test_every_verb_has_its_usage_and_its_help(ruleset_id: str) -> None:
    language = registry.get(ruleset_id).language
    assert language.verbs
    for verb, (_, help_text) in language.verbs.items():
        assert language.usage(verb).split()[0] == verb
        assert help_text.strip(), f"{verb} has no help"


@pytest.mark.parametrize("ruleset_id", EVERY)
def test_the_demo_s_lines_parse_and_play_through_a_session(ruleset_id: str) -> None:
    s = session(ruleset_id)
    try:
        played = demo(s)
    except IllegalAction as refused:
        pytest.fail(f"the demo's own line was refused: {refused}")
    assert played
    for line in played:
        assert s.ruleset.language.parse(line) is not None, line
    assert [e.text for e in s.done] == played  # each line an action, applied and kept
