"""CircuitPython's neopixel_write, the lowest level of the NeoPixel strip: the real neopixel
library (lib/neopixel.py, as deploy ships it) and adafruit_pixelbuf (built into CircuitPython;
its Python twin stands in) run above it unchanged. What a write would put on the wire is
recorded in stubrig (`stubrig.pixels`)."""


def neopixel_write(pin, buf):
    import stubrig

    stubrig.strip_write(pin, buf)
