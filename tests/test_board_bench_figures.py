"""The board's figures in `turnlight bench` (host/lab/bench_board.py): the smallest heap code.py
plays in, found by bisection even where the heap's fragmentation makes a size fail just
above one that passes; the LED write modelled per pixel and the frame rate each profile can
hold; the LED writes of an idle second; and the board's Python stack, from a fixed set of
scenarios that re-applies presses under a host snapshot."""

from __future__ import annotations

import functools

from host.board import pystack
from host.lab import bench_board, bench_stack
from host.lab.bench_board import smallest_heap_kb


def test_the_smallest_heap_is_found_to_one_kilobyte_by_bisection() -> None:
    tried: list[int] = []

    def plays(kb: int) -> bool:
        tried.append(kb)
        return kb >= 150

    assert smallest_heap_kb(plays) == 150
    assert len(tried) < 25  # bisection, not a walk


def test_a_size_that_fails_just_above_the_bisected_one_moves_the_figure_up() -> None:
    # Passes at 180 and 184, fails at 182 and 186..190, passes from 191 on.
    def plays(kb: int) -> bool:
        return kb in (180, 184) or kb >= 191

    assert smallest_heap_kb(plays) == 191


def test_each_profile_gets_its_led_write_and_the_frame_rate_it_can_hold() -> None:
    figures = bench_board.device_figures()
    pixels = {"trellis_m4": 32, "macropad": 12, "pico_matrix": 64}
    for board, count in pixels.items():
        led = figures[f"led_write_us_{board}"]
        assert led == count * bench_board.PIXEL_WRITE_US == count * 30
        step = figures[f"device_step_us_{board}"]
        assert figures[f"frame_hz_{board}"] == round(1_000_000 / (step + led))
    assert figures["led_write_us_trellis_m4"] == 960  # 0.96 ms for the Trellis's 32 pixels
    assert figures["device_step_us"] == figures["device_step_us_trellis_m4"]
    assert 0 < figures["idle_led_changes_per_s"] <= figures["idle_led_writes_per_s"]


@functools.cache
def _frames() -> dict[pystack.Key, pystack.RawCode]:
    return pystack.frames(pystack.board_sources())


def _undo_under_snapshot() -> pystack.Deepest:
    """A roll and an UNDO, unacknowledged when the host's snapshot arrives on the Trellis in
    korxsol's example game a turn on: the board re-applies both, the UNDO restoring the undo
    the roll saved."""
    deepest = pystack.Deepest(_frames())
    state = bench_stack.ruleset_states()["korxsol"]
    bench_stack._Table("trellis_m4", state, deepest).under_snapshot("undo", bench_stack.TAP, 1)
    return deepest


def test_the_stack_scenarios_measure_the_same_on_every_run() -> None:
    # Issue #36: the bench read 1,048 and 952 on two runs, as the game it played over a pty
    # fell out. Its scenarios now run on a fake clock in one thread.
    first = _undo_under_snapshot()
    again = _undo_under_snapshot()
    assert (again.most, again.path) == (first.most, first.path)


def test_an_undo_re_applied_under_a_snapshot_nests_under_no_on_sequenced() -> None:
    # Re-applied under _on_sequenced's frame, that UNDO's decode needed 1,096 bytes (#36).
    names = [where.rsplit(":", 1)[1] for where in _undo_under_snapshot().path]
    assert names[:5] == ["App.step", "App.service_link", "BoardSession.poll", "Endpoint._pump",
                         "BoardSession._handle"]  # fmt: skip
    assert "BoardSession.restore" in names and "decode" in names
    assert "BoardSession._on_sequenced" not in names
