"""CircuitPython's usb_cdc: `data` is stubrig's stream (a fakehw.Stream behind a 256-byte
send buffer, or None), loaded when code.py first reads it; enable() says on the console
what it was asked."""

console = None


def enable(console=True, data=False):
    print("STUB usb_cdc.enable console=%s data=%s" % (console, data))
    return True


def __getattr__(name):
    if name == "data":
        import stubrig

        return stubrig.data
    raise AttributeError(name)
