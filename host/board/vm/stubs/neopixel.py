"""The neopixel library's NeoPixel (made in stubrig on fakehw's pixel strip), loaded when
code.py first reaches for it; RGB and GRB are its pixel orders."""

RGB = "RGB"
GRB = "GRB"


def __getattr__(name):
    if name == "NeoPixel":
        import stubrig

        return stubrig.NeoPixel
    raise AttributeError(name)
