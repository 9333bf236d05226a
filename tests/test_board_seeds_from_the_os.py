"""The board's dice come from the operating system's entropy (issue: the random source is
injectable and seedable; on the board it is seeded from `os.urandom`)."""

from __future__ import annotations

import os

import pytest
from boardfakes import Event, Keys, Pixels, Stream

from firmware.app import App
from firmware.boards import load
from shared import dice


def app_without_a_seed() -> App:
    profile = load("trellis_m4")
    n = profile.WIDTH * profile.HEIGHT
    return App(profile, Pixels(n), Keys(), Event(), Stream(), None, now_ms=0, nonce=1)


def test_a_board_app_without_a_seed_seeds_its_dice_from_os_urandom(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []

    def urandom(n: int) -> bytes:
        calls.append(n)
        return bytes([0x12, 0x34, 0x56, 0x78])

    monkeypatch.setattr(os, "urandom", urandom)
    app = app_without_a_seed()
    assert calls == [4]
    expected = dice.XorShift32(0x78563412)
    assert [app.rng.below(3) for _ in range(20)] == [expected.below(3) for _ in range(20)]


def test_two_unseeded_board_apps_roll_differently() -> None:
    a, b = app_without_a_seed(), app_without_a_seed()
    assert [a.rng.next_u32() for _ in range(4)] != [b.rng.next_u32() for _ in range(4)]
