"""What a long game keeps in memory: its chart's timeline compact (host/core/timeline.py: the
points come back as they went in, copies share what cannot change, a checkpoint stores
it), and only the latest lines of its own log (host.core.interface.game_log)."""

import copy
import json

import pytest

from host.core import interface, plain_data, registry
from host.core.session import Session
from host.core.timeline import CHUNK, Timeline


def point(turn: int) -> dict:
    return {"turn": turn, "hp": {"Vex": 30 - turn, "Orn": 2**40 + turn}, "score": {"Dawn": -turn}}


def test_the_points_come_back_equal_and_in_order() -> None:
    timeline = Timeline()
    points = [point(turn) for turn in range(CHUNK)]  # several sealed chunks and a tail
    for p in points:
        timeline.append(p)
    assert len(timeline) == len(points) and timeline.sealed
    assert timeline.points() == points


def test_a_point_of_another_shape_is_kept_as_it_is_in_its_place() -> None:
    timeline = Timeline()
    odd = [{"turn": 1, "hp": {"Vex": 3}}, {"turn": True, "hp": {}}, {"turn": 1.5}]
    points = [point(0), odd[0], point(1), odd[1], odd[2], point(2)]
    for p in points:
        timeline.append(p)
    assert timeline.points() == points
    assert [type(p["turn"]) for p in timeline.points()] == [int, int, int, bool, float, int]


def test_a_copy_shares_the_sealed_chunks_and_grows_on_its_own() -> None:
    timeline = Timeline()
    for turn in range(CHUNK // 8):
        timeline.append(point(turn))
    clone = copy.copy(timeline)
    assert all(a is b for a, b in zip(clone.sealed, timeline.sealed, strict=True))
    clone.append(point(-1))
    assert len(clone) == len(timeline) + 1
    assert clone.points()[:-1] == timeline.points()
    assert timeline.points()[-1] != point(-1)


def test_a_checkpoint_stores_and_gives_back_the_timeline() -> None:
    timeline = Timeline()
    for p in [point(0), {"turn": None}, point(1)]:
        timeline.append(p)
    stored = json.loads(json.dumps(plain_data.encode(timeline)))
    back = plain_data.decode(stored)
    assert isinstance(back, Timeline) and back.points() == timeline.points()


def test_every_game_keeps_only_the_latest_lines_of_its_log_and_its_whole_timeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(interface, "GAME_LOG_LINES", 8)  # the demos are short
    for ruleset_id in registry.ids():
        ruleset = registry.get(ruleset_id)
        path = ruleset.example_path()
        session = Session(ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path)))
        said = session.execute(ruleset.start_command)
        for _ in range(200):  # turns, as the demo plays them
            for command in ruleset.plan_turn(session.game):
                said += session.execute(command)
                if session.over:
                    break
            if session.over:
                break
        log = list(session.game.log)
        assert len(said) > 8 and len(log) == 8 and log[-1] in said, ruleset_id
        assert len(ruleset.timeline(session.game)) == len(session.game.timeline) > 0
