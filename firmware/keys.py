"""Key gestures from raw key events: press, long press, and hold-to-confirm.

Feed it each keypad event (`key_event(key, pressed, now_ms)`) and call `poll(now_ms)` every
loop step. A key marked as confirming (destructive controls) fires only after it has been
held for _CONFIRM_MS; releasing it early, or pressing any other key meanwhile, cancels it
(the other press is spent on cancelling). Other keys fire LONG once held for _LONG_MS, or
PRESS on a release before that. Gestures come back as (kind, key) through `kind`/`key`
after a call returns True; nothing here allocates.
"""

from adafruit_ticks import ticks_diff

from shared.compat import const

# Gesture kinds (private constants cost the board's heap nothing; firmware/app.py keeps
# copies of the ones it reads).
_NONE = const(0)
_PRESS = const(1)
_LONG = const(2)
_CONFIRM = const(3)
_CANCELLED = const(4)  # a pending hold-to-confirm was let go or interrupted

_LONG_MS = const(600)
_CONFIRM_MS = const(1500)
_NO_KEY = const(-1)


class KeyTracker:
    def __init__(self, key_count, confirming):
        """`confirming[k]` is true for keys that need hold-to-confirm."""
        self.count = key_count
        self.confirming = confirming
        self.down_at = [0] * key_count
        self.down = bytearray(key_count)
        self.spent = bytearray(key_count)  # the gesture already fired (or was cancelled)
        self.pending = _NO_KEY  # the confirming key being held
        self.kind = _NONE
        self.key = _NO_KEY

    def key_event(self, key, pressed, now_ms):
        """Returns True when the event completes a gesture (see .kind and .key)."""
        if not 0 <= key < self.count:
            return False
        if pressed:
            self.down[key] = 1
            self.down_at[key] = now_ms
            self.spent[key] = 0
            if self.pending != _NO_KEY and self.pending != key:
                return self._cancel(key)
            if self.confirming[key]:
                self.pending = key
            return False
        was_down = self.down[key]
        self.down[key] = 0
        if not was_down or self.spent[key]:
            return False
        self.spent[key] = 1
        if key == self.pending:
            self.pending = _NO_KEY
            return self._fire(_CANCELLED, key)
        return self._fire(_PRESS, key)

    def poll(self, now_ms):
        """Fires _LONG or _CONFIRM for a key held long enough; returns True if one fired."""
        pending = self.pending
        if pending != _NO_KEY:
            if ticks_diff(now_ms, self.down_at[pending]) >= _CONFIRM_MS:
                self.pending = _NO_KEY
                self.spent[pending] = 1
                return self._fire(_CONFIRM, pending)
        for key in range(self.count):
            if self.down[key] and not self.spent[key] and not self.confirming[key]:
                if ticks_diff(now_ms, self.down_at[key]) >= _LONG_MS:
                    self.spent[key] = 1
                    return self._fire(_LONG, key)
        return False

    def progress(self, now_ms, steps):
        """How far (0..steps) the pending hold-to-confirm has come; 0 if none."""
        if self.pending == _NO_KEY:
            return 0
        held = ticks_diff(now_ms, self.down_at[self.pending])
        if held < 0:
            return 0
        if held >= _CONFIRM_MS:
            return steps
        return held * steps // _CONFIRM_MS

    def _cancel(self, by_key):
        pending = self.pending
        self.pending = _NO_KEY
        self.spent[pending] = 1
        self.spent[by_key] = 1
        return self._fire(_CANCELLED, pending)

    def _fire(self, kind, key):
        self.kind = kind
        self.key = key
        return True
