"""The board's LEDs on the pages as a small state (host/web/board_leds.py, issue #28 item
12): LEDs driven by the firmware's own patterns (firmware/palette.py), sampled as the web
watcher samples them (every 50 ms, a little late at times), are told once, then nothing
while they only pulse; what was told plays back as the board shows it; a change is told
at once."""

from __future__ import annotations

import random

from firmware import palette as pal
from host.web.board_leds import BoardLeds

BRIGHT, DIM, DARK = (143, 99, 0), (22, 15, 0), (0, 0, 0)
TEAL = (0, 71, 111)
STEADY = (75, 75, 75)


def board_at(ms: int, active: bool = True) -> list[list[tuple[int, int, int]]]:
    """A row of four keys as the firmware lights them: the active turn's fast pulse, a
    count of three blinks, a team's dips, and a steady key."""
    return [
        [
            BRIGHT if active and pal.fast_pulse(ms) else DIM,
            TEAL if pal.count_lit(3, ms) else DARK,
            BRIGHT if pal.team_lit(2, ms) else DARK,
            STEADY,
        ]
    ]


def play(told: str, ms: int) -> str:
    """What the page shows for an LED told `told` at the board's `ms` (app.js's ledPlan
    and playLeds, in Python)."""
    parts = told.split("/")
    if len(parts) < 4:
        return parts[0]
    period = int(parts[2])
    runs = [tuple(map(int, r.split("-"))) for r in parts[3].split(",")]
    return parts[0] if any(a <= ms % period < b for a, b in runs) else parts[1]


def hexed(colour: tuple[int, int, int]) -> str:
    return "".join(f"{c:02x}" for c in colour)


def sampled(leds: BoardLeds, start: int, end: int, active: bool = True) -> list[tuple[int, dict]]:
    jitter = random.Random(start)
    told = []
    ms = start
    while ms < end:
        message = leds.sample(ms, board_at(ms, active))
        if message is not None:
            told.append((ms, message))
        ms += 50 + jitter.choice((0, 0, 0, 3, 8, 15))  # the event loop is late at times
    return told


def test_pulsing_leds_are_told_once_then_nothing_while_they_only_pulse() -> None:
    leds = BoardLeds()
    told = sampled(leds, 1_000_000, 1_060_000)  # a minute
    assert told, "never told"
    last = told[-1][0]
    assert last - 1_000_000 < 20_000, "still telling after 20 s of the same pulses"
    assert len(told) <= 12
    assert sum(len(str(m)) for _, m in told) < 10_000  # bytes a minute, idle


def test_what_is_told_plays_back_as_the_board_shows_it() -> None:
    leds = BoardLeds()
    told = sampled(leds, 2_000_000, 2_030_000)[-1][1]["leds"]
    assert all("/" in told[i] for i in range(3)) and told[3] == hexed(STEADY)
    checks = random.Random(7)
    agree = total = 0
    for _ in range(2000):
        ms = checks.randrange(3_000_000, 3_100_000)
        shown = board_at(ms)[0]
        for i in range(4):
            total += 1
            agree += play(told[i], ms) == hexed(shown[i])
    assert agree / total > 0.95  # the edges of a blink may be a sample off


def test_a_change_is_told_at_once() -> None:
    leds = BoardLeds()
    sampled(leds, 5_000_000, 5_020_000)
    ms = 5_020_000
    # The turn passes: the first key stops pulsing and stays dim.
    message = None
    for step in range(12):  # within 600 ms
        message = leds.sample(ms + 50 * step, board_at(ms + 50 * step, active=False))
        if message is not None:
            break
    assert message is not None and message["leds"][0] == hexed(DIM)
