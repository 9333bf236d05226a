"""CircuitPython's rotaryio: IncrementalEncoder (made in stubrig on fakehw's encoder),
loaded when code.py first reaches for it."""


def __getattr__(name):
    if name == "IncrementalEncoder":
        import stubrig

        return stubrig.IncrementalEncoder
    raise AttributeError(name)
