"""The LED current limiter (issue 4, item 2): every frame is estimated and scaled under
the budget; frames already under it pass unchanged apart from brightness. It is the App's
own (App.limit and its budget_ma, last_ma, max_ma, limited): a class of its own cost the
board's heap more (docs/memory.md)."""

from __future__ import annotations

from firmware.app import App, estimate_ma
from firmware.boards import load


def app_for(board: str, budget_ma: int) -> App:
    """An App on `board`'s profile (the NeoTrellis: 32 pixels, 20 mA a channel, 1 mA idle;
    the MacroPad: 12), with no hardware behind it: only its limiter is used."""
    return App(load(board), None, None, None, budget_ma=budget_ma, seed=1, nonce=1)


def test_a_full_white_frame_is_scaled_under_the_budget() -> None:
    app = app_for("trellis_m4", 400)
    frame = bytearray([255] * 96)
    assert estimate_ma(sum(frame), 32, 20, 1) > 1900  # 32 pixels at full white draw ~2 A
    estimate = app.limit(frame, 256)
    assert estimate <= 400
    assert estimate_ma(sum(frame), 32, 20, 1) == estimate
    assert app.limited == 1
    assert len(set(frame)) == 1  # every channel scaled alike: the hue is kept


def test_a_frame_under_the_budget_is_left_alone() -> None:
    app = app_for("trellis_m4", 400)
    frame = bytearray([10, 20, 30] * 32)
    app.limit(frame, 256)
    assert frame == bytearray([10, 20, 30] * 32)
    assert app.limited == 0


def test_brightness_scales_before_the_limit() -> None:
    app = app_for("macropad", 400)
    frame = bytearray([200, 100, 0] * 12)
    app.limit(frame, 128)
    assert frame == bytearray([100, 50, 0] * 12)


def test_the_highest_estimate_is_remembered() -> None:
    app = app_for("trellis_m4", 300)
    app.limit(bytearray([255] * 96), 256)
    app.limit(bytearray(96), 256)
    assert app.last_ma == 32  # idle draw only
    assert 32 < app.max_ma <= 300
