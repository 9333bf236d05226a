"""Shims that let one source file run on CircuitPython, MicroPython and CPython, and the base
of the shared modules' errors."""

try:
    from micropython import const
except ImportError:  # plain CPython without Blinka's `micropython` module

    def const(x):  # type: ignore[misc]
        return x


class Problem(ValueError):
    """A shared module's error (CodecError, DiceError, EventError, TurnError): its args are
    a problem code and the numbers it names. The board keeps no words for them; str() words
    them on the host (shared/words.py, which the board does not have)."""

    def __str__(self):
        try:
            from shared.words import word
        except ImportError:  # the board
            return str(self.args)
        return word(self)


__all__ = ["Problem", "const"]
