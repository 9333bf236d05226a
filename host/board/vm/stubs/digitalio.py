"""CircuitPython's digitalio, as far as the neopixel library uses it: the strip's data pin."""


class Direction:
    INPUT = 0
    OUTPUT = 1


class DigitalInOut:
    def __init__(self, pin):
        self.pin = pin
        self.direction = Direction.INPUT

    def switch_to_output(self, value=False, drive_mode=None):
        self.direction = Direction.OUTPUT

    def deinit(self):
        pass
