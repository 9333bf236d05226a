"""Shims that let one source file run on CircuitPython, MicroPython and CPython."""

try:
    from micropython import const
except ImportError:  # plain CPython without Blinka's `micropython` module

    def const(x):  # type: ignore[misc]
        return x


__all__ = ["const"]
