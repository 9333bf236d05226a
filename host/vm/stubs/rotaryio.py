"""CircuitPython's rotaryio: IncrementalEncoder on fakehw's encoder (kept in
stubrig.encoder)."""

import fakehw
import stubrig


class IncrementalEncoder(fakehw.Encoder):
    def __init__(self, pin_a, pin_b, divisor=4):
        super().__init__()
        stubrig.encoder = self
        print("STUB rotaryio.IncrementalEncoder %s,%s" % (pin_a.name, pin_b.name))
