"""CircuitPython's neopixel_write, the lowest level of the NeoPixel strip: the firmware's
own strip (firmware/strip.py) runs above it unchanged. What a write would put on the wire
is recorded in stubrig (`stubrig.pixels`)."""


def neopixel_write(pin, buf):
    import stubrig

    stubrig.strip_write(pin, buf)
