"""The LED current limiter (issue 4, item 2): every frame is estimated and scaled under
the budget; frames already under it pass unchanged apart from brightness."""

from __future__ import annotations

from firmware.app import Limiter


def test_a_full_white_frame_is_scaled_under_the_budget() -> None:
    limiter = Limiter(32, budget_ma=400, ma_per_channel=20, idle_ma=1)
    frame = bytearray([255] * 96)
    assert limiter.estimate_ma(sum(frame)) > 1900  # 32 pixels at full white draw ~2 A
    estimate = limiter.apply(frame, 256)
    assert estimate <= 400
    assert limiter.estimate_ma(sum(frame)) == estimate
    assert limiter.limited == 1
    assert len(set(frame)) == 1  # every channel scaled alike: the hue is kept


def test_a_frame_under_the_budget_is_left_alone() -> None:
    limiter = Limiter(32, budget_ma=400)
    frame = bytearray([10, 20, 30] * 32)
    limiter.apply(frame, 256)
    assert frame == bytearray([10, 20, 30] * 32)
    assert limiter.limited == 0


def test_brightness_scales_before_the_limit() -> None:
    limiter = Limiter(4, budget_ma=400)
    frame = bytearray([200, 100, 0] * 4)
    limiter.apply(frame, 128)
    assert frame == bytearray([100, 50, 0] * 4)


def test_the_highest_estimate_is_remembered() -> None:
    limiter = Limiter(32, budget_ma=300)
    limiter.apply(bytearray([255] * 96), 256)
    limiter.apply(bytearray(96), 256)
    assert limiter.last_ma == 32  # idle draw only
    assert 32 < limiter.max_ma <= 300
