"""Shims that let one source file run on CircuitPython, MicroPython and CPython, and the base
of the shared modules' errors."""

try:
    from micropython import const  # noqa: F401  (the shared modules import it from here)
except ImportError:  # plain CPython without Blinka's `micropython` module

    def const(x):  # type: ignore[misc]
        return x


# Whether this is the host (CPython), not a board (MicroPython, CircuitPython).
HOST = __import__("sys").implementation.name not in ("micropython", "circuitpython")


class Problem(ValueError):
    """A shared module's error (CodecError, DiceError, EventError, TurnError): its args are
    a problem code and the numbers it names. The board keeps no words for them: str() is
    the numbers there, and words on the host, where shared/words.py sets `worded` as it
    loads (the host loads it first thing: host/__init__.py). The words are never compiled
    into a board's heap, and this module imports nothing that words them."""

    worded = None  # the host's wording function, word(problem) -> str

    def __str__(self):
        worded = Problem.worded
        if worded is None:  # a board
            return str(self.args)
        return worded(self)
