"""CircuitPython's keypad: KeyMatrix and Keys on fakehw's event queue, and Event. A key held
since power-up (TURNLIGHT_VM_HELD) is pressed in the first scan; each scanner is kept in
stubrig.keys and says on the console what it was made with."""

import os

import fakehw
import stubrig

Event = fakehw.Event


def _names(pins):
    return ",".join([pin.name for pin in pins])


class _Scanner(fakehw.Keys):
    def __init__(self, what):
        super().__init__()
        held = os.getenv("TURNLIGHT_VM_HELD")
        if held:
            self.events.put(int(held), True)
        stubrig.keys = self
        print("STUB keypad." + what)

    def deinit(self):
        super().deinit()
        print("STUB keypad.deinit")


class KeyMatrix(_Scanner):
    def __init__(self, row_pins, column_pins, columns_to_anodes=True, interval=0.02,
                 max_events=64):  # fmt: skip
        super().__init__(
            "KeyMatrix rows=%s columns=%s columns_to_anodes=%s"
            % (_names(row_pins), _names(column_pins), columns_to_anodes)
        )


class Keys(_Scanner):
    def __init__(self, pins, value_when_pressed, pull=True, interval=0.02, max_events=64):
        super().__init__(
            "Keys pins=%s value_when_pressed=%s pull=%s" % (_names(pins), value_when_pressed, pull)
        )
