"""Undo, redo and refused commands replay from the session's nearest checkpoint
(host/core/memory_checkpoints.py), not from the start (issue #17): for every ruleset there is, at
random points of random games, the game they leave is exactly the game a full replay of
the same actions gives."""

from __future__ import annotations

import random

import pytest
from demo_games import play, replayed, seen
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host.core import memory_checkpoints, registry
from host.core.interface import IllegalAction
from host.core.session import Session


@pytest.fixture(autouse=True)
def small_checkpoints(monkeypatch):
    # Close together, so short games cross many of them and the thinning too.
    monkeypatch.setattr(memory_checkpoints, "EVERY", 3)
    monkeypatch.setattr(memory_checkpoints, "RECENT", 2)
    monkeypatch.setattr(memory_checkpoints, "FAR", 12)


def fresh(ruleset_id: str, seed: int) -> Session:
    ruleset = registry.get(ruleset_id)
    path = ruleset.example_path()
    return Session(ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path)), seed)


def full_replay(session: Session) -> str:
    """The game replayed from its start, as a session without checkpoints would."""
    return replayed(session, session.done)


@pytest.mark.parametrize("ruleset_id", registry.ids())
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_undo_redo_and_refusals_from_a_checkpoint_give_the_full_replays_game(
    ruleset_id: str, data
) -> None:
    seed = data.draw(st.integers(1, 50))
    rng = random.Random(seed)
    s = fresh(ruleset_id, seed)
    play(s, rng, data.draw(st.integers(8, 40)))
    assert len(s._checkpoints) > 0 or len(s.done) < memory_checkpoints.EVERY
    assert seen(s) == full_replay(s)
    back = data.draw(st.integers(1, max(1, len(s.done))))
    if back <= len(s.done):
        s.undo(back)
        assert seen(s) == full_replay(s)
        again = data.draw(st.integers(0, back))
        if again:
            s.redo(again)
            assert seen(s) == full_replay(s)
    with pytest.raises(IllegalAction):
        s.execute("undo 99999")  # refused: nothing changes
    assert seen(s) == full_replay(s)
    play(s, rng, len(s.done) + data.draw(st.integers(1, 10)))  # new actions after an undo
    assert seen(s) == full_replay(s)
    if s.done:
        s.undo(1)
        assert seen(s) == full_replay(s)


def test_a_rebuild_replays_only_what_came_after_the_nearest_checkpoint() -> None:
    s = fresh("korxsol", 3)
    play(s, random.Random(3), 30)
    assert len(s.done) >= 2 * memory_checkpoints.EVERY
    replayed = []
    real = s.ruleset.replay

    def counting(game, cmd, record):
        replayed.append(cmd.text)
        return real(game, cmd, record)

    s.ruleset.replay = counting  # type: ignore[method-assign]
    try:
        s.undo(1)
    finally:
        del s.ruleset.replay
    assert 0 < len(replayed) < memory_checkpoints.EVERY + 1


def test_the_checkpoints_thin_out_behind_the_latest() -> None:
    kept = memory_checkpoints.Checkpoints()
    for n in range(
        memory_checkpoints.EVERY, 100 * memory_checkpoints.EVERY + 1, memory_checkpoints.EVERY
    ):
        if kept.due(n):
            kept.keep(n, {"n": n})
    positions = sorted(kept._games)
    far = [k for k in positions if k % memory_checkpoints.FAR == 0]
    near = [k for k in positions if k % memory_checkpoints.FAR]
    assert len(near) <= memory_checkpoints.RECENT
    assert len(far) == (100 * memory_checkpoints.EVERY) // memory_checkpoints.FAR
    found = kept.nearest(50)
    assert found is not None and found[0] <= 50 and found[1] == {"n": found[0]}
    assert found[1] is not kept._games[found[0]]  # a copy: replaying it leaves it as it was
