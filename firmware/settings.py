"""Board settings from settings.toml (os.getenv on the board), checked and clamped.

code.py reads each value and passes it here; a bad value is one clear console line and a
usable value, never a crash at start-up.
"""

from shared.compat import const

BUDGET_MIN_MA = const(100)  # above the idle draw of the largest grid (64 pixels x 1 mA)
BUDGET_MAX_MA = const(2000)  # more only makes sense with a supply beyond USB's 500 mA


def int_setting(name, raw, default, low, high):
    """(value, message) for setting `name` whose raw value (from os.getenv: None, an int,
    or a string) should be a whole number in low..high. Missing gives the default; a value
    that is not a whole number gives the default, one out of range the nearest bound; the
    message says which ("" when the value is used as given)."""
    if raw is None or raw == "":
        return default, ""
    try:
        value = int(raw)
    except (TypeError, ValueError):
        return default, "%s = %r is not a whole number: using %d" % (name, raw, default)
    if value < low:
        return low, "%s = %d is below %d: using %d" % (name, value, low, low)
    if value > high:
        return high, "%s = %d is above %d: using %d" % (name, value, high, high)
    return value, ""
