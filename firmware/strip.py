"""The NeoPixel strip as the App drives it: `strip[i] = 0xRRGGBB` into a buffer in the
strip's order (green, red, blue: a WS2812's), and `show()` writes the buffer out. In place
of the neopixel library, which a board compiles from .py into its heap and keeps, with its
object, for good (about 4 KB on the VM; docs/memory.md): this is all of it the App uses.
The pin (a digitalio output) and CircuitPython's built-in `neopixel_write` are passed in
(code.py)."""


class Strip:
    def __init__(self, pin, n, write):
        self.pin = pin
        self.write = write
        self.buf = bytearray(3 * n)

    def __setitem__(self, i, rgb):
        buf = self.buf
        at = 3 * i
        buf[at] = (rgb >> 8) & 0xFF
        buf[at + 1] = (rgb >> 16) & 0xFF
        buf[at + 2] = rgb & 0xFF

    def show(self):
        self.write(self.pin, self.buf)
