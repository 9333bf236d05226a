"""Board profiles: one data-only module per supported board (pins, grid, key map).

`load(name)` imports `firmware.boards.<name>`; code.py reads the name from the
TURNLIGHT_BOARD setting (settings.toml) and defaults to DEFAULT.
"""

DEFAULT = "trellis_m4"
NAMES = ("trellis_m4", "macropad", "pico_matrix")


def load(name):
    if name not in NAMES:
        raise ValueError("unknown board %r (known: %s)" % (name, ", ".join(NAMES)))
    module = __import__("firmware.boards." + name, None, None, [name])
    return module
