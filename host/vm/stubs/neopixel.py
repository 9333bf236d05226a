"""The neopixel library's NeoPixel on fakehw's pixel strip (kept in stubrig.pixels). A real
strip's show() sends 24 bits a pixel at 800 kHz: 30 us a pixel (docs/benchmarks.md)."""

import fakehw
import stubrig

RGB = "RGB"
GRB = "GRB"


class NeoPixel(fakehw.Pixels):
    def __init__(self, pin, n, bpp=3, brightness=1.0, auto_write=True, pixel_order=None):
        super().__init__(n)
        self.pin = pin
        self.brightness = brightness
        self.auto_write = auto_write
        stubrig.pixels = self
        print("STUB neopixel.NeoPixel pin=%s n=%d auto_write=%s" % (pin.name, n, auto_write))
