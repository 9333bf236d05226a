"""Shims that let one source file run on CircuitPython, MicroPython and CPython, and the base
of the shared modules' errors."""

try:
    from micropython import const  # noqa: F401  (the shared modules import it from here)
except ImportError:  # plain CPython without Blinka's `micropython` module

    def const(x):  # type: ignore[misc]
        return x


class Problem(ValueError):
    """A shared module's error (CodecError, DiceError, EventError, TurnError): its args are
    a problem code and the numbers it names. The board keeps no words for them; str() words
    them on the host (shared/words.py; a board never loads it)."""

    def __str__(self):
        try:
            # Only where the desktop's package is (the host, the tests, the engine's tests
            # on the VM): a board's drive has shared/words.py too (host/board/circuitpy_drive.py
            # ships all
            # of shared/), but a refused press must not compile it into the board's heap.
            import host  # noqa: F401
            from shared.words import word
        except ImportError:  # a board
            return str(self.args)
        return word(self)
