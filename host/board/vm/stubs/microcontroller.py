"""CircuitPython's microcontroller: Pin (board's pins are Pin objects)."""


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board." + self.name
