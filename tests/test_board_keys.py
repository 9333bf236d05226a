"""Key gestures (issue 4, item 3): press, long press, hold-to-confirm, and cancelling. They
are the App's own (App.key_input, App.poll_keys, App.hold_progress; docs/memory.md says
why): here on the NeoTrellis profile, whose key 30 (end combat) is hold-to-confirm, with
the gestures the App would play recorded instead of played."""

from __future__ import annotations

from firmware import app as k
from firmware.boards import load

DESTRUCTIVE = 30  # "end_combat" on the NeoTrellis


def app_and_log() -> tuple[k.App, list[tuple[int, int]]]:
    app = k.App(load("trellis_m4"), None, None, None, seed=1, nonce=1)
    played: list[tuple[int, int]] = []
    # the key whose gesture plays is App._key while its control runs
    app.do_control = lambda code, kind, now_ms: played.append((kind, app._key))  # type: ignore[method-assign]
    return app, played


def test_a_quick_release_is_a_press() -> None:
    app, played = app_and_log()
    app.key_input(0, True, 100)
    assert played == []
    app.key_input(0, False, 150)
    assert played == [(k._PRESS, 0)]


def test_holding_past_long_ms_fires_a_long_press_once_and_no_press_on_release() -> None:
    app, played = app_and_log()
    app.key_input(1, True, 0)
    app.poll_keys(k._LONG_MS - 1)
    assert played == []
    app.poll_keys(k._LONG_MS)
    assert played == [(k._LONG, 1)]
    app.poll_keys(k._LONG_MS + 50)
    app.key_input(1, False, k._LONG_MS + 100)
    assert played == [(k._LONG, 1)]


def test_a_destructive_key_fires_only_after_the_full_hold() -> None:
    app, played = app_and_log()
    app.key_input(DESTRUCTIVE, True, 0)
    app.poll_keys(k._CONFIRM_MS - 1)
    assert played == []
    assert app.hold_progress(k._CONFIRM_MS // 2, 10) == 5
    app.poll_keys(k._CONFIRM_MS)
    assert played == [(k._CONFIRM, DESTRUCTIVE)]
    app.key_input(DESTRUCTIVE, False, k._CONFIRM_MS + 10)
    assert played == [(k._CONFIRM, DESTRUCTIVE)]


def test_letting_go_of_a_destructive_key_early_cancels_it() -> None:
    app, played = app_and_log()
    app.key_input(DESTRUCTIVE, True, 0)
    app.key_input(DESTRUCTIVE, False, 500)
    app.poll_keys(k._CONFIRM_MS * 2)
    assert played == []
    assert app.hold_progress(k._CONFIRM_MS * 2, 10) == 0


def test_a_key_pressed_while_a_hold_to_confirm_is_pending_cancels_it() -> None:
    app, played = app_and_log()
    app.key_input(DESTRUCTIVE, True, 0)
    app.key_input(0, True, 200)
    app.poll_keys(k._CONFIRM_MS * 2)  # still held, but cancelled: never confirms
    app.key_input(0, False, 300)  # the interrupting press was spent on cancelling
    assert played == []
    assert app.hold_progress(400, 10) == 0


def test_out_of_range_key_numbers_are_ignored() -> None:
    app, played = app_and_log()
    app.key_input(99, True, 0)
    app.key_input(-1, False, 0)
    app.poll_keys(k._CONFIRM_MS * 2)
    assert played == []
