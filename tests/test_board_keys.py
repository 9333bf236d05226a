"""Key gestures (issue 4, item 3): press, long press, hold-to-confirm, and cancelling."""

from __future__ import annotations

from firmware import app as k  # the key gestures live in the app module


def tracker() -> k.KeyTracker:
    return k.KeyTracker(4, bytearray([0, 0, 0, 1]))  # key 3 is destructive


def test_a_quick_release_is_a_press() -> None:
    t = tracker()
    assert not t.key_event(0, True, 100)
    assert t.key_event(0, False, 150)
    assert (t.kind, t.key) == (k._PRESS, 0)


def test_holding_past_long_ms_fires_a_long_press_once_and_no_press_on_release() -> None:
    t = tracker()
    t.key_event(1, True, 0)
    assert not t.poll(k._LONG_MS - 1)
    assert t.poll(k._LONG_MS)
    assert (t.kind, t.key) == (k._LONG, 1)
    assert not t.poll(k._LONG_MS + 50)
    assert not t.key_event(1, False, k._LONG_MS + 100)


def test_a_destructive_key_fires_only_after_the_full_hold() -> None:
    t = tracker()
    t.key_event(3, True, 0)
    assert not t.poll(k._CONFIRM_MS - 1)
    assert t.progress(k._CONFIRM_MS // 2, 10) == 5
    assert t.poll(k._CONFIRM_MS)
    assert (t.kind, t.key) == (k._CONFIRM, 3)
    assert not t.key_event(3, False, k._CONFIRM_MS + 10)


def test_letting_go_of_a_destructive_key_early_cancels_it() -> None:
    t = tracker()
    t.key_event(3, True, 0)
    assert t.key_event(3, False, 500)
    assert t.kind == k._CANCELLED
    assert not t.poll(k._CONFIRM_MS * 2)


def test_a_key_pressed_while_a_hold_to_confirm_is_pending_cancels_it() -> None:
    t = tracker()
    t.key_event(3, True, 0)
    assert t.key_event(0, True, 200)
    assert (t.kind, t.key) == (k._CANCELLED, 3)
    assert not t.poll(k._CONFIRM_MS * 2)  # still held, but cancelled: never confirms
    assert not t.key_event(0, False, 300)  # the interrupting press was spent on cancelling
    assert t.progress(400, 10) == 0


def test_out_of_range_key_numbers_are_ignored() -> None:
    t = tracker()
    assert not t.key_event(9, True, 0)
    assert not t.key_event(-1, False, 0)
