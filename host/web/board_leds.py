"""The simulated board's LEDs for the pages, as a small state the page animates itself.

A board's keys pulse, blink, dip and blink counts (firmware/palette.py), each pattern a
function of the board's clock modulo one of a few periods (PERIODS). Sent frame by frame,
that was a whole view about three times a second while nothing happened. Here the web
watcher samples the LEDs (every BOARD_SECONDS, host/web/hub.py) with the board's own
clock (the simulated board's ticks are this process's monotonic milliseconds), and each
LED is told to the pages as what it does, not what it is at this instant:

- steady: one colour, `"rrggbb"`;
- alternating between a bright and a dim colour: `"rrggbb/rrggbb/P/A-B,C-D"`: bright
  while the board's clock modulo P (ms) is in [A, B) or [C, D) ..., dim otherwise. The
  message carries the board's clock (`now`), so the page plays it in step with the board.

A pattern is read from the samples of the last two windows (WINDOW_MS each): the period
of PERIODS that orders them with the fewest changes of colour, told once two readings in
a row agree on the period and the number of bright runs in it (and told again only when
those change: a run's edges move by a sample or so from one reading to the next).

A colour an LED shows that its telling does not allow, or one it keeps SLACK_MS longer
than its pattern ever keeps it, is a change (a key pressed, a turn passed): the LED is
told steady in that colour at once, and its pattern, if it has one, follows within a few
seconds. So a message goes out when what the board shows changes, and none while the
board only pulses.
"""

from __future__ import annotations

from typing import Any

WINDOW_MS = 2400  # firmware/palette.py CYCLE_MS, the longest period
PERIODS = (250, 2000, 2400)  # palette.fast_pulse, slow_blink, and CYCLE_MS (counts, dips)
SLACK_MS = 150  # a colour kept this much longer than its pattern keeps it: a change

Pixel = tuple[int, int, int]


def _hex(colour: Pixel) -> str:
    return f"{colour[0]:02x}{colour[1]:02x}{colour[2]:02x}"


class _Led:
    def __init__(self) -> None:
        self.told = ""  # what the pages were last told of it
        self.colours: tuple[str, ...] = ()
        self.runs: list[tuple[int, int]] = []
        self.period = 0
        self.rises = 0  # bright runs a period, as told
        self.longest: dict[str, int] = {}  # each colour's longest run in the told pattern
        self.samples: list[tuple[int, str]] = []  # (board ms, colour), two windows
        self.guess: tuple[int, int] = (0, 0)  # the last reading's (period, runs)
        self.run = ("", 0)  # the colour it shows, and since when

    def tell(self, told: str, rises: int = 0) -> None:
        self.told = told
        self.rises = rises
        parts = told.split("/")
        self.colours = tuple(parts[:2])
        self.period = int(parts[2]) if len(parts) > 2 else 0
        self.runs = [_run(r) for r in parts[3].split(",")] if len(parts) > 3 and parts[3] else []
        self.guess = (0, 0)
        self.longest = _longest_runs(self) if self.period else {}

    def bright_at(self, ms: int) -> bool:
        phase = ms % self.period
        return any(a <= phase < b for a, b in self.runs)

    def look(self, ms: int, text: str) -> bool:
        """One sample; True when the pages must be told of a change."""
        self.samples.append((ms, text))
        if text != self.run[0]:
            self.run = (text, ms)
        if self.period:  # told a pattern
            kept = ms - self.run[1]
            if text not in self.colours or kept > self.longest.get(text, 0) + SLACK_MS:
                self.tell(text)
                return True
            return False
        if text == self.told:
            return False
        if any(seen == text for _, seen in self.samples[:-1]):
            return False  # back to a colour it showed lately: it alternates, read later
        self.tell(text)
        return True

    def read(self, since_ms: int) -> bool:
        """The end of a window: read the pattern; True when it is newly told."""
        self.samples = [s for s in self.samples if s[0] >= since_ms]
        found = _pattern(self.samples)
        if found is None:
            self.guess = (0, 0)
            return False
        period, runs, bright, dim, rises = found
        guess = (period, rises)
        agreed = guess == self.guess
        self.guess = guess
        if not agreed or guess == (self.period, self.rises):
            return False  # not yet sure, or told so already
        spans = ",".join(f"{a}-{b}" for a, b in runs)
        self.tell(f"{bright}/{dim}/{period}/{spans}", rises)
        return True


def _longest_runs(led: _Led) -> dict[str, int]:
    """How long the told pattern keeps each of its two colours at most (ms, round the
    period's end): one look a millisecond through one period."""
    period = led.period
    lit = [led.bright_at(ms) for ms in range(period)]
    longest = {True: 0, False: 0}
    if all(lit) or not any(lit):
        longest[lit[0]] = period
    else:
        start = lit.index(not lit[0])  # a change of colour: runs counted from there
        run, colour = 0, lit[start]
        for i in range(period):
            here = lit[(start + i) % period]
            if here == colour:
                run += 1
            else:
                longest[colour] = max(longest[colour], run)
                run, colour = 1, here
        longest[colour] = max(longest[colour], run)
    return {led.colours[0]: longest[True], led.colours[1]: longest[False]}


def _run(text: str) -> tuple[int, int]:
    a, _, b = text.partition("-")
    return int(a), int(b)


class BoardLeds:
    """Samples in, a `board` message out when what the LEDs do changes."""

    def __init__(self) -> None:
        self.width = 0
        self.height = 0
        self._leds: list[_Led] = []
        self._window_at = 0

    def sample(self, now_ms: int, grid: list[list[Pixel]]) -> dict[str, Any] | None:
        """One look at the LEDs (rows of (r, g, b)) at the board's `now_ms`; the message
        to send, if any."""
        height, width = len(grid), len(grid[0]) if grid else 0
        changed = False
        if (width, height) != (self.width, self.height):
            self.width, self.height = width, height
            self._leds = [_Led() for _ in range(width * height)]
            self._window_at = now_ms
            changed = True
        for i, led in enumerate(self._leds):
            changed = led.look(now_ms, _hex(grid[i // width][i % width])) or changed
        if now_ms - self._window_at >= WINDOW_MS:
            self._window_at = now_ms
            for led in self._leds:
                changed = led.read(now_ms - 2 * WINDOW_MS) or changed
        if not changed:
            return None
        leds = [led.told for led in self._leds]
        return {"type": "board", "width": width, "now": now_ms, "leds": leds}


def _pattern(
    samples: list[tuple[int, str]],
) -> tuple[int, list[tuple[int, int]], str, str, int] | None:
    """(period, bright spans in phase, bright, dim, bright runs a period) of two colours'
    samples, or None (one colour, or more than two, or too few samples)."""
    colours = {text for _, text in samples}
    if len(colours) != 2 or len(samples) < 20:
        return None
    bright, dim = sorted(colours, key=lambda text: -sum(bytes.fromhex(text)))
    best: tuple[int, int, list[tuple[int, str]]] | None = None
    for period in PERIODS:
        ordered = sorted(((ms % period, text) for ms, text in samples), key=lambda s: s[0])
        changes = sum(
            ordered[i][1] != ordered[i - 1][1] for i in range(len(ordered))
        )  # cyclic: the last against the first too
        if best is None or changes < best[0]:
            best = (changes, period, ordered)
    assert best is not None
    changes, period, ordered = best
    if changes > 2 * 11:  # nothing explains it (a strobe): not a pattern
        return None
    runs: list[tuple[int, int]] = []
    n = len(ordered)
    for i in range(n):
        phase, text = ordered[i]
        before_phase, before = ordered[i - 1]
        if text == before:
            continue
        if i == 0:
            before_phase -= period
        edge = ((phase + before_phase) // 2) % period
        if text == bright:
            runs.append((edge, -1))
        elif runs:
            runs[-1] = (runs[-1][0], edge)
        else:
            runs.append((-1, edge))  # a run that began before phase 0: closed below
    if not runs:
        return None
    if runs[0][0] == -1:  # closes the run still open at the end
        last = runs.pop()
        runs[0] = (last[0], runs[0][1])
    spans: list[tuple[int, int]] = []
    for a, b in runs:
        if a < b:
            spans.append((a, b))
        else:  # through phase 0
            spans += [(a, period), (0, b)]
    return period, sorted(s for s in spans if s[0] < s[1]), bright, dim, len(runs)
