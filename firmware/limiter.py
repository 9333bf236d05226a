"""The LED current limiter: estimate a frame's current and scale it under the budget.

A WS2812-style pixel draws about LED_MA_PER_CHANNEL at full duty on each of its three
channels plus a small idle current, so a frame's draw is estimated from the sum of its
bytes. Brightness is applied first; if the estimate is still over the budget every byte is
scaled by the same integer factor, which keeps hues and relative brightness.
"""

from shared.compat import const

DEFAULT_BUDGET_MA = const(400)


class Limiter:
    def __init__(self, pixels, budget_ma=DEFAULT_BUDGET_MA, ma_per_channel=20, idle_ma=1):
        self.pixels = pixels
        self.budget_ma = budget_ma
        self.ma_per_channel = ma_per_channel
        self.idle_ma = idle_ma
        self.last_ma = 0  # the estimate of the last frame, after scaling
        self.max_ma = 0  # the highest estimate since start
        self.limited = 0  # frames that had to be scaled down

    def estimate_ma(self, total):
        """Milliamps for a frame whose bytes sum to `total`."""
        return total * self.ma_per_channel // 255 + self.idle_ma * self.pixels

    def apply(self, frame, brightness):
        """Scale frame (RGB bytes) by brightness (0..256) and then under the budget."""
        n = self.pixels * 3
        total = 0
        for i in range(n):
            v = frame[i] * brightness >> 8
            frame[i] = v
            total += v
        estimate = self.estimate_ma(total)
        room = self.budget_ma - self.idle_ma * self.pixels
        if estimate > self.budget_ma and room > 0:
            self.limited += 1
            # The largest total that fits, as a fraction (of 65536) of the one we have.
            scale = room * 255 // self.ma_per_channel * 65536 // total
            total = 0
            for i in range(n):
                v = frame[i] * scale >> 16
                frame[i] = v
                total += v
            estimate = self.estimate_ma(total)
        self.last_ma = estimate
        if estimate > self.max_ma:
            self.max_ma = estimate
        return estimate
