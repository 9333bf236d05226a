"""CircuitPython's keypad: KeyMatrix, Keys and Event, made in stubrig on fakehw's event
queue. Nothing is loaded until code.py or boot.py first reaches for one of them, after the
firmware has compiled (docs/memory.md: what the stubs cost)."""


def __getattr__(name):
    if name in ("KeyMatrix", "Keys", "Event"):
        import stubrig

        return getattr(stubrig, name)
    raise AttributeError(name)
